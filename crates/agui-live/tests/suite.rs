//! The producer suite: its input files, and scoring against a local
//! server that answers each input with a chosen stream.
//!
//! Expected scores follow from the suite's definition (FAIL: an
//! error-severity violation; WARN: warnings only; ERRORED: the exchange
//! failed; SKIPPED: a step's precondition was not met) and docs/rules.md severities: `subagentRunId` on `RUN_STARTED` is the
//! warning `attribution.not-attributable`; `null` for it is the error
//! `attribution.null`.

mod support;

use agui_live::suite::{self, Score};
use agui_live::{Limits, Options};
use agui_model::RuleId;
use serde_json::{Value, json};
use std::time::Duration;
use support::server::{Reply, Server};

fn producer_dir() -> std::path::PathBuf {
    suite::built_in_dir()
}

#[test]
fn suite_inputs_are_run_agent_inputs_with_the_shapes_asked_for() {
    let inputs = suite::load(&producer_dir()).unwrap();
    let ids: Vec<&str> = inputs.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "continue-thread",
            "history-attributed",
            "plain",
            "resume-after-interrupt",
            "resume-cancelled",
            "state-carrying",
            "tool-results",
        ]
    );
    for i in &inputs {
        let scenario = i.input.as_ref().unwrap();
        let v = suite::first_request(scenario, None);
        // The 1.0 schema's RunAgentInput: threadId, runId, messages required
        // (the ids are filled in when a file leaves them out).
        assert!(
            v["threadId"].is_string() && v["runId"].is_string(),
            "{}",
            i.id
        );
        let messages = v["messages"].as_array().unwrap();
        for m in messages {
            assert!(m["id"].is_string() && m["role"].is_string(), "{}", i.id);
        }
        // Real producers refuse an empty conversation: a user message each.
        assert!(messages.iter().any(|m| m["role"] == "user"), "{}", i.id);
        // Echoed in RUN_STARTED.input, each passes the wire rules.
        let started = json!({"type": "RUN_STARTED", "threadId": v["threadId"], "runId": v["runId"], "input": v});
        let finished =
            json!({"type": "RUN_FINISHED", "threadId": v["threadId"], "runId": v["runId"]});
        let report = agui_model::check_values(&[started, finished]);
        assert!(
            report.violations.is_empty(),
            "{}: {:?}",
            i.id,
            report.violations
        );
    }
    let by_id = |id: &str| {
        inputs
            .iter()
            .find(|i| i.id == id)
            .unwrap()
            .input
            .clone()
            .unwrap()
    };
    let kinds =
        |id: &str| -> Vec<&'static str> { by_id(id).then.iter().map(|s| s.kind()).collect() };
    assert_eq!(kinds("resume-after-interrupt"), ["resume"]);
    assert_eq!(kinds("resume-cancelled"), ["resume"]);
    assert_eq!(kinds("tool-results"), ["toolResults"]);
    assert_eq!(kinds("continue-thread"), ["continue"]);
    let history = by_id("history-attributed").first;
    let attributed: Vec<&str> = history["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m.get("subagentRunId").is_some())
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert!(attributed.contains(&"assistant") && attributed.contains(&"tool"));
    assert!(
        by_id("state-carrying").first["state"]
            .as_object()
            .is_some_and(|s| !s.is_empty())
    );
}

