//! Producer scenarios in steps: the first request is written in the file,
//! each later one is built from what the producer answered before —
//! resume with the interrupts it raised, continue the thread with the
//! messages it produced, send back results for the tool calls it left
//! open. suites/producer/README.md documents the format.
//!
//! A step whose precondition the producer's answer does not meet (it never
//! interrupted, made no tool call, did not finish) is not sent: the
//! scenario is skipped with that reason, never passed.

use crate::input::{RUN_ID, TOOL_CALL_ID, fresh_id, user_message};
use crate::outcome::{Outcome, RunRecord};
use agui_model::events::{Content, Event, Message, ToolMessage};
use agui_model::wire::key::RunStarted;
use agui_model::wire::nested::{
    ARGUMENTS, CONTENT, FORWARDED_PROPS, ID, INPUT_RESUME, INTERRUPT_ID, MESSAGES, NAME, PAYLOAD,
    ROLE, STATE, STATUS, TOOL_CALLS, TOOL_FUNCTION,
};
use agui_model::wire::{SUBAGENT_RUN_ID, TYPE};
use serde_json::{Map, Value, json};

/// A scenario: the first request, then the steps built from the answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub description: Option<String>,
    /// Why a producer may legitimately refuse this scenario's requests
    /// (`mayRefuse`: a state that does not fit its model, say): a refusal
    /// — a 4xx answer with a body — then scores SKIPPED with that reason
    /// instead of FAIL.
    pub may_refuse: Option<String>,
    /// The first `RunAgentInput` (before a base input is merged in).
    pub first: Value,
    pub then: Vec<Step>,
}

/// A step after the first.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Resume every interrupt the last run raised, with this status
    /// (`resolved` or `cancelled`) and payload.
    Resume {
        status: String,
        payload: Option<Value>,
    },
    /// Continue the thread: another user message, and/or forwarded
    /// properties merged into the request's (how some frameworks take a
    /// command, e.g. LangGraph's legacy `forwardedProps.command.resume`).
    Continue {
        message: Option<String>,
        forwarded_props: Option<Value>,
    },
    /// Answer every tool call the last answer left without a result: the
    /// content given for its tool's name, else `content`.
    ToolResults {
        content: String,
        by_name: Map<String, Value>,
    },
}

impl Step {
    /// The step's name in reports and files.
    pub fn kind(&self) -> &'static str {
        match self {
            Step::Resume { .. } => "resume",
            Step::Continue { .. } => "continue",
            Step::ToolResults { .. } => "toolResults",
        }
    }
}

/// The scenario key that says why a producer may refuse its requests.
pub const MAY_REFUSE: &str = "mayRefuse";

/// The kinds of steps after the first, as spelled in a file.
const KINDS: [&str; 3] = ["resume", "continue", "toolResults"];

impl Scenario {
    /// A scenario from a file's JSON: a `RunAgentInput` (one request), or
    /// `{"description"?, "mayRefuse"?, "steps": [{"input": {…}}, {"resume":
    /// {…}}, …]}`; `mayRefuse` (a string: why) is taken out of a
    /// one-request file, never sent.
    pub fn from_json(v: Value) -> Result<Scenario, String> {
        let Value::Object(mut o) = v else {
            return Err("a scenario is a JSON object".into());
        };
        let may_refuse = match o.remove(MAY_REFUSE) {
            None => None,
            Some(Value::String(why)) if !why.trim().is_empty() => Some(why),
            Some(_) => return Err(format!("`{MAY_REFUSE}` is a non-empty string (why)")),
        };
        let Some(steps) = o.remove("steps") else {
            return Ok(Scenario {
                description: None,
                may_refuse,
                first: Value::Object(o),
                then: Vec::new(),
            });
        };
        let description = o
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Value::Array(steps) = steps else {
            return Err("`steps` is an array".into());
        };
        let mut steps = steps.into_iter();
        let first = match steps.next() {
            Some(Value::Object(mut s)) if s.len() == 1 && s.contains_key("input") => {
                match s.remove("input") {
                    Some(input @ Value::Object(_)) => input,
                    _ => return Err("step 1: `input` is a RunAgentInput object".into()),
                }
            }
            _ => return Err("step 1 is `{\"input\": {…}}`".into()),
        };
        let then = steps
            .enumerate()
            .map(|(i, s)| step(s).map_err(|e| format!("step {}: {e}", i + 2)))
            .collect::<Result<_, _>>()?;
        Ok(Scenario {
            description,
            may_refuse,
            first,
            then,
        })
    }
}

