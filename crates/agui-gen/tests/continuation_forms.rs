//! The mutator of `ownership.continuation-disagrees` produces every
//! continuation form docs/rules.md lists, each as the stream's first violation.
//! The form is read off the stream itself, without a checker: the type of
//! the event at the mutator's index and, for the forms that depend on it,
//! what of that id is open before it. The reference then confirms the
//! first violation.

use agui_gen::{Mode, generate_case};
use agui_model::{Checker, RuleId};
use serde_json::Value;
use std::collections::BTreeSet;

fn s<'a>(e: &'a Value, k: &str) -> Option<&'a str> {
    e.get(k).and_then(Value::as_str)
}

/// Whether, before `at` (in its run), `id` was opened by an event of type
/// `open` and not closed since by `close`.
fn open_before(events: &[Value], at: usize, open: &str, close: &str, key: &str, id: &str) -> bool {
    let mut is_open = false;
    for e in &events[..at] {
        let t = s(e, "type").unwrap_or_default();
        if t == "RUN_STARTED" {
            is_open = false;
        } else if s(e, key) == Some(id) && t == open {
            is_open = true;
        } else if s(e, key) == Some(id) && t == close {
            is_open = false;
        }
    }
    is_open
}

/// The continuation form of the event at `at`.
fn form(events: &[Value], at: usize) -> String {
    let e = &events[at];
    let t = s(e, "type").unwrap_or_default();
    let id = s(e, "messageId").unwrap_or_default();
    match t {
        "REASONING_START" | "REASONING_MESSAGE_START" => {
            let span = open_before(
                events,
                at,
                "REASONING_START",
                "REASONING_END",
                "messageId",
                id,
            );
            let message = open_before(
                events,
                at,
                "REASONING_MESSAGE_START",
                "REASONING_MESSAGE_END",
                "messageId",
                id,
            );
            format!("{t} (span open: {span}, message open: {message})")
        }
        "REASONING_ENCRYPTED_VALUE" => {
            let entity = s(e, "entityId").unwrap_or_default();
            let named = events[..at]
                .iter()
                .rev()
                .find(|x| {
                    [s(x, "messageId"), s(x, "toolCallId")].contains(&Some(entity))
                        && s(x, "type").is_some_and(|t| t.ends_with("_START"))
                })
                .and_then(|x| s(x, "type"))
                .unwrap_or("nothing");
            format!("{t} on {named}")
        }
        "TEXT_MESSAGE_CHUNK" | "TOOL_CALL_CHUNK" | "REASONING_MESSAGE_CHUNK" => {
            // The opening chunk of this id, and whose lane it is in.
            let key = if t == "TOOL_CALL_CHUNK" {
                "toolCallId"
            } else {
                "messageId"
            };
            let id = s(e, key).unwrap_or_default();
            let opener = events[..at]
                .iter()
                .rev()
                .find(|x| s(x, "type") == Some(t) && s(x, key) == Some(id));
            let other_lane = opener.is_some_and(|o| s(o, "subagentRunId") != s(e, "subagentRunId"));
            format!("{t} (id open in another lane: {other_lane})")
        }
        _ => t.to_owned(),
    }
}

#[test]
fn the_mutator_produces_every_continuation_form_first() {
    let rule = RuleId::OwnershipContinuationDisagrees;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for seed in 0..640 {
        let c = generate_case(seed, Mode::Invalid(rule));
        let at = c.expect.index.unwrap();
        let f = form(&c.events, at);
        // Whatever the form, the stream's first violation is the rule at
        // the mutator's index (the reference confirms).
        let r = c.check(Checker::without_projection());
        let first = r.violations.first().map(|v| (v.rule, v.index));
        assert_eq!(first, Some((rule, at)), "{}: {f}", c.id);
        seen.insert(f);
    }
    let want = [
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
        // The hole: a REASONING_START continuing an open reasoning message
        // whose span is not open (no reasoning.already-open before it).
        "REASONING_START (span open: false, message open: true)",
        "REASONING_MESSAGE_START (span open: true, message open: false)",
        "ACTIVITY_DELTA",
        "REASONING_ENCRYPTED_VALUE on TEXT_MESSAGE_START",
        "REASONING_ENCRYPTED_VALUE on TOOL_CALL_START",
        "REASONING_ENCRYPTED_VALUE on REASONING_START",
        "TEXT_MESSAGE_CHUNK (id open in another lane: true)",
        "TOOL_CALL_CHUNK (id open in another lane: true)",
        "REASONING_MESSAGE_CHUNK (id open in another lane: true)",
    ];
    let missing: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| !seen.contains(*w))
        .collect();
    assert!(
        missing.is_empty(),
        "never produced: {missing:?}\nseen: {seen:#?}"
    );
}
