//! The one way to check a stream from bytes: the reader ([`crate::stream`])
//! hands each item to the [`Checker`] — common lines through its borrowed
//! fast path, the rest parsed ([`crate::json`]) — and the report comes out
//! at the end, with every finding streamed to the checker's sink on the
//! way. The CLI, the live checker, the harness's reference and the fuzz
//! targets all read streams through here.

use crate::checker::{Checker, Report};
use crate::stream::{self, Item};
use std::cell::RefCell;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// Reads a whole stream through `checker`, under the checker's limits.
pub fn check_reader(input: impl BufRead, checker: Checker) -> io::Result<Report> {
    check_reader_until(input, checker, || false)
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
    let fast = |line: &[u8]| checker.borrow_mut().try_push_line(line);
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
    match item {
        Item::Value { value, notes, .. } => checker.push_parsed(&value, &notes),
        Item::Unparseable { line, reason } => {
            checker.push_unparseable(&format!("line {line}: {reason}"))
        }
        Item::OverLimit {
            line,
            kind,
            limit,
            reason,
        } => checker.push_over_limit(kind, limit, &format!("line {line}: {reason}")),
    }
}

/// Checks a stream held in memory as bytes (JSON Lines or one array).
pub fn check_bytes(bytes: &[u8], checker: Checker) -> Report {
    // Reading from memory cannot fail.
    check_reader(bytes, checker).unwrap_or_default()
}
