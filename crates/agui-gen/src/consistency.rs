//! Mutators of the consistency warnings (`tool.args-not-json`,
//! `tool.result-before-end`, `messages.snapshot-disagrees`). They are
//! warnings a consumer must accept, so each stream is an accepted case
//! with a projection known by construction, and carries exactly its
//! warning. The scenario gets a script that breaks the rule, rendered with
//! its projection; where no script can place the event (a result from
//! another lane while a chunked call is open, a snapshot), one event is
//! added just before the run's end, where what it changes in the
//! projection is known: a message and an owner appended last, or the
//! message list the snapshot replaces.
//!
//! Fresh ids start with `zz-`, which the scenario never uses.

use crate::mutated::Mutated;
use crate::names::{ACTIVITY_TYPE, MESSAGE_ID, SUBAGENT_RUN_ID, TOOL_CALL_ID};
use crate::render::{Rendered, render};
use crate::scenario::{
    ARGS, CallOp, DELTAS, InvEnd, Invocation, Op, RunEnd, Scenario, TOOLS, TextOp, split_args,
};
use agui_model::{EventType as T, RuleId};
use arbitrary::{Error, Result, Unstructured};
use serde_json::{Value, json};

/// The call, message, invocation and result the mutators add.
const CALL: &str = "zz-tc";
const MESSAGE: &str = "zz-msg";
const INVOCATION: &str = "zz-s";
const RESULT: &str = "zz-res";
const OTHER: &str = "zz-other";

/// Arguments that are not one JSON value, as deltas: the first chunk lost
/// (`"Lisbon"}`), cut short, single quotes, one brace too many, blank (not
/// empty), a trailing comma, a bare `NaN`.
const BROKEN: &[&[&str]] = &[
    &["\"Lisbon\"", "}"],
    &["{\"city\":", " \"Lis"],
    &["{'q': 1}"],
    &["{\"n\":1}", "}"],
    &[" "],
    &["{\"n\":1,}"],
    &["NaN"],
];

fn invocation(announced: bool, ops: Vec<Op>) -> Invocation {
    Invocation {
        id: INVOCATION.into(),
        name: "zz-agent".into(),
        parent: None,
        announced,
        resumed: false,
        ops,
        end: InvEnd::Success(0),
        late_close: false,
    }
}

fn call(u: &mut Unstructured, args: Vec<&'static str>, chunk: bool) -> Result<CallOp> {
    Ok(CallOp {
        id: CALL.into(),
        name: TOOLS[u.choose_index(TOOLS.len())?].into(),
        args,
        // Outside a message an opener carries its actor's tag (bit 0).
        untag: u.arbitrary::<u32>()? & !1,
        noid: u.arbitrary()?,
        chunk,
        early_result: None,
    })
}

/// JSON arguments, in up to three deltas, as the scenario draws them.
fn json_args(u: &mut Unstructured, chunk: bool) -> Result<Vec<&'static str>> {
    let n = u.int_in_range(0..=3usize)?;
    let draws = (0..n)
        .map(|_| u.choose_index(ARGS.len()))
        .collect::<Result<Vec<usize>>>()?;
    Ok(split_args(&draws, chunk))
}

/// The run to edit. One ending in `RUN_ERROR` runs every script first
/// (its error comes after them), so what the mutator adds is all out.
fn edit_run(sc: &mut Scenario, u: &mut Unstructured) -> Result<usize> {
    let k = u.choose_index(sc.runs.len())?;
    if let RunEnd::Error(n) = &mut sc.runs[k].end {
        *n = u32::MAX;
    }
    Ok(k)
}

fn accepted(rule: RuleId, r: Rendered, index: usize) -> Mutated {
    Mutated {
        events: r.values(),
        lines: None,
        rule,
        index,
        projection: Some(r.projection),
    }
}

/// Index of the first event of run `k` matching `pred`.
fn find(r: &Rendered, k: usize, pred: impl Fn(usize) -> bool) -> Option<usize> {
    let span = r.runs.get(k)?;
    (span.start..span.end).find(|&i| pred(i))
}

