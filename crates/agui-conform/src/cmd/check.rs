//! `agui-conform check`: checks one recorded stream against every rule.
//!
//! The input is read as JSON Lines or one JSON array (streamed) under the
//! checker's limits, or as a saved SSE body ([`crate::input_format`]), by
//! the one checking loop ([`crate::checking`]); several files, a
//! directory or JSON Lines of cases go to [`crate::batch`], `--url` to
//! [`crate::live_check`]. Every finding is written the moment it is found —
//! memory never grows with the number of violations, and from a pipe or a
//! terminal each violation reaches stdout as soon as its line has been
//! read. Exit status: 0 accept, 1 reject, 2 usage or I/O error,
//! 3 inconclusive (a checker limit was hit before any error, or the input
//! holds no events: [`crate::no_events`]).

use crate::case_input::{self, Sniffed};
use crate::checking::{self, Settings, Source};
use crate::config::EXIT_INCONCLUSIVE;
use crate::input_format::InputFormat;
use crate::{batch, live_check, no_events, render, signals, stdout};
use agui_model::limits::{self, Limits};
use anyhow::Context;
use std::io::{self, BufRead};
use std::path::PathBuf;

pub use crate::checking::{Format, ParseAhead};

/// Arguments of `agui-conform check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The stream to check: a file of JSON Lines or one JSON array, or `-`
    /// for standard input. A corpus case (a case file, or `gen`'s JSON
    /// Lines of cases) is recognised and the stream it holds is checked.
    /// Several files, or a directory (its `*.jsonl`, `*.ndjson`, `*.json`
    /// and `*.sse` files but `*.schema.json`, by name; `--recursive` for its
    /// subdirectories), are checked in parallel: one report per file in
    /// argument order, each the same as checking that file alone, then a
    /// summary (with `--format json`: one JSON document per line, each
    /// file's report or `{"file":…,"error":…}`, then `{"summary":…}`).
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// More streams (see INPUT).
    #[arg(value_name = "INPUT")]
    pub more: Vec<PathBuf>,
    /// A directory's subdirectories too (a case folder `gen --out` wrote,
    /// `corpus/`), by path.
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Files checked at once when there are several [default: the
    /// available cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Read the file with a parse-ahead thread (reading and parsing on one
    /// core, checking on another; the same report): `auto` for a file of
    /// 2 MiB or more when a second core is there, `on`, `off`.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ParseAhead::Auto)]
    pub parse_ahead: ParseAhead,
    /// Output form: a readable report, one JSON object, or a SARIF 2.1.0
    /// log (GitHub code scanning).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write the JSON report to PATH: byte for byte what
    /// `--format json` prints for the same run (several inputs: its JSON
    /// Lines).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Also write the SARIF 2.1.0 log to PATH: byte for byte what
    /// `--format sarif` prints for the same run (several inputs: one log
    /// over all).
    #[arg(long, value_name = "PATH")]
    pub sarif: Option<PathBuf>,
    /// Also write the check as a JUnit XML test case to PATH (several
    /// inputs: one test case each).
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
    /// One line per rule broken, with its count and first violation,
    /// instead of one line per violation (text); a `groups` member, one
    /// entry per rule (JSON).
    #[arg(long)]
    pub group: bool,
    /// Where the repository's docs/ directory is published (an http(s)
    /// URL): documentation links become absolute (`BASE/rules.md#RULE-ID`
    /// in `doc`, the text hint, the page), and the SARIF log gets
    /// `helpUri`s and an `informationUri` [default: agui-conform.toml's
    /// `docs-url`; none: links stay relative to the repository, and the
    /// SARIF log has no link at all].
    #[arg(long, value_name = "BASE")]
    pub docs_url: Option<String>,
    /// Also print the projection (text output).
    #[arg(long, conflicts_with = "no_projection")]
    pub projection: bool,
    /// Leave the projection out (JSON output and `--json`; faster).
    #[arg(long)]
    pub no_projection: bool,
    /// List every violation in the text report (default: the first 50).
    #[arg(long, conflicts_with = "max_violations")]
    pub all: bool,
    /// Print at most N violations (every one is still counted; a
    /// `violations` limit notice says where printing stopped) [default:
    /// 50 in text, all in JSON].
    #[arg(long, value_name = "N")]
    pub max_violations: Option<usize>,
    /// Longest line (or array element) read, in bytes; a longer one is
    /// skipped with a `line-bytes` limit notice.
    #[arg(long, value_name = "BYTES", default_value_t = limits::DEFAULT_LINE_BYTES)]
    pub max_line_bytes: usize,
    /// Deepest nesting of one event; a deeper one is skipped with a
    /// `nesting` limit notice.
    #[arg(long, value_name = "LEVELS", default_value_t = agui_model::json::DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// Largest state document (bytes it holds in memory), also the most
    /// one `STATE_DELTA` may touch; past it state tracking stops with a
    /// `state-bytes` limit notice.
    #[arg(long, value_name = "BYTES", default_value_t = limits::DEFAULT_STATE_BYTES)]
    pub max_state_bytes: usize,
    /// Most a run's projection may hold, in bytes (what it holds, not its
    /// growing buffers' spare room: a message of a little over it in text
    /// passes it); past it the run is shown incomplete with a
    /// `projection-bytes` limit notice (every rule is still judged; the
    /// verdict does not change).
    #[arg(long, value_name = "BYTES", default_value_t = limits::DEFAULT_PROJECTION_BYTES)]
    pub max_projection_bytes: usize,
    /// Most the checker may keep to judge the rules (a run's ids and what
    /// is on record for them, the invocations of earlier runs), in bytes
    /// held in memory (a growing buffer's spare room counted: tool-call
    /// arguments of a little over half of it pass it); past it that is
    /// dropped with a `bookkeeping-bytes` limit notice and the rest of the
    /// run is judged only per event.
    #[arg(long, value_name = "BYTES", default_value_t = limits::DEFAULT_BOOKKEEPING_BYTES)]
    pub max_bookkeeping_bytes: usize,
    /// Also write the stream drawn as lanes (one per owner) with its
    /// violations to PATH: one self-contained HTML page (with `--url`: the
    /// events received, as `--save` keeps them).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// The most the `--html` page holds, in bytes: past it the page draws
    /// no more events and says what it left out.
    #[arg(long, value_name = "BYTES", default_value_t = agui_view::DEFAULT_PAGE_BYTES, requires = "html")]
    pub html_max_bytes: usize,
    /// How to read the input [default: `sse` when its first line starts
    /// `data:`, `event:`, `id:`, `retry:` or `:`, else JSON Lines or one
    /// JSON array, told apart by the reader].
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with = "url")]
    pub input_format: Option<InputFormat>,
    /// Rule configuration (`--rule`, `--fail-on`, `--max-warnings`,
    /// agui-conform.toml).
    #[command(flatten)]
    pub rule_config: crate::config::RuleArgs,
    /// Acknowledge on stderr what standard input has been judged (the
    /// Python wrapper's `Checker`; crate::ack).
    #[arg(long, hide = true)]
    pub ack: bool,
    /// A live producer instead of a file (`--url` and its flags).
    #[command(flatten)]
    pub live: live_check::LiveArgs,
}