fn step(v: Value) -> Result<Step, String> {
    let Value::Object(o) = v else {
        return Err("a step is an object".into());
    };
    let (kind, body) = match o.into_iter().collect::<Vec<_>>().as_slice() {
        [(k, b)] => (k.clone(), b.clone()),
        _ => return Err(format!("a step has one key, one of {}", KINDS.join(", "))),
    };
    let text = |key: &str| body.get(key).and_then(Value::as_str).map(str::to_owned);
    match kind.as_str() {
        "resume" => {
            let status = text("status").unwrap_or_else(|| "resolved".into());
            if status != "resolved" && status != "cancelled" {
                return Err(format!(
                    "resume status `{status}`: `resolved` or `cancelled`"
                ));
            }
            Ok(Step::Resume {
                status,
                payload: body.get("payload").cloned(),
            })
        }
        "continue" => {
            let message = text("message");
            let forwarded_props = match body.get("forwardedProps") {
                Some(v @ Value::Object(_)) => Some(v.clone()),
                None => None,
                Some(_) => return Err("continue `forwardedProps` is an object".into()),
            };
            if message.is_none() && forwarded_props.is_none() {
                return Err("continue needs a `message` or `forwardedProps`".into());
            }
            Ok(Step::Continue {
                message,
                forwarded_props,
            })
        }
        "toolResults" => Ok(Step::ToolResults {
            content: text("content").unwrap_or_else(|| "done".into()),
            by_name: match body.get("byName") {
                Some(Value::Object(m)) => m.clone(),
                None => Map::new(),
                Some(_) => return Err("toolResults `byName` is an object".into()),
            },
        }),
        other => Err(format!(
            "unknown step `{other}` (one of input, {})",
            KINDS.join(", ")
        )),
    }
}

/// What the producer answered to one request.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    /// The request that was sent.
    pub request: &'a Value,
    /// The last run of the answer, if one was seen.
    pub last_run: Option<&'a RunRecord>,
    /// The projection of that run (docs/projection.md): its messages and
    /// state.
    pub projection: Option<&'a Value>,
    /// What the next request needs from the answer's events.
    pub digest: &'a Digest,
}

/// The most tool calls (and tool results) an answer's [`Digest`] keeps.
pub const MAX_TOOL_CALLS: usize = 10_000;

/// What the next request needs from an answer's events, gathered as they
/// arrive, so the events themselves need not be kept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Digest {
    /// The answer set the state (a snapshot, a delta, or a `RUN_STARTED`
    /// input echoing one): only then is its projection's state the
    /// client's; otherwise the client keeps the state it sent (the checker
    /// starts a stream at `{}`, not at the request's state).
    pub changes_state: bool,
    /// `(messageId, toolCallId)` of each `TOOL_CALL_RESULT`.
    pub results: Vec<(String, String)>,
    /// `(toolCallId, toolCallName)` of each tool call started (a
    /// `TOOL_CALL_START`, or a `TOOL_CALL_CHUNK` naming both), in order.
    pub calls: Vec<(String, String)>,
}

impl Digest {
    /// The digest of a whole answer.
    pub fn of(events: &[Value]) -> Digest {
        let mut d = Digest::default();
        for e in events {
            d.observe(e);
        }
        d
    }

