//! `agui-conform check`: checks one recorded stream against every rule.
//!
//! The input is read with [`agui_model::check::check_reader`] (JSON Lines or
//! one JSON array, streamed) under the checker's limits, or as a saved SSE
//! body ([`crate::input_format`]). Every finding is
//! written the moment it is found — memory never grows with the number of
//! violations, and from a pipe or a terminal each violation reaches stdout
//! as soon as its line has been read. Exit status: 0 accept, 1 reject,
//! 2 usage or I/O error, 3 inconclusive (a checker limit was hit before any
//! error, or the input holds no events: [`crate::no_events`]).

use crate::case_input::{self, Sniffed};
use crate::input_format::{self, InputFormat};
use crate::render::sarif::Collected;
use agui_live::RunLog;
use agui_model::check::Reading;
use agui_model::limits::{self, Limits};
use agui_model::{
    Checker, CopyIn, Finding, JsonStream, LimitNotice, Report, Severity, Verdict, Violation,
};
use anyhow::Context;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

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
    /// Also write the check as a JUnit XML test case to PATH.
    #[arg(long, value_name = "PATH")]
    pub junit: Option<PathBuf>,
    /// Also print the projection (text output).
    #[arg(long, conflicts_with = "no_projection")]
    pub projection: bool,
    /// Leave the projection out (JSON output; faster).
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
    /// Most a run's projection may hold in memory, in bytes; past it the
    /// run is shown incomplete with a `projection-bytes` limit notice
    /// (every rule is still judged; the verdict does not change).
    #[arg(long, value_name = "BYTES", default_value_t = limits::DEFAULT_PROJECTION_BYTES)]
    pub max_projection_bytes: usize,
    /// Most the checker may keep to judge the rules (a run's ids and what
    /// is on record for them, the invocations of earlier runs), in bytes;
    /// past it that is dropped with a `bookkeeping-bytes` limit notice and
    /// the rest of the run is judged only per event.
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
    /// A live producer instead of a file (`--url` and its flags).
    #[command(flatten)]
    pub live: crate::producer::LiveArgs,
}

/// Output form of `check`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

/// When `check` reads with a parse-ahead thread.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseAhead {
    Auto,
    On,
    Off,
}

/// Violations listed by the text report unless `--all` is given.
const SHOWN: usize = 50;

/// Runs that did not simply finish listed by the text report.
const RUNS_SHOWN: usize = 10;

/// Exit status of an inconclusive check.
pub const EXIT_INCONCLUSIVE: u8 = 3;

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
            (Format::Text, false, None) => Some(SHOWN),
            _ => None,
        }
    }
}