/// A stream for each input, chosen by what the input holds.
fn answer(input: &Value) -> Reply {
    let (t, r) = (input["threadId"].clone(), input["runId"].clone());
    let start = json!({"type": "RUN_STARTED", "threadId": t, "runId": r});
    let finish = json!({"type": "RUN_FINISHED", "threadId": t, "runId": r});
    let last_text = input["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_owned();
    let events: Vec<Value> = if last_text.contains("Portuguese") {
        // Warning only: a tag on RUN_STARTED.
        let mut s = start.clone();
        s["subagentRunId"] = json!("sub-1");
        vec![s, finish]
    } else if input["messages"].as_array().is_some_and(|m| m.len() > 3) {
        // Error: null attribution.
        vec![
            start,
            json!({"type": "STEP_STARTED", "stepName": "s", "subagentRunId": null}),
            json!({"type": "STEP_FINISHED", "stepName": "s", "subagentRunId": null}),
            finish,
        ]
    } else if input["state"].as_object().is_some_and(|s| !s.is_empty()) {
        return Reply::sse("overloaded").status(500);
    } else {
        // Never interrupts, never calls a tool.
        vec![start, finish]
    };
    Reply::sse(support::server::sse_body(&events))
}

#[test]
fn each_input_is_scored_and_reported() {
    let server = Server::start(|req| answer(&req.json()));
    let inputs = suite::load(&producer_dir()).unwrap();
    let opts = Options {
        limits: Limits {
            total: Duration::from_secs(20),
            idle: Duration::from_secs(10),
        },
        ..Options::default()
    };
    let captures = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("suite-captures");
    let _ = std::fs::remove_dir_all(&captures);
    let mut seen = Vec::new();
    let setup = suite::Setup {
        base: None,
        captures: Some(&captures),
    };
    let results = suite::run(&server.url(), &inputs, &opts, setup, &mut |r| {
        seen.push(r.id.clone())
    });
    let scores: Vec<(&str, Score)> = results.iter().map(|r| (r.id.as_str(), r.score)).collect();
    assert_eq!(
        scores,
        [
            // The second turn's stream has a warning.
            ("continue-thread", Score::Warn),
            ("history-attributed", Score::Fail),
            ("plain", Score::Pass),
            // The producer never interrupts, never calls a tool.
            ("resume-after-interrupt", Score::Skipped),
            ("resume-cancelled", Score::Skipped),
            // HTTP 500: transport.status, an error.
            ("state-carrying", Score::Fail),
            ("tool-results", Score::Skipped),
        ]
    );
    assert_eq!(seen.len(), 7);
    let skipped = results[3].skipped.as_deref().unwrap();
    assert!(
        skipped.starts_with("step 2 (resume) not sent: the producer did not interrupt"),
        "{skipped}"
    );
    assert!(
        results[6]
            .skipped
            .as_deref()
            .unwrap()
            .contains("made no tool call")
    );
    // One request per step sent: two for continue-thread, one for the rest.
    let sent = server.requests();
    assert_eq!(sent.len(), 8);
    let turns: Vec<Value> = sent
        .iter()
        .map(|r| r.json())
        .filter(|v| v["messages"][0]["content"] == "Say hello in one short sentence.")
        .collect();
    assert_eq!(turns.len(), 3, "plain and both turns of continue-thread");
    let second = turns
        .iter()
        .find(|v| v["messages"].as_array().unwrap().len() == 2)
        .unwrap();
    assert_eq!(
        second["messages"][1]["content"],
        "Now say it in Portuguese."
    );
    assert_eq!(second["messages"][1]["role"], "user");
    assert!(
        turns
            .iter()
            .filter(|v| v["threadId"] == second["threadId"])
            .count()
            == 2
    );

    let text = suite::render_text("producer", &server.url(), &results);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("producer suite `producer` against http://127.0.0.1:"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL    history-attributed"))
    );
    assert!(lines.iter().any(|l| l.contains("attribution.null")));
    assert!(lines.iter().any(|l| l.contains("HTTP 500")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("steps: input → finished; continue → finished"))
    );
    assert_eq!(
        *lines.last().unwrap(),
        "summary: 7 inputs — 1 PASS, 1 WARN, 3 SKIPPED, 2 FAIL, 0 ERRORED"
    );

    let line = suite::json_line(&results[0]);
    assert_eq!(line["score"], "WARN");
    assert_eq!(line["warnings"], 1);
    // Indexes count the whole conversation: the second turn starts at 2.
    assert_eq!(
        line["violations"][0]["rule"],
        "attribution.not-attributable"
    );
    assert_eq!(line["violations"][0]["index"], 2);
    assert_eq!(line["steps"][1]["kind"], "continue");
    assert_eq!(line["steps"][1]["outcomes"], json!(["finished"]));
    assert_eq!(line["runs"].as_array().map(Vec::len), Some(2));
    let summary = suite::summary_line("producer", &server.url(), &results);
    assert_eq!(
        summary["summary"]["scores"],
        json!({"PASS": 1, "WARN": 1, "SKIPPED": 3, "FAIL": 2, "ERRORED": 0})
    );
    assert_eq!(summary["summary"]["rules"]["attribution.null"], 2);

    // Captures: one file per scenario that got a response, one line per
    // event of the whole conversation.
    let plain = std::fs::read_to_string(captures.join("plain.jsonl")).unwrap();
    assert_eq!(plain.lines().count(), 2);
    let failing = std::fs::read_to_string(captures.join("history-attributed.jsonl")).unwrap();
    assert_eq!(failing.lines().count(), 4);
    let both = std::fs::read_to_string(captures.join("continue-thread.jsonl")).unwrap();
    assert_eq!(both.lines().count(), 4);
}

#[test]
fn a_body_ending_mid_event_fails_on_the_transport_rules() {
    // The body ends mid-event (docs/rules.md revision 2): the event is lost
    // (transport.unterminated-event) and the run never ended.
    let server = Server::replying(
        Reply::sse(
            "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"ty",
        )
        .framing(support::server::Framing::Close),
    );
    let inputs = suite::load(&producer_dir().join("plain.json")).unwrap();
    let results = suite::run(
        &server.url(),
        &inputs,
        &Options::default(),
        suite::Setup::default(),
        &mut |_| {},
    );
    assert_eq!(results[0].score, Score::Fail);
    let rules: Vec<RuleId> = results[0].violations.iter().map(|v| v.rule).collect();
    assert_eq!(
        rules,
        [RuleId::TransportUnterminatedEvent, RuleId::RunUnterminated]
    );
}

#[test]
fn a_suite_is_found_by_name_or_path() {
    assert!(suite::find("producer").is_ok());
    assert!(suite::find(producer_dir().to_str().unwrap()).is_ok());
    assert!(suite::find("no-such-suite").is_err());
}

/// `plain` (must be accepted) and `state-carrying` (its state may be
/// refused: `mayRefuse`), both answered with `status` and `body`.
fn refused(status: u16, body: &'static str) -> Vec<suite::InputResult> {
    let server = Server::start(move |_| Reply::sse(body).status(status));
    let mut inputs = suite::load(&producer_dir()).unwrap();
    inputs.retain(|i| i.id == "plain" || i.id == "state-carrying");
    suite::run(
        &server.url(),
        &inputs,
        &Options::default(),
        suite::Setup::default(),
        &mut |_| {},
    )
}

#[test]
fn a_4xx_with_a_body_is_a_refusal_not_a_transport_failure() {
    let results = refused(422, "{\"detail\": \"state does not fit\"}");
    let (plain, state) = (&results[0], &results[1]);
    // No rule judges a refusal: no transport.status.
    assert!(plain.violations.is_empty(), "{:?}", plain.violations);
    assert!(state.violations.is_empty(), "{:?}", state.violations);
    // A request the producer must accept: the producer refused a valid input.
    assert_eq!(plain.score, Score::Fail);
    let why = plain.refused.as_deref().unwrap();
    assert!(
        why.starts_with(
            "the producer refused a valid input (step 1, input): HTTP 422; body starts: {\"detail\""
        ),
        "{why}"
    );
    // A request it may refuse: SKIPPED with the scenario's reason.
    assert_eq!(state.score, Score::Skipped);
    assert_eq!(state.refused, None);
    let why = state.skipped.as_deref().unwrap();
    assert!(
        why.starts_with("the producer refused step 1 (input), which this scenario allows (its state is a todo list"),
        "{why}"
    );
    assert!(
        why.ends_with("HTTP 422; body starts: {\"detail\": \"state does not fit\"}"),
        "{why}"
    );
    assert_eq!(state.status, Some(422));
}

#[test]
fn a_5xx_or_an_empty_4xx_stays_a_transport_status_finding() {
    for (status, body) in [(500, "Internal Server Error"), (422, ""), (400, " \n")] {
        let results = refused(status, body);
        for r in &results {
            // Even where a refusal is allowed: a 5xx is a defect.
            assert_eq!(r.score, Score::Fail, "{} on {status}", r.id);
            assert_eq!(r.refused, None, "{} on {status}", r.id);
            assert_eq!(r.skipped, None, "{} on {status}", r.id);
            let rules: Vec<RuleId> = r.violations.iter().map(|v| v.rule).collect();
            assert_eq!(rules, [RuleId::TransportStatus], "{} on {status}", r.id);
        }
    }
}

/// `RUN_ERROR` says nothing of why: it stays a refused valid input, even
/// where a 4xx refusal is allowed (a failure must not pass as a refusal).
#[test]
fn a_run_error_is_a_refused_valid_input_even_where_a_refusal_is_allowed() {
    let server = Server::start(|req| {
        let v = req.json();
        let (t, r) = (v["threadId"].clone(), v["runId"].clone());
        Reply::sse(support::server::sse_body(&[
            json!({"type": "RUN_STARTED", "threadId": t, "runId": r}),
            json!({"type": "RUN_ERROR", "message": "state does not fit", "code": "STATE"}),
        ]))
    });
    let mut inputs = suite::load(&producer_dir()).unwrap();
    inputs.retain(|i| i.id == "plain" || i.id == "state-carrying");
    let results = suite::run(
        &server.url(),
        &inputs,
        &Options::default(),
        suite::Setup::default(),
        &mut |_| {},
    );
    assert_eq!(results[0].score, Score::Fail);
    assert_eq!(
        results[0].refused.as_deref(),
        Some("the producer refused a valid input (step 1, input): state does not fit [code STATE]")
    );
    assert_eq!(results[1].score, Score::Fail);
    assert_eq!(results[1].skipped, None);
    assert_eq!(
        results[1].refused.as_deref(),
        Some("the producer refused a valid input (step 1, input): state does not fit [code STATE]")
    );
}