/// `tool.args-not-json`: a call whose deltas are not one JSON value once it
/// ends. Explicit (the parent's, or inside a new invocation's message):
/// at its `TOOL_CALL_END`. Chunked, in a new invocation's lane, ended by
/// the event its script puts after it: a new chunk stream, an explicit
/// event, its `SUBAGENT_FINISHED`, or nothing (the run's end).
pub fn args_not_json(mut sc: Scenario, u: &mut Unstructured) -> Result<Mutated> {
    let k = edit_run(&mut sc, u)?;
    let broken = BROKEN[u.choose_index(BROKEN.len())?].to_vec();
    let form = u.int_in_range(0..=5u8)?;
    let announced = u.arbitrary()?;
    let chunked = form >= 2;
    let c = call(u, broken, chunked)?;
    let run = &mut sc.runs[k];
    match form {
        0 => run.parent.push(Op::ToolCall(c)),
        1 => {
            let mut c = c;
            // Inside a message the call may inherit its owner.
            c.untag = u.arbitrary()?;
            let text = TextOp {
                id: MESSAGE.into(),
                role: None,
                deltas: vec!["Let me check."],
                untag: u.arbitrary()?,
                noid: 0,
                chunk: false,
                calls: vec![c],
            };
            run.invocations
                .push(invocation(announced, vec![Op::Text(text)]));
        }
        2 => {
            let next = TextOp {
                id: MESSAGE.into(),
                role: None,
                deltas: vec!["Done", "."],
                untag: u.arbitrary()?,
                noid: u.arbitrary()?,
                chunk: true,
                calls: Vec::new(),
            };
            let ops = vec![Op::ToolCall(c), Op::Text(next)];
            run.invocations.push(invocation(announced, ops));
        }
        3 => {
            let note = Op::Custom {
                name: "note".into(),
                value: 1,
            };
            let ops = vec![Op::ToolCall(c), note];
            run.invocations.push(invocation(announced, ops));
        }
        4 => run
            .invocations
            .push(invocation(true, vec![Op::ToolCall(c)])),
        _ => run
            .invocations
            .push(invocation(false, vec![Op::ToolCall(c)])),
    }
    let r = render(&sc);
    let is_call = |i: usize| r.events[i].tool_call_id.as_deref() == Some(CALL);
    let index = if chunked {
        let opener = find(&r, k, |i| {
            r.events[i].kind() == T::ToolCallChunk && r.meta[i].chunk == 1 && is_call(i)
        })
        .ok_or(Error::IncorrectFormat)?;
        // The lane's owner's next event that does not continue the call.
        let actor = r.meta[opener].actor;
        find(&r, k, |i| {
            i > opener
                && r.meta[i].actor == actor
                && !(r.meta[i].chunk == 2 && r.events[i].kind() == T::ToolCallChunk)
        })
        .unwrap_or(r.runs[k].end)
    } else {
        find(&r, k, |i| {
            r.events[i].kind() == T::ToolCallEnd && is_call(i)
        })
        .ok_or(Error::IncorrectFormat)?
    };
    Ok(accepted(RuleId::ToolArgsNotJson, r, index))
}

