//! `agui-conform run`: runs a suite against an implementation (the built-in
//! reference by default), scores it and reports.

use crate::producer_suite::{self, SuiteRun};
use crate::render;
use agui_harness::ImplInfo;
use agui_harness::record::Shrunk;
use agui_harness::runner::streamed::{Sink, run_plan};
use agui_harness::session::ImplSpec;
use agui_harness::subprocess::Timeouts;
use agui_harness::suite::{Origin, SuiteCase};
use agui_harness::{CaseResult, Score, Suite, record, shrink};
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Output format on stdout.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// For people: failures with a minimal diff, per-rule table, totals.
    #[default]
    Text,
    /// One JSON object per case, then `{"summary": …}`.
    Json,
    /// With --producer: one SARIF 2.1.0 log of every scenario's findings.
    Sarif,
    /// JUnit XML: one test case per case (per scenario with --producer).
    Junit,
}

/// Arguments of `agui-conform run`. `Default` is "the default suite against
/// the built-in reference" (what `agui-conform` with no arguments runs).
#[derive(clap::Args, Debug, Default)]
pub struct Args {
    /// Suite name (a local `suites/NAME.toml`, else a built-in suite; see
    /// `agui-conform suites`) or path to a suite file [default: default].
    #[arg(long, conflicts_with = "official_dir")]
    pub suite: Option<String>,
    /// Run the official AG-UI fixtures of a local checkout instead of a
    /// suite: every `PATH/spec/<version>/conformance/streams/*.json` (or
    /// `PATH/*.json`), scored at the outcome level with the fixture's
    /// projection subset; fixtures that cannot be compared are listed.
    #[arg(long, value_name = "PATH")]
    pub official_dir: Option<PathBuf>,
    /// The implementation: `reference`, or a command line ('CMD ARGS', run
    /// without a shell) speaking suites/PROTOCOL.md.
    #[arg(long = "impl", value_name = "CMD ARGS")]
    pub implementation: Option<String>,
    /// Run the command once per case (events on stdin, one result line out).
    #[arg(long)]
    pub one_shot: bool,
    /// One-shot: what the command reports (verdict,index,rule,projection,schema-only).
    #[arg(long, value_delimiter = ',')]
    pub capabilities: Vec<String>,
    /// One-shot: the implementation's name in reports; with --producer
    /// and --record: the producer's name in the record [default: its URL].
    #[arg(long)]
    pub name: Option<String>,
    /// With --producer and --record, or --one-shot: the implementation's
    /// language in the record (`python`, `go`, …), by which reports group
    /// implementations.
    #[arg(long)]
    pub language: Option<String>,
    /// Time limit per case in ms [default: the suite's].
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Time limit for the handshake in ms [default: the suite's].
    #[arg(long)]
    pub start_timeout_ms: Option<u64>,
    /// Address-space limit of the implementation process, in MiB (Linux).
    #[arg(long)]
    pub memory_limit_mb: Option<u64>,
    /// Only cases whose id contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// Also write JUnit XML here.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// With --producer: also write what `--format json` prints (a line per
    /// scenario, then the summary) here.
    #[arg(long, value_name = "FILE", requires = "producer")]
    pub json: Option<PathBuf>,
    /// With --producer: also write the SARIF 2.1.0 log of `--format
    /// sarif` here.
    #[arg(long, value_name = "FILE", requires = "producer")]
    pub sarif: Option<PathBuf>,
    /// Also write a Markdown summary here.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Also write the run record here (JSON Lines, docs/run-record.schema.json;
    /// `agui-conform report` merges records).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Also write the conformance report page of this run here (the
    /// one-record `agui-conform report --html`).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Shrink failing generated cases and save them here (corpus format).
    #[arg(long, value_name = "DIR")]
    pub save_failures: Option<PathBuf>,
    /// List every case, not only failures.
    #[arg(short, long)]
    pub verbose: bool,
    /// No progress bar on stderr.
    #[arg(long)]
    pub no_progress: bool,
    /// WARN fails the run too (for implementations that promise to match
    /// the AG-UI reference clients).
    #[arg(long)]
    pub strict: bool,
    /// Run this many implementations at once (processes, for a command);
    /// 0 or 1: one.
    #[arg(long, short = 'j', default_value_t = 1)]
    pub jobs: usize,
    /// A live producer instead of an implementation (`--producer URL`).
    #[command(flatten)]
    pub producer: producer_suite::ProducerArgs,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    if let Some(url) = &args.producer.producer {
        if args.html.is_some() {
            anyhow::bail!("--html draws a consumer run; not with --producer");
        }
        // Before any thread starts: a signal then kills a `--peer`
        // implementation and what it started, stops the scenario running,
        // and the reports of what ran are written.
        crate::signals::install();
        let suite = SuiteRun {
            suite: args.suite.clone(),
            filter: args.filter.clone(),
            timeout_ms: args.timeout_ms,
            format: match args.format {
                Format::Text => producer_suite::Format::Text,
                Format::Json => producer_suite::Format::Json,
                Format::Sarif => producer_suite::Format::Sarif,
                Format::Junit => producer_suite::Format::Junit,
            },
            no_progress: args.no_progress,
            junit: args.junit.clone(),
            json: args.json.clone(),
            sarif: args.sarif.clone(),
            record: args.record.clone(),
            name: args.name.clone(),
            language: args.language.clone(),
            producer: &args.producer,
        };
        return producer_suite::run_suite(url, &suite);
    }
    if let Some(flag) = args.producer.input_flags.any() {
        anyhow::bail!("{flag} is part of the input sent to a producer: it needs --producer");
    }
    if args.format == Format::Sarif {
        anyhow::bail!("--format sarif reports a producer suite: it needs --producer");
    }
    agui_harness::subprocess::cleanup::install(
        agui_harness::subprocess::cleanup::OnSignal::WindDown,
    );
    let suite = match &args.official_dir {
        Some(_) => Suite {
            name: "official-dir".to_owned(),
            file: Default::default(),
            base: PathBuf::new(),
        },
        None => Suite::find(args.suite.as_deref().unwrap_or("default"))?,
    };
    let jobs = args.jobs.max(1);
    // Cases are read (or generated) one at a time, as they are run.
    let (plan, mut problems) = match &args.official_dir {
        Some(dir) => {
            let p = crate::official_dir::plan(dir)?;
            for (id, why) in &p.not_comparable {
                eprintln!("not comparable: {id}: {why}");
            }
            let mut plan = p.plan;
            if let Some(f) = &args.filter {
                plan.retain(|c| c.id().contains(f.as_str()));
            }
            (plan, p.problems)
        }
        None => suite.plan_lazily(args.filter.as_deref()),
    };
    if let (Some(f), true) = (&args.filter, plan.is_empty()) {
        problems.push(format!("--filter `{f}` matches no case"));
    }
    let mut timeouts: Timeouts = suite.file.timeouts.to_timeouts();
    if let Some(ms) = args.timeout_ms {
        timeouts.case = Duration::from_millis(ms);
    }
    if let Some(ms) = args.start_timeout_ms {
        timeouts.start = Duration::from_millis(ms);
    }
    let spec = ImplSpec {
        command: args.implementation.clone(),
        one_shot: args.one_shot,
        capabilities: args.capabilities.clone(),
        name: args.name.clone(),
        language: args.language.clone().filter(|_| args.one_shot),
        timeouts,
        memory_limit: args.memory_limit_mb.map(|m| m << 20),
        max_line: None,
    };
    let bar = if args.no_progress || plan.len() < 50 {
        indicatif::ProgressBar::hidden()
    } else {
        let b = indicatif::ProgressBar::with_draw_target(
            Some(plan.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {per_sec} {msg}")
        {
            b.set_style(style);
        }
        b
    };
    // The record is written as the run goes (the `--html` page is made
    // from it at the end); created first, so a path that cannot be
    // written fails before any case runs.
    let record_out = match (&args.record, &args.html) {
        (Some(p), _) => Some(RecordOut::File(std::io::BufWriter::new(
            std::fs::File::create(p)
                .map_err(|e| anyhow::anyhow!("creating {}: {e}", p.display()))?,
        ))),
        (None, Some(_)) => Some(RecordOut::Memory(Vec::new())),
        (None, None) => None,
    };
    let sink = RunSink {
        bar: &bar,
        json: args.format == Format::Json,
        stdout: std::io::stdout(),
        record: record_out.map(|out| {
            record::writer::Writer::new(out, &suite.name, plan.len(), record::Meta::now())
        }),
        defer_failures: args.save_failures.is_some(),
    };
    let streamed = run_plan(&suite.name, jobs, &|| spec.build(), plan, problems, &sink);
    let (mut run, cases) = (streamed.run, streamed.cases);
    run.strict = args.strict;
    bar.finish_and_clear();

    let shrinkable = run.results.iter().any(|r| {
        r.scored.score == Score::Fail && matches!(cases[r.case].origin, Origin::Generated { .. })
    });
    let interrupted = agui_harness::subprocess::cleanup::interrupted();
    let mut shrunk = std::collections::BTreeMap::new();
    if let (Some(dir), true, None) = (&args.save_failures, shrinkable, interrupted) {
        // A fresh implementation: the run's own ones are stopped.
        let mut imp = spec.build()?;
        imp.describe()?;
        let caps = run.implementation.capabilities;
        for r in &run.results {
            if r.scored.score != Score::Fail {
                continue;
            }
            let Origin::Generated {
                seed,
                mode,
                variant,
            } = cases[r.case].origin
            else {
                continue;
            };
            // The run kept a summary of the case: generated again, the same.
            let c = match agui_harness::SuiteCase::generated_as(seed, mode, variant) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("could not save {}: {e}", cases[r.case].id);
                    continue;
                }
            };
            match shrink::save_failure(&mut *imp, caps, &c, Score::Fail, dir) {
                Ok(s) => {
                    eprintln!(
                        "saved {} (seed {seed}, {}): {}",
                        c.id,
                        mode.label(),
                        s.original.display()
                    );
                    if let Some(p) = &s.shrunk {
                        if let Some(kept) = read_shrunk(p) {
                            shrunk.insert(c.id.clone(), kept);
                        }
                        eprintln!(
                            "  shrunk {} → {} events: {}",
                            s.sizes.0,
                            s.sizes.1,
                            p.display()
                        );
                    }
                    if !s.note.is_empty() {
                        eprintln!("  {}", s.note);
                    }
                }
                Err(e) => eprintln!("could not save {}: {e:#}", c.id),
            }
        }
        run.incidents.extend(imp.shutdown());
    }
    if let Some(w) = sink.record {
        let out = w
            .finish(&run.implementation, record::footer(&run, &cases), &shrunk)
            .map_err(|e| anyhow::anyhow!("writing the run record: {e}"))?;
        if let Some(page) = &args.html {
            let text = match (out, &args.record) {
                (RecordOut::Memory(bytes), _) => String::from_utf8(bytes)?,
                (RecordOut::File(_), Some(p)) => std::fs::read_to_string(p)?,
                (RecordOut::File(_), None) => String::new(),
            };
            render::html::write_run_page(&text, page)?;
        }
    }

    // The requested report files come first: they are written whatever
    // happens to stdout (a closed pipe, a second signal).
    if let Some(p) = &args.junit {
        std::fs::write(p, render::junit::run(&run, &cases)?)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &args.markdown {
        std::fs::write(p, render::markdown::run(&run, &cases))
            .with_context(|| format!("writing {}", p.display()))?;
    }
    let text = match args.format {
        Format::Json => format!("{}\n", render::json::run_summary(&run, &cases)),
        Format::Junit => render::junit::run(&run, &cases)?,
        _ => render::text::run(&run, &cases, args.verbose),
    };
    crate::stdout::print(&text)?;
    if let Some(why) = run.incomplete() {
        eprintln!("agui-conform: {}", agui_harness::report::printable(&why));
    }
    // 128 + N after signal N, as a shell reports a process it killed.
    Ok(match agui_harness::subprocess::cleanup::interrupted() {
        Some(sig) => u8::try_from(128 + sig).unwrap_or(u8::MAX),
        None => run.status().exit_code(),
    })
}

/// A shrunk failing case saved by `--save-failures` (corpus format), for
/// the run record.
fn read_shrunk(path: &std::path::Path) -> Option<Shrunk> {
    let text = std::fs::read_to_string(path).ok()?;
    let case: serde_json::Value = serde_json::from_str(&text).ok()?;
    let events = case.get("events")?.as_array()?.clone();
    let expect = case.get("expect")?;
    let verdict = expect.get("verdict")?.as_str()?;
    let expected = match (expect.get("rule"), expect.get("index")) {
        (Some(r), Some(i)) => format!(
            "{verdict}; first violation `{}` at {i}",
            r.as_str().unwrap_or("?")
        ),
        _ => format!("{verdict}; no violation"),
    };
    Some(Shrunk {
        description: case
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("")
            .to_owned(),
        events,
        expected,
    })
}

/// Where the run record goes: its file, or memory for `--html` alone.
enum RecordOut {
    File(std::io::BufWriter<std::fs::File>),
    Memory(Vec<u8>),
}

impl Write for RecordOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            RecordOut::File(f) => f.write(buf),
            RecordOut::Memory(v) => v.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            RecordOut::File(f) => f.flush(),
            RecordOut::Memory(_) => Ok(()),
        }
    }
}

/// What `run` does with each settled case: the progress bar, the JSON
/// line, the record's line (deferred for a generated FAIL that
/// `--save-failures` will shrink).
struct RunSink<'a> {
    bar: &'a indicatif::ProgressBar,
    json: bool,
    stdout: std::io::Stdout,
    record: Option<record::writer::Writer<RecordOut>>,
    defer_failures: bool,
}

impl Sink for RunSink<'_> {
    fn started(&self, info: &ImplInfo) {
        if let Some(w) = &self.record {
            w.header(info);
        }
    }

    fn case(&self, r: &CaseResult, c: &SuiteCase) {
        self.bar.inc(1);
        if r.scored.score.is_bad() {
            self.bar.set_message(format!("{} {}", r.scored.score, c.id));
        }
        if self.json {
            let _ = writeln!(self.stdout.lock(), "{}", render::json::run_case(r, c));
        }
        if let Some(w) = &self.record {
            let defer = self.defer_failures
                && r.scored.score == Score::Fail
                && matches!(c.origin, Origin::Generated { .. });
            w.case(r, c, defer);
        }
    }

    fn lost(&self, index: usize) {
        if let Some(w) = &self.record {
            w.lost(index);
        }
    }
}
