//! `run --producer URL`: the producer suite, run by agui-live against a
//! live agent; this module turns `run`'s flags into its options, prints
//! each scenario and the summary in the `--format` asked for, and writes
//! `--json`, `--sarif`, `--junit` and `--record`.

use crate::producer::{InputArgs, headers, seconds};
use crate::render::{json, junit, sarif, text};
use crate::stdout::to_stdout;
use agui_live::suite::{self, Score};
use agui_live::{Limits, Options};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// `run --producer`: flags of the producer suite.
#[derive(clap::Args, Debug, Default)]
pub struct ProducerArgs {
    /// Run the producer suite (`--suite producer`, the default with this
    /// flag) against the agent at URL: each input is POSTed and its SSE
    /// stream checked.
    #[arg(long, value_name = "URL")]
    pub producer: Option<String>,
    /// With --producer: an extra request header, `Name: value` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "producer")]
    pub headers: Vec<String>,
    /// With --producer: longest wait for the next bytes, in seconds.
    #[arg(long, value_name = "SECS", requires = "producer")]
    pub idle_timeout: Option<f64>,
    /// With --producer: after a run ended, how long to wait for more
    /// before letting a connection kept open go, in seconds (a `time`
    /// limit notice: what came later is not judged).
    #[arg(long, value_name = "SECS", default_value_t = agui_live::live::RUN_END_GRACE.as_secs_f64(), requires = "producer")]
    pub run_end_grace: f64,
    /// With --producer: save each scenario's conversation (every step's
    /// stream, in order) as DIR/SCENARIO.jsonl.
    #[arg(long, value_name = "DIR", requires = "producer")]
    pub captures: Option<PathBuf>,
    /// With --producer: a RunAgentInput merged into every scenario's first
    /// request; the scenario wins (lists joined, objects merged key by
    /// key; docs/decisions.md "Base input").
    #[arg(long, value_name = "FILE", requires = "producer")]
    pub base_input: Option<PathBuf>,
    /// With --producer: what to add to the base input.
    #[command(flatten)]
    pub input_flags: InputArgs,
    /// With --producer: the name of the client tool the scenarios offer
    /// (in its definition, the messages that name it and the tool results
    /// sent back), for a producer that has a tool of the default name
    /// itself.
    #[arg(long, value_name = "NAME", default_value = agui_live::tool_name::DEFAULT, requires = "producer")]
    pub tool_name: String,
    /// With --producer and --record: the producer's packages and versions
    /// for the record's header (a JSON object, package → version, as a
    /// producer's `/versions` might answer).
    #[arg(long, value_name = "FILE", requires = "producer")]
    pub versions: Option<PathBuf>,
    /// With --producer and --record: another validator ('CMD ARGS',
    /// suites/PROTOCOL.md, persistent) given each request's stream and each
    /// conversation of several requests; its answers go in the record.
    #[arg(long, value_name = "CMD ARGS", requires = "record")]
    pub peer: Option<String>,
    /// With --producer: rule configuration, as for `check`.
    #[command(flatten)]
    pub rule_config: crate::config::RuleArgs,
}
/// A base input file: one JSON object, its ids left out unless given.
fn base_input(path: &std::path::Path) -> anyhow::Result<serde_json::Value> {
    let text = agui_model::bounded::read_to_string(path, agui_model::bounded::CONFIG_BYTES)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    match serde_json::from_str(&text) {
        Ok(v @ serde_json::Value::Object(_)) => Ok(v),
        Ok(_) => anyhow::bail!("{}: a base input is a JSON object", path.display()),
        Err(e) => anyhow::bail!("{}: not JSON: {e}", path.display()),
    }
}

/// What `run --producer` prints on stdout (`run --format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Junit,
}