pub fn run(mut args: Args) -> anyhow::Result<u8> {
    args.rule_config.policy = crate::config::resolve(&args.rule_config)?;
    let limits = args.limits();
    if args.live.url.is_some() {
        // Before any thread starts: a signal then stops the exchange and
        // the report of what was received is printed.
        crate::signals::install();
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
    if let Some(url) = &args.live.url {
        return crate::producer::check_url(url, &args, wants_projection(&args));
    }
    if let Some(flag) = args.live.input_flags.any() {
        anyhow::bail!("{flag} is part of the input sent to a producer: it needs --url");
    }
    if let Some(files) = crate::batch::inputs(&args)? {
        return crate::batch::run(&args, &files);
    }
    let (input, live) = open_input(&args.input)?;
    let name = label(&args.input);
    // A corpus case (or `gen`'s JSON Lines of cases) is checked as the
    // stream it holds.
    let sniffed = case_input::sniff(input).with_context(|| format!("reading {name}"))?;
    let (input, live, size): (Box<dyn BufRead + Send>, _, _) = match sniffed {
        Sniffed::Stream(input) => (input, live, file_size(&args.input)),
        Sniffed::Case(found) => {
            eprintln!("{}", found.note(&name));
            (Box::new(io::Cursor::new(found.stream())), false, None)
        }
        Sniffed::Lines(cases) => {
            eprintln!("{}", case_input::Lines::note(&name));
            return crate::batch::run_cases(&args, &name, cases);
        }
    };
    if wants_projection(&args) {
        crate::stdout::widen_stdout();
    }
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let copy = crate::stdout::copy_to_stdout;
    let Some(checked) = check_one(&args, args.parse_ahead, input, live, size, &name, out, copy)?
    else {
        // The reader of our output went away: nobody left to tell.
        return Ok(0);
    };
    if crate::no_events::holds_none(&checked.report) {
        eprintln!(
            "agui-conform: {name}: {} (inconclusive, exit status {EXIT_INCONCLUSIVE})",
            crate::no_events::MESSAGE
        );
    }
    Ok(args.rule_config.policy.exit_status(&checked.report))
}

/// Whether the output carries the projection.
pub(crate) fn wants_projection(args: &Args) -> bool {
    match args.format {
        Format::Text => args.projection,
        Format::Json => !args.no_projection,
        Format::Sarif => false,
    }
}

/// The size of a regular file (none for stdin, pipes and the like).
pub(crate) fn file_size(input: &Path) -> Option<u64> {
    if input.as_os_str() == "-" {
        return None;
    }
    std::fs::metadata(input)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
}

/// Files from this size up are read with the parse-ahead thread under
/// `--parse-ahead auto`: below it the thread's start and hand-over cost
/// about what it gives back (a 1 MB file: 4.8 ms against 4.7 ms on one
/// thread; 2 MB: 6.9 ms against 7.8 ms; docs/performance-log.md).
const AHEAD_FROM_BYTES: u64 = 2 << 20;

/// How to read an input: with the parse-ahead thread when asked
/// (`--parse-ahead on`), or under `auto` for a file of at least
/// [`AHEAD_FROM_BYTES`] when a second core is there; never live (a live
/// stream is checked as each line arrives, and the thread would hold its
/// findings back a batch).
fn reading(ahead: ParseAhead, live: bool, size: Option<u64>) -> Reading {
    let cores = || std::thread::available_parallelism().map_or(1, usize::from);
    match ahead {
        ParseAhead::On if !live => Reading::ParseAhead,
        ParseAhead::Auto if !live && size.is_some_and(|s| s >= AHEAD_FROM_BYTES) && cores() > 1 => {
            Reading::ParseAhead
        }
        _ => Reading::OneThread,
    }
}

/// What checking one input gave.
pub(crate) struct Checked {
    pub report: Report,
}

/// Checks one input and writes its report to `out` (with `--junit` and
/// `--html`, those files too); `copy` copies spilled runs into `out`.
/// `size` is the size of a regular file (none for a pipe or a case's
/// stream). `None` when `out` closed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_one<W: Write + 'static>(
    args: &Args,
    ahead: ParseAhead,
    mut input: Box<dyn BufRead + Send>,
    live: bool,
    size: Option<u64>,
    name: &str,
    out: W,
    copy: CopyIn<W>,
) -> anyhow::Result<Option<Checked>> {
    let format = input_format::resolve(&mut *input, args.input_format)
        .with_context(|| format!("reading {name}"))?;
    let started = std::time::Instant::now();
    // The page is drawn from the items as the check reads them (one
    // thread), and reuses the violations this check finds.
    let page = args
        .html
        .as_ref()
        .map(|_| crate::render::html::page(args.html_max_bytes));
    let input = match &page {
        Some(p) => Input(input, Reading::OneThread, Some(Rc::clone(p))),
        None => Input(input, reading(ahead, live, size), None),
    };
    // Outputs written at the end (SARIF, JUnit, the page) keep what is
    // found.
    let found = (args.junit.is_some() || args.html.is_some() || args.format == Format::Sarif)
        .then(|| Rc::new(RefCell::new(Collected::new(args.limits().violations))));
    let report = match (args.format, &found, input) {
        (Format::Sarif, Some(f), Input(input, _, page)) => {
            // The events' lines are read again from a regular file (not
            // from a pipe, nor from a case's stream, whose lines are not
            // the file's).
            let lines_from = size.map(|_| args.input.as_path());
            crate::render::sarif::check_file(input, format, args, lines_from, name, out, f, page.as_ref())
        }
        (Format::Json | Format::Sarif, _, input) => {
            check_json(input, format, args, live, (out, copy), found.clone())
        }
        (Format::Text, _, input) => check_text(input, format, args, name, live, out, found.clone()),
    }
    .with_context(|| format!("reading {name}"))?;
    if let (Some(path), Some(page), Some(f)) = (&args.html, page, &found) {
        let verdict = report.as_ref().map(|(r, _)| r.verdict());
        crate::render::html::write(path, page, &f.borrow().violations, verdict, name)?;
    }
    let Some((report, runs)) = report else {
        return Ok(None);
    };
    if let (Some(path), Some(f)) = (&args.junit, &found) {
        crate::render::junit::write(path, name, &report, &runs, &f.borrow(), started.elapsed())?;
    }
    Ok(Some(Checked { report }))
}

