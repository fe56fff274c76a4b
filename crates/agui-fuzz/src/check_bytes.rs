//! Target `check_bytes`: arbitrary bytes as a stream through the stream
//! reader and the reference checker.
//!
//! Invariants (a broken one panics, which libFuzzer reports as a crash):
//! - reading and checking never panic (and never overflow the stack);
//! - checking is deterministic: the same items give the same report;
//! - the checker's borrowed fast path (`agui_model::check`, what
//!   `agui-conform check` runs) gives the same report as the `Value` path
//!   (violations, limit notices, counts, projection), and so does the
//!   parse-ahead thread, whichever lines it hands over unparsed;
//! - every reported index is at most the number of items (the number of
//!   items itself is the end-of-input index);
//! - the checker is streaming: checking a prefix of `k` items reports
//!   exactly the full stream's violations below index `k`;
//! - any stream of JSON values without duplicate keys or lone surrogates
//!   (which a `Value` cannot write back) has the same violations (rule,
//!   index, path) when written as one JSON array;
//! - a stream the checker accepts keeps exactly the same violations (rule,
//!   index, path) when its items are re-serialized as JSON Lines
//!   (`agui_model::json::Out`) and read and checked again.

use agui_model::check::{Shed, check_reader_ahead};
use agui_model::json::Out;
use agui_model::stream::{Item, ReadOptions, read_stream};
use agui_model::{Checker, LimitKind, Limits, Report, RuleId, Verdict};
use std::ops::ControlFlow;

/// Reads `bytes` as a stream; the reader cannot fail on a byte slice, so an
/// I/O error is itself an invariant break.
pub fn read_items(bytes: &[u8]) -> Vec<Item> {
    read_items_with(bytes, &ReadOptions::default())
}

