//! `agui-conform check A.jsonl B.jsonl …` or `check DIR`: many files
//! checked in parallel (`-j` worker threads, each checking one file at a
//! time on one thread), one report per file printed in argument order —
//! each byte for byte the report of checking that file alone — then a
//! summary. Each report is written to memory and printed when every
//! earlier file's has been, so a file's report waits for the slowest
//! earlier file.
//!
//! `--format json` prints one JSON document per line: each file's report
//! (or `{"file":…,"error":…}` for a file that could not be read), then
//! `{"summary":{…}}`; `--json PATH` writes the same lines to a file.
//! `--format sarif` and `--sarif PATH` are one log over every file
//! (crate::render::sarif::batch_log), `--junit PATH` one test case per
//! file. Exit status over all files: 2 if one could not be
//! read, else 1 if one was rejected, else 3 if one was inconclusive, else 0.
//!
//! A file that holds a corpus case is checked as the stream it holds; JSON
//! Lines of cases on one input (`gen | check -`) are checked the same way
//! as many files, one case after the other ([`run_cases`]).

use crate::case_input::{self, Sniffed};
use crate::checking::{self, Format, JsonOut, ParseAhead, Settings, Source};
use crate::pending::Pending;
use crate::record::Summary;
use crate::render;
use agui_model::{Verdict, copy_in};
use anyhow::Context;
use serde_json::json;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// File names a directory contributes.
const STREAM_EXTENSIONS: [&str; 4] = ["jsonl", "ndjson", "json", "sse"];

/// The files to check when there are several inputs or a directory
/// (`recursive`: its subdirectories too); `None` for one file (or stdin),
/// checked as before.
pub fn inputs(
    all: &[&PathBuf],
    recursive: bool,
    settings: &Settings,
) -> anyhow::Result<Option<Vec<PathBuf>>> {
    if all.len() == 1 && !all[0].is_dir() {
        return Ok(None);
    }
    let mut files = Vec::new();
    for &p in all {
        if p.as_os_str() == "-" {
            anyhow::bail!("`-` (standard input) cannot be checked together with other inputs");
        }
        if p.is_dir() {
            let found = directory(p, recursive)?;
            if found.is_empty() {
                let hint = if !recursive && has_subdirectory(p) {
                    "; --recursive looks in its subdirectories too"
                } else {
                    ""
                };
                anyhow::bail!(
                    "{} holds no stream files (*.jsonl, *.ndjson, *.json, *.sse){hint}",
                    p.display()
                );
            }
            files.extend(found);
        } else {
            files.push(p.clone());
        }
    }
    if let Some(flag) = one_input_only(settings) {
        anyhow::bail!("{flag} takes one input; several files or a directory were given");
    }
    Ok(Some(files))
}

/// A directory's stream files, sorted by path; with `recursive`, its
/// subdirectories' too (real directories only: a link to one is not
/// followed, so no loop). `*.schema.json` (a case folder's JSON Schema) is
/// no stream.
fn directory(dir: &Path, recursive: bool) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry?;
        let path = entry.path();
        if recursive && entry.file_type().is_ok_and(|t| t.is_dir()) {
            files.extend(directory(&path, true)?);
            continue;
        }
        let stream = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| STREAM_EXTENSIONS.contains(&e));
        let schema = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".schema.json"));
        // Everything named as a stream but a directory: a broken or looping
        // link is then unreadable in the summary, never skipped unseen.
        if stream && !schema && !path.is_dir() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Whether `dir` has a subdirectory (for the hint when it has no stream).
fn has_subdirectory(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_type().is_ok_and(|t| t.is_dir()))
    })
}

/// What checking one file gave: its printed report, or why it could not
/// be checked, and whether it held a corpus case (whose stream was
/// checked).
struct Done {
    output: Vec<u8>,
    /// Its JSON report, for `--json PATH` (empty without it).
    json: Vec<u8>,
    /// Its SARIF log and JUnit test case, when asked for.
    sarif: Option<serde_json::Value>,
    junit: Option<quick_junit::TestCase>,
    outcome: Result<(Verdict, u8, usize, usize), String>,
    case: bool,
}

/// The first flag given that takes one input only (a lane page draws one
/// stream).
fn one_input_only(settings: &Settings) -> Option<&'static str> {
    settings.html.is_some().then_some("--html")
}

