//! The adapters on corpus cases whose SDK behaviour is known from the SDKs'
//! source: each answer, its index and what the SDK said, as the harness
//! scores it. A change of SDK version that changes one of these shows here.

use agui_harness::score::score;
use agui_harness::{Implementation, Outcome, Score, Suite, SuiteCase};
use agui_rust_sdks::sdk::{Explains, Sdk, SdkImpl};
use serde_json::Value;

/// The corpus case `id`, as the default suite loads it.
fn case(id: &str) -> SuiteCase {
    let suite = Suite::find("quick").expect("the quick suite is built in");
    let (cases, _) = suite.cases_matching(Some(id), 1);
    cases
        .into_iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no corpus case {id}"))
}

/// Runs `sdk` on corpus case `id`: its answer, its score, its `explain`.
fn run(sdk: Sdk, id: &str) -> (Outcome, Score, Option<Value>) {
    let c = case(id);
    let mut imp = SdkImpl::new(sdk, Explains::default());
    let info = imp.describe().expect("describes itself");
    let outcome = match &c.lines {
        Some(lines) => imp.run_lines(&c.id, lines),
        None => imp.run_case(&c.id, &c.events),
    };
    let scored = score(&c.expected, &outcome, info.capabilities);
    (outcome, scored.score, imp.take_explain(id))
}

/// A rejection's index and message.
fn rejected(o: &Outcome) -> (usize, String) {
    match o {
        Outcome::Reject {
            index: Some(i),
            message: Some(m),
            ..
        } => (*i, m.clone()),
        other => panic!("expected a rejection with index and message, got {other:?}"),
    }
}

#[test]
fn each_pinned_version_is_the_one_cargo_toml_pins() {
    let manifest = include_str!("../Cargo.toml");
    for s in Sdk::ALL {
        let pin = format!("{} = {{ version = \"={}\"", s.key(), s.version());
        assert!(manifest.contains(&pin), "Cargo.toml does not pin {pin}");
    }
}

#[cfg(feature = "ag-ui")]
mod ag_ui {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_continuation_tagged_with_another_owner_is_rejected_where_it_comes() {
        let (o, s, x) = run(Sdk::AgUi, "ownership/continuation-disagrees");
        let (i, m) = rejected(&o);
        assert_eq!(i, 2);
        assert!(m.contains("names subagent \"s2\""), "{m}");
        assert_eq!(s, Score::Pass);
        assert_eq!(
            x.and_then(|x| x.get("stage").cloned()),
            Some(json!(
                "protocol violation (verifier, chunk normalizer or applier)"
            ))
        );
    }

    #[test]
    fn a_stream_that_is_one_run_error_is_rejected_though_it_is_valid() {
        let (o, s, _) = run(Sdk::AgUi, "run/first-event-run-error");
        assert_eq!(
            rejected(&o),
            (
                0,
                "protocol violation: RUN_ERROR arrived before RUN_STARTED".into()
            )
        );
        assert_eq!(s, Score::Fail);
    }

    #[test]
    fn an_input_echo_without_tools_does_not_deserialize() {
        let (o, s, _) = run(Sdk::AgUi, "run/input-state");
        assert_eq!(
            rejected(&o),
            (0, "JSON error: missing field `tools`".into())
        );
        assert_eq!(s, Score::Fail);
    }

