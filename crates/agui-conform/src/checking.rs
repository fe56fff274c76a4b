//! The one checking loop of `check`: a stream (a file, standard input, a
//! corpus case's stream) read as its input format, every finding handed to
//! the output being written — the text and JSON reports as each finding
//! is found, so memory never grows with the number of violations — and
//! kept for the outputs written at the end (SARIF, `--junit`, `--html`).
//! The report files beside stdout (`--json`, `--sarif`, `--junit`,
//! `--html`) are made by the same renderers from the same pass, so each is
//! byte for byte what `--format X` prints. One file or many (crate::batch)
//! go through [`check_one`].

use crate::config::Policy;
use crate::coverage::{self, Notices};
use crate::input_format::{self, InputFormat};
use crate::pending::Pending;
use crate::record::{Check, Collected};
use crate::render::{self, html, json::JsonReport, text::TextStream};
use agui_live::RunLog;
use agui_model::check::Reading;
use agui_model::limits::Limits;
use agui_model::stream;
use agui_model::{Checker, CopyIn, Finding, JsonStream, Report};
use anyhow::Context;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

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

/// What a check is asked for, from `check`'s flags.
pub struct Settings {
    pub format: Format,
    pub limits: Limits,
    /// The rule configuration in force.
    pub policy: Policy,
    /// Violations printed at most (every one is counted).
    pub printed: Option<usize>,
    /// `--all` (a finished live check's text report).
    pub all: bool,
    /// Whether the output carries the projection.
    pub projection: bool,
    pub input_format: Option<InputFormat>,
    /// `--json PATH`: the JSON report also written there.
    pub json: Option<PathBuf>,
    /// Violations the JSON report lists at most (`--format json`'s cap).
    pub json_printed: Option<usize>,
    /// Whether the JSON report carries the projection (`--format json`'s).
    pub json_projection: bool,
    /// `--sarif PATH`: the SARIF log also written there.
    pub sarif: Option<PathBuf>,
    pub junit: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub html_max_bytes: usize,
    /// `--group`: one line (text) or entry (JSON `groups`) per rule.
    pub group: bool,
    /// A batch: each input's SARIF log and JUnit test case are handed
    /// back ([`Checked`]) to be merged, not written.
    pub collect: bool,
}

/// What checking one input gave.
pub struct Checked {
    pub report: Report,
    /// With [`Settings::collect`]: the input's SARIF log (when SARIF is
    /// asked for) and JUnit test case (with `--junit`).
    pub sarif: Option<serde_json::Value>,
    pub junit: Option<quick_junit::TestCase>,
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

/// One input to check: the stream, the file it was opened from (a regular
/// file: SARIF reads its events' lines from it; none for a pipe or a
/// case's stream) and its size, whether it is live (a pipe or a terminal,
/// whose findings are flushed one by one), and its name in the report.
pub struct Source<'a> {
    pub input: Box<dyn BufRead + Send>,
    pub file: Option<&'a Path>,
    pub size: Option<u64>,
    pub live: bool,
    pub name: &'a str,
    /// A corpus case's events: JSON Lines as the case states them, never
    /// sniffed for an array or an SSE body.
    pub stated: bool,
}