/// What a batch writes beside stdout, opened before any input is
/// checked, and the SARIF logs and JUnit cases gathered in input order.
struct Outputs {
    json: Option<(Pending, JsonOut)>,
    sarif: Option<Pending>,
    junit: Option<Pending>,
    /// Each input's SARIF log, or why it could not be read.
    logs: Vec<(String, Result<serde_json::Value, String>)>,
    cases: Vec<quick_junit::TestCase>,
}

impl Outputs {
    fn open(settings: &Settings) -> anyhow::Result<Outputs> {
        let (pending, json) = checking::json_file(settings)?;
        let open = |p: &Option<PathBuf>, flag| -> anyhow::Result<Option<Pending>> {
            Ok(match p {
                Some(p) => Some(Pending::create(flag, p)?.0),
                None => None,
            })
        };
        Ok(Outputs {
            json: pending.zip(json),
            sarif: open(&settings.sarif, "--sarif")?,
            junit: open(&settings.junit, "--junit")?,
            logs: Vec::new(),
            cases: Vec::new(),
        })
    }

    /// Takes in one input's SARIF log and JUnit case (or its error), in
    /// order.
    fn gather(&mut self, settings: &Settings, name: &str, done: &mut Done) {
        let sarif = settings.format == Format::Sarif || settings.sarif.is_some();
        match &done.outcome {
            Ok(_) => {
                if let (true, Some(log)) = (sarif, done.sarif.take()) {
                    self.logs.push((name.to_owned(), Ok(log)));
                }
                if let Some(case) = done.junit.take() {
                    self.cases.push(case);
                }
            }
            Err(e) => {
                if sarif {
                    self.logs.push((name.to_owned(), Err(e.clone())));
                }
                if settings.junit.is_some() {
                    self.cases.push(render::junit::error_case(name, e));
                }
            }
        }
    }

    /// Writes the files: the JSON Lines' summary, the one SARIF log, the
    /// JUnit suite; each put in place when complete. Hands back the SARIF
    /// log, for `--format sarif` to print.
    fn finish(
        mut self,
        summary: &Summary,
        labels: &[String],
    ) -> anyhow::Result<Option<serde_json::Value>> {
        if let Some((pending, mut j)) = self.json.take() {
            render::json::batch_summary(&mut j, summary, labels)
                .and_then(|()| j.flush())
                .map_err(|e| anyhow::anyhow!("writing the --json report: {e}"))?;
            drop(j);
            pending.commit()?;
        }
        let log = (!self.logs.is_empty() || self.sarif.is_some())
            .then(|| render::sarif::batch_log(std::mem::take(&mut self.logs)));
        if let (Some(pending), Some(log)) = (self.sarif.take(), &log) {
            let f = std::fs::File::create(pending.tmp())
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", pending.tmp().display()))?;
            render::sarif::write(io::BufWriter::new(f), log)
                .map_err(|e| anyhow::anyhow!("writing the --sarif log: {e}"))?;
            pending.commit()?;
        }
        if let Some(pending) = self.junit.take() {
            render::junit::write_batch(pending.tmp(), std::mem::take(&mut self.cases))?;
            pending.commit()?;
        }
        Ok(log)
    }
}

/// Checks `files` on `jobs` threads [default: the available cores] and
/// prints their reports in order, then the summary; the exit status over
/// all.
pub fn run(settings: &Settings, jobs: Option<usize>, files: &[PathBuf]) -> anyhow::Result<u8> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = jobs.unwrap_or(cores).clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Done)>();
    let stack = settings.limits.stack_bytes();
    if settings.projection {
        crate::stdout::widen_stdout();
    }
    let mut out = crate::stdout::Marked(io::BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut outputs = Outputs::open(settings)?;
    let mut summary = Summary::default();
    let printed = std::thread::scope(|scope| -> anyhow::Result<bool> {
        for w in 0..jobs {
            let tx = tx.clone();
            let (next, cancel) = (&next, &cancel);
            std::thread::Builder::new()
                .name(format!("check-{w}"))
                .stack_size(stack)
                .spawn_scoped(scope, move || {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= files.len() || cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        if tx.send((k, check_file(settings, &files[k]))).is_err() {
                            break;
                        }
                    }
                })
                .context("cannot start a checking thread")?;
        }
        drop(tx);
        // Reports in argument order, each as soon as the earlier ones are out.
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (k, done) in rx {
            waiting.insert(k, done);
            while let Some(mut done) = waiting.remove(&due) {
                let label = checking::label(&files[due]);
                outputs.gather(settings, &label, &mut done);
                let written = print(
                    (&mut out, outputs.json.as_mut().map(|(_, j)| j)),
                    settings,
                    &label,
                    &done,
                    &mut summary,
                );
                if let Err(e) = written {
                    cancel.store(true, Ordering::Relaxed);
                    if e.kind() == io::ErrorKind::BrokenPipe {
                        return Ok(false);
                    }
                    return Err(e.into());
                }
                due += 1;
            }
        }
        Ok(true)
    })?;
    if !printed {
        return Ok(0);
    }
    let labels: Vec<String> = files.iter().map(|f| checking::label(f)).collect();
    let log = outputs.finish(&summary, &labels)?;
    match write_summary(&mut out, &summary, (settings.format, log), &labels, "files") {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
        r => r?,
    }
    if summary.cases > 0 {
        eprintln!(
            "agui-conform: {} of the {} files are corpus cases: the stream each holds was checked, not the case file",
            summary.cases,
            files.len()
        );
    }
    Ok(summary.exit)
}