/// `tool.result-before-end`: a `TOOL_CALL_RESULT` for a call still open.
/// Either the actor of an explicit call sends it between the call's start
/// and end (the parent, or a new invocation), or a new invocation's last
/// act is a chunked call, whose lane nothing closes before the run's end,
/// and a result from another lane (the parent's, or a fresh owner's) comes
/// just before that end.
pub fn result_before_end(mut sc: Scenario, u: &mut Unstructured) -> Result<Mutated> {
    let k = edit_run(&mut sc, u)?;
    if u.arbitrary()? {
        let args = json_args(u, false)?;
        let after = u.int_in_range(0..=args.len())?;
        let mut c = call(u, args, false)?;
        c.early_result = Some((RESULT.into(), after));
        let run = &mut sc.runs[k];
        match u.int_in_range(0..=2u8)? {
            0 => run.parent.push(Op::ToolCall(c)),
            n => run
                .invocations
                .push(invocation(n == 1, vec![Op::ToolCall(c)])),
        }
        let r = render(&sc);
        let index = find(&r, k, |i| {
            r.events[i].kind() == T::ToolCallResult
                && r.events[i].message_id.as_deref() == Some(RESULT)
        })
        .ok_or(Error::IncorrectFormat)?;
        return Ok(accepted(RuleId::ToolResultBeforeEnd, r, index));
    }
    // The call's arguments are JSON, ended by the run's end.
    let args = json_args(u, true)?;
    let c = call(u, args, true)?;
    sc.runs[k]
        .invocations
        .push(invocation(false, vec![Op::ToolCall(c)]));
    let r = render(&sc);
    let at = r.runs[k].end;
    let tag: Option<&str> = if u.arbitrary()? { None } else { Some(OTHER) };
    let mut result = json!({
        "type": T::ToolCallResult.as_str(), MESSAGE_ID: RESULT, TOOL_CALL_ID: CALL, "content": "42"
    });
    let mut shown = json!({"id": RESULT, "role": "tool", "content": "42"});
    if let Some(t) = tag {
        result[SUBAGENT_RUN_ID] = json!(t);
        shown["owner"] = json!(t);
    }
    let mut events = r.values();
    events.insert(at, result);
    let mut projection = r.projection;
    let run = &mut projection["runs"][k];
    // Created last, by an owner first seen last.
    push(&mut run["messages"], shown)?;
    if let Some(t) = tag {
        push(
            &mut run["invocations"],
            json!({"id": t, "status": "unannounced"}),
        )?;
    }
    Ok(Mutated {
        events,
        lines: None,
        rule: RuleId::ToolResultBeforeEnd,
        index: at,
        projection: Some(projection),
    })
}

fn push(list: &mut Value, item: Value) -> Result<()> {
    list.as_array_mut()
        .ok_or(Error::IncorrectFormat)?
        .push(item);
    Ok(())
}

