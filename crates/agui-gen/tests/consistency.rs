//! The consistency warnings in the generators, read off the streams
//! without a checker (JSON validity by serde_json, which agrees with RFC
//! 8259 on every text used here): valid streams end every call with JSON
//! arguments and name no open call in a result; each warning's mutator
//! puts its fault at its index, in every form it has. (That the reference
//! finds exactly that warning, with the stated projection, is
//! `properties.rs`'s business, for every rule.)

use agui_gen::{Mode, generate_case};
use agui_model::{RuleId, Verdict};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn s<'a>(e: &'a Value, k: &str) -> Option<&'a str> {
    e.get(k).and_then(Value::as_str)
}

fn is_json(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok()
}

#[test]
fn valid_streams_end_calls_with_json_and_results_name_ended_calls() {
    let mut results = 0;
    for seed in 0..400 {
        let c = generate_case(seed, Mode::Valid);
        // Per run: explicit calls' arguments and whether they ended; the
        // owner whose lane holds each chunked call.
        let mut args: BTreeMap<String, (String, bool)> = BTreeMap::new();
        let mut chunked: BTreeMap<String, Option<String>> = BTreeMap::new();
        for (i, e) in c.events.iter().enumerate() {
            let tag = s(e, "subagentRunId").map(str::to_owned);
            let id = s(e, "toolCallId").unwrap_or_default().to_owned();
            match s(e, "type").unwrap_or_default() {
                "RUN_STARTED" => {
                    args.clear();
                    chunked.clear();
                }
                "TOOL_CALL_START" => {
                    args.insert(id, (String::new(), false));
                }
                "TOOL_CALL_ARGS" => {
                    if let Some(a) = args.get_mut(&id) {
                        a.0.push_str(s(e, "delta").unwrap_or_default());
                    }
                }
                "TOOL_CALL_END" => {
                    let a = args.get_mut(&id).unwrap();
                    assert!(a.0.is_empty() || is_json(&a.0), "{} {i}: {:?}", c.id, a.0);
                    a.1 = true;
                }
                // A chunked call's opener carries its arguments whole.
                "TOOL_CALL_CHUNK" if s(e, "toolCallName").is_some() => {
                    let d = s(e, "delta").unwrap_or_default();
                    assert!(d.is_empty() || is_json(d), "{} {i}: {d:?}", c.id);
                    chunked.insert(id, tag);
                }
                "TOOL_CALL_CHUNK" => {
                    assert!(
                        s(e, "delta").unwrap_or(" ").trim().is_empty(),
                        "{} {i}",
                        c.id
                    );
                }
                "TOOL_CALL_RESULT" => {
                    results += 1;
                    let ended = args.get(&id).is_some_and(|a| a.1);
                    let own_chunk = chunked.get(&id) == Some(&tag);
                    assert!(ended || own_chunk, "{} {i}: result for open {id}", c.id);
                }
                _ => {}
            }
        }
    }
    assert!(results > 100, "{results} results");
}

/// The deltas of call `id` (explicit, or chunked in `lane`'s lane, whose
/// continuation chunks may leave the id out).
fn deltas_of(events: &[Value], id: &str, lane: Option<&str>) -> String {
    events
        .iter()
        .filter(|e| match s(e, "type") {
            Some("TOOL_CALL_ARGS") => s(e, "toolCallId") == Some(id),
            Some("TOOL_CALL_CHUNK") => {
                s(e, "toolCallId") == Some(id)
                    || (s(e, "toolCallId").is_none() && s(e, "subagentRunId") == lane)
            }
            _ => false,
        })
        .filter_map(|e| s(e, "delta"))
        .collect()
}

#[test]
fn args_not_json_ends_a_call_with_broken_arguments_in_every_way() {
    let rule = RuleId::ToolArgsNotJson;
    let mut enders = BTreeSet::new();
    for seed in 0..200 {
        let c = generate_case(seed, Mode::Invalid(rule));
        assert_eq!(c.expect.verdict, Verdict::Accept, "{}", c.id);
        assert!(c.projection.is_some(), "{}", c.id);
        let at = c.expect.index.unwrap();
        let chunked = c.events[..at].iter().any(|e| {
            s(e, "type") == Some("TOOL_CALL_CHUNK") && s(e, "toolCallId") == Some("zz-tc")
        });
        let lane = chunked.then_some("zz-s");
        let args = deltas_of(&c.events[..at], "zz-tc", lane);
        assert!(!args.is_empty() && !is_json(&args), "{}: {args:?}", c.id);
        let ender = s(&c.events[at], "type").unwrap_or_default();
        if ender == "TOOL_CALL_END" {
            assert_eq!(s(&c.events[at], "toolCallId"), Some("zz-tc"), "{}", c.id);
        } else {
            assert!(chunked, "{}: {ender}", c.id);
        }
        // The run's end, whichever it is.
        enders.insert(ender.replace("RUN_ERROR", "RUN_FINISHED"));
    }
    let want: BTreeSet<String> = [
        "TOOL_CALL_END",
        "TEXT_MESSAGE_CHUNK",
        "CUSTOM",
        "SUBAGENT_FINISHED",
        "RUN_FINISHED",
    ]
    .map(String::from)
    .into();
    assert_eq!(enders, want);
}

