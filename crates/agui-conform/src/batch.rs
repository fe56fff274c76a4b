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
//! `{"summary":{…}}`. Exit status over all files: 2 if one could not be
//! read, else 1 if one was rejected, else 3 if one was inconclusive, else 0.
//!
//! A file that holds a corpus case is checked as the stream it holds; JSON
//! Lines of cases on one input (`gen | check -`) are checked the same way
//! as many files, one case after the other ([`run_cases`]).

use crate::case_input::{self, Sniffed};
use crate::cmd::check::{self, Args, Format};
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

/// The files to check when there are several inputs or a directory;
/// `None` for one file (or stdin), checked as before.
pub fn inputs(args: &Args) -> anyhow::Result<Option<Vec<PathBuf>>> {
    let all: Vec<&PathBuf> = std::iter::once(&args.input).chain(&args.more).collect();
    if all.len() == 1 && !args.input.is_dir() {
        return Ok(None);
    }
    let mut files = Vec::new();
    for p in all {
        if p.as_os_str() == "-" {
            anyhow::bail!("`-` (standard input) cannot be checked together with other inputs");
        }
        if p.is_dir() {
            let found = directory(p, args.recursive)?;
            if found.is_empty() {
                let hint = if !args.recursive && has_subdirectory(p) {
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
    for (flag, set) in [
        ("--junit", args.junit.is_some()),
        ("--html", args.html.is_some()),
        ("--format sarif", args.format == Format::Sarif),
    ] {
        if set {
            anyhow::bail!("{flag} takes one input; several files or a directory were given");
        }
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
    outcome: Result<(Verdict, u8, usize, usize), String>,
    case: bool,
}

/// Checks `files` on `-j` threads and prints their reports in order, then
/// the summary; the exit status over all.
pub fn run(args: &Args, files: &[PathBuf]) -> anyhow::Result<u8> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.jobs.unwrap_or(cores).clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Done)>();
    let stack = args.limits().stack_bytes();
    if crate::cmd::check::wants_projection(args) {
        crate::stdout::widen_stdout();
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout());
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
                        if tx.send((k, check_file(args, &files[k]))).is_err() {
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
            while let Some(done) = waiting.remove(&due) {
                let written = print(
                    &mut out,
                    args,
                    &check::label(&files[due]),
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
    let labels: Vec<String> = files.iter().map(|f| check::label(f)).collect();
    match summary.write(&mut out, args.format, &labels, "files") {
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
pub fn run_cases(args: &Args, name: &str, cases: case_input::Lines) -> anyhow::Result<u8> {
    for (flag, set) in [
        ("--junit", args.junit.is_some()),
        ("--html", args.html.is_some()),
        ("--format sarif", args.format == Format::Sarif),
    ] {
        if set {
            anyhow::bail!("{flag} takes one input; {name} holds several corpus cases");
        }
    }
    if crate::cmd::check::wants_projection(args) {
        crate::stdout::widen_stdout();
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout());
    let mut summary = Summary::default();
    let mut labels = Vec::new();
    for (k, found) in cases.enumerate() {
        let (label, done) = match found {
            Ok(found) => {
                let label = found.label(name);
                let input = Box::new(io::Cursor::new(found.stream()));
                (
                    label.clone(),
                    check_input(args, input, false, None, &label, true),
                )
            }
            Err(e) => (
                format!("{name}#{}", k + 1),
                Done {
                    output: Vec::new(),
                    outcome: Err(format!("{name}: {e}")),
                    case: false,
                },
            ),
        };
        match print(&mut out, args, &label, &done, &mut summary) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
            r => r?,
        }
        labels.push(label);
    }
    match summary.write(&mut out, args.format, &labels, "cases") {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(0),
        r => r?,
    }
    Ok(summary.exit)
}

/// Checks one file into memory, as `check FILE` would print it (a corpus
/// case as its stream).
fn check_file(args: &Args, path: &Path) -> Done {
    let name = check::label(path);
    let opened = check::open_input(path).and_then(|(input, live)| {
        let sniffed = case_input::sniff(input).with_context(|| format!("reading {name}"))?;
        Ok((sniffed, live))
    });
    match opened {
        Ok((Sniffed::Stream(input), live)) => {
            check_input(args, input, live, check::file_size(path), &name, false)
        }
        Ok((Sniffed::Case(found), _)) => {
            let input = Box::new(io::Cursor::new(found.stream()));
            check_input(args, input, false, None, &name, true)
        }
        Ok((Sniffed::Lines(_), _)) => Done {
            output: Vec::new(),
            outcome: Err(format!(
                "{name} holds JSON Lines of corpus cases: check it alone (`check {name}`) for one report per case"
            )),
            case: false,
        },
        Err(e) => Done {
            output: Vec::new(),
            outcome: Err(format!("{e:#}")),
            case: false,
        },
    }
}

/// Checks one input into memory, as `check` would print it.
fn check_input(
    args: &Args,
    input: Box<dyn std::io::BufRead + Send>,
    live: bool,
    size: Option<u64>,
    name: &str,
    case: bool,
) -> Done {
    let buf = Shared::default();
    // Files are checked one thread each: the other cores check other
    // files.
    let (ahead, out) = (check::ParseAhead::Off, buf.clone());
    let outcome = check::check_one(args, ahead, input, live, size, name, out, copy_in);
    let output = buf.take();
    Done {
        output,
        case,
        outcome: match outcome {
            Ok(Some(c)) => {
                let exit = args.rule_config.policy.exit_status(&c.report);
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

/// Prints one file's report (or its error) and counts it.
fn print(
    out: &mut impl Write,
    args: &Args,
    name: &str,
    done: &Done,
    summary: &mut Summary,
) -> io::Result<()> {
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
            if args.format == Format::Json {
                writeln!(out, "{}", json!({"file": name, "error": e}))?;
            }
            summary.failed(name);
        }
    }
    out.flush()
}

/// Totals over the files.
#[derive(Default)]
struct Summary {
    accept: usize,
    reject: usize,
    inconclusive: usize,
    unreadable: usize,
    events: usize,
    violations: usize,
    exit: u8,
    verdicts: Vec<serde_json::Value>,
    /// Inputs that were corpus cases.
    cases: usize,
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

    /// The summary over the inputs `labels` (`noun`: files or cases).
    fn write(
        &self,
        out: &mut impl Write,
        format: Format,
        labels: &[String],
        noun: &str,
    ) -> io::Result<()> {
        if format == Format::Json {
            let per_file: Vec<serde_json::Value> = labels
                .iter()
                .zip(&self.verdicts)
                .map(|(f, v)| {
                    let mut v = v.clone();
                    v["file"] = json!(f);
                    v
                })
                .collect();
            writeln!(
                out,
                "{}",
                json!({"summary": {
                    "files": labels.len(),
                    "accept": self.accept,
                    "reject": self.reject,
                    "inconclusive": self.inconclusive,
                    "unreadable": self.unreadable,
                    "events": self.events,
                    "violations": self.violations,
                    "exit": self.exit,
                    "perFile": per_file,
                }})
            )?;
        } else {
            writeln!(
                out,
                "{} {noun}: {} accept, {} reject, {} inconclusive, {} unreadable — {} events, {} violations",
                labels.len(),
                self.accept,
                self.reject,
                self.inconclusive,
                self.unreadable,
                self.events,
                self.violations
            )?;
        }
        out.flush()
    }
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