/// What `run --producer` was asked besides the producer's own flags
/// ([`ProducerArgs`]), from `run`'s.
pub struct SuiteRun<'a> {
    pub suite: Option<String>,
    pub filter: Option<String>,
    pub timeout_ms: Option<u64>,
    /// `--format`: what goes on stdout.
    pub format: Format,
    pub no_progress: bool,
    pub junit: Option<PathBuf>,
    /// `--json FILE`: what `--format json` prints.
    pub json: Option<PathBuf>,
    /// `--sarif FILE`: the log `--format sarif` prints.
    pub sarif: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub name: Option<String>,
    pub language: Option<String>,
    pub producer: &'a ProducerArgs,
}

/// `run --producer URL`: every input of the suite, one line each, then a
/// summary, under the rule configuration. Exit 0 when no input FAILed or
/// ERRORED (and the warnings are within `--fail-on`/`--max-warnings`), 1
/// otherwise.
pub fn run_suite(url: &str, args: &SuiteRun<'_>) -> anyhow::Result<u8> {
    let p = &args.producer;
    let dir = suite::find(args.suite.as_deref().unwrap_or("producer"))?;
    let mut inputs = suite::load(&dir)?;
    agui_live::tool_name::rename_all(&mut inputs, &p.tool_name).map_err(anyhow::Error::msg)?;
    if let Some(f) = &args.filter {
        inputs.retain(|i| i.id.contains(f.as_str()));
    }
    // Never silently green (suites/README.md, exit status 3).
    if inputs.is_empty() {
        eprintln!(
            "agui-conform: no producer case to run{}",
            args.filter
                .as_deref()
                .map(|f| format!(" (--filter `{f}` matches none)"))
                .unwrap_or_default()
        );
        return Ok(3);
    }
    let mut limits = Limits::default();
    if let Some(ms) = args.timeout_ms {
        limits.total = Duration::from_millis(ms.max(1));
    }
    if let Some(s) = p.idle_timeout {
        limits.idle = seconds("--idle-timeout", s)?;
    }
    let policy = crate::config::resolve(&p.rule_config)?;
    let flags = p.input_flags.flags()?;
    let base = match (&p.base_input, p.input_flags.any().is_some()) {
        (None, false) => None,
        (file, _) => {
            let mut base = match file {
                Some(path) => base_input(path)?,
                None => serde_json::json!({}),
            };
            flags.apply(&mut base);
            Some(base)
        }
    };
    let opts = Options {
        limits,
        headers: headers(&p.headers)?,
        levels: policy.levels.clone(),
        run_end_grace: seconds("--run-end-grace", p.run_end_grace)?,
        stop: crate::signals::install(),
        ..Options::default()
    };
    let name = dir
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let json = args.format == Format::Json;
    let keep_json = args.json.is_some();
    let mut json_lines = String::new();
    let setup = suite::Setup {
        base: base.as_ref(),
        captures: p.captures.as_deref(),
    };
    let started = std::time::Instant::now();
    let results = suite::run(url, &inputs, &opts, setup, &mut |r| {
        if keep_json {
            json_lines.push_str(&format!("{}\n", json::producer_scenario(r)));
        }
        if json {
            let _ = to_stdout(|out| writeln!(out, "{}", json::producer_scenario(r)));
        } else if !args.no_progress {
            eprintln!("{} {}", r.score.as_str(), r.id);
        }
    });
    // A signal: the scenarios that ran are reported, and the run says it
    // is incomplete.
    let interrupted = crate::signals::received().map(|sig| {
        (
            sig,
            format!(
                "interrupted by {}: {} of {} scenarios ran",
                agui_live::stop::signal_name(sig),
                results.len(),
                inputs.len()
            ),
        )
    });
    let mut summary = json::producer_summary(&name, url, &results);
    if let Some((_, why)) = &interrupted {
        summary["summary"]["incomplete"] = serde_json::json!(why);
    }
    let log = (args.sarif.is_some() || args.format == Format::Sarif)
        .then(|| sarif::producer_log(&name, url, &results));
    let xml = match args.junit.is_some() || args.format == Format::Junit {
        true => Some(junit::producer_suite(&name, url, &results)?),
        false => None,
    };
    // The requested report files first: written whatever happens to stdout.
    if let Some(path) = &args.json {
        json_lines.push_str(&format!("{summary}\n"));
        crate::render::write_file(path, &json_lines)?;
    }
    if let (Some(path), Some(log)) = (&args.sarif, &log) {
        let mut bytes = Vec::new();
        sarif::write(&mut bytes, log)?;
        crate::render::write_file(path, &String::from_utf8(bytes)?)?;
    }
    if let (Some(path), Some(xml)) = (&args.junit, &xml) {
        crate::render::write_file(path, xml)?;
    }
    to_stdout(|out| match args.format {
        Format::Json => writeln!(out, "{summary}"),
        Format::Sarif => sarif::write(&mut *out, log.as_ref().unwrap_or(&serde_json::Value::Null)),
        Format::Junit => write!(out, "{}", xml.as_deref().unwrap_or_default()),
        Format::Text => {
            write!(out, "{}", text::producer_suite(&name, url, &results))?;
            match &interrupted {
                Some((_, why)) => writeln!(out, "incomplete: {why}"),
                None => Ok(()),
            }
        }
    })?;
    let warnings: usize = results
        .iter()
        .map(|r| r.count(agui_model::Severity::Warning))
        .sum();
    let too_many = match (policy.fail_on, policy.max_warnings) {
        (crate::config::FailOn::Warning, _) => warnings > 0,
        (_, Some(n)) => warnings > n,
        _ => false,
    };
    // 128 + N after signal N, as `run` exits (suites/README.md).
    let status = match &interrupted {
        Some((sig, _)) => u8::try_from(128 + sig).unwrap_or(u8::MAX),
        None if results.iter().any(|r| Score::is_bad(r.score)) || too_many => 1,
        None => 0,
    };
    if let Some(path) = &args.record {
        let incomplete = interrupted.as_ref().map(|(_, why)| why.as_str());
        write_record(
            path, url, &name, args, &inputs, &results, status, incomplete, started,
        )?;
        // A signal while the `--peer` judged the streams (it was killed):
        // the run was stopped all the same.
        if let (None, Some(sig)) = (&interrupted, crate::signals::received()) {
            return Ok(u8::try_from(128 + sig).unwrap_or(u8::MAX));
        }
    }
    Ok(status)
}

