//! `--save-failures`: a failing generated case is saved as it was and
//! shrunk to a few events that still fail, both in the corpus format.

mod support;

use agui_harness::expect::Expected;
use agui_harness::generated::GenMode;
use agui_harness::implementation::{Capabilities, ImplInfo, Implementation};
use agui_harness::outcome::Outcome;
use agui_harness::shrink::save_failure;
use agui_harness::suite::{Origin, SuiteCase};
use agui_harness::{Score, run_cases};
use agui_model::{RuleId, Verdict};
use serde_json::{Value, json};

/// Accepts everything: fails every must-reject case.
struct AcceptAll;

impl Implementation for AcceptAll {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        Ok(ImplInfo {
            name: "accept-all".into(),
            version: String::new(),
            language: "rust".into(),
            capabilities: Capabilities::default(),
        })
    }
    fn run_case(&mut self, _id: &str, _events: &[Value]) -> Outcome {
        Outcome::Accept { projection: None }
    }
}

/// A run in which s2 continues s1's message (event 5): docs/rules.md
/// `ownership.continuation-disagrees`, must-reject, at 5. Everything else
/// is valid filler.
fn case() -> SuiteCase {
    let events = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "a"}),
        json!({"type": "STEP_STARTED", "stepName": "plan"}),
        json!({"type": "STEP_FINISHED", "stepName": "plan"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "hi", "subagentRunId": "s2"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "subagentRunId": "s1"}),
        json!({"type": "CUSTOM", "name": "x", "value": 1}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    SuiteCase {
        id: "gen/ownership.continuation-disagrees/41".into(),
        description: "a continuation tagged with another owner".into(),
        events,
        lines: None,
        expected: Expected {
            verdict: Verdict::Reject,
            first: Some((RuleId::OwnershipContinuationDisagrees, 5)),
            projection: None,
            all: None,
            events: 10,
            official: None,
            outcome_only: false,
        },
        obligation: None,
        origin: Origin::Generated {
            seed: 41,
            mode: GenMode::Invalid(RuleId::OwnershipContinuationDisagrees),
            variant: Default::default(),
        },
    }
}

#[test]
fn a_failing_generated_case_is_saved_and_shrunk() {
    let c = case();
    let mut imp = AcceptAll;
    let run = run_cases(
        "t",
        &mut imp,
        std::slice::from_ref(&c),
        Vec::new(),
        |_, _| {},
    )
    .unwrap();
    assert_eq!(run.results[0].scored.score, Score::Fail);
    let dir = std::env::temp_dir().join(format!("agui-harness-save-{}", std::process::id()));
    let saved = save_failure(&mut imp, Capabilities::default(), &c, Score::Fail, &dir).unwrap();
    assert_eq!(
        saved.original,
        dir.join("failures/ownership-continuation-disagrees-41.json")
    );
    let orig: agui_corpus::Case =
        serde_json::from_slice(&std::fs::read(&saved.original).unwrap()).unwrap();
    assert_eq!(orig.events, c.events);
    assert_eq!(
        orig.expect.rule,
        Some(RuleId::OwnershipContinuationDisagrees)
    );
    assert_eq!(orig.expect.index, Some(5));
    assert!(orig.description.contains("seed 41"));
    assert_eq!(
        orig.spec,
        RuleId::OwnershipContinuationDisagrees.rule().quote.unwrap()
    );

    let path = saved
        .shrunk
        .expect("shrunk (the reference agrees with the stated expectation)");
    let shrunk: agui_corpus::Case = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    // The disagreeing continuation needs its opener and itself; nothing
    // else is needed for an accept-all consumer to fail.
    assert!(shrunk.events.len() <= 3, "{:?}", shrunk.events);
    assert!(
        shrunk.events.contains(&c.events[4]) && shrunk.events.contains(&c.events[5]),
        "{:?}",
        shrunk.events
    );
    assert_eq!(shrunk.expect.verdict, Verdict::Reject);
    assert!(shrunk.description.contains("review before adding"));
    let _ = std::fs::remove_dir_all(&dir);
}