/// The input of one check, how it may be read, and the page it draws.
struct Input(Box<dyn BufRead + Send>, Reading, Option<crate::render::html::Page>);

impl Input {
    fn check(
        self,
        format: InputFormat,
        checker: Checker,
        stop: impl FnMut() -> bool,
    ) -> io::Result<(Report, RunLog)> {
        input_format::check(self.0, format, checker, self.1, stop, self.2.as_ref())
    }
}

/// `check`'s exit status for a report: 0 accept, 1 reject, 3 inconclusive.
pub(crate) fn exit_status(report: &Report) -> u8 {
    match report.verdict() {
        Verdict::Accept => 0,
        Verdict::Reject => 1,
        Verdict::Inconclusive => EXIT_INCONCLUSIVE,
    }
}

/// Whether an error is the reader of stdout going away.
fn broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// The one checker of `check`: the flags' limits and rule levels, every
/// finding to `sink` (and to `tee`, for the outputs written at the end),
/// and the projection as `projection` says.
fn checker(
    args: &Args,
    projection: Projecting,
    mut sink: impl FnMut(Finding<'_>) + 'static,
    tee: Option<Rc<RefCell<Collected>>>,
) -> Checker {
    let checker = match projection {
        Projecting::Off => Checker::without_projection(),
        Projecting::Kept => Checker::new(),
        Projecting::Sink(runs) => Checker::with_projection_text_sink(runs),
    };
    checker
        .with_limits(args.limits())
        .with_levels(args.rule_config.policy.levels.clone())
        .with_sink(move |f: Finding<'_>| {
            sink(f);
            if let Some(t) = &tee {
                t.borrow_mut().push(f);
            }
        })
}

/// Where the projection goes.
/// Receives each run's canonical JSON text, in pieces (`true`: the run's
/// last).
type RunText = Box<dyn FnMut(&[u8], bool)>;

enum Projecting {
    Off,
    /// Kept in the report (the text output prints it at the end).
    Kept,
    /// Each run's canonical JSON text handed over as it ends.
    Sink(RunText),
}