/// `--record FILE` of a producer run (crate::producer_record).
#[allow(clippy::too_many_arguments)]
fn write_record(
    path: &std::path::Path,
    url: &str,
    suite_name: &str,
    args: &SuiteRun<'_>,
    inputs: &[suite::SuiteInput],
    results: &[suite::InputResult],
    status: u8,
    incomplete: Option<&str>,
    started: std::time::Instant,
) -> anyhow::Result<()> {
    use crate::producer_record as pr;
    let p = &args.producer;
    let about = pr::About {
        url,
        suite: suite_name,
        name: args.name.as_deref(),
        language: args.language.as_deref(),
        versions: match &p.versions {
            Some(f) => pr::versions(f)?,
            None => Vec::new(),
        },
    };
    let mut peer = match &p.peer {
        Some(cmd) => Some(pr::Peer::start(cmd).map_err(|e| anyhow::anyhow!("--peer {cmd}: {e}"))?),
        None => None,
    };
    let described: Vec<Option<String>> = inputs
        .iter()
        .map(|i| i.input.as_ref().ok().and_then(|s| s.description.clone()))
        .collect();
    let text = pr::render(
        &about,
        results,
        &described,
        peer.as_mut(),
        status,
        incomplete,
        started.elapsed(),
    );
    if let Some(peer) = peer {
        for incident in peer.stop() {
            eprintln!("agui-conform: --peer: {incident}");
        }
    }
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