impl Args {
    /// The checker limits the flags ask for.
    pub fn limits(&self) -> Limits {
        Limits {
            line_bytes: self.max_line_bytes,
            nesting: self.max_depth,
            state_bytes: self.max_state_bytes,
            projection_bytes: self.max_projection_bytes,
            bookkeeping_bytes: self.max_bookkeeping_bytes,
            ..Limits::default()
        }
    }

    /// How many violations are printed at most.
    fn printed(&self) -> Option<usize> {
        match (self.format, self.all, self.max_violations) {
            (_, _, Some(n)) => Some(n),
            (Format::Text, false, None) => Some(render::text::SHOWN),
            _ => None,
        }
    }

    /// Whether the output carries the projection.
    fn projection(&self) -> bool {
        match self.format {
            Format::Text => self.projection,
            Format::Json => !self.no_projection,
            Format::Sarif => false,
        }
    }

    /// What the checking loop is asked for (the rule configuration as
    /// resolved).
    fn settings(&self) -> Settings {
        Settings {
            format: self.format,
            limits: self.limits(),
            policy: self.rule_config.policy.clone(),
            printed: self.printed(),
            all: self.all,
            projection: self.projection(),
            input_format: self.input_format,
            json: self.json.clone(),
            json_printed: self.max_violations,
            json_projection: !self.no_projection,
            sarif: self.sarif.clone(),
            group: self.group,
            collect: false,
            junit: self.junit.clone(),
            html: self.html.clone(),
            html_max_bytes: self.html_max_bytes,
        }
    }
}

