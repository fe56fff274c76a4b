//! The stateful producer suite against small scripted producers on
//! loopback: one that interrupts and accepts only a resume naming the
//! interrupt it raised, one that refuses a valid input with `RUN_ERROR`,
//! one that calls a client tool and goes on only with its result.
//!
//! The ids the producers raise derive from the fresh `threadId` of each
//! scenario, so a later request that names them can only have taken them
//! from the answer. Expected scores follow from suites/producer/README.md;
//! expected rules from docs/rules.md (an invocation that finished `success`
//! and is announced again in a later run is
//! `lifecycle.resumed-not-suspended`, a warning; a suspended one may be:
//! `accept.suspended-resume`).

mod support;

use agui_live::suite::{self, Score};
use agui_model::RuleId;
use serde_json::{Value, json};
use support::opts;
use support::server::{Recorded, Reply, Server, sse_body};

fn scenario(name: &str) -> Vec<suite::SuiteInput> {
    suite::load(&suite::built_in_dir().join(format!("{name}.json"))).unwrap()
}

fn run(server: &Server, name: &str) -> suite::InputResult {
    let mut results = suite::run(
        &server.url(),
        &scenario(name),
        &opts(),
        suite::Setup::default(),
        &mut |_| {},
    );
    results.remove(0)
}

/// The interrupt id the producer raises in a thread.
fn interrupt_id(thread: &Value) -> String {
    format!("int-{}", thread.as_str().unwrap_or_default())
}

/// Interrupts for approval inside invocation `sub-pay`; resumed with that
/// interrupt, re-announces `sub-pay` and finishes. `suspend`: whether
/// `sub-pay` finishes `suspended` (else `success`, which makes its second
/// announcement `lifecycle.resumed-not-suspended`).
fn approver(req: &Recorded, suspend: bool) -> Reply {
    let input = req.json();
    let (t, r) = (input["threadId"].clone(), input["runId"].clone());
    let id = interrupt_id(&t);
    let start = json!({"type": "RUN_STARTED", "threadId": t, "runId": r});
    let events = match input.get("resume") {
        None => {
            let outcome = if suspend {
                json!({"type": "suspended", "interruptIds": [id]})
            } else {
                json!({"type": "success"})
            };
            vec![
                start,
                json!({"type": "SUBAGENT_STARTED", "subagentRunId": "sub-pay", "name": "payer"}),
                json!({"type": "TEXT_MESSAGE_START", "messageId": "m-ask", "role": "assistant", "subagentRunId": "sub-pay"}),
                json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m-ask", "delta": "May I pay 89 EUR?", "subagentRunId": "sub-pay"}),
                json!({"type": "TEXT_MESSAGE_END", "messageId": "m-ask", "subagentRunId": "sub-pay"}),
                json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "sub-pay", "outcome": outcome}),
                json!({"type": "RUN_FINISHED", "threadId": t, "runId": r,
                       "outcome": {"type": "interrupt", "interrupts": [
                           {"id": id, "reason": "approval", "subagentRunId": "sub-pay"}]}}),
            ]
        }
        Some(resume) if resume[0]["interruptId"] == json!(id) => {
            let text = if resume[0]["status"] == "resolved" {
                "Paid."
            } else {
                "Cancelled."
            };
            vec![
                start,
                json!({"type": "SUBAGENT_STARTED", "subagentRunId": "sub-pay", "name": "payer"}),
                json!({"type": "TEXT_MESSAGE_START", "messageId": "m-done", "role": "assistant", "subagentRunId": "sub-pay"}),
                json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m-done", "delta": text, "subagentRunId": "sub-pay"}),
                json!({"type": "TEXT_MESSAGE_END", "messageId": "m-done", "subagentRunId": "sub-pay"}),
                json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "sub-pay"}),
                json!({"type": "RUN_FINISHED", "threadId": t, "runId": r}),
            ]
        }
        Some(_) => vec![
            start,
            json!({"type": "RUN_ERROR", "message": "unknown interrupt", "code": "BAD_RESUME"}),
        ],
    };
    Reply::sse(sse_body(&events))
}

