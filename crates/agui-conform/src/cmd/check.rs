//! `agui-conform check`: checks one recorded stream against every rule.
//!
//! The input is read with [`agui_model::stream::read_stream`] (JSON Lines or
//! one JSON array, streamed) and fed item by item to the reference
//! [`Checker`]. Exit status: 0 accept, 1 reject, 2 usage or I/O error.

use agui_model::stream::{self, Item, ReadOptions};
use agui_model::{Checker, JsonStream, Report, Severity, Verdict};
use anyhow::Context;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Arguments of `agui-conform check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The stream to check: a file of JSON Lines or one JSON array, or `-`
    /// for standard input.
    #[arg(default_value = "-")]
    pub input: PathBuf,
    /// Output form: a readable report, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also print the projection (text output).
    #[arg(long, conflicts_with = "no_projection")]
    pub projection: bool,
    /// Leave the projection out (JSON output; faster).
    #[arg(long)]
    pub no_projection: bool,
    /// List every violation in the text report (default: the first 50).
    #[arg(long)]
    pub all: bool,
    /// Longest line accepted, in bytes; a longer line is skipped and
    /// reported as `schema.not-json`.
    #[arg(long, value_name = "BYTES", default_value_t = stream::DEFAULT_MAX_LINE_BYTES)]
    pub max_line_bytes: usize,
    /// Also write the stream drawn as lanes (one per owner) with its
    /// violations to PATH: one self-contained HTML page (not yet with
    /// `--url`).
    #[arg(long, value_name = "PATH", conflicts_with = "url")]
    pub html: Option<PathBuf>,
    /// A live producer instead of a file (`--url` and its flags).
    #[command(flatten)]
    pub live: super::producer::LiveArgs,
}

/// Output form of `check`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Violations listed by the text report unless `--all` is given.
const SHOWN: usize = 50;

pub fn run(args: Args) -> anyhow::Result<u8> {
    let wants_projection = match args.format {
        Format::Text => args.projection,
        Format::Json => !args.no_projection,
    };
    if let Some(url) = &args.live.url {
        return super::producer::check_url(url, &args, wants_projection);
    }
    let input = open_input(&args.input)?;
    let (input, kept) = super::html::keep(input, args.html.is_some())?;
    let opts = ReadOptions {
        max_line_bytes: args.max_line_bytes,
    };
    if args.format == Format::Json && wants_projection && kept.is_none() {
        return check_streaming(input, &opts, &args.input);
    }
    let checker = if wants_projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    let report = check_reader(input, &opts, checker)
        .with_context(|| format!("reading {}", label(&args.input)))?;
    if report.events == 0 {
        eprintln!("agui-conform: input holds no events");
    }
    if let (Some(path), Some(kept)) = (&args.html, kept) {
        super::html::write(path, kept, &opts, &report, &label(&args.input))?;
    }
    super::rules::to_stdout(|out| match args.format {
        Format::Json => write_json_line(out, &report),
        Format::Text => write_text(out, &label(&args.input), &report, args.all, colour()),
    })?;
    Ok(exit_status(&report))
}

/// `check`'s exit status for a report: 0 accept, 1 reject.
fn exit_status(report: &Report) -> u8 {
    match report.verdict() {
        Verdict::Accept => 0,
        Verdict::Reject => 1,
    }
}

/// The machine form of `report` and a newline, buffered (the line can be
/// hundreds of megabytes).
pub(super) fn write_json_line(out: impl Write, report: &Report) -> io::Result<()> {
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    report.write_json(&mut w)?;
    writeln!(w)?;
    w.flush()
}

/// Opens the input source. The one place that knows where streams come
/// from (a later `--url` source belongs here).
fn open_input(input: &Path) -> anyhow::Result<Box<dyn BufRead>> {
    if input.as_os_str() == "-" {
        return Ok(Box::new(BufReader::with_capacity(
            1 << 16,
            io::stdin().lock(),
        )));
    }
    let file = File::open(input).with_context(|| format!("cannot open {}", input.display()))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        anyhow::bail!("{} is a directory, not a stream", input.display());
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// The name the report gives the input.
fn label(input: &Path) -> String {
    if input.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        input.display().to_string()
    }
}

/// `--format json` with the projection: each run is printed as it ends
/// ([`JsonStream`]), so memory stays that of one run however long the
/// stream; the bytes are those of the report printed at the end. An input
/// error leaves the text unfinished on stdout (the error goes to stderr).
fn check_streaming(input: impl BufRead, opts: &ReadOptions, path: &Path) -> anyhow::Result<u8> {
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout());
    let stream = Rc::new(RefCell::new(Some(JsonStream::new(out))));
    let sink = Rc::clone(&stream);
    let checker = Checker::with_projection_sink(move |run| {
        if let Some(s) = sink.borrow_mut().as_mut() {
            s.run(&run);
        }
    });
    let report =
        check_reader(input, opts, checker).with_context(|| format!("reading {}", label(path)))?;
    if report.events == 0 {
        eprintln!("agui-conform: input holds no events");
    }
    let Some(stream) = stream.borrow_mut().take() else {
        anyhow::bail!("the JSON report was already finished");
    };
    let written = stream
        .finish(&report)
        .and_then(|mut out| writeln!(out).and_then(|()| out.flush()));
    if let Err(e) = written
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    Ok(exit_status(&report))
}

/// Reads a whole stream through `checker`.
pub fn check_reader(
    input: impl BufRead,
    opts: &ReadOptions,
    checker: Checker,
) -> io::Result<Report> {
    let checker = RefCell::new(checker);
    // Common lines take the checker's borrowed fast path; the rest are
    // parsed by the reader and pushed as values (same report either way).
    let fast = |line: &[u8]| checker.borrow_mut().try_push_line(line);
    stream::read_stream_with(input, opts, fast, |item| {
        let mut checker = checker.borrow_mut();
        match item {
            Item::Value { value, .. } => checker.push(&value),
            Item::Unparseable { line, reason } => {
                checker.push_unparseable(&format!("line {line}: {reason}"))
            }
        }
        ControlFlow::Continue(())
    })?;
    Ok(checker.into_inner().finish())
}

/// ANSI colours, used only when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Clone, Copy)]
pub(super) struct Colour(bool);

impl Colour {
    fn paint(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

pub(super) fn colour() -> Colour {
    Colour(io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
}

/// The readable report: a header, one line per violation, a hint.
pub(super) fn write_text(
    out: &mut impl Write,
    name: &str,
    report: &Report,
    all: bool,
    c: Colour,
) -> io::Result<()> {
    let verdict = report.verdict();
    let errors = report
        .violations
        .iter()
        .filter(|v| v.rule.severity() == Severity::Error)
        .count();
    let warnings = report.violations.len() - errors;
    let painted = match verdict {
        Verdict::Accept => c.paint("32;1", verdict.as_str()),
        Verdict::Reject => c.paint("31;1", verdict.as_str()),
    };
    let events = plural(report.events, "event");
    if report.violations.is_empty() {
        writeln!(out, "{name}: {painted} — no violations in {events}")?;
    } else {
        writeln!(
            out,
            "{name}: {painted} — {} ({}, {}) in {events}",
            plural(report.violations.len(), "violation"),
            plural(errors, "error"),
            plural(warnings, "warning"),
        )?;
    }
    let shown = if all {
        report.violations.len()
    } else {
        SHOWN.min(report.violations.len())
    };
    for v in &report.violations[..shown] {
        let severity = v.rule.severity().as_str();
        let severity = match v.rule.severity() {
            Severity::Error => c.paint("31", &format!("{severity:<7}")),
            _ => c.paint("33", &format!("{severity:<7}")),
        };
        let at = v
            .path
            .as_deref()
            .map(|p| format!(" (at {p})"))
            .unwrap_or_default();
        writeln!(
            out,
            "  #{:<5} {severity} {}: {}{at}",
            v.index, v.rule, v.message
        )?;
    }
    if shown < report.violations.len() {
        writeln!(
            out,
            "  … {} more (`--all` lists them, `--format json` too)",
            report.violations.len() - shown
        )?;
    }
    if let Some(first) = report.violations.first() {
        writeln!(out, "hint: agui-conform explain {}", first.rule)?;
    }
    if let Some(p) = &report.projection {
        let pretty = serde_json::to_string_pretty(&p.to_json()).map_err(io::Error::other)?;
        writeln!(out, "projection:\n{pretty}")?;
    }
    Ok(())
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
        write_text(&mut out, "s.jsonl", report, false, Colour(false)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn header_counts_errors_and_warnings() {
        let report = Report {
            violations: vec![
                Violation::new(RuleId::SchemaUnknownType, 0, "no type").at_path("type"),
                Violation::new(RuleId::InterruptUnknownId, 3, "interrupt `i9` unknown"),
            ],
            projection: None,
            events: 12,
        };
        let t = text(&report);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "s.jsonl: reject — 2 violations (1 error, 1 warning) in 12 events"
        );
        assert!(
            lines[1].contains("#0")
                && lines[1].contains("error")
                && lines[1].contains("schema.unknown-type")
        );
        assert!(lines[1].ends_with("no type (at type)"), "{}", lines[1]);
        assert!(
            lines[2].contains("#3")
                && lines[2].contains("warning")
                && lines[2].contains("interrupt.unknown-id")
        );
        assert_eq!(lines[3], "hint: agui-conform explain schema.unknown-type");
    }

    #[test]
    fn clean_stream_has_a_one_line_report() {
        let report = Report {
            violations: vec![],
            projection: None,
            events: 1,
        };
        assert_eq!(
            text(&report),
            "s.jsonl: accept — no violations in 1 event\n"
        );
    }

    #[test]
    fn long_lists_are_cut_with_a_pointer() {
        let violations = (0..SHOWN + 7)
            .map(|i| Violation::new(RuleId::SchemaNotJson, i, "not an object"))
            .collect();
        let t = text(&Report {
            violations,
            projection: None,
            events: SHOWN + 7,
        });
        assert_eq!(t.lines().filter(|l| l.starts_with("  #")).count(), SHOWN);
        assert!(t.contains("… 7 more"));
    }
}