fn read_items_with(bytes: &[u8], opts: &ReadOptions) -> Vec<Item> {
    let mut items = Vec::new();
    let n = read_stream(bytes, opts, |item| {
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
    check_items_with(items, Limits::default())
}

fn check_items_with(items: &[Item], limits: Limits) -> Report {
    let mut c = Checker::new().with_limits(limits);
    for item in items {
        agui_model::check::push_item(&mut c, item.clone());
    }
    c.finish()
}

/// Checks `bytes` as `agui-conform check` does: each JSON Lines line is
/// first offered to the checker's borrowed fast path, the rest are parsed
/// by the reader and pushed as values.
pub fn check_fast(bytes: &[u8]) -> Report {
    agui_model::check::check_bytes(bytes, Checker::new())
}

/// The stream written as JSON Lines and checked as `agui-conform check`
/// does (borrowed fast path first) gives exactly `report`, the `Value`
/// path's report for `events`. Generated streams reach the fast path far
/// more often than mutated bytes do.
pub fn same_as_fast_path(events: &[serde_json::Value], report: &Report) {
    let bytes = crate::seeds::jsonl(events);
    let fast = check_fast(&bytes);
    assert_eq!(
        report.violations, fast.violations,
        "the fast path reports other violations on a generated stream"
    );
    assert_eq!(
        report.projection, fast.projection,
        "the fast path projects a generated stream otherwise"
    );
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
    same_report(&report, &check_items(&read_items(bytes)), "a second check");
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

    streaming(bytes, &items, &report);
    under_small_limits(bytes);

    // The fast path is the `Value` path.
    let fast = check_fast(bytes);
    same_report(&report, &fast, "the fast path");
    // Parsing ahead is reading on one thread, every line parsed on the
    // reader thread or every line handed over raw.
    for shed in [Shed::Never, Shed::Always] {
        let ahead = check_reader_ahead(bytes, Checker::new(), shed).unwrap_or_default();
        same_report(&fast, &ahead, &format!("parsing ahead, shedding {shed:?}"));
        assert_eq!(
            fast.events, ahead.events,
            "parsing ahead: other event count"
        );
    }

    if report.verdict() == Verdict::Accept {
        reserialized_stays_accepted(&items, &report);
    }
    // Any stream of JSON values: the same violations as one JSON array.
    if let Some(values) = values_only(&items) {
        let array =
            serde_json::to_vec(&values.iter().map(Out).collect::<Vec<_>>()).unwrap_or_default();
        let items2 = read_items(&array);
        assert_eq!(
            items2.len(),
            items.len(),
            "the stream as one JSON array reads as a different number of items"
        );
        assert_eq!(
            shape(&report),
            shape(&check_items(&items2)),
            "the stream as one JSON array has other violations"
        );
    }
}

/// Two checks of one stream agree on everything they report.
fn same_report(a: &Report, b: &Report, what: &str) {
    assert_eq!(a.violations, b.violations, "{what}: other violations");
    assert_eq!(a.limits, b.limits, "{what}: other limit notices");
    assert_eq!(a.counts, b.counts, "{what}: other counts");
    assert_eq!(a.projection, b.projection, "{what}: another projection");
}

/// Limits small enough for short inputs to reach them: the limit paths
/// give the same report on the fast and `Value` paths, a limit is never a
/// violation, and the verdict follows docs/rules.md "Checker limits".
fn under_small_limits(bytes: &[u8]) {
    let small = Limits {
        line_bytes: 256,
        nesting: 12,
        state_bytes: 2048,
        projection_bytes: 4096,
        bookkeeping_bytes: 8192,
        ..Limits::default()
    };
    let items = read_items_with(bytes, &small.read_options());
    let slow = check_items_with(&items, small);
    let fast = agui_model::check::check_bytes(bytes, Checker::new().with_limits(small));
    same_report(&slow, &fast, "under small limits, the fast path");
    unknown_not_absent(&items, &slow);
    for n in &slow.limits {
        assert!(n.index <= slow.events, "a notice past the end: {n:?}");
        assert!(
            !slow.violations.iter().any(|v| v.index == n.index
                && v.rule == RuleId::SchemaNotJson
                && matches!(n.kind, LimitKind::LineBytes | LimitKind::Nesting)),
            "an item over a limit is also blamed on the producer: {n:?}"
        );
    }
    let first_error = slow
        .violations
        .iter()
        .find(|v| v.rule.severity() == agui_model::Severity::Error)
        .map(|v| v.index);
    let first_limit = slow
        .limits
        .iter()
        .filter(|n| n.kind.leaves_unjudged())
        .map(|n| n.index)
        .min();
    let want = match (first_error, first_limit) {
        (Some(e), Some(l)) if e < l => Verdict::Reject,
        (Some(_), None) => Verdict::Reject,
        (_, Some(_)) => Verdict::Inconclusive,
        (None, None) => Verdict::Accept,
    };
    // An error at a limit's own index came after it (the item was skipped).
    assert_eq!(slow.verdict(), want, "limits: verdict {:?}", slow.limits);
}

/// A skipped event is unknown, not absent (docs/rules.md "Checker
/// limits"): from a skip (or dropped bookkeeping) until the next
/// `RUN_STARTED` read, only per-event rules are reported, and no
/// `run.unterminated` at the end of input.
fn unknown_not_absent(items: &[Item], report: &Report) {
    let run_started: Vec<usize> = items
        .iter()
        .enumerate()
        .filter(|(_, item)| {
            matches!(item, Item::Value { value, .. }
                if value.get("type").and_then(serde_json::Value::as_str) == Some("RUN_STARTED"))
        })
        .map(|(i, _)| i)
        .collect();
    let blinding = report.limits.iter().filter(|n| {
        matches!(
            n.kind,
            LimitKind::LineBytes | LimitKind::Nesting | LimitKind::BookkeepingBytes
        )
    });
    for n in blinding {
        let until = run_started
            .iter()
            .copied()
            .find(|&i| i > n.index)
            .unwrap_or(usize::MAX);
        for v in &report.violations {
            let blind = v.index >= n.index && v.index < until;
            assert!(
                !blind || v.rule.rule().judged_blind(),
                "{v:?} reported while blind after {n:?} (until item {until})"
            );
        }
    }
}

/// The items' values, when every item is a value that writes back as read
/// (no duplicate key, no lone surrogate).
fn values_only(items: &[Item]) -> Option<Vec<serde_json::Value>> {
    items
        .iter()
        .map(|i| match i {
            Item::Value { value, notes, .. } if notes.is_empty() => Some(value.clone()),
            _ => None,
        })
        .collect()
}

/// The checker is streaming: a violation at index `i` is detectable once
/// item `i` is read. So checking only the first `k` items (a `k` chosen by
/// the input) reports exactly the full report's violations below `k`.
fn streaming(bytes: &[u8], items: &[Item], report: &Report) {
    if items.is_empty() {
        return;
    }
    let k = bytes.iter().fold(0usize, |h, b| {
        h.wrapping_mul(31).wrapping_add(usize::from(*b))
    }) % items.len();
    let prefix = check_items(&items[..k]);
    let below = |r: &Report| -> Vec<_> {
        r.violations
            .iter()
            .filter(|v| v.index < k)
            .cloned()
            .collect()
    };
    assert_eq!(
        below(&prefix),
        below(report),
        "checking the first {k} of {} items reports other violations below {k}",
        items.len()
    );
}

/// Writes the items back as JSON Lines (serde_json's spelling) and checks
/// that reading and checking that gives the same violations. An accepted
/// stream has no unparseable item (`schema.not-json` is an error), but one
/// would be kept as an unparseable line.
fn reserialized_stays_accepted(items: &[Item], report: &Report) {
    if values_only(items).is_none() {
        return;
    }
    let mut out = Vec::new();
    for item in items {
        if let Item::Value { value, .. } = item {
            // Serializing a Value cannot fail (string keys only).
            out.extend(serde_json::to_vec(&Out(value)).unwrap_or_default());
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