/// `messages.snapshot-disagrees`: a `MESSAGES_SNAPSHOT` just before the
/// end of a run that finishes, holding every message the run shows, one
/// explicit text message's content or one explicit call's name or
/// arguments changed. Every explicit message and call has ended there; the
/// run gets one of each for sure (the parent's or a new invocation's). The
/// snapshot replaces the run's messages: the projection shows the change.
pub fn snapshot_disagrees(mut sc: Scenario, u: &mut Unstructured) -> Result<Mutated> {
    let k = u.choose_index(sc.runs.len())?;
    if matches!(sc.runs[k].end, RunEnd::Error(_)) {
        sc.runs[k].end = RunEnd::Finished;
    }
    let mut deltas = Vec::new();
    for _ in 0..u.int_in_range(1..=3)? {
        deltas.push(DELTAS[u.choose_index(DELTAS.len())?]);
    }
    let args = json_args(u, false)?;
    let mut c = call(u, args, false)?;
    c.untag = u.arbitrary()?;
    let text = Op::Text(TextOp {
        id: MESSAGE.into(),
        role: None,
        deltas,
        untag: u.arbitrary()?,
        noid: 0,
        chunk: false,
        calls: vec![c],
    });
    let run = &mut sc.runs[k];
    match u.int_in_range(0..=2u8)? {
        0 => run.parent.push(text),
        n => run.invocations.push(invocation(n == 1, vec![text])),
    }
    let r = render(&sc);
    let span = &r.runs[k];
    let explicit = |t: T, i: usize| r.events[i].kind() == t && r.meta[i].chunk == 0;
    let texts: Vec<String> = (span.start..span.end)
        .filter(|&i| explicit(T::TextMessageStart, i))
        .filter_map(|i| r.events[i].message_id.as_deref().map(str::to_owned))
        .collect();
    let calls: Vec<String> = (span.start..span.end)
        .filter(|&i| explicit(T::ToolCallStart, i))
        .filter_map(|i| r.events[i].tool_call_id.as_deref().map(str::to_owned))
        .collect();
    let mut projection = r.projection.clone();
    let shown = projection["runs"][k]["messages"]
        .as_array_mut()
        .ok_or(Error::IncorrectFormat)?;
    if u.arbitrary()? {
        let id = &texts[u.choose_index(texts.len())?];
        let m = shown
            .iter_mut()
            .find(|m| m["id"] == id.as_str())
            .ok_or(Error::IncorrectFormat)?;
        let old = m["content"].as_str().unwrap_or_default().to_owned();
        let new = match u.int_in_range(0..=2u8)? {
            0 => format!("{old} (edited)"),
            1 if !old.is_empty() => String::new(),
            _ => format!("Hello, {old}"),
        };
        m["content"] = json!(new);
    } else {
        let id = &calls[u.choose_index(calls.len())?];
        let c = shown
            .iter_mut()
            .filter_map(|m| m.get_mut("toolCalls").and_then(Value::as_array_mut))
            .flatten()
            .find(|c| c["id"] == id.as_str())
            .ok_or(Error::IncorrectFormat)?;
        let args = c["args"].as_str().unwrap_or_default().to_owned();
        let name = c["name"].as_str().unwrap_or_default().to_owned();
        match u.int_in_range(0..=2u8)? {
            // Another JSON value (whitespace alone no longer differs:
            // revision 4 compares JSON arguments as values).
            0 => c["args"] = json!(format!("[{args}]")),
            1 => {
                let other = "{\"city\": \"Lisbon\"}";
                c["args"] = json!(if args == other { "{}" } else { other });
            }
            _ => {
                let others: Vec<&str> = TOOLS.iter().copied().filter(|t| *t != name).collect();
                c["name"] = json!(others[u.choose_index(others.len())?]);
            }
        }
    }
    // A message no event named (a call's, shown without id) gets in the
    // snapshot the id a client gives it (the 1.0.0 reducer: its first
    // call's), and the snapshot names it from then on.
    for m in shown.iter_mut() {
        if m.get("id").is_none()
            && let Some(id) = m.pointer("/toolCalls/0/id").cloned()
        {
            m["id"] = id;
        }
    }
    let messages = shown
        .iter()
        .map(|m| to_wire(m, &r, k))
        .collect::<Option<Vec<Value>>>()
        .ok_or(Error::IncorrectFormat)?;
    let at = span.end;
    let mut events = r.values();
    events.insert(
        at,
        json!({"type": T::MessagesSnapshot.as_str(), "messages": messages}),
    );
    Ok(Mutated {
        events,
        lines: None,
        rule: RuleId::MessagesSnapshotDisagrees,
        index: at,
        projection: Some(projection),
    })
}

/// A message as the projection shows it (docs/projection.md), as the wire
/// `Message` that shows that way: owner as `subagentRunId`, calls as
/// `function` calls; a tool message gets the `toolCallId` of the result
/// that minted it (run `k`'s last for that id).
fn to_wire(m: &Value, r: &Rendered, k: usize) -> Option<Value> {
    let id = m["id"].as_str()?;
    let role = m["role"].as_str()?;
    let mut w = json!({"id": id, "role": role, "content": m["content"]});
    if let Some(owner) = m.get("owner") {
        w[SUBAGENT_RUN_ID] = owner.clone();
    }
    match role {
        "activity" => w[ACTIVITY_TYPE] = m.get(ACTIVITY_TYPE)?.clone(),
        "tool" => {
            let span = r.runs.get(k)?;
            let result = (span.start..span.end).rev().find(|&i| {
                r.events[i].kind() == T::ToolCallResult
                    && r.events[i].message_id.as_deref() == Some(id)
            })?;
            // A tool message's `toolCallId`, the result's field of that name.
            w[TOOL_CALL_ID] = json!(r.events[result].tool_call_id.as_deref()?);
        }
        _ => {}
    }
    if let Some(calls) = m.get("toolCalls").and_then(Value::as_array) {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| {
                json!({"id": c["id"], "type": "function",
                       "function": {"name": c["name"], "arguments": c["args"]}})
            })
            .collect();
        w["toolCalls"] = Value::Array(calls);
    }
    Some(w)
}