pub fn run(mut args: Args) -> anyhow::Result<u8> {
    args.rule_config.policy = crate::config::resolve(&args.rule_config)?;
    let docs_url = match &args.docs_url {
        Some(flag) => Some(crate::config::docs_url(flag).map_err(|e| anyhow::anyhow!("--{e}"))?),
        None => args.rule_config.policy.docs_url.clone(),
    };
    if let Some(base) = &docs_url {
        agui_model::violation::set_docs_base(base);
    }
    let limits = args.limits();
    if args.live.url.is_some() {
        // Before any thread starts: a signal then stops the exchange and
        // the report of what was received is printed.
        signals::install();
    }
    // serde_json's `Value` recurses when it is cloned, printed or dropped:
    // a stack sized for the nesting limit makes every depth safe.
    let worker = std::thread::Builder::new()
        .name("check".into())
        .stack_size(limits.stack_bytes())
        .spawn(move || run_here(args))
        .context("cannot start the checking thread")?;
    match worker.join() {
        Ok(result) => result,
        Err(_) => anyhow::bail!("the checking thread panicked"),
    }
}

fn run_here(args: Args) -> anyhow::Result<u8> {
    let mut settings = args.settings();
    if let Some(url) = &args.live.url {
        return live_check::check_url(url, &settings, &args.live);
    }
    if let Some(flag) = args.live.input_flags.any() {
        anyhow::bail!("{flag} is part of the input sent to a producer: it needs --url");
    }
    let all: Vec<&PathBuf> = std::iter::once(&args.input).chain(&args.more).collect();
    if let Some(files) = batch::inputs(&all, args.recursive, &settings)? {
        settings.collect = true;
        return batch::run(&settings, args.jobs, &files);
    }
    let (input, live) = match (args.ack, args.input.as_os_str() == "-") {
        (true, true) => (
            Box::new(crate::ack::stdin()) as Box<dyn BufRead + Send>,
            true,
        ),
        _ => checking::open_input(&args.input)?,
    };
    let name = checking::label(&args.input);
    // A corpus case (or `gen`'s JSON Lines of cases) is checked as the
    // stream it holds.
    let sniffed = case_input::sniff(input).with_context(|| format!("reading {name}"))?;
    let (input, live, size, stated): (Box<dyn BufRead + Send>, _, _, _) = match sniffed {
        Sniffed::Stream(input) => (input, live, checking::file_size(&args.input), false),
        Sniffed::Case(found) => {
            eprintln!("{}", found.note(&name));
            (Box::new(io::Cursor::new(found.stream())), false, None, true)
        }
        Sniffed::Lines(cases) => {
            eprintln!("{}", case_input::Lines::note(&name));
            settings.collect = true;
            return batch::run_cases(&settings, &name, cases);
        }
    };
    if settings.projection {
        stdout::widen_stdout();
    }
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let source = Source {
        input,
        file: Some(&args.input),
        size,
        live,
        name: &name,
        stated,
    };
    let copy = stdout::copy_to_stdout;
    let (json, json_out) = checking::json_file(&settings)?;
    let checked = checking::check_one(&settings, args.parse_ahead, source, (out, copy), json_out)?;
    if let Some(pending) = json {
        pending.commit()?;
    }
    let Some(checked) = checked else {
        // The reader of our output went away: nobody left to tell.
        return Ok(0);
    };
    if no_events::holds_none(&checked.report) {
        eprintln!(
            "agui-conform: {name}: {} (inconclusive, exit status {EXIT_INCONCLUSIVE})",
            no_events::MESSAGE
        );
    }
    Ok(settings.policy.exit_status(&checked.report))
}