/// JSON Lines of corpus cases (`gen | check -`): each case's stream
/// checked in turn, one report each as if it were a file named
/// `NAME:LINE (ID)`, then the summary; the exit status over all.
pub fn run_cases(settings: &Settings, name: &str, cases: case_input::Lines) -> anyhow::Result<u8> {
    if let Some(flag) = one_input_only(settings) {
        anyhow::bail!("{flag} takes one input; {name} holds several corpus cases");
    }
    if settings.projection {
        crate::stdout::widen_stdout();
    }
    let mut out = crate::stdout::Marked(io::BufWriter::with_capacity(1 << 16, io::stdout()));
    let mut outputs = Outputs::open(settings)?;
    let mut summary = Summary::default();
    let mut labels = Vec::new();
    for (k, found) in cases.enumerate() {
        let (label, done) = match found {
            Ok(found) => {
                let label = found.label(name);
                let input = Box::new(io::Cursor::new(found.stream()));
                let done = check_input(settings, (input, None), false, None, &label, true);
                (label.clone(), done)
            }
            Err(e) => (
                format!("{name}#{}", k + 1),
                Done {
                    output: Vec::new(),
                    json: Vec::new(),
                    sarif: None,
                    junit: None,
                    outcome: Err(format!("{name}: {e}")),
                    case: false,
                },
            ),
        };
        let mut done = done;
        outputs.gather(settings, &label, &mut done);
        let json = outputs.json.as_mut().map(|(_, j)| j);
        match print((&mut out, json), settings, &label, &done, &mut summary) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
            r => r?,
        }
        labels.push(label);
    }
    let log = outputs.finish(&summary, &labels)?;
    match write_summary(&mut out, &summary, (settings.format, log), &labels, "cases") {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
        r => r?,
    }
    Ok(summary.exit)
}

/// Checks one file into memory, as `check FILE` would print it (a corpus
/// case as its stream).
fn check_file(settings: &Settings, path: &Path) -> Done {
    let name = checking::label(path);
    let opened = checking::open_input(path).and_then(|(input, live)| {
        let sniffed = case_input::sniff(input).with_context(|| format!("reading {name}"))?;
        Ok((sniffed, live))
    });
    match opened {
        Ok((Sniffed::Stream(input), live)) => {
            let size = checking::file_size(path);
            check_input(settings, (input, Some(path)), live, size, &name, false)
        }
        Ok((Sniffed::Case(found), _)) => {
            let input = Box::new(io::Cursor::new(found.stream()));
            check_input(settings, (input, None), false, None, &name, true)
        }
        Ok((Sniffed::Lines(_), _)) => Done {
            output: Vec::new(),
            json: Vec::new(),
            sarif: None,
            junit: None,
            outcome: Err(format!(
                "{name} holds JSON Lines of corpus cases: check it alone (`check {name}`) for one report per case"
            )),
            case: false,
        },
        Err(e) => Done {
            output: Vec::new(),
            json: Vec::new(),
            sarif: None,
            junit: None,
            outcome: Err(format!("{e:#}")),
            case: false,
        },
    }
}

