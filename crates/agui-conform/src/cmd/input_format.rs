//! `check --input-format`: JSON (JSON Lines or one array, which the reader
//! tells apart by itself) or a saved SSE body (`curl -N` output), detected
//! from the input's first line unless forced.

use agui_live::RunLog;
use agui_model::check::push_item;
use agui_model::stream::{self, Item};
use agui_model::{Checker, Report};
use std::cell::RefCell;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// How `check` reads its input.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// JSON Lines: one event per line.
    Jsonl,
    /// One JSON array of events.
    Json,
    /// A saved Server-Sent Events body (`data:` lines), with the transport
    /// rules that need no clock.
    Sse,
}

/// The format to read `input` as: `forced`, or SSE when its first line
/// looks like one, else JSON. A forced JSON format over what looks like
/// SSE gets a hint on stderr (every line would be `schema.not-json`).
pub fn resolve(input: &mut dyn BufRead, forced: Option<InputFormat>) -> io::Result<InputFormat> {
    let looks_sse = agui_live::sse_file::looks_like_sse(input.fill_buf()?);
    Ok(match forced {
        Some(f @ (InputFormat::Jsonl | InputFormat::Json)) if looks_sse => {
            eprintln!(
                "agui-conform: hint: the input looks like a saved SSE body (`data:` lines); \
                 --input-format sse reads it as one"
            );
            f
        }
        Some(f) => f,
        None if looks_sse => InputFormat::Sse,
        None => InputFormat::Jsonl,
    })
}

/// Checks `input` read as `format`; the log says how each run ended.
pub fn check(
    input: impl BufRead,
    format: InputFormat,
    checker: Checker,
    stop: impl FnMut() -> bool,
) -> io::Result<(Report, RunLog)> {
    let mut runs = RunLog::new();
    let report = match format {
        InputFormat::Sse => {
            agui_live::sse_file::check_sse_reader(input, checker, stop, |_, _| {}, &mut runs)?
        }
        InputFormat::Jsonl | InputFormat::Json => check_json(input, checker, stop, &mut runs)?,
    };
    Ok((report, runs))
}

/// `agui_model::check::check_reader_until`, with each parsed item also
/// shown to the run log. Lines the checker's fast path takes are not: it
/// takes only attributable events inside an open run, never a run event
/// (`RUN_*` are not attributable), so the hot path costs nothing more
/// (cli_check's run-by-run test would see a missing outcome otherwise).
fn check_json(
    input: impl BufRead,
    checker: Checker,
    mut stop: impl FnMut() -> bool,
    runs: &mut RunLog,
) -> io::Result<Report> {
    let opts = checker.limits().read_options();
    let checker = RefCell::new(checker);
    let fast = |line: &[u8]| checker.borrow_mut().try_push_line(line);
    stream::read_stream_with(input, &opts, fast, |item| {
        let mut c = checker.borrow_mut();
        if let Item::Value { value, .. } = &item {
            runs.observe(c.events(), value);
        }
        push_item(&mut c, item);
        if stop() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    let checker = checker.into_inner();
    runs.finish(checker.events());
    Ok(checker.finish())
}
