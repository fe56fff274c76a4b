//! `agui-conform fuzz --impl CMD`: an endless campaign of generated
//! streams against an implementation (agui_harness::campaign), with live
//! progress and a summary. Exit status as `run`: 0 no FAIL or ERRORED,
//! 1 some, 3 incomplete (the implementation did not start, no case ran),
//! 128 + N after signal N.

use crate::render;
use agui_harness::campaign::{self, Mix, Plan, Stats};
use agui_harness::session::ImplSpec;
use agui_harness::subprocess::Timeouts;
use agui_model::RuleId;
use anyhow::Context;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Which streams to draw.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModeArg {
    /// Only valid streams (false rejections, projections).
    Valid,
    /// Only streams breaking a rule (one of --rules).
    Invalid,
    /// One valid stream in four.
    #[default]
    Mixed,
}

/// Output format of the final summary.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The implementation: `reference`, or a command line ('CMD ARGS', run
    /// without a shell) speaking suites/PROTOCOL.md (persistent mode, or
    /// one-shot with --one-shot).
    #[arg(long = "impl", value_name = "CMD ARGS")]
    pub implementation: String,
    /// Run the command once per case (events on stdin, one result line
    /// out), as `run --one-shot` does.
    #[arg(long)]
    pub one_shot: bool,
    /// One-shot: what the command reports (verdict,index,rule,projection,schema-only).
    #[arg(long, value_delimiter = ',', requires = "one_shot")]
    pub capabilities: Vec<String>,
    /// One-shot: the implementation's name in reports and the record.
    #[arg(long, requires = "one_shot")]
    pub name: Option<String>,
    /// One-shot: the language it is written in (reports group by it).
    #[arg(long, requires = "one_shot")]
    pub language: Option<String>,
    /// Stop after this long (`90s`, `5m`, `1h`; plain numbers are seconds).
    #[arg(long, value_parser = campaign::parse_duration)]
    pub time: Option<Duration>,
    /// Stop after this many cases. Neither --time nor --cases: until
    /// interrupted.
    #[arg(long)]
    pub cases: Option<u64>,
    /// The campaign seed: with --cases, the same seed runs the same cases
    /// and keeps the same findings [default: drawn, and printed].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run this many implementations (processes) at once.
    #[arg(long, short = 'j', default_value_t = 1)]
    pub jobs: usize,
    /// Save each distinct failure (per rule and score), shrunk, here as a
    /// corpus case; DIR/fuzz.toml is a suite of them for `run --suite`.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    pub mode: ModeArg,
    /// Only these violation rules in invalid streams (comma-separated ids).
    #[arg(long, value_delimiter = ',', value_parser = parse_rule)]
    pub rules: Vec<RuleId>,
    /// Most questions to the implementation while shrinking one failure.
    #[arg(long, default_value_t = 2000)]
    pub shrink_budget: usize,
    /// Time limit per case in ms.
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
    /// Time limit for the handshake in ms.
    #[arg(long, default_value_t = 10_000)]
    pub start_timeout_ms: u64,
    /// Address-space limit of the implementation process, in MiB (Linux).
    #[arg(long)]
    pub memory_limit_mb: Option<u64>,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Also write JUnit XML here (one test case per distinct failure).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Also write the campaign's run record here (JSON Lines,
    /// docs/run-record.schema.json: a `finding` line per distinct failure
    /// with its minimal stream), for `agui-conform report`.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// No live progress on stderr (it is off anyway when stderr is not a
    /// terminal).
    #[arg(long)]
    pub no_progress: bool,
}

fn parse_rule(s: &str) -> Result<RuleId, String> {
    RuleId::from_id(s.trim())
        .filter(|r| r.rule().is_violation())
        .ok_or_else(|| format!("`{s}` is not a violation rule (see `agui-conform rules`)"))
}

/// The live line: cases, rate, failures by rule, coverage.
fn progress_line(s: &Stats, elapsed: Duration) -> String {
    let rate = s.cases as f64 / elapsed.as_secs_f64().max(1e-9);
    let mut fails: Vec<String> = s
        .failures
        .iter()
        .take(4)
        .map(|((r, sc), n)| format!("{} {}×{n}", sc.as_str(), r.map_or("valid", |r| r.as_str())))
        .collect();
    if s.failures.len() > 4 {
        fails.push(format!("+{} more", s.failures.len() - 4));
    }
    format!(
        "{} cases · {rate:.0}/s · {}/{} rules · failures: {}",
        s.cases,
        s.covered.len(),
        RuleId::violations().count(),
        if fails.is_empty() {
            "none".into()
        } else {
            fails.join(", ")
        }
    )
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    agui_harness::subprocess::cleanup::install(
        agui_harness::subprocess::cleanup::OnSignal::WindDown,
    );
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 & 0xFFFF_FFFF)
    });
    let plan = Plan {
        seed,
        cases: args.cases,
        time: args.time,
        mix: match args.mode {
            ModeArg::Valid => Mix::Valid,
            ModeArg::Invalid => Mix::Invalid,
            ModeArg::Mixed => Mix::Mixed,
        },
        rules: args.rules.clone(),
        save: args.save.clone(),
        shrink_budget: args.shrink_budget,
    };
    let spec = ImplSpec {
        command: Some(args.implementation.clone()),
        one_shot: args.one_shot,
        capabilities: args.capabilities.clone(),
        name: args.name.clone(),
        language: args.language.clone(),
        timeouts: Timeouts {
            case: Duration::from_millis(args.timeout_ms),
            start: Duration::from_millis(args.start_timeout_ms),
            ..Timeouts::default()
        },
        memory_limit: args.memory_limit_mb.map(|m| m << 20),
        ..ImplSpec::default()
    };
    let show = !args.no_progress && std::io::stderr().is_terminal();
    let bar = if show {
        let b = indicatif::ProgressBar::new_spinner();
        b.enable_steady_tick(Duration::from_millis(200));
        b.set_message(format!("seed {seed}: starting"));
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let last = Mutex::new(Instant::now() - Duration::from_secs(1));
    let on_progress = |s: &Stats, elapsed: Duration| {
        if !show {
            return;
        }
        if let Ok(mut l) = last.lock()
            && l.elapsed() >= Duration::from_millis(100)
        {
            *l = Instant::now();
            bar.set_message(format!("seed {seed}: {}", progress_line(s, elapsed)));
        }
    };
    if !show && args.format == Format::Text {
        eprintln!("agui-conform fuzz: seed {seed}");
    }
    let c = campaign::run_parallel(&plan, args.jobs, &|| spec.build(), &on_progress);
    bar.finish_and_clear();
    if let Some(p) = &args.junit {
        std::fs::write(p, render::junit::fuzz(&c)?)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &args.record {
        let text = agui_harness::record::fuzz::render(&c, &agui_harness::record::Meta::now());
        std::fs::write(p, text).with_context(|| format!("writing {}", p.display()))?;
    }
    let text = match args.format {
        Format::Json => format!("{}\n", render::json::fuzz(&c)),
        Format::Text => render::text::fuzz(&c),
    };
    crate::stdout::print(&text)?;
    Ok(match agui_harness::subprocess::cleanup::interrupted() {
        Some(sig) => u8::try_from(128 + sig).unwrap_or(u8::MAX),
        None => c.status().exit_code(),
    })
}
