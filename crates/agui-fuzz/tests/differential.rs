//! The differential target's comparison, with in-process implementations
//! standing in for a subprocess: the reference itself (never a finding),
//! one that accepts everything (a must-reject disagreement), one that
//! rejects everything at 0 (a must-accept disagreement), one that errors.

use agui_fuzz::differential::{Finding, compare};
use agui_fuzz::seeded::Rng;
use agui_gen::{Config, Mode, generate};
use agui_harness::implementation::{Capabilities, ImplInfo, Implementation, Reference};
use agui_harness::outcome::Outcome;
use agui_harness::score::Score;
use agui_harness::shrink::reference_expectation;
use agui_model::{Obligation, RuleId};
use arbitrary::Unstructured;
use serde_json::Value;

/// An implementation that answers every case the same way.
struct Fixed(Outcome);

impl Implementation for Fixed {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        Ok(ImplInfo {
            name: "fixed".into(),
            version: String::new(),
            language: String::new(),
            capabilities: Capabilities::ALL,
        })
    }
    fn run_case(&mut self, _id: &str, _events: &[Value]) -> Outcome {
        self.0.clone()
    }
}

/// A generated stream of `mode` from seeded bytes (retrying other bytes
/// when the generator declines).
fn stream(mode: Mode, seed: u64) -> Vec<Value> {
    let mut rng = Rng::new(seed);
    for _ in 0..50 {
        let data = rng.bytes(1024);
        if let Ok(g) = generate(&Config::default(), mode, &mut Unstructured::new(&data)) {
            return g.events;
        }
    }
    panic!("no {mode:?} stream from seed {seed}");
}

/// A must-reject rule with a mutator, of the schema area or not.
fn must_reject_rule(schema: bool) -> RuleId {
    RuleId::violations()
        .find(|r| {
            r.obligation() == Obligation::MustReject
                && (r.rule().area == "schema") == schema
                && agui_gen::mutate::has_mutator(*r)
        })
        .expect("a must-reject rule with a mutator")
}

#[test]
fn the_reference_never_disagrees_with_itself() {
    let mut imp = Reference::default();
    for seed in 0..40 {
        let valid = stream(Mode::Valid, seed);
        assert!(compare(&mut imp, Capabilities::ALL, "valid", &valid).is_ok());
        for schema in [true, false] {
            let bad = stream(Mode::Invalid(must_reject_rule(schema)), seed);
            assert!(compare(&mut imp, Capabilities::ALL, "invalid", &bad).is_ok());
        }
    }
}

#[test]
fn accepting_a_must_reject_violation_is_a_shrunk_finding() {
    let rule = must_reject_rule(false);
    let events = stream(Mode::Invalid(rule), 3);
    let mut imp = Fixed(Outcome::Accept { projection: None });
    let f: Box<Finding> = compare(&mut imp, Capabilities::ALL, "case", &events).unwrap_err();
    assert_eq!(f.score, Score::Fail);
    assert_eq!(f.events, events);
    assert!(!f.shrunk.is_empty() && f.shrunk.len() <= events.len());
    // The shrunk stream still holds a must-reject violation.
    assert!(reference_expectation(&f.shrunk).facts().m.is_some());
    let kind = f.kind();
    assert!(
        kind.starts_with("fail--") && kind.ends_with("--accept"),
        "{kind}"
    );
    let report = f.report("fixed", &[]);
    assert!(report.contains("must-reject"), "{report}");
    assert!(report.contains("accept"), "{report}");
    for e in &f.shrunk {
        assert!(
            report.contains(&e.to_string()),
            "report lacks the shrunk stream:\n{report}"
        );
    }
}

#[test]
fn rejecting_a_valid_stream_is_a_finding_shrunk_to_little() {
    let events = stream(Mode::Valid, 5);
    let mut imp = Fixed(Outcome::Reject {
        index: Some(0),
        rule: None,
        message: None,
    });
    let f = compare(&mut imp, Capabilities::ALL, "valid", &events).unwrap_err();
    assert_eq!(f.score, Score::Fail);
    // Any valid non-empty stream is rejected at 0: one event is enough.
    assert!(f.shrunk.len() <= 1, "shrunk to {} events", f.shrunk.len());
}

#[test]
fn an_errored_answer_is_a_finding() {
    let events = stream(Mode::Valid, 9);
    let mut imp = Fixed(Outcome::errored("crashed"));
    let f = compare(&mut imp, Capabilities::ALL, "valid", &events).unwrap_err();
    assert_eq!(f.score, Score::Errored);
}

#[test]
fn a_schema_only_implementation_is_judged_only_on_schema_decided_streams() {
    let rule = must_reject_rule(false);
    let events = stream(Mode::Invalid(rule), 3);
    let caps = Capabilities {
        schema_only: true,
        ..Capabilities::default()
    };
    let mut imp = Fixed(Outcome::Accept { projection: None });
    assert!(compare(&mut imp, caps, "case", &events).is_ok());
}
