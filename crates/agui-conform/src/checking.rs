//! The one checking loop of `check`: a stream (a file, standard input, a
//! corpus case's stream) read as its input format, every finding handed to
//! the output being written — the text and JSON reports as each finding
//! is found, so memory never grows with the number of violations — and
//! kept for the outputs written at the end (SARIF, `--junit`, `--html`).
//! One file or many (crate::batch) go through [`check_one`].

use crate::config::Policy;
use crate::input_format::{self, InputFormat};
use crate::record::{Check, Collected};
use crate::render::{self, html, text::TextStream};
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
    pub junit: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub html_max_bytes: usize,
}

/// What checking one input gave.
pub struct Checked {
    pub report: Report,
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
}

/// Checks one input and writes its report to `out` (with `--junit` and
/// `--html`, those files too); `copy` copies spilled runs into `out`.
/// `ahead` overrides `--parse-ahead` (a batch reads each file on one
/// thread). `None` when `out` closed.
pub fn check_one<W: Write + 'static>(
    settings: &Settings,
    ahead: ParseAhead,
    source: Source<'_>,
    out: W,
    copy: CopyIn<W>,
) -> anyhow::Result<Option<Checked>> {
    let Source {
        mut input,
        file,
        size,
        live,
        name,
    } = source;
    let format = input_format::resolve(&mut *input, settings.input_format)
        .with_context(|| format!("reading {name}"))?;
    let started = std::time::Instant::now();
    // The page is drawn from the items as the check reads them (one
    // thread), and reuses the violations this check finds.
    let page = settings
        .html
        .as_ref()
        .map(|_| html::page(settings.html_max_bytes));
    let sarif = settings.format == Format::Sarif;
    // SARIF and the page read on one thread (SARIF keeps each event's line).
    let reading = match (&page, sarif) {
        (None, false) => reading(ahead, live, size),
        _ => Reading::OneThread,
    };
    let input = Input {
        input,
        format,
        reading,
        page: page.clone(),
    };
    // Outputs written at the end (SARIF, JUnit, the page) keep what is
    // found.
    let found = (settings.junit.is_some() || settings.html.is_some() || sarif)
        .then(|| Rc::new(RefCell::new(Collected::new(settings.limits.violations))));
    let report = match (settings.format, &found) {
        (Format::Sarif, Some(f)) => {
            // The events' lines are read again from a regular file (not
            // from a pipe, nor from a case's stream, whose lines are not
            // the file's).
            let lines_from = size.and(file);
            check_sarif(input, settings, lines_from, name, out, f)
        }
        (Format::Json | Format::Sarif, _) => {
            check_json(input, settings, live, (out, copy), found.clone())
        }
        (Format::Text, _) => check_text(input, settings, name, live, out, found.clone()),
    }
    .with_context(|| format!("reading {name}"))?;
    if let (Some(path), Some(page), Some(f)) = (&settings.html, page, &found) {
        let verdict = report.as_ref().map(|(r, _)| r.verdict());
        html::write(path, page, &f.borrow().violations, verdict, name)?;
    }
    let Some((report, runs)) = report else {
        return Ok(None);
    };
    if let (Some(path), Some(f)) = (&settings.junit, &found) {
        let check = Check {
            name,
            report: &report,
            runs: &runs,
            found: &f.borrow(),
            elapsed: started.elapsed(),
        };
        render::junit::write_check(path, &check)?;
    }
    Ok(Some(Checked { report }))
}

/// The input of one check, its format, how it may be read, and the page
/// it draws.
struct Input {
    input: Box<dyn BufRead + Send>,
    format: InputFormat,
    reading: Reading,
    page: Option<html::Page>,
}

impl Input {
    /// Reads it through `checker`; `lines`, when given, gets each SSE
    /// event's line.
    fn check(
        self,
        checker: Checker,
        stop: impl FnMut() -> bool,
        lines: Option<&mut Vec<usize>>,
    ) -> io::Result<(Report, RunLog)> {
        input_format::check(
            self.input,
            self.format,
            checker,
            self.reading,
            stop,
            self.page.as_ref(),
            lines,
        )
    }
}

