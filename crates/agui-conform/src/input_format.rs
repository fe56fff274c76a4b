//! `check --input-format`: JSON (JSON Lines or one array, which the reader
//! tells apart by itself) or a saved SSE body (`curl -N` output), detected
//! from the input's first line unless forced.

use crate::render::html::{self, Page};
use agui_live::RunLog;
use agui_model::check::{Reading, feed_framed, push_item};
use agui_model::stream::{self, Framing, Item, ReadOptions};
use agui_model::{Checker, Report};
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

/// How JSON input is framed: JSON Lines when `--input-format jsonl` says
/// so or the input is a corpus case's events (`stated`), else JSON Lines
/// or one array as the reader tells them apart.
pub fn framing(forced: Option<InputFormat>, stated: bool) -> Framing {
    if stated || forced == Some(InputFormat::Jsonl) {
        Framing::Lines
    } else {
        Framing::Detect
    }
}

/// Checks `input` read as `format`, JSON input read as `reading` says
/// (SSE is read on one thread); the log says how each run ended.
///
/// Each value on the `Value` path is shown to the run log. Lines the
/// checker's fast path takes are not: it takes only attributable events
/// inside an open run, never a run event (`RUN_*` are not attributable),
/// so the hot path costs nothing more (cli_check's run-by-run test would
/// see a missing outcome otherwise).
///
/// With a `page` (`--html`), every item is shown to it as the checker
/// numbers it, and every JSON item takes the `Value` path (one thread).
/// With `lines` (SARIF), each SSE event's line is pushed to it.
///
/// A report that holds no events is marked inconclusive
/// ([`crate::no_events`]).
pub fn check(
    input: impl BufRead + Send,
    (format, framing): (InputFormat, Framing),
    mut checker: Checker,
    reading: Reading,
    mut stop: impl FnMut() -> bool,
    page: Option<&Page>,
    mut lines: Option<&mut Vec<usize>>,
) -> io::Result<(Report, RunLog)> {
    let mut runs = RunLog::new();
    let report = match (format, page) {
        (InputFormat::Sse, _) => agui_live::sse_file::check_sse_reader(
            input,
            checker,
            stop,
            |_, line, seen| {
                if let Some(l) = lines.as_deref_mut() {
                    l.push(line);
                }
                if let Some(p) = page {
                    p.borrow_mut().push(&html::seen_value(seen));
                }
            },
            &mut runs,
        )?,
        (InputFormat::Jsonl | InputFormat::Json, None) => {
            let observe = |events, value: &_| runs.observe(events, value);
            feed_framed(input, &mut checker, reading, framing, stop, observe)?;
            runs.finish(checker.events());
            checker.finish()
        }
        (InputFormat::Jsonl | InputFormat::Json, Some(p)) => {
            let opts = ReadOptions {
                framing,
                ..checker.limits().read_options()
            };
            stream::read_stream(input, &opts, |item| {
                p.borrow_mut().push(&html::item_value(&item));
                if let Item::Value { value, .. } = &item {
                    runs.observe(checker.events(), value);
                }
                push_item(&mut checker, item);
                if stop() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })?;
            runs.finish(checker.events());
            checker.finish()
        }
    };
    let mut report = report;
    crate::no_events::mark(&mut report);
    Ok((report, runs))
}