/// Checks one input and writes its report to `out` (with `--sarif`,
/// `--junit` and `--html`, those files too; the `--json` report to
/// `json`, which the caller opened); `copy` copies spilled runs into
/// `out`. `ahead` overrides `--parse-ahead` (a batch reads each file on
/// one thread). `None` when `out` closed.
pub fn check_one<W: Write + 'static>(
    settings: &Settings,
    ahead: ParseAhead,
    source: Source<'_>,
    (out, copy): (W, CopyIn<W>),
    json: Option<Box<dyn Write>>,
) -> anyhow::Result<Option<Checked>> {
    let Source {
        mut input,
        file,
        size,
        live,
        name,
        stated,
    } = source;
    // Every file is created before anything is read: an unwritable path
    // is an error before the check.
    let (sarif_file, junit_file) = if settings.collect {
        (None, None)
    } else {
        (
            create(settings.sarif.as_deref(), "--sarif")?,
            create(settings.junit.as_deref(), "--junit")?,
        )
    };
    let mut kept = Checked {
        report: Report::default(),
        sarif: None,
        junit: None,
    };
    let html_file = create(settings.html.as_deref(), "--html")?;
    let format = if stated {
        InputFormat::Jsonl
    } else {
        input_format::resolve(&mut *input, settings.input_format)
            .with_context(|| format!("reading {name}"))?
    };
    let framing = input_format::framing(settings.input_format, stated);
    let started = std::time::Instant::now();
    // The page is drawn from the items as the check reads them (one
    // thread), and reuses the violations this check finds.
    let page = settings
        .html
        .as_ref()
        .map(|_| html::page(settings.html_max_bytes));
    let sarif = settings.format == Format::Sarif || settings.sarif.is_some();
    // SARIF and the page read on one thread (SARIF keeps each event's line).
    let reading = match (&page, sarif) {
        (None, false) => reading(ahead, live, size),
        _ => Reading::OneThread,
    };
    let sse = format == InputFormat::Sse;
    let input = Input {
        input,
        format,
        framing,
        reading,
        page: page.clone(),
    };
    // Outputs written at the end (SARIF, JUnit, the page) keep what is
    // found; the `--json` report is written as it is found.
    let tee = Rc::new(RefCell::new(Tee {
        found: (settings.junit.is_some() || settings.html.is_some() || sarif)
            .then(|| Collected::new(settings.limits.violations)),
        json: json
            .map(|w| JsonReport::new(JsonStream::new(w, settings.json_printed), settings.group)),
        runs: settings.json_projection,
        lines: Vec::new(),
        notices: Notices::default(),
    }));
    let lines = sarif && sse;
    let (checked, stdout) = match settings.format {
        Format::Sarif => (check_sarif(input, settings, &tee, lines), Some(out)),
        Format::Json => (
            check_json(input, settings, live, (out, copy), &tee, lines),
            None,
        ),
        Format::Text => (
            check_text(input, settings, name, live, out, &tee, lines),
            None,
        ),
    };
    let Done {
        report,
        runs,
        mut gone,
    } = checked.map_err(|e| {
        // The report's own write says so (`writing to standard output`);
        // any other error is the input's.
        if crate::stdout::is_stdout_error(&e) {
            anyhow::Error::new(e)
        } else {
            anyhow::Error::new(e).context(format!("reading {name}"))
        }
    })?;
    let mut tee = std::mem::take(&mut *tee.borrow_mut());
    let gaps = coverage::of(source_kind(format), &report, &tee.notices);
    if let Some(mut j) = tee.json.take() {
        j.set_coverage(&gaps);
        j.finish(&report, &runs, settings.json_projection)
            .context("writing the --json report")?;
    }
    let found = tee.found.take().unwrap_or_default();
    if sarif {
        // The events' lines: from the SSE reader, or for JSON a second
        // read of a regular file (not a pipe, nor a case's stream, whose
        // lines are not the file's).
        if let (false, Some(path)) = (sse, size.and(file)) {
            let file = BufReader::new(File::open(path).with_context(|| format!("reading {name}"))?);
            let opts = stream::ReadOptions {
                framing,
                ..settings.limits.read_options()
            };
            stream::read_stream(file, &opts, |item| {
                tee.lines.push(item.line());
                ControlFlow::Continue(())
            })
            .with_context(|| format!("reading {name}"))?;
        }
        let empty = crate::no_events::holds_none(&report);
        let coverage = coverage::to_json(&gaps);
        let log = render::sarif::file_log(name, &tee.lines, &found, (&runs, &coverage), empty);
        if let Some((pending, f)) = sarif_file {
            render::sarif::write(io::BufWriter::new(f), &log)
                .with_context(|| format!("writing {}", pending.tmp().display()))?;
            pending.commit()?;
        }
        if settings.format == Format::Sarif
            && !settings.collect
            && let Some(out) = stdout
        {
            match render::sarif::write(out, &log) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => gone = true,
                r => r.map_err(crate::stdout::stdout_error)?,
            }
        }
        if settings.collect {
            kept.sarif = Some(log);
        }
    }
    if let (Some((pending, _)), Some(page)) = (html_file, page) {
        html::write(
            pending.tmp(),
            page,
            &found.violations,
            Some(report.verdict()),
            name,
        )?;
        pending.commit()?;
    }
    if settings.junit.is_some() {
        let check = Check {
            name,
            report: &report,
            runs: &runs,
            found: &found,
            elapsed: started.elapsed(),
        };
        if let Some((pending, _)) = junit_file {
            render::junit::write_check(pending.tmp(), &check)?;
            pending.commit()?;
        } else {
            kept.junit = Some(render::junit::check_case(&check));
        }
    }
    kept.report = report;
    Ok((!gone).then_some(kept))
}

/// Where a `--json` report is written.
pub type JsonOut = Box<dyn Write>;

/// `--json PATH` opened ([`Pending`]), and the writer the JSON report
/// goes to.
pub fn json_file(settings: &Settings) -> anyhow::Result<(Option<Pending>, Option<JsonOut>)> {
    Ok(match create(settings.json.as_deref(), "--json")? {
        Some((pending, f)) => {
            let w: JsonOut = Box::new(io::BufWriter::with_capacity(1 << 16, f));
            (Some(pending), Some(w))
        }
        None => (None, None),
    })
}