/// What a check gave once its report is written: `None` when the reader
/// of stdout went away (nobody left to tell), the write's error otherwise.
fn written_or_gone<T>(written: io::Result<()>, checked: T) -> io::Result<Option<T>> {
    match written {
        Ok(()) => Ok(Some(checked)),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(None),
        Err(e) => Err(e),
    }
}

/// The one checker of `check`: the limits and rule levels, every finding
/// to `sink` (and to `tee`, for the outputs written at the end), and the
/// projection as `projection` says.
fn checker(
    settings: &Settings,
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
        .with_limits(settings.limits)
        .with_levels(settings.policy.levels.clone())
        .with_sink(move |f: Finding<'_>| {
            sink(f);
            if let Some(t) = &tee {
                t.borrow_mut().push(f);
            }
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

/// `--format json`: one object, violations written as found, each run's
/// projection kept aside and copied in at the end. `None` when stdout
/// closed.
fn check_json<W: Write + 'static>(
    input: Input,
    settings: &Settings,
    live: bool,
    (out, copy): (W, CopyIn<W>),
    tee: Option<Rc<RefCell<Collected>>>,
) -> io::Result<Option<(Report, RunLog)>> {
    let projection = settings.projection;
    let stream = Rc::new(RefCell::new(Some(
        JsonStream::new(out, settings.printed)
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
    let checker = checker(settings, projecting, sink, tee);
    let stop = move || failed.borrow().as_ref().is_some_and(JsonStream::failed);
    let (report, runs) = input.check(checker, stop, None)?;
    let Some(stream) = stream.borrow_mut().take() else {
        return Ok(Some((report, runs)));
    };
    let written = render::json::finish(stream, &report, &runs, projection);
    written_or_gone(written, (report, runs))
}

/// `--format text`: one line per finding as found, then the summary.
fn check_text(
    input: Input,
    settings: &Settings,
    name: &str,
    live: bool,
    out: impl Write + 'static,
    tee: Option<Rc<RefCell<Collected>>>,
) -> io::Result<Option<(Report, RunLog)>> {
    let colour = render::text::colour();
    let text = Rc::new(RefCell::new(TextStream::new(
        out,
        settings.printed,
        colour,
        live,
    )));
    let (findings, failed) = (Rc::clone(&text), Rc::clone(&text));
    let projecting = if settings.projection {
        Projecting::Kept
    } else {
        Projecting::Off
    };
    let sink = move |f: Finding<'_>| findings.borrow_mut().finding(f);
    let checker = checker(settings, projecting, sink, tee);
    let stop = move || failed.borrow().failed();
    let (report, runs) = input.check(checker, stop, None)?;
    let mut text = text.borrow_mut();
    let written = text.finish(name, &report, &runs);
    written_or_gone(written, (report, runs))
}

/// `--format sarif`: the findings kept in `found`, then the log. The
/// lines of the events come from the SSE reader, or for JSON from a second
/// read of `lines_from` (none from stdin or a corpus case's stream).
fn check_sarif(
    input: Input,
    settings: &Settings,
    lines_from: Option<&Path>,
    name: &str,
    out: impl Write,
    found: &Rc<RefCell<Collected>>,
) -> io::Result<Option<(Report, RunLog)>> {
    let checker = checker(settings, Projecting::Off, |_| {}, Some(Rc::clone(found)));
    let mut lines = Vec::new();
    let sse = input.format == InputFormat::Sse;
    let (report, runs) = input.check(checker, || false, sse.then_some(&mut lines))?;
    if let (false, Some(path)) = (sse, lines_from) {
        let file = BufReader::new(File::open(path)?);
        stream::read_stream(file, &settings.limits.read_options(), |item| {
            lines.push(item.line());
            ControlFlow::Continue(())
        })?;
    }
    let empty = crate::no_events::holds_none(&report);
    let log = render::sarif::file_log(name, &lines, &found.borrow(), &runs, empty);
    let written = render::sarif::write(out, &log);
    written_or_gone(written, (report, runs))
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