/// `--format json`: one object, violations written as found, each run's
/// projection kept aside and copied in at the end. `None` when stdout
/// closed.
fn check_json<W: Write + 'static>(
    input: Input,
    format: InputFormat,
    args: &Args,
    live: bool,
    (out, copy): (W, CopyIn<W>),
    tee: Option<Rc<RefCell<Collected>>>,
) -> io::Result<Option<(Report, RunLog)>> {
    let projection = wants_projection(args);
    let stream = Rc::new(RefCell::new(Some(
        JsonStream::new(out, args.printed())
            .live(live)
            .copy_in_with(copy),
    )));
    let (runs, findings, failed) = (Rc::clone(&stream), Rc::clone(&stream), Rc::clone(&stream));
    let projecting = if projection {
        Projecting::Sink(Box::new(move |piece, last| {
            if let Some(s) = runs.borrow_mut().as_mut() {
                s.run_text(piece, last);
            }
        }))
    } else {
        Projecting::Off
    };
    let sink = move |f: Finding<'_>| {
        if let Some(s) = findings.borrow_mut().as_mut() {
            s.finding(f);
        }
    };
    let checker = checker(args, projecting, sink, tee);
    let stop = move || failed.borrow().as_ref().is_some_and(JsonStream::failed);
    let (report, runs) = input.check(format, checker, stop)?;
    let Some(stream) = stream.borrow_mut().take() else {
        return Ok(Some((report, runs)));
    };
    let reason = serde_json::Value::from(crate::no_events::MESSAGE);
    let runs_json = runs.to_json();
    let mut extra: Vec<(&str, &serde_json::Value)> = vec![("runs", &runs_json)];
    if crate::no_events::holds_none(&report) {
        extra.push(("reason", &reason));
    }
    let written = stream
        .finish_with(&report, projection, &extra)
        .and_then(|mut out| writeln!(out).and_then(|()| out.flush()));
    match written {
        Ok(()) => Ok(Some((report, runs))),
        Err(e) if broken_pipe(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `--format text`: one line per finding as found, then the summary.
fn check_text(
    input: Input,
    format: InputFormat,
    args: &Args,
    name: &str,
    live: bool,
    out: impl Write + 'static,
    tee: Option<Rc<RefCell<Collected>>>,
) -> io::Result<Option<(Report, RunLog)>> {
    let text = Rc::new(RefCell::new(TextStream::new(
        out,
        args.printed(),
        colour(),
        live,
    )));
    let (findings, failed) = (Rc::clone(&text), Rc::clone(&text));
    let projecting = if args.projection {
        Projecting::Kept
    } else {
        Projecting::Off
    };
    let sink = move |f: Finding<'_>| findings.borrow_mut().finding(f);
    let checker = checker(args, projecting, sink, tee);
    let stop = move || failed.borrow().error.is_some();
    let (report, runs) = input.check(format, checker, stop)?;
    let mut text = text.borrow_mut();
    match text.finish(name, &report, &runs) {
        Ok(()) => Ok(Some((report, runs))),
        Err(e) if broken_pipe(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Opens the input source, and says whether it is live (a pipe or a
/// terminal, whose findings are flushed one by one).
pub(crate) fn open_input(input: &Path) -> anyhow::Result<(Box<dyn BufRead + Send>, bool)> {
    if input.as_os_str() == "-" {
        let live = io::stdin().is_terminal() || is_pipe(Path::new("/dev/stdin"));
        // `Stdin` (not its lock) can move to a reader thread.
        return Ok((
            Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            live,
        ));
    }
    let file = File::open(input).with_context(|| format!("cannot open {}", input.display()))?;
    let meta = file.metadata().ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        anyhow::bail!("{} is a directory, not a stream", input.display());
    }
    let live = meta.is_some_and(|m| !m.is_file());
    Ok((Box::new(BufReader::with_capacity(1 << 16, file)), live))
}

/// Whether `path` is a pipe or a socket (not a regular file).
fn is_pipe(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The name the report gives the input.
pub(crate) fn label(input: &Path) -> String {
    if input.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        input.display().to_string()
    }
}

/// The machine form of `report` (with how each run ended) and a newline,
/// buffered (`check --url`).
pub(crate) fn write_json_line(out: impl Write, report: &Report, runs: &RunLog) -> io::Result<()> {
    let w = io::BufWriter::with_capacity(1 << 16, out);
    let mut stream = JsonStream::new(w, None);
    for v in &report.violations {
        stream.finding(Finding::Violation(v));
    }
    for n in &report.limits {
        stream.finding(Finding::Limit(n));
    }
    if let Some(p) = &report.projection {
        for run in &p.runs {
            stream.run(run);
        }
    }
    let mut w = stream.finish_with(
        report,
        report.projection.is_some(),
        &[("runs", &runs.to_json())],
    )?;
    writeln!(w)?;
    w.flush()
}

/// ANSI colours, used only when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Clone, Copy)]
pub(crate) struct Colour(bool);

impl Colour {
    fn paint(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

pub(crate) fn colour() -> Colour {
    Colour(io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
}

/// The readable report, written as findings come: one line per violation
/// or limit notice (up to a cap), then a summary line, a hint, and the
/// projection when asked for. The first write error is kept; nothing is
/// written after it.
pub(crate) struct TextStream<W: Write> {
    out: W,
    cap: Option<usize>,
    printed: usize,
    /// Violations left out at the cap.
    unprinted: usize,
    first: Option<agui_model::RuleId>,
    colour: Colour,
    live: bool,
    error: Option<io::Error>,
}

impl<W: Write> TextStream<W> {
    pub(crate) fn new(out: W, cap: Option<usize>, colour: Colour, live: bool) -> Self {
        TextStream {
            out,
            cap,
            printed: 0,
            unprinted: 0,
            first: None,
            colour,
            live,
            error: None,
        }
    }

    fn keep(&mut self, r: io::Result<()>) {
        if let Err(e) = r
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

    pub(crate) fn finding(&mut self, f: Finding<'_>) {
        if self.error.is_some() {
            return;
        }
        let r = match f {
            Finding::Violation(v) => {
                self.first.get_or_insert(v.rule);
                if self.cap.is_some_and(|cap| self.printed >= cap) {
                    self.unprinted += 1;
                    return;
                }
                self.printed += 1;
                violation_line(&mut self.out, v, self.colour)
            }
            Finding::Limit(n) => limit_line(&mut self.out, n, self.colour),
        };
        self.keep(r);
        if self.live {
            let r = self.out.flush();
            self.keep(r);
        }
    }

    /// The summary, how each run ended, the hint and the projection.
    pub(crate) fn finish(&mut self, name: &str, report: &Report, runs: &RunLog) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let out = &mut self.out;
        if self.unprinted > 0 {
            writeln!(
                out,
                "  … {} more (`--all` or `--max-violations N` lists them, `--format json` too)",
                self.unprinted
            )?;
        }
        summary(out, name, report, self.colour)?;
        write!(out, "{}", runs.render_text(RUNS_SHOWN))?;
        if let Some(rule) = self.first.or(report.first().map(|v| v.rule)) {
            writeln!(out, "hint: agui-conform explain {rule}")?;
        }
        if let Some(p) = &report.projection {
            let pretty = serde_json::to_string_pretty(&agui_model::json::Out(&p.to_json()))
                .map_err(io::Error::other)?;
            writeln!(out, "projection:\n{pretty}")?;
        }
        out.flush()
    }
}

/// `  #3     error   rule: message (at path) (see #1)`: `see` names the
/// related event (the opener on record, the run's start).
fn violation_line(out: &mut impl Write, v: &Violation, c: Colour) -> io::Result<()> {
    let severity = v.severity.as_str();
    let severity = match v.severity {
        Severity::Error => c.paint("31", &format!("{severity:<7}")),
        _ => c.paint("33", &format!("{severity:<7}")),
    };
    let at = v
        .path
        .as_deref()
        .map(|p| format!(" (at {})", if p.is_empty() { "the top" } else { p }))
        .unwrap_or_default();
    let related = v
        .related
        .map(|r| format!(" (see #{r})"))
        .unwrap_or_default();
    writeln!(
        out,
        "  #{:<5} {severity} {}: {}{at}{related}",
        v.index, v.rule, v.message
    )
}

/// `  #3     limit   nesting: message (limit 10000)`.
fn limit_line(out: &mut impl Write, n: &LimitNotice, c: Colour) -> io::Result<()> {
    writeln!(
        out,
        "  #{:<5} {} {}: {} (limit {})",
        n.index,
        c.paint("35", &format!("{:<7}", "limit")),
        n.kind,
        n.message,
        n.limit
    )
}

/// `name: reject — 2 violations (1 error, 1 warning) in 12 events`, and
/// the limit notices when there were some.
fn summary(out: &mut impl Write, name: &str, report: &Report, c: Colour) -> io::Result<()> {
    let verdict = report.verdict();
    let painted = match verdict {
        Verdict::Accept => c.paint("32;1", verdict.as_str()),
        Verdict::Reject => c.paint("31;1", verdict.as_str()),
        Verdict::Inconclusive => c.paint("35;1", verdict.as_str()),
    };
    let counts = report.counts;
    let events = plural(report.events, "event");
    let limits = if counts.limits > 0 {
        format!(", {}", plural(counts.limits, "limit notice"))
    } else {
        String::new()
    };
    if crate::no_events::holds_none(report) {
        writeln!(out, "{name}: {painted} — {}", crate::no_events::MESSAGE)
    } else if counts.violations() == 0 {
        writeln!(out, "{name}: {painted} — no violations in {events}{limits}")
    } else {
        writeln!(
            out,
            "{name}: {painted} — {} ({}, {}) in {events}{limits}",
            plural(counts.violations(), "violation"),
            plural(counts.errors, "error"),
            plural(counts.warnings, "warning"),
        )
    }
}

/// The whole readable report of a finished check (`check --url`).
pub(crate) fn write_text(
    out: &mut impl Write,
    name: &str,
    report: &Report,
    runs: &RunLog,
    all: bool,
    c: Colour,
) -> io::Result<()> {
    let mut text = TextStream::new(&mut *out, (!all).then_some(SHOWN), c, false);
    for v in &report.violations {
        text.finding(Finding::Violation(v));
    }
    for n in &report.limits {
        text.finding(Finding::Limit(n));
    }
    text.finish(name, report, runs)
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::{RuleId, Violation};

    fn text(report: &Report) -> String {
        let mut out = Vec::new();
        write_text(
            &mut out,
            "s.jsonl",
            report,
            &RunLog::new(),
            false,
            Colour(false),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_counts_errors_and_warnings() {
        let report = Report::of(
            vec![
                Violation::new(RuleId::SchemaUnknownType, 0, "no type").at_path("type"),
                Violation::new(RuleId::InterruptUnknownId, 3, "interrupt `i9` unknown"),
            ],
            12,
        );
        let t = text(&report);
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].contains("#0")
                && lines[0].contains("error")
                && lines[0].contains("schema.unknown-type")
        );
        assert!(lines[0].ends_with("no type (at type)"), "{}", lines[0]);
        assert!(
            lines[1].contains("#3")
                && lines[1].contains("warning")
                && lines[1].contains("interrupt.unknown-id")
        );
        assert_eq!(
            lines[2],
            "s.jsonl: reject — 2 violations (1 error, 1 warning) in 12 events"
        );
        assert_eq!(lines[3], "runs: none");
        assert_eq!(lines[4], "hint: agui-conform explain schema.unknown-type");
    }

    #[test]
    fn clean_stream_has_a_one_line_report() {
        let report = Report::of(vec![], 1);
        assert_eq!(
            text(&report),
            "s.jsonl: accept — no violations in 1 event\nruns: none\n"
        );
    }

    #[test]
    fn long_lists_are_cut_with_a_pointer() {
        let violations = (0..SHOWN + 7)
            .map(|i| Violation::new(RuleId::SchemaNotJson, i, "not an object"))
            .collect();
        let t = text(&Report::of(violations, SHOWN + 7));
        assert_eq!(t.lines().filter(|l| l.starts_with("  #")).count(), SHOWN);
        assert!(t.contains("… 7 more"));
    }
}