/// Opens a report file beside stdout, when asked for.
fn create(path: Option<&Path>, flag: &str) -> anyhow::Result<Option<(Pending, File)>> {
    path.map(|p| Pending::create(flag, p)).transpose()
}

/// What the outputs beside stdout take from the one pass: the findings
/// kept (SARIF, JUnit, the page), the `--json` report being written
/// (`runs`: with the projection), each SSE event's line.
#[derive(Default)]
struct Tee {
    found: Option<Collected>,
    json: Option<JsonReport<Box<dyn Write>>>,
    runs: bool,
    lines: Vec<usize>,
    /// The limit notices, for what could not be judged.
    notices: Notices,
}

/// What kind of input the events came from, for the coverage.
fn source_kind(format: InputFormat) -> coverage::Source {
    match format {
        InputFormat::Sse => coverage::Source::Sse,
        InputFormat::Jsonl | InputFormat::Json => coverage::Source::Json,
    }
}

impl Tee {
    fn finding(&mut self, f: Finding<'_>) {
        if let Finding::Limit(n) = f {
            self.notices.push(n);
        }
        if let Some(c) = &mut self.found {
            c.push(f);
        }
        if let Some(j) = &mut self.json {
            j.finding(f);
        }
    }

    /// Whether the `--json` report takes each run's projection.
    fn wants_runs(&self) -> bool {
        self.json.is_some() && self.runs
    }

    fn run_text(&mut self, piece: &[u8], last: bool) {
        if let Some(j) = &mut self.json {
            j.stream.run_text(piece, last);
        }
    }
}

type Shared<T> = Rc<RefCell<T>>;

/// The input of one check, its format, how it may be read, and the page
/// it draws.
struct Input {
    input: Box<dyn BufRead + Send>,
    format: InputFormat,
    framing: stream::Framing,
    reading: Reading,
    page: Option<html::Page>,
}

impl Input {
    /// Reads it through `checker`; with `lines`, each SSE event's line
    /// goes to the tee.
    fn check(
        self,
        checker: Checker,
        stop: impl FnMut() -> bool,
        tee: &Shared<Tee>,
        lines: bool,
    ) -> io::Result<(Report, RunLog)> {
        let mut kept = Vec::new();
        let r = input_format::check(
            self.input,
            (self.format, self.framing),
            checker,
            self.reading,
            stop,
            self.page.as_ref(),
            lines.then_some(&mut kept),
        );
        tee.borrow_mut().lines = kept;
        r
    }
}

/// What a check gave: the report, how each run ended, and whether the
/// reader of stdout went away (nobody left to tell).
struct Done {
    report: Report,
    runs: RunLog,
    gone: bool,
}

/// The check once stdout's report is written: `gone` when the reader of
/// stdout went away, the write's error otherwise.
fn written_or_gone(written: io::Result<()>, (report, runs): (Report, RunLog)) -> io::Result<Done> {
    match written {
        Ok(()) => Ok(Done {
            report,
            runs,
            gone: false,
        }),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Done {
            report,
            runs,
            gone: true,
        }),
        Err(e) => Err(crate::stdout::stdout_error(e)),
    }
}

/// The one checker of `check`: the limits and rule levels, every finding
/// to `sink` and to the tee, and the projection as `projection` says.
fn checker(
    settings: &Settings,
    projection: Projecting,
    mut sink: impl FnMut(Finding<'_>) + 'static,
    tee: &Shared<Tee>,
) -> Checker {
    let checker = match projection {
        Projecting::Off => Checker::without_projection(),
        Projecting::Kept => Checker::new(),
        Projecting::Sink(runs) => Checker::with_projection_text_sink(runs),
    };
    let tee = Rc::clone(tee);
    checker
        .with_limits(settings.limits)
        .with_levels(settings.policy.levels.clone())
        .with_sink(move |f: Finding<'_>| {
            sink(f);
            tee.borrow_mut().finding(f);
        })
}

/// Receives each run's canonical JSON text, in pieces (`true`: the run's
/// last).
type RunText = Box<dyn FnMut(&[u8], bool)>;

/// Where the projection goes.
enum Projecting {
    Off,
    /// Kept in the report (the text output prints it at the end).
    Kept,
    /// Each run's canonical JSON text handed over as it ends.
    Sink(RunText),
}

