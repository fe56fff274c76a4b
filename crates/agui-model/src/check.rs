//! The one way to check a stream from bytes: the reader ([`crate::stream`])
//! hands each item to the [`Checker`] — common lines through its borrowed
//! fast path, the rest parsed ([`crate::json`]) — and the report comes out
//! at the end, with every finding streamed to the checker's sink on the
//! way. The CLI, the live checker, the harness's reference and the fuzz
//! targets all read streams through here.

use crate::checker::{Checker, Report};
use crate::stream::{self, Framing, Item, ReadOptions};
use std::cell::RefCell;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// Reads a whole stream through `checker`, under the checker's limits.
pub fn check_reader(input: impl BufRead, checker: Checker) -> io::Result<Report> {
    check_reader_until(input, checker, || false)
}

/// How a stream is read: all on the calling thread, or with a parse-ahead
/// thread that reads and parses lines while this one checks them (two
/// cores on one stream; the same report, finding for finding).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reading {
    #[default]
    OneThread,
    /// Batches of parsed lines handed over a bounded channel. Findings
    /// reach the sink a batch (about 2,000 lines) later than on one
    /// thread: for files, not for live input.
    ParseAhead,
}

/// Which lines the parse-ahead thread hands over unparsed, for the
/// checking thread to parse.
/// Not part of the API: the tests run every policy against one thread.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shed {
    /// Lines read while the checking thread has no batch waiting: the
    /// reader sheds work when it is the slower thread.
    #[default]
    WhenIdle,
    /// None: every line is parsed on the reader thread.
    Never,
    /// Every line.
    Always,
}

/// [`check_reader_with`] parsing ahead, shedding as `shed` says (when the
/// limits allow parsing ahead). Not part of the API: for the tests.
#[doc(hidden)]
pub fn check_reader_ahead(
    input: impl BufRead + Send,
    checker: Checker,
    shed: Shed,
) -> io::Result<Report> {
    let mut checker = checker;
    feed_as(
        input,
        &mut checker,
        (Reading::ParseAhead, Framing::Detect),
        shed,
        || false,
        |_, _| {},
    )?;
    Ok(checker.finish())
}

/// [`check_reader`], read as `reading` says.
pub fn check_reader_with(
    input: impl BufRead + Send,
    checker: Checker,
    reading: Reading,
) -> io::Result<Report> {
    let mut checker = checker;
    feed(input, &mut checker, reading, || false, |_, _| {})?;
    Ok(checker.finish())
}

/// Reads a whole stream into `checker` (not finished, so the caller can
/// add what it knows), as `reading` says. `stop` is asked after each item
/// that takes the `Value` path (as in [`check_reader_until`]); `observe`
/// sees each such value first, with the checker's event count before it.
pub fn feed(
    input: impl BufRead + Send,
    checker: &mut Checker,
    reading: Reading,
    stop: impl FnMut() -> bool,
    observe: impl FnMut(usize, &serde_json::Value),
) -> io::Result<()> {
    feed_framed(input, checker, reading, Framing::Detect, stop, observe)
}

/// [`feed`] with the items framed as `framing` says (JSON Lines stated,
/// or told apart from one array).
pub fn feed_framed(
    input: impl BufRead + Send,
    checker: &mut Checker,
    reading: Reading,
    framing: Framing,
    stop: impl FnMut() -> bool,
    observe: impl FnMut(usize, &serde_json::Value),
) -> io::Result<()> {
    let shed = Shed::default();
    feed_as(input, checker, (reading, framing), shed, stop, observe)
}

fn feed_as(
    input: impl BufRead + Send,
    checker: &mut Checker,
    (reading, framing): (Reading, Framing),
    shed: Shed,
    stop: impl FnMut() -> bool,
    observe: impl FnMut(usize, &serde_json::Value),
) -> io::Result<()> {
    // Under a nesting limit the fast path never applies, and nothing is
    // gained by parsing ahead.
    let ahead = reading == Reading::ParseAhead && checker.limits().nesting > crate::fast::MAX_DEPTH;
    if ahead {
        let stack = checker.limits().stack_bytes();
        return crate::pipeline::feed(
            &crate::pipeline::fast_stage::FastStage,
            input,
            (checker, framing),
            stack,
            shed,
            stop,
            observe,
        );
    }
    feed_framed_here(input, checker, framing, stop, observe)
}