/// Checks one input (and the file it was read from) into memory, as
/// `check` would print it.
fn check_input(
    settings: &Settings,
    (input, file): (Box<dyn std::io::BufRead + Send>, Option<&Path>),
    live: bool,
    size: Option<u64>,
    name: &str,
    case: bool,
) -> Done {
    let buf = Shared::default();
    // Files are checked one thread each: the other cores check other
    // files.
    let source = Source {
        input,
        file,
        size,
        live,
        name,
        stated: case,
    };
    let json = settings.json.as_ref().map(|_| Shared::default());
    let json_out = json.clone().map(|j| Box::new(j) as Box<dyn Write>);
    let outcome = checking::check_one(
        settings,
        ParseAhead::Off,
        source,
        (buf.clone(), copy_in),
        json_out,
    );
    let output = buf.take();
    let (mut sarif, mut junit) = (None, None);
    let outcome = match outcome {
        Ok(Some(mut c)) => {
            sarif = c.sarif.take();
            junit = c.junit.take();
            Ok(Some(c))
        }
        other => other,
    };
    Done {
        output,
        json: json.map(|j| j.take()).unwrap_or_default(),
        sarif,
        junit,
        case,
        outcome: match outcome {
            Ok(Some(c)) => {
                let exit = settings.policy.exit_status(&c.report);
                Ok((
                    c.report.verdict(),
                    exit,
                    c.report.events,
                    c.report.counts.violations(),
                ))
            }
            // Writing to memory does not fail.
            Ok(None) => Err("the report could not be written".to_owned()),
            Err(e) => Err(format!("{e:#}")),
        },
    }
}

/// Prints one file's report (or its error), writes its JSON report to
/// `--json`'s file, and counts it.
fn print(
    (out, json): (&mut impl Write, Option<&mut Box<dyn Write>>),
    settings: &Settings,
    name: &str,
    done: &Done,
    summary: &mut Summary,
) -> io::Result<()> {
    if let Some(j) = json {
        j.write_all(&done.json)?;
        if let Err(e) = &done.outcome {
            render::json::error_line(j, "file", name, e)?;
        }
    }
    out.write_all(&done.output)?;
    match &done.outcome {
        Ok((verdict, exit, events, violations)) => {
            if *events == 0 && *verdict == Verdict::Inconclusive {
                eprintln!("agui-conform: {name}: {}", crate::no_events::MESSAGE);
            }
            summary.add(*verdict, *exit, *events, *violations);
            summary.cases += usize::from(done.case);
        }
        Err(e) => {
            eprintln!("agui-conform: {e}");
            if settings.format == Format::Json {
                render::json::error_line(out, "file", name, e)?;
            }
            summary.failed(name);
        }
    }
    out.flush()
}

impl Summary {
    fn add(&mut self, verdict: Verdict, exit: u8, events: usize, violations: usize) {
        match verdict {
            Verdict::Accept => self.accept += 1,
            Verdict::Reject => self.reject += 1,
            Verdict::Inconclusive => self.inconclusive += 1,
        }
        self.events += events;
        self.violations += violations;
        self.exit = worse(self.exit, exit);
        self.verdicts
            .push(json!({"verdict": verdict.as_str(), "exit": exit}));
    }

    fn failed(&mut self, _name: &str) {
        self.unreadable += 1;
        self.exit = worse(self.exit, 2);
        self.verdicts.push(json!({"error": true, "exit": 2}));
    }
}

/// The summary over the inputs `labels` (`noun`: files or cases);
/// with `--format sarif`, the one log over every input (`log`).
fn write_summary(
    out: &mut impl Write,
    summary: &Summary,
    (format, log): (Format, Option<serde_json::Value>),
    labels: &[String],
    noun: &str,
) -> io::Result<()> {
    match (format, log) {
        (Format::Json, _) => render::json::batch_summary(out, summary, labels)?,
        (Format::Sarif, Some(log)) => render::sarif::write(&mut *out, &log)?,
        _ => render::text::batch_summary(out, summary, labels.len(), noun)?,
    }
    out.flush()
}

/// The exit status over two: an error (2) over a reject (1) over an
/// inconclusive check (3) over an accept (0).
fn worse(a: u8, b: u8) -> u8 {
    let rank = |s: u8| match s {
        0 => 0,
        3 => 1,
        1 => 2,
        _ => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// A report written to memory on a checking thread.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Shared {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::worse;

    #[test]
    fn an_error_outranks_a_reject_which_outranks_inconclusive() {
        assert_eq!(worse(0, 3), 3);
        assert_eq!(worse(3, 1), 1);
        assert_eq!(worse(1, 3), 1);
        assert_eq!(worse(1, 2), 2);
        assert_eq!(worse(2, 0), 2);
        assert_eq!(worse(0, 0), 0);
    }
}