/// The projection for the `--json` report alone (stdout takes none).
fn runs_to_tee(tee: &Shared<Tee>) -> Projecting {
    if !tee.borrow().wants_runs() {
        return Projecting::Off;
    }
    let tee = Rc::clone(tee);
    Projecting::Sink(Box::new(move |piece, last| {
        tee.borrow_mut().run_text(piece, last)
    }))
}

/// `--format json`: one object, violations written as found, each run's
/// projection kept aside and copied in at the end.
fn check_json<W: Write + 'static>(
    input: Input,
    settings: &Settings,
    live: bool,
    (out, copy): (W, CopyIn<W>),
    tee: &Shared<Tee>,
    lines: bool,
) -> io::Result<Done> {
    let projection = settings.projection;
    let stream = JsonStream::new(out, settings.printed)
        .live(live)
        .copy_in_with(copy);
    let stream = Rc::new(RefCell::new(Some(JsonReport::new(stream, settings.group))));
    let (runs, findings, failed) = (Rc::clone(&stream), Rc::clone(&stream), Rc::clone(&stream));
    let projecting = if projection {
        let to_tee = Rc::clone(tee);
        Projecting::Sink(Box::new(move |piece, last| {
            if let Some(s) = runs.borrow_mut().as_mut() {
                s.stream.run_text(piece, last);
            }
            to_tee.borrow_mut().run_text(piece, last);
        }))
    } else {
        runs_to_tee(tee)
    };
    let sink = move |f: Finding<'_>| {
        if let Some(s) = findings.borrow_mut().as_mut() {
            s.finding(f);
        }
    };
    let checker = checker(settings, projecting, sink, tee);
    let stop = move || failed.borrow().as_ref().is_some_and(|s| s.stream.failed());
    let kind = source_kind(input.format);
    let checked = input.check(checker, stop, tee, lines)?;
    let Some(mut stream) = stream.borrow_mut().take() else {
        return written_or_gone(Ok(()), checked);
    };
    stream.set_coverage(&coverage::of(kind, &checked.0, &tee.borrow().notices));
    let written = stream.finish(&checked.0, &checked.1, projection);
    written_or_gone(written, checked)
}

/// `--format text`: one line per finding as found (one per rule with
/// `--group`), then the summary.
fn check_text(
    input: Input,
    settings: &Settings,
    name: &str,
    live: bool,
    out: impl Write + 'static,
    tee: &Shared<Tee>,
    lines: bool,
) -> io::Result<Done> {
    let colour = render::text::colour();
    let text = Rc::new(RefCell::new(
        TextStream::new(out, settings.printed, colour, live).grouped(settings.group),
    ));
    let (findings, failed) = (Rc::clone(&text), Rc::clone(&text));
    // The text report's projection is kept whole; the `--json` report
    // then takes each run from it at the end.
    let projecting = if settings.projection {
        Projecting::Kept
    } else {
        runs_to_tee(tee)
    };
    let sink = move |f: Finding<'_>| findings.borrow_mut().finding(f);
    let checker = checker(settings, projecting, sink, tee);
    let stop = move || failed.borrow().failed();
    let kind = source_kind(input.format);
    let (mut report, runs) = input.check(checker, stop, tee, lines)?;
    if !settings.projection {
        // Made for `--json` alone.
        report.projection = None;
    }
    if settings.projection
        && let (Some(p), Some(j)) = (&report.projection, tee.borrow_mut().json.as_mut())
        && settings.json_projection
    {
        for run in &p.runs {
            j.stream.run(run);
        }
    }
    let mut text = text.borrow_mut();
    text.set_coverage(&coverage::of(kind, &report, &tee.borrow().notices));
    let written = text.finish(name, &report, &runs);
    written_or_gone(written, (report, runs))
}

/// `--format sarif`: the findings kept in the tee; the log is written
/// once the check is done (crate::checking::check_one).
fn check_sarif(
    input: Input,
    settings: &Settings,
    tee: &Shared<Tee>,
    lines: bool,
) -> io::Result<Done> {
    let checker = checker(settings, runs_to_tee(tee), |_| {}, tee);
    let checked = input.check(checker, || false, tee, lines)?;
    written_or_gone(Ok(()), checked)
}

/// Opens the input source, and says whether it is live (a pipe or a
/// terminal, whose findings are flushed one by one).
pub fn open_input(input: &Path) -> anyhow::Result<(Box<dyn BufRead + Send>, bool)> {
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

/// The size of a regular file (none for stdin, pipes and the like).
pub fn file_size(input: &Path) -> Option<u64> {
    if input.as_os_str() == "-" {
        return None;
    }
    std::fs::metadata(input)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
}

/// The name the report gives the input.
pub fn label(input: &Path) -> String {
    if input.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        input.display().to_string()
    }
}