    /// Takes in the answer's next event.
    pub fn observe(&mut self, e: &Value) {
        match e.get(TYPE).and_then(Value::as_str) {
            Some("STATE_SNAPSHOT" | "STATE_DELTA") => self.changes_state = true,
            Some("RUN_STARTED")
                if e.get(RunStarted::input)
                    .and_then(|i| i.get(STATE))
                    .is_some_and(|s| !s.is_null()) =>
            {
                self.changes_state = true;
            }
            Some("TOOL_CALL_RESULT" | "TOOL_CALL_START" | "TOOL_CALL_CHUNK") => {
                match Event::from_value(e) {
                    Ok(Event::ToolCallResult(r)) if self.results.len() < MAX_TOOL_CALLS => {
                        self.results.push((r.message_id, r.tool_call_id));
                    }
                    Ok(Event::ToolCallStart(s)) => self.call(s.tool_call_id, s.tool_call_name),
                    Ok(Event::ToolCallChunk(c)) => {
                        if let (Some(id), Some(name)) = (c.tool_call_id, c.tool_call_name) {
                            self.call(id, name);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, id: String, name: String) {
        if self.calls.len() < MAX_TOOL_CALLS && !self.calls.iter().any(|(c, _)| *c == id) {
            self.calls.push((id, name));
        }
    }
}

/// The request of `step` after `answer`, or why the answer does not allow
/// it (the precondition that was not met).
pub fn next_request(step: &Step, answer: &Answer<'_>) -> Result<Value, String> {
    let Some(run) = answer.last_run else {
        return Err("the producer's answer held no run".into());
    };
    let mut next = match answer.request {
        Value::Object(o) => o.clone(),
        _ => Map::new(),
    };
    next.insert(RUN_ID.into(), json!(fresh_id("run")));
    next.remove(INPUT_RESUME);
    let mut messages = match next.remove(MESSAGES) {
        Some(Value::Array(m)) => m,
        _ => Vec::new(),
    };
    let produced = produced_messages(answer);
    for m in produced {
        let id = m.get(ID);
        if !messages.iter().any(|old| old.get(ID) == id) {
            messages.push(m);
        }
    }
    if answer.digest.changes_state
        && let Some(state) = answer.projection.and_then(|p| p.get(STATE))
    {
        next.insert(STATE.into(), state.clone());
    }
    match step {
        Step::Resume { status, payload } => {
            let Outcome::Interrupted { .. } = &run.outcome else {
                return Err(format!(
                    "the producer did not interrupt (its run ended {}), so there is nothing to resume",
                    run.outcome.as_str()
                ));
            };
            let ids = run.outcome.interrupt_ids();
            if ids.is_empty() {
                return Err("the interrupt outcome names no interrupt id".into());
            }
            let resume: Vec<Value> = ids
                .iter()
                .map(|id| {
                    let mut r = json!({ INTERRUPT_ID: id, STATUS: status });
                    if let Some(p) = payload {
                        r[PAYLOAD] = p.clone();
                    }
                    r
                })
                .collect();
            next.insert(INPUT_RESUME.into(), Value::Array(resume));
        }
        Step::Continue {
            message,
            forwarded_props,
        } => {
            if !matches!(
                run.outcome,
                Outcome::Finished { .. } | Outcome::Interrupted { .. } | Outcome::Cancelled
            ) {
                return Err(format!(
                    "the producer's run ended {}, so the thread cannot go on",
                    run.outcome.as_str()
                ));
            }
            if let Some(m) = message {
                messages.push(user_message(m));
            }
            if let Some(props) = forwarded_props {
                let before = next.remove(FORWARDED_PROPS).unwrap_or_else(|| json!({}));
                next.insert(FORWARDED_PROPS.into(), crate::input::merge(&before, props));
            }
        }
        Step::ToolResults { content, by_name } => {
            let open = open_tool_calls(answer);
            if open.is_empty() {
                return Err("the producer made no tool call left without a result".into());
            }
            for (id, name) in open {
                let text = by_name
                    .get(&name)
                    .map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_else(|| content.clone());
                let m = Message::Tool(ToolMessage {
                    id: fresh_id("msg-tool"),
                    content: Content::Text(text),
                    tool_call_id: id,
                    ..Default::default()
                });
                messages.push(serde_json::to_value(m).unwrap_or(Value::Null));
            }
        }
    }
    next.insert(MESSAGES.into(), Value::Array(messages));
    Ok(Value::Object(next))
}

/// The messages the producer produced, as `RunAgentInput` messages: the
/// run's projection (assistant, user, system, developer and tool messages;
/// reasoning and activity messages are not sent back), each with its
/// owner as `subagentRunId`.
pub fn produced_messages(answer: &Answer<'_>) -> Vec<Value> {
    let results = &answer.digest.results;
    let Some(Value::Array(list)) = answer.projection.and_then(|p| p.get(MESSAGES)) else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|m| {
            // A message no event named (a tool call's, shown without id)
            // gets the id the 1.0.0 reducer gives it: its first call's.
            let id = m
                .get(ID)
                .and_then(Value::as_str)
                .or_else(|| m.get(TOOL_CALLS)?.get(0)?.get(ID)?.as_str())?;
            let role = m.get(ROLE)?.as_str()?;
            let content = m.get(CONTENT).and_then(Value::as_str).unwrap_or("");
            let mut out = json!({ ID: id, ROLE: role });
            match role {
                "assistant" => {
                    if !content.is_empty() {
                        out[CONTENT] = json!(content);
                    }
                    if let Some(Value::Array(calls)) = m.get(TOOL_CALLS)
                        && !calls.is_empty()
                    {
                        out[TOOL_CALLS] = Value::Array(
                            calls
                                .iter()
                                .map(|c| {
                                    json!({
                                        ID: c.get(ID).cloned().unwrap_or(json!("")),
                                        TYPE: "function",
                                        TOOL_FUNCTION: {
                                            NAME: c.get(NAME).cloned().unwrap_or(json!("")),
                                            ARGUMENTS: c.get("args").cloned().unwrap_or(json!("")),
                                        },
                                    })
                                })
                                .collect(),
                        );
                    }
                }
                "tool" => {
                    let call = results.iter().find(|(msg, _)| msg == id)?;
                    out[TOOL_CALL_ID] = json!(call.1);
                    out[CONTENT] = json!(content);
                }
                "user" | "system" | "developer" => out[CONTENT] = json!(content),
                _ => return None,
            }
            if let Some(owner) = m.get("owner").and_then(Value::as_str) {
                out[SUBAGENT_RUN_ID] = json!(owner);
            }
            Some(out)
        })
        .collect()
}

/// `(id, name)` of each tool call of the answer with no result in it, in
/// the order they were made, and of each pending one its outcome names.
pub fn open_tool_calls(answer: &Answer<'_>) -> Vec<(String, String)> {
    let answered = &answer.digest.results;
    let mut calls: Vec<(String, String)> = answer
        .digest
        .calls
        .iter()
        .filter(|(id, _)| !answered.iter().any(|(_, call)| call == id))
        .cloned()
        .collect();
    if let Some(RunRecord {
        outcome: Outcome::Finished { pending_tool_calls },
        ..
    }) = answer.last_run
    {
        for id in pending_tool_calls {
            if !calls.iter().any(|(c, _)| c == id) {
                calls.push((id.clone(), String::new()));
            }
        }
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_agent_input_is_a_one_step_scenario() {
        let s = Scenario::from_json(json!({"messages": []})).unwrap();
        assert_eq!(s.first, json!({"messages": []}));
        assert!(s.then.is_empty());
        assert_eq!(s.may_refuse, None);
    }

    #[test]
    fn may_refuse_is_read_in_both_forms_and_never_sent() {
        let one = Scenario::from_json(json!({"mayRefuse": "state", "messages": []})).unwrap();
        assert_eq!(one.may_refuse.as_deref(), Some("state"));
        assert_eq!(one.first, json!({"messages": []}));
        let steps = Scenario::from_json(json!({
            "mayRefuse": "history",
            "steps": [{"input": {"messages": []}}]
        }))
        .unwrap();
        assert_eq!(steps.may_refuse.as_deref(), Some("history"));
        for bad in [json!({"mayRefuse": true}), json!({"mayRefuse": " "})] {
            let e = Scenario::from_json(bad).unwrap_err();
            assert!(e.starts_with("`mayRefuse` is a non-empty string"), "{e}");
        }
    }

    #[test]
    fn steps_are_read_and_bad_ones_named() {
        let s = Scenario::from_json(json!({
            "description": "d",
            "steps": [
                {"input": {"messages": []}},
                {"resume": {"status": "cancelled"}},
                {"continue": {"message": "go on"}},
                {"toolResults": {"byName": {"search": "found"}}},
            ]
        }))
        .unwrap();
        assert_eq!(s.description.as_deref(), Some("d"));
        let kinds: Vec<&str> = s.then.iter().map(Step::kind).collect();
        assert_eq!(kinds, ["resume", "continue", "toolResults"]);
        for (bad, why) in [
            (json!({"steps": []}), "step 1"),
            (
                json!({"steps": [{"input": {}}, {"resume": {"status": "maybe"}}]}),
                "step 2: resume status",
            ),
            (
                json!({"steps": [{"input": {}}, {"continue": {}}]}),
                "step 2: continue needs",
            ),
            (
                json!({"steps": [{"input": {}}, {"rewind": {}}]}),
                "step 2: unknown step `rewind`",
            ),
        ] {
            let e = Scenario::from_json(bad).unwrap_err();
            assert!(e.starts_with(why), "{e}");
        }
    }

    fn run(outcome: Outcome) -> RunRecord {
        RunRecord {
            start: 0,
            end: 3,
            thread_id: Some("t".into()),
            run_id: Some("r1".into()),
            outcome,
        }
    }

    #[test]
    fn resume_names_the_interrupts_raised_and_keeps_the_thread() {
        let request = json!({"threadId": "t", "runId": "r1",
            "messages": [{"id": "u1", "role": "user", "content": "pay"}]});
        let last = run(Outcome::Interrupted {
            interrupts: vec![json!({"id": "int-7", "reason": "approval"})],
        });
        let projection = json!({"messages": [
            {"id": "u1", "role": "user", "content": "pay"},
            {"id": "a1", "role": "assistant", "owner": "s1", "content": "May I pay?"},
            {"id": "r1", "role": "reasoning", "content": "hmm"},
        ], "state": {"cart": 1}});
        let answer = Answer {
            request: &request,
            last_run: Some(&last),
            projection: Some(&projection),
            digest: &Digest::default(),
        };
        let step = Step::Resume {
            status: "resolved".into(),
            payload: Some(json!({"approved": true})),
        };
        let next = next_request(&step, &answer).unwrap();
        assert_eq!(next["threadId"], "t");
        assert_ne!(next["runId"], "r1");
        assert_eq!(
            next["resume"],
            json!([{"interruptId": "int-7", "status": "resolved", "payload": {"approved": true}}])
        );
        assert_eq!(
            next["messages"],
            json!([{"id": "u1", "role": "user", "content": "pay"},
                   {"id": "a1", "role": "assistant", "content": "May I pay?", "subagentRunId": "s1"}])
        );
        // No state event in the answer: the client keeps the state it sent.
        assert!(next.get("state").is_none());
        let events = [json!({"type": "STATE_SNAPSHOT", "snapshot": {"cart": 1}})];
        let with_state = Answer {
            digest: &Digest::of(&events),
            ..answer
        };
        let next = next_request(&step, &with_state).unwrap();
        assert_eq!(next["state"], json!({"cart": 1}));
        // No interrupt: the precondition is not met.
        let finished = run(Outcome::Finished {
            pending_tool_calls: vec![],
        });
        let answer = Answer {
            last_run: Some(&finished),
            ..answer
        };
        let why = next_request(&step, &answer).unwrap_err();
        assert!(why.contains("did not interrupt"), "{why}");
    }

    #[test]
    fn tool_results_answer_the_calls_left_open() {
        let request = json!({"threadId": "t", "runId": "r1", "messages": []});
        let last = run(Outcome::Finished {
            pending_tool_calls: vec![],
        });
        let events = [
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c2", "toolCallName": "clock"}),
            json!({"type": "TOOL_CALL_RESULT", "messageId": "m2", "toolCallId": "c2", "content": "noon"}),
        ];
        let projection = json!({"messages": [
            {"id": "a1", "role": "assistant", "content": "",
             "toolCalls": [{"id": "c1", "name": "search", "args": "{}"}, {"id": "c2", "name": "clock", "args": ""}]},
            {"id": "m2", "role": "tool", "content": "noon"},
        ]});
        let answer = Answer {
            request: &request,
            last_run: Some(&last),
            projection: Some(&projection),
            digest: &Digest::of(&events),
        };
        assert_eq!(
            open_tool_calls(&answer),
            [("c1".to_owned(), "search".to_owned())]
        );
        let mut by_name = Map::new();
        by_name.insert("search".into(), json!("Lisbon"));
        let step = Step::ToolResults {
            content: "done".into(),
            by_name,
        };
        let next = next_request(&step, &answer).unwrap();
        let m = next["messages"].as_array().unwrap();
        assert_eq!(m[0]["toolCalls"][0]["function"]["name"], "search");
        assert_eq!(
            m[1],
            json!({"id": "m2", "role": "tool", "toolCallId": "c2", "content": "noon"})
        );
        assert_eq!(m[2]["role"], "tool");
        assert_eq!(m[2]["toolCallId"], "c1");
        assert_eq!(m[2]["content"], "Lisbon");
        assert_eq!(m.len(), 3);
    }

    #[test]
    fn continue_may_carry_forwarded_props_instead_of_a_message() {
        let v = json!({"steps": [{"input": {}},
            {"continue": {"forwardedProps": {"command": {"resume": {"ok": true}}}}}]});
        let scenario = Scenario::from_json(v).unwrap();
        let step = &scenario.then[0];
        let request = json!({"threadId": "t", "runId": "r1",
            "messages": [{"id": "u1", "role": "user", "content": "pay"}],
            "forwardedProps": {"keep": 1}});
        let last = run(Outcome::Finished {
            pending_tool_calls: vec![],
        });
        let answer = Answer {
            request: &request,
            last_run: Some(&last),
            projection: None,
            digest: &Digest::default(),
        };
        let next = next_request(step, &answer).unwrap();
        // Merged key by key into the props sent before; no new message.
        assert_eq!(
            next["forwardedProps"],
            json!({"keep": 1, "command": {"resume": {"ok": true}}})
        );
        assert_eq!(
            next["messages"],
            json!([{"id": "u1", "role": "user", "content": "pay"}])
        );
        assert_eq!(next["threadId"], "t");
        let bad = json!({"steps": [{"input": {}}, {"continue": {"forwardedProps": 3}}]});
        assert!(
            Scenario::from_json(bad)
                .unwrap_err()
                .contains("is an object")
        );
    }
}