    #[test]
    fn a_patch_that_does_not_apply_is_survived_not_a_rejection() {
        // "Not necessarily fatal — a run survives a patch it could not
        // apply": the valid case is accepted, the content left as it was.
        let (o, s, x) = run(Sdk::AgUi, "entities/activity-delta-fails-leaves-content");
        assert_eq!(o, Outcome::Accept { projection: None });
        assert_eq!(s, Score::Pass);
        let note = x
            .as_ref()
            .and_then(|x| x.get("note"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        assert!(note.contains("reported and survived"), "{note}");
        assert!(note.contains("patch failed"), "{note}");
        // A state patch that fails (`state.patch-fails`, may-reject): the
        // Session keeps the state and goes on; accepting is allowed.
        let (o, s, _) = run(Sdk::AgUi, "entities/state-patch-fails");
        assert_eq!(o, Outcome::Accept { projection: None });
        assert_ne!(s, Score::Fail);
    }

    #[test]
    fn a_null_role_and_a_null_result_are_read_as_absent() {
        for id in ["schema/null-optional-role", "schema/null-optional"] {
            let (o, s, _) = run(Sdk::AgUi, id);
            assert_eq!(o, Outcome::Accept { projection: None }, "{id}");
            assert_eq!(s, Score::Fail, "{id}");
        }
    }

    #[test]
    fn a_raw_line_with_a_number_beyond_a_double_is_rejected_by_serde_json() {
        let c = case("schema/json-huge-number");
        assert!(c.lines.is_some(), "the case is raw lines");
        let (o, _, _) = run(Sdk::AgUi, "schema/json-huge-number");
        let (i, m) = rejected(&o);
        assert_eq!(i, 1);
        assert!(m.contains("number out of range"), "{m}");
    }

    #[test]
    fn events_after_the_terminal_event_are_never_read_and_say_so() {
        let (o, s, x) = run(Sdk::AgUi, "run/after-finished");
        assert_eq!(o, Outcome::Accept { projection: None });
        // Revision 4: `run.after-finished` is must-reject, so the events it
        // never reads make the accept a FAIL (it was a WARN).
        assert_eq!(s, Score::Fail);
        let note = x
            .as_ref()
            .and_then(|x| x.get("note"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        assert!(note.ends_with("never read: 2..3"), "{note}");
    }

    #[test]
    fn an_accepted_stream_shows_messages_owners_and_state() {
        let (o, s, x) = run(Sdk::AgUi, "accept/interleaved");
        assert_eq!(o, Outcome::Accept { projection: None });
        assert_eq!(s, Score::Pass);
        let shown = x.and_then(|x| x.get("shown").cloned()).expect("shown");
        let expected = case("accept/interleaved")
            .expected
            .projection
            .expect("projection");
        let run = &expected["runs"][0];
        // Every expected message is shown with its owner and content.
        for want in run["messages"].as_array().expect("messages") {
            let got = shown["messages"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["id"] == want["id"]))
                .unwrap_or_else(|| panic!("{} not shown", want["id"]));
            assert_eq!(got["owner"], want["owner"]);
            assert_eq!(got["content"], want["content"]);
        }
        assert_eq!(shown["state"], run["state"]);
    }
}

#[cfg(feature = "ag-ui-client")]
mod ag_ui_client {
    use super::*;
    use serde_json::json;

    const T: &str = "00000000-0000-4000-8000-000000000001";
    const R: &str = "00000000-0000-4000-8000-000000000002";
    const M: &str = "00000000-0000-4000-8000-000000000003";

    fn run_events(events: &[Value]) -> (Outcome, Option<Value>) {
        let mut imp = SdkImpl::new(Sdk::AgUiClient, Explains::default());
        let o = imp.run_case("inline", events);
        (o, imp.take_explain("inline"))
    }

    #[test]
    fn an_id_that_is_no_uuid_fails_the_first_event() {
        let (o, s, _) = run(Sdk::AgUiClient, "accept/interleaved");
        let (i, m) = rejected(&o);
        assert_eq!(i, 0);
        assert!(m.contains("UUID parsing failed"), "{m}");
        assert_eq!(s, Score::Fail);
    }

    #[test]
    fn uuid_ids_fold_into_a_message_and_state() {
        let (o, x) = run_events(&[
            json!({"type": "RUN_STARTED", "threadId": T, "runId": R}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": M, "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": M, "delta": "hi"}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": M}),
            json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": 1}]}),
            json!({"type": "RUN_FINISHED", "threadId": T, "runId": R}),
        ]);
        assert_eq!(o, Outcome::Accept { projection: None });
        assert_eq!(
            x.and_then(|x| x.get("shown").cloned()),
            Some(
                json!({"messages": [{"id": M, "role": "assistant", "content": "hi"}], "state": {"a": 1}})
            )
        );
    }

    #[test]
    fn a_patch_that_does_not_apply_is_rejected_where_it_comes() {
        let (o, _) = run_events(&[
            json!({"type": "RUN_STARTED", "threadId": T, "runId": R}),
            json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/missing"}]}),
            json!({"type": "RUN_FINISHED", "threadId": T, "runId": R}),
        ]);
        let (i, m) = rejected(&o);
        assert_eq!(i, 1);
        assert!(m.contains("Failed to apply state patch"), "{m}");
    }

    #[test]
    fn a_null_attribution_it_cannot_hold_is_skipped_like_any_value() {
        // ag-ui-client has no `subagentRunId`: a `null` there is read as
        // any value is, by ignoring it, so `attribution.null` is no verdict.
        let (o, _) = run_events(&[
            json!({"type": "RUN_STARTED", "threadId": T, "runId": R}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": M, "role": "assistant", "subagentRunId": null}),
        ]);
        let Outcome::Skipped { reason } = o else {
            panic!("expected skipped, got {o:?}")
        };
        assert!(
            reason.contains("item 1: it drops `subagentRunId` of TEXT_MESSAGE_START"),
            "{reason}"
        );
    }

    #[test]
    fn what_the_sdk_cannot_express_is_skipped_from_where_it_comes() {
        let subagent = [
            json!({"type": "RUN_STARTED", "threadId": T, "runId": R}),
            json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "x"}),
        ];
        let (o, _) = run_events(&subagent);
        let Outcome::Skipped { reason } = o else {
            panic!("expected skipped, got {o:?}")
        };
        assert!(
            reason.starts_with(
                "outside the SDK's model from item 1: it has no SUBAGENT_STARTED event type"
            ),
            "{reason}"
        );
        let tagged = [
            json!({"type": "RUN_STARTED", "threadId": T, "runId": R}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": M, "role": "assistant", "subagentRunId": "s1"}),
        ];
        let (o, _) = run_events(&tagged);
        let Outcome::Skipped { reason } = o else {
            panic!("expected skipped, got {o:?}")
        };
        assert!(
            reason.contains("item 1: it drops `subagentRunId` of TEXT_MESSAGE_START"),
            "{reason}"
        );
    }
}