#[test]
fn a_resume_names_the_interrupt_the_producer_raised() {
    let server = Server::start(|req| approver(req, true));
    let r = run(&server, "resume-after-interrupt");
    assert_eq!(r.score, Score::Pass, "{r:?}");
    assert!(r.violations.is_empty() && r.refused.is_none() && r.skipped.is_none());
    let kinds: Vec<(&str, Vec<&str>)> = r
        .steps
        .iter()
        .map(|s| (s.kind, s.outcomes.clone()))
        .collect();
    assert_eq!(
        kinds,
        [("input", vec!["interrupted"]), ("resume", vec!["finished"])]
    );
    // Both runs of the conversation, 7 events each.
    assert_eq!(r.events, 14);
    assert_eq!(r.runs.len(), 2);
    let sent: Vec<Value> = server.requests().iter().map(Recorded::json).collect();
    assert_eq!(sent.len(), 2);
    let (first, second) = (&sent[0], &sent[1]);
    assert_eq!(second["threadId"], first["threadId"]);
    assert_ne!(second["runId"], first["runId"]);
    assert_eq!(
        second["resume"],
        json!([{"interruptId": interrupt_id(&first["threadId"]), "status": "resolved",
                "payload": {"approved": true}}])
    );
    // The conversation so far: the user's message, then the producer's,
    // with its owner.
    assert_eq!(second["messages"][0], first["messages"][0]);
    assert_eq!(
        second["messages"][1],
        json!({"id": "m-ask", "role": "assistant", "content": "May I pay 89 EUR?",
               "subagentRunId": "sub-pay"})
    );
    assert_eq!(second["tools"], first["tools"]);

    // The same producer, resumed `cancelled`.
    let r = run(&server, "resume-cancelled");
    assert_eq!(r.score, Score::Pass, "{r:?}");
    let last = server.requests().last().unwrap().json();
    assert_eq!(last["resume"][0]["status"], "cancelled");
}

#[test]
fn cross_run_rules_are_judged_over_the_whole_conversation() {
    // `sub-pay` finished `success`, then is announced again after the
    // resume: a later run re-announcing a finished invocation.
    let server = Server::start(|req| approver(req, false));
    let r = run(&server, "resume-after-interrupt");
    let found: Vec<(RuleId, usize)> = r.violations.iter().map(|v| (v.rule, v.index)).collect();
    // The second run starts at event 7; its SUBAGENT_STARTED is event 8.
    assert!(
        found.contains(&(RuleId::LifecycleResumedNotSuspended, 8)),
        "{found:?}"
    );
    assert_eq!(r.score, Score::Warn, "{r:?}");
}

#[test]
fn a_run_error_answer_to_a_valid_input_is_a_failure_apart_from_violations() {
    let server = Server::start(|req| {
        let input = req.json();
        Reply::sse(sse_body(&[
            json!({"type": "RUN_STARTED", "threadId": input["threadId"], "runId": input["runId"]}),
            json!({"type": "RUN_ERROR", "message": "no model configured", "code": "CONFIG"}),
        ]))
    });
    let r = run(&server, "plain");
    assert_eq!(r.score, Score::Fail);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(
        r.refused.as_deref(),
        Some(
            "the producer refused a valid input (step 1, input): no model configured [code CONFIG]"
        )
    );
    let line = suite::json_line(&r);
    assert_eq!(line["runs"][0]["outcome"], "errored");
    assert_eq!(line["runs"][0]["message"], "no model configured");
    assert_eq!(line["runs"][0]["code"], "CONFIG");
    let text = suite::render_text("producer", &server.url(), std::slice::from_ref(&r));
    assert!(
        text.contains("the producer refused a valid input"),
        "{text}"
    );

    // A stateful scenario stops at the refusal: one request only.
    let r = run(&server, "resume-after-interrupt");
    assert_eq!(r.score, Score::Fail);
    assert_eq!(server.requests().len(), 2);
}

/// Calls the client's `get_weather` tool; with its result, answers.
fn forecaster(req: &Recorded) -> Reply {
    let input = req.json();
    let (t, r) = (input["threadId"].clone(), input["runId"].clone());
    let call = format!("call-{}", t.as_str().unwrap_or_default());
    let start = json!({"type": "RUN_STARTED", "threadId": t, "runId": r});
    let finish = json!({"type": "RUN_FINISHED", "threadId": t, "runId": r});
    let messages = input["messages"].as_array().cloned().unwrap_or_default();
    let result = messages
        .iter()
        .find(|m| m["role"] == "tool" && m["toolCallId"] == json!(call));
    let events = match result {
        None => vec![
            start,
            json!({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "get_weather"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": "{\"city\":\"Lisbon\"}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": call}),
            finish,
        ],
        Some(m) if m["content"].as_str().is_some_and(|c| c.contains("sunny")) => vec![
            start,
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m-w", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m-w", "delta": "It is sunny."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m-w"}),
            finish,
        ],
        Some(_) => vec![
            start,
            json!({"type": "RUN_ERROR", "message": "bad tool result"}),
        ],
    };
    Reply::sse(sse_body(&events))
}

#[test]
fn tool_results_answer_the_calls_the_producer_made() {
    let server = Server::start(forecaster);
    let r = run(&server, "tool-results");
    assert_eq!(r.score, Score::Pass, "{r:?}");
    let sent: Vec<Value> = server.requests().iter().map(Recorded::json).collect();
    assert_eq!(sent.len(), 2);
    let call = format!("call-{}", sent[0]["threadId"].as_str().unwrap());
    let messages = sent[1]["messages"].as_array().unwrap();
    // The user's message, the assistant's tool call, the result.
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[1]["toolCalls"],
        json!([{"id": call, "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Lisbon\"}"}}])
    );
    assert_eq!(messages[2]["role"], "tool");
    assert_eq!(messages[2]["toolCallId"], json!(call));
    assert_eq!(
        messages[2]["content"],
        "{\"city\":\"Lisbon\",\"sky\":\"sunny\",\"celsius\":24}"
    );
}

