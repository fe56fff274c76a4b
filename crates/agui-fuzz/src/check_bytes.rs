//! Target `check_bytes`: arbitrary bytes as a stream through the stream
//! reader and the reference checker.
//!
//! Invariants (a broken one panics, which libFuzzer reports as a crash):
//! - reading and checking never panic (and never overflow the stack);
//! - checking is deterministic: the same items give the same report;
//! - the checker's borrowed fast path (`read_stream_with` +
//!   `Checker::try_push_line`, what `agui-conform check` runs) gives the
//!   same report as the `Value` path, and a checker without projection the
//!   same violations;
//! - every reported index is at most the number of items (the number of
//!   items itself is the end-of-input index);
//! - a stream the checker accepts keeps exactly the same violations (rule,
//!   index, path) when its items are re-serialized with serde_json as JSON
//!   Lines and read and checked again.

use agui_model::stream::{Item, ReadOptions, read_stream, read_stream_with};
use agui_model::{Checker, Report, Verdict};
use std::cell::RefCell;
use std::ops::ControlFlow;

/// Reads `bytes` as a stream; the reader cannot fail on a byte slice, so an
/// I/O error is itself an invariant break.
pub fn read_items(bytes: &[u8]) -> Vec<Item> {
    let mut items = Vec::new();
    let n = read_stream(bytes, &ReadOptions::default(), |item| {
        items.push(item);
        ControlFlow::Continue(())
    });
    match n {
        Ok(n) => assert_eq!(n, items.len(), "read_stream miscounted its items"),
        Err(e) => panic!("read_stream failed on an in-memory slice: {e}"),
    }
    items
}

/// Checks read items with the reference, as `agui-conform check` does.
pub fn check_items(items: &[Item]) -> Report {
    let mut c = Checker::new();
    for item in items {
        match item {
            Item::Value { value, .. } => c.push(value),
            Item::Unparseable { line, reason } => {
                c.push_unparseable(&format!("line {line}: {reason}"))
            }
        }
    }
    c.finish()
}

/// Checks `bytes` as `agui-conform check` does: each JSON Lines line is
/// first offered to the checker's borrowed fast path, the rest are parsed
/// by the reader and pushed as values.
pub fn check_fast(bytes: &[u8]) -> Report {
    let checker = RefCell::new(Checker::new());
    let fast = |line: &[u8]| checker.borrow_mut().try_push_line(line);
    let read = read_stream_with(bytes, &ReadOptions::default(), fast, |item| {
        let mut c = checker.borrow_mut();
        match item {
            Item::Value { value, .. } => c.push(&value),
            Item::Unparseable { line, reason } => {
                c.push_unparseable(&format!("line {line}: {reason}"))
            }
        }
        ControlFlow::Continue(())
    });
    if let Err(e) = read {
        panic!("read_stream_with failed on an in-memory slice: {e}");
    }
    checker.into_inner().finish()
}

/// What two reports are compared on: rule, index and path of each
/// violation (messages may quote numbers, whose float spelling need not
/// survive a re-serialization).
fn shape(r: &Report) -> Vec<(agui_model::RuleId, usize, Option<String>)> {
    r.violations
        .iter()
        .map(|v| (v.rule, v.index, v.path.clone()))
        .collect()
}

/// The target body.
pub fn run(bytes: &[u8]) {
    let items = read_items(bytes);
    let report = check_items(&items);

    // Deterministic: a second reading and checking gives the same report.
    let again = check_items(&read_items(bytes));
    assert_eq!(
        report.violations, again.violations,
        "checking is not deterministic"
    );
    assert_eq!(
        report.projection, again.projection,
        "projection is not deterministic"
    );
    assert_eq!(
        report.events,
        items.len(),
        "report counts a different number of items"
    );

    for v in &report.violations {
        assert!(
            v.index <= items.len(),
            "violation {} at index {} in a stream of {} items",
            v.rule,
            v.index,
            items.len()
        );
    }

    if report.verdict() == Verdict::Accept {
        reserialized_stays_accepted(&items, &report);
    }
}

/// Writes the items back as JSON Lines (serde_json's spelling) and checks
/// that reading and checking that gives the same violations. An accepted
/// stream has no unparseable item (`schema.not-json` is an error), but one
/// would be kept as an unparseable line.
fn reserialized_stays_accepted(items: &[Item], report: &Report) {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Value { value, .. } => {
                // Serializing a Value cannot fail (string keys only).
                out.extend(serde_json::to_vec(value).unwrap_or_default());
            }
            Item::Unparseable { .. } => out.extend_from_slice(b"{\"unparseable\""),
        }
        out.push(b'\n');
    }
    let items2 = read_items(&out);
    assert_eq!(
        items.len(),
        items2.len(),
        "re-serialized stream reads as a different number of items"
    );
    let report2 = check_items(&items2);
    assert_eq!(
        report2.verdict(),
        Verdict::Accept,
        "an accepted stream is rejected once re-serialized: {:?}",
        report2.first()
    );
    assert_eq!(
        shape(report),
        shape(&report2),
        "an accepted stream changes its violations once re-serialized"
    );
}
