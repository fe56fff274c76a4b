//! Fuzzing campaigns in process: a planted bug is found and shrunk, a
//! correct implementation runs clean, and a seed reproduces a campaign.

use agui_harness::campaign::{Mix, Plan, run_with, summary};
use agui_harness::implementation::{ImplInfo, Implementation, Reference, reference_outcome};
use agui_harness::outcome::Outcome;
use agui_harness::runner::RunStatus;
use agui_harness::score::Score;
use serde_json::Value;

/// The reference model, except that it reads reasoning-message events
/// without their `subagentRunId`: it ignores who owns a reasoning
/// message, so a subagent's tagged reasoning looks like the parent's.
struct OwnerBlindReasoning;

impl Implementation for OwnerBlindReasoning {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let mut i = Reference::info();
        i.name = "owner-blind reasoning".into();
        Ok(i)
    }
    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        let blind: Vec<Value> = events
            .iter()
            .map(|e| {
                let mut e = e.clone();
                let reasoning_message = e
                    .get("type")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.starts_with("REASONING_MESSAGE_"));
                if reasoning_message && let Value::Object(m) = &mut e {
                    m.remove("subagentRunId");
                }
                e
            })
            .collect();
        reference_outcome(&blind, true)
    }
}

fn plan(seed: u64, cases: u64) -> Plan {
    Plan {
        seed,
        cases: Some(cases),
        mix: Mix::Mixed,
        ..Plan::default()
    }
}

#[test]
fn a_planted_bug_is_found_and_shrunk_to_a_few_events() {
    let c = run_with(&plan(1, 300), &mut OwnerBlindReasoning, &|_, _| {});
    assert_eq!(c.status(), RunStatus::Failed, "{}", summary::text(&c));
    assert!(!c.findings.is_empty());
    // On valid streams the bug shows as a wrong projection (a subagent's
    // reasoning read as the parent's): that finding is shrunk to a few
    // events, one of them a tagged reasoning-message event.
    let valid = c
        .findings
        .iter()
        .find(|f| f.signature == (None, Score::Fail))
        .unwrap_or_else(|| panic!("{}", summary::text(&c)));
    assert!(valid.number < 300);
    let events = &summary::saved_case(valid).events;
    assert!(events.len() <= 6, "{}", summary::text(&c));
    assert!(
        events.iter().any(|e| e["type"]
            .as_str()
            .is_some_and(|t| t.starts_with("REASONING_MESSAGE_"))
            && e.get("subagentRunId").is_some()),
        "{}",
        summary::text(&c)
    );
    for f in &c.findings {
        // The shrunk case still fails with the same score, and its
        // expectation is the generator's or agrees with the reference.
        let sc = summary::saved_case(f);
        let outcome = OwnerBlindReasoning.run_case(&sc.id, &sc.events);
        let s = agui_harness::score::score(&sc.expected, &outcome, Reference::info().capabilities);
        assert_eq!(s.score, f.signature.1, "{}", sc.id);
        assert!(
            agui_harness::shrink::reference_agrees(&sc),
            "{}",
            summary::text(&c)
        );
        assert!(f.signature.1.is_bad());
    }
    eprintln!("{}", summary::text(&c));
}

#[test]
fn the_reference_runs_clean() {
    let c = run_with(&plan(7, 300), &mut Reference::default(), &|_, _| {});
    assert_eq!(c.stats.cases, 300);
    assert_eq!(c.status(), RunStatus::Passed, "{}", summary::text(&c));
    assert_eq!(
        c.stats.tally.get(Score::Pass)
            + c.stats.tally.get(Score::Warn)
            + c.stats.tally.get(Score::Info),
        300
    );
    assert!(c.stats.covered.len() > 40, "{}", c.stats.covered.len());
}

#[test]
fn a_seed_reproduces_a_campaign() {
    let run = |seed| {
        let c = run_with(&plan(seed, 120), &mut OwnerBlindReasoning, &|_, _| {});
        let mut j = summary::json(&c);
        for k in ["elapsed_s", "cases_per_s"] {
            j[k] = Value::Null;
        }
        j
    };
    let a = run(3);
    assert_eq!(a, run(3));
    assert_ne!(a["findings"], Value::Null);
    // Another seed draws other cases.
    assert_ne!(a, run(4));
}

/// The reference's verdict and index, naming `chunk.opener-disagrees`:
/// a rule a case that states only its first violation cannot rule out at
/// that index.
struct NamesALaterRule;

impl Implementation for NamesALaterRule {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let mut i = Reference::info();
        i.name = "names a later rule".into();
        Ok(i)
    }
    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        match reference_outcome(events, false) {
            Outcome::Reject { index, .. } => Outcome::Reject {
                index,
                rule: Some("chunk.opener-disagrees".into()),
                message: None,
            },
            other => other,
        }
    }
}

/// Generated `attribution.null` cases state only their first violation
/// (agui-gen `front::stated_violations`): a rule named where they cannot
/// judge it is a problem of the generated case, never a PASS, and leaves
/// the campaign incomplete; every other generated case states all its
/// violations, so there the same naming is a FAIL.
#[test]
fn a_naming_a_generated_case_cannot_judge_leaves_the_campaign_incomplete() {
    let only = |rule| Plan {
        mix: Mix::Invalid,
        rules: vec![rule],
        shrink_budget: 0,
        ..plan(5, 20)
    };
    let null = run_with(
        &only(agui_model::RuleId::AttributionNull),
        &mut NamesALaterRule,
        &|_, _| {},
    );
    assert_eq!(
        null.stats.tally.get(Score::Pass),
        0,
        "{}",
        summary::text(&null)
    );
    assert_eq!(null.stats.unjudged, 20, "{}", summary::text(&null));
    assert_eq!(null.status(), RunStatus::Incomplete);
    assert!(summary::text(&null).contains("not judged: 20 answers"));
    assert_eq!(summary::json(&null)["unjudged"], 20);
    let listed = run_with(
        &only(agui_model::RuleId::OwnershipContinuationDisagrees),
        &mut NamesALaterRule,
        &|_, _| {},
    );
    assert_eq!(
        listed.stats.tally.get(Score::Fail),
        20,
        "{}",
        summary::text(&listed)
    );
    assert_eq!(listed.status(), RunStatus::Failed);
}