#[test]
fn a_base_input_is_merged_into_every_first_request() {
    let server = Server::start(forecaster);
    let base = json!({
        "forwardedProps": {"model": "scripted"},
        "tools": [{"name": "clock", "description": "The time."}],
        "messages": [{"id": "sys-1", "role": "system", "content": "Be brief."}],
    });
    let setup = suite::Setup {
        base: Some(&base),
        captures: None,
    };
    suite::run(
        &server.url(),
        &scenario("plain"),
        &opts(),
        setup,
        &mut |_| {},
    );
    let sent = server.requests()[0].json();
    assert_eq!(sent["forwardedProps"], json!({"model": "scripted"}));
    assert_eq!(sent["messages"][0]["id"], "sys-1");
    assert_eq!(sent["messages"][1]["role"], "user");
    assert_eq!(sent["tools"][0]["name"], "clock");
}

/// Has a backend tool `get_weather` of its own: refuses (`RUN_ERROR`) a
/// request offering a client tool of that name, as frameworks do; else
/// calls the client tool offered and, with its result, answers.
fn backend_weather(req: &Recorded) -> Reply {
    let input = req.json();
    let (t, r) = (input["threadId"].clone(), input["runId"].clone());
    let start = json!({"type": "RUN_STARTED", "threadId": t, "runId": r});
    let finish = json!({"type": "RUN_FINISHED", "threadId": t, "runId": r});
    let tools = input["tools"].as_array().cloned().unwrap_or_default();
    if tools.iter().any(|x| x["name"] == "get_weather") {
        return Reply::sse(sse_body(&[
            start,
            json!({"type": "RUN_ERROR", "message": "duplicate tool name get_weather"}),
        ]));
    }
    let Some(client) = tools.first().and_then(|x| x["name"].as_str()) else {
        return Reply::sse(sse_body(&[start, finish]));
    };
    let call = format!("call-{}", t.as_str().unwrap_or_default());
    let answered = input["messages"].as_array().is_some_and(|ms| {
        ms.iter().any(|m| {
            m["role"] == "tool"
                && m["toolCallId"] == json!(call)
                && m["content"].as_str().is_some_and(|c| c.contains("sunny"))
        })
    });
    let events = if answered {
        vec![
            start,
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m-w", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m-w", "delta": "It is sunny."}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m-w"}),
            finish,
        ]
    } else {
        vec![
            start,
            json!({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": client}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": "{\"city\":\"Lisbon\"}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": call}),
            finish,
        ]
    };
    Reply::sse(sse_body(&events))
}

#[test]
fn the_client_tool_can_be_renamed_for_a_producer_that_has_one_of_its_name() {
    let server = Server::start(backend_weather);
    // As shipped: the producer refuses the scenario.
    let r = run(&server, "tool-results");
    assert_eq!(r.score, Score::Fail, "{r:?}");
    assert!(
        r.refused
            .as_deref()
            .is_some_and(|m| m.contains("duplicate tool name")),
        "{r:?}"
    );

    let mut inputs = scenario("tool-results");
    agui_live::tool_name::rename_all(&mut inputs, "client_weather").unwrap();
    let before = server.requests().len();
    let mut results = suite::run(
        &server.url(),
        &inputs,
        &opts(),
        suite::Setup::default(),
        &mut |_| {},
    );
    let r = results.remove(0);
    assert_eq!(r.score, Score::Pass, "{r:?}");
    let sent: Vec<Value> = server.requests()[before..]
        .iter()
        .map(Recorded::json)
        .collect();
    assert_eq!(sent.len(), 2);
    // The renamed tool is what the producer was offered and told to use.
    assert_eq!(sent[0]["tools"][0]["name"], "client_weather");
    assert_eq!(
        sent[0]["tools"][0]["description"],
        "Current weather for a city."
    );
    assert_eq!(
        sent[0]["messages"][0]["content"],
        "What is the weather in Lisbon right now? Use the client_weather tool."
    );
    // The scripted result for the tool (by its new name) went back.
    let messages = sent[1]["messages"].as_array().unwrap();
    assert_eq!(
        messages[1]["toolCalls"][0]["function"]["name"],
        "client_weather"
    );
    assert_eq!(messages[2]["role"], "tool");
    assert_eq!(
        messages[2]["content"],
        "{\"city\":\"Lisbon\",\"sky\":\"sunny\",\"celsius\":24}"
    );
    assert!(
        !serde_json::to_string(&sent)
            .unwrap()
            .contains("get_weather")
    );
}