/// [`feed`] on the calling thread (the input need not be `Send`).
pub fn feed_here(
    input: impl BufRead,
    checker: &mut Checker,
    stop: impl FnMut() -> bool,
    observe: impl FnMut(usize, &serde_json::Value),
) -> io::Result<()> {
    feed_framed_here(input, checker, Framing::Detect, stop, observe)
}

fn feed_framed_here(
    input: impl BufRead,
    checker: &mut Checker,
    framing: Framing,
    mut stop: impl FnMut() -> bool,
    mut observe: impl FnMut(usize, &serde_json::Value),
) -> io::Result<()> {
    let opts = ReadOptions {
        framing,
        ..checker.limits().read_options()
    };
    let checker = RefCell::new(checker);
    let fast = |line: &[u8], _| checker.borrow_mut().try_push_line(line);
    stream::read_stream_with(input, &opts, fast, |item| {
        let mut c = checker.borrow_mut();
        if let Item::Value { value, .. } = &item {
            observe(c.events(), value);
        }
        push_item(&mut c, item);
        if stop() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(())
}

/// [`check_reader`] that stops reading as soon as `stop` says so (checked
/// after each item: a reader of the output went away). The report then
/// covers what was read.
pub fn check_reader_until(
    input: impl BufRead,
    checker: Checker,
    mut stop: impl FnMut() -> bool,
) -> io::Result<Report> {
    let opts = checker.limits().read_options();
    let checker = RefCell::new(checker);
    // Common lines take the checker's borrowed fast path; the rest are
    // parsed by the reader and pushed as values (same report either way).
    let fast = |line: &[u8], _| checker.borrow_mut().try_push_line(line);
    stream::read_stream_with(input, &opts, fast, |item| {
        push_item(&mut checker.borrow_mut(), item);
        if stop() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    Ok(checker.into_inner().finish())
}

/// Feeds one item the reader produced.
pub fn push_item(checker: &mut Checker, item: Item) {
    push_item_ref(checker, &item);
}

/// [`push_item`] of an item the caller keeps.
pub(crate) fn push_item_ref(checker: &mut Checker, item: &Item) {
    match item {
        Item::Value { value, notes, .. } => checker.push_parsed(value, notes),
        Item::Unparseable { line, reason } => {
            checker.push_unparseable(&format!("line {line}: {reason}"))
        }
        Item::OverLimit {
            line,
            kind,
            limit,
            reason,
        } => checker.push_over_limit(*kind, *limit, &format!("line {line}: {reason}")),
    }
}

/// Checks JSON Lines held in memory, stated as such (a corpus case's
/// `lines`): a first line holding an array is one item, never the whole
/// input ([`Framing::Lines`]).
pub fn check_lines(bytes: &[u8], checker: Checker) -> Report {
    let mut checker = checker;
    // Reading from memory cannot fail.
    let _ = feed_framed_here(bytes, &mut checker, Framing::Lines, || false, |_, _| {});
    checker.finish()
}

/// Checks a stream held in memory as bytes (JSON Lines or one array).
pub fn check_bytes(bytes: &[u8], checker: Checker) -> Report {
    // Reading from memory cannot fail.
    check_reader(bytes, checker).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;

    #[test]
    fn lines_stated_are_never_read_as_one_array() {
        let text = b"[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}]\n";
        // Told apart, it is an array of one RUN_STARTED: the run is open.
        let told = check_bytes(text, Checker::new());
        assert_eq!(told.events, 1);
        assert!(
            told.violations
                .iter()
                .all(|v| v.rule != RuleId::SchemaNotJson)
        );
        // Stated as JSON Lines, its one item is an array: not an event.
        let stated = check_lines(text, Checker::new());
        assert_eq!(stated.events, 1);
        assert_eq!(stated.violations[0].rule, RuleId::SchemaNotJson);
        assert_eq!(stated.violations[0].index, 0);
    }
}