#[test]
fn result_before_end_names_a_call_still_open_in_both_ways() {
    let rule = RuleId::ToolResultBeforeEnd;
    let mut ways = BTreeSet::new();
    for seed in 0..200 {
        let c = generate_case(seed, Mode::Invalid(rule));
        assert_eq!(c.expect.verdict, Verdict::Accept, "{}", c.id);
        let at = c.expect.index.unwrap();
        let e = &c.events[at];
        assert_eq!(s(e, "type"), Some("TOOL_CALL_RESULT"), "{}", c.id);
        assert_eq!(s(e, "toolCallId"), Some("zz-tc"), "{}", c.id);
        let started = c.events[..at].iter().find(|x| {
            s(x, "toolCallId") == Some("zz-tc")
                && matches!(s(x, "type"), Some("TOOL_CALL_START" | "TOOL_CALL_CHUNK"))
        });
        let started = started.unwrap_or_else(|| panic!("{}: no call before", c.id));
        if s(started, "type") == Some("TOOL_CALL_START") {
            // Its own actor's result, before the call's end.
            assert!(
                c.events[at..]
                    .iter()
                    .any(|x| s(x, "type") == Some("TOOL_CALL_END")
                        && s(x, "toolCallId") == Some("zz-tc")),
                "{}",
                c.id
            );
            ways.insert("explicit, before its end");
        } else {
            // From another lane than the chunked call's.
            assert_ne!(
                s(e, "subagentRunId"),
                s(started, "subagentRunId"),
                "{}",
                c.id
            );
            ways.insert("chunked, from another lane");
        }
    }
    assert_eq!(ways.len(), 2, "{ways:?}");
}

#[test]
fn snapshot_disagrees_changes_one_ended_message_or_call() {
    let rule = RuleId::MessagesSnapshotDisagrees;
    let mut changed = BTreeSet::new();
    for seed in 0..200 {
        let c = generate_case(seed, Mode::Invalid(rule));
        assert_eq!(c.expect.verdict, Verdict::Accept, "{}", c.id);
        let at = c.expect.index.unwrap();
        let snap = &c.events[at];
        assert_eq!(s(snap, "type"), Some("MESSAGES_SNAPSHOT"), "{}", c.id);
        // The run's explicit texts and calls, as streamed.
        let start = c.events[..at]
            .iter()
            .rposition(|e| s(e, "type") == Some("RUN_STARTED"))
            .unwrap();
        let run = &c.events[start..at];
        let mut texts: BTreeMap<&str, String> = BTreeMap::new();
        let mut calls: BTreeMap<&str, (&str, String)> = BTreeMap::new();
        for e in run {
            match s(e, "type").unwrap_or_default() {
                "TEXT_MESSAGE_START" => {
                    texts.entry(s(e, "messageId").unwrap()).or_default();
                }
                "TEXT_MESSAGE_CONTENT" => {
                    if let Some(t) = texts.get_mut(s(e, "messageId").unwrap()) {
                        t.push_str(s(e, "delta").unwrap());
                    }
                }
                "TOOL_CALL_START" => {
                    let name = s(e, "toolCallName").unwrap();
                    calls.insert(s(e, "toolCallId").unwrap(), (name, String::new()));
                }
                "TOOL_CALL_ARGS" => {
                    if let Some(c) = calls.get_mut(s(e, "toolCallId").unwrap()) {
                        c.1.push_str(s(e, "delta").unwrap());
                    }
                }
                _ => {}
            }
        }
        let mut differ = Vec::new();
        for m in snap["messages"].as_array().unwrap() {
            let id = s(m, "id").unwrap();
            if let Some(t) = texts.get(id)
                && s(m, "content") != Some(t.as_str())
            {
                differ.push("content");
            }
            for call in m["toolCalls"].as_array().into_iter().flatten() {
                let Some((name, args)) = calls.get(s(call, "id").unwrap()) else {
                    continue;
                };
                if call["function"]["name"] != *name {
                    differ.push("name");
                }
                if call["function"]["arguments"] != args.as_str() {
                    differ.push("arguments");
                }
            }
        }
        assert_eq!(differ.len(), 1, "{}: {differ:?}", c.id);
        changed.insert(differ[0]);
    }
    assert_eq!(changed.len(), 3, "{changed:?}");
}
