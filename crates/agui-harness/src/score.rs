//! docs/rules.md "Scoring a consumer": an answer against the expectation →
//! PASS / FAIL / WARN / INFO, plus SKIPPED and ERRORED.

use crate::expect::{Expected, Facts};
use crate::implementation::Capabilities;
use crate::outcome::Outcome;
use agui_model::{Obligation, RuleId};
use serde_json::Value;
use std::fmt;

/// The score of one case.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Score {
    Pass,
    Fail,
    Warn,
    Info,
    Skipped,
    Errored,
}

impl Score {
    pub const ALL: [Score; 6] = [
        Score::Pass,
        Score::Fail,
        Score::Warn,
        Score::Info,
        Score::Skipped,
        Score::Errored,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Score::Pass => "PASS",
            Score::Fail => "FAIL",
            Score::Warn => "WARN",
            Score::Info => "INFO",
            Score::Skipped => "SKIPPED",
            Score::Errored => "ERRORED",
        }
    }

    /// FAIL and ERRORED make a run unsuccessful.
    pub fn is_bad(self) -> bool {
        matches!(self, Score::Fail | Score::Errored)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a rule the implementation named compares with the expectation.
/// RULES.md: with the `rule` capability a named rule "must name one of the
/// violations at the index it names: naming another rule (or an id that is
/// not in this catalogue) is a FAIL (\"misnamed\"), whatever the index".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// The named rule is a violation the case states at that index.
    Right,
    /// It is not (a FAIL).
    Wrong,
    /// The case does not state the violations at that index (it states only
    /// its first violation, and the rule could break there too); not judged.
    Unjudged,
}

impl Naming {
    pub fn as_str(self) -> &'static str {
        match self {
            Naming::Right => "right",
            Naming::Wrong => "wrong",
            Naming::Unjudged => "unjudged",
        }
    }
}

/// A scored case.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub score: Score,
    /// Why, in one sentence (empty for a plain PASS).
    pub reason: String,
    pub naming: Option<Naming>,
    /// (expected, reported) when the projection differs.
    pub projection_mismatch: Option<(Value, Value)>,
}

impl Scored {
    fn new(score: Score, reason: impl Into<String>) -> Self {
        Scored {
            score,
            reason: reason.into(),
            naming: None,
            projection_mismatch: None,
        }
    }
}

/// Scores an answer. Only what the capabilities promise is used: an index
/// without `index`, a rule without `rule`, a projection without
/// `projection` are ignored.
pub fn score(expected: &Expected, outcome: &Outcome, caps: Capabilities) -> Scored {
    let facts = expected.facts();
    match outcome {
        Outcome::Skipped { reason } => Scored::new(Score::Skipped, reason.clone()),
        Outcome::Errored(e) => Scored::new(Score::Errored, e.reason.clone()),
        Outcome::Accept { projection } => score_accept(
            expected,
            &facts,
            projection.as_ref().filter(|_| caps.projection),
        ),
        Outcome::Reject { index, rule, .. } => {
            let index = if caps.index {
                match index {
                    Some(i) if *i > expected.events => {
                        return Scored::new(
                            Score::Errored,
                            format!(
                                "malformed answer: rejection index {i} is past the end of the stream ({} events)",
                                expected.events
                            ),
                        );
                    }
                    Some(i) => Some(*i),
                    None => {
                        return Scored::new(
                            Score::Errored,
                            "rejection without `index` despite the `index` capability",
                        );
                    }
                }
            } else {
                None
            };
            let mut s = score_reject(&facts, index);
            if let (true, Some(named)) = (caps.rule, rule.as_deref()) {
                let n = naming(expected, index, named);
                s.naming = Some(n);
                if n == Naming::Wrong {
                    let why = misnamed(expected, index, named);
                    s.reason = if s.score == Score::Fail {
                        format!("{}; {why}", s.reason)
                    } else {
                        why
                    };
                    s.score = Score::Fail;
                }
            }
            s
        }
    }
}

fn describe_first(expected: &Expected) -> String {
    match expected.first {
        Some((r, i)) => format!("`{r}` ({}) at {i}", r.obligation().as_str()),
        None => "no violation".into(),
    }
}

/// The stated violation that decides an acceptance: the first of the given
/// obligation.
fn first_with(expected: &Expected, o: Obligation) -> String {
    let hit = match &expected.all {
        Some(all) => all.iter().find(|(r, _)| r.obligation() == o).copied(),
        None => expected.first.filter(|(r, _)| r.obligation() == o),
    };
    match hit {
        Some((r, i)) => format!("`{r}` at {i}"),
        None => describe_first(expected),
    }
}

fn score_accept(expected: &Expected, facts: &Facts, projection: Option<&Value>) -> Scored {
    if facts.m.is_some() {
        return Scored::new(
            Score::Fail,
            format!(
                "accepted a stream with a must-reject violation ({})",
                first_with(expected, Obligation::MustReject)
            ),
        );
    }
    if facts.should_reject {
        return Scored::new(
            Score::Warn,
            format!(
                "accepted a should-reject violation ({})",
                first_with(expected, Obligation::ShouldReject)
            ),
        );
    }
    // Valid, or may-reject violations only: the projection is scored.
    if let (Some(got), Some(want)) = (projection, expected.projection.as_ref())
        && !eq_ignoring_nulls(got, want)
    {
        let mut s = Scored::new(
            Score::Fail,
            "accepted with a projection that differs from the expected one",
        );
        s.projection_mismatch = Some((normalize(want), normalize(got)));
        return s;
    }
    if facts.may_reject {
        return Scored::new(
            Score::Info,
            format!(
                "accepted a may-reject violation ({})",
                first_with(expected, Obligation::MayReject)
            ),
        );
    }
    Scored::new(Score::Pass, "")
}

fn score_reject(facts: &Facts, index: Option<usize>) -> Scored {
    if !facts.any {
        return Scored::new(Score::Fail, "rejected a valid stream");
    }
    if let Some(i) = index {
        if let Some(f) = facts.f.filter(|f| i < *f) {
            return Scored::new(
                Score::Fail,
                format!("rejected at {i}, inside the valid prefix (the first error is at {f})"),
            );
        }
        if let Some(m) = facts.m.filter(|m| i > *m) {
            return Scored::new(
                Score::Fail,
                format!("rejected at {i}, after letting through the must-reject violation at {m}"),
            );
        }
    }
    Scored::new(Score::Pass, "")
}

fn naming(expected: &Expected, index: Option<usize>, named: &str) -> Naming {
    let Some(rule) = RuleId::from_id(named).filter(|r| r.rule().is_violation()) else {
        return Naming::Wrong;
    };
    if let Some(all) = &expected.all {
        let hit = all
            .iter()
            .any(|(r, i)| *r == rule && index.is_none_or(|x| x == *i));
        return if hit { Naming::Right } else { Naming::Wrong };
    }
    let Some((first, at)) = expected.first else {
        return Naming::Wrong;
    };
    if rule == first && index.is_none_or(|x| x == at) {
        return Naming::Right;
    }
    // Violations at one event are reported in catalogue order: a rule
    // listed before the stated first one cannot also break at its index. A
    // later rule, or another index, is not stated by the case.
    if index == Some(at) && rule < first {
        Naming::Wrong
    } else {
        Naming::Unjudged
    }
}

fn misnamed(expected: &Expected, index: Option<usize>, named: &str) -> String {
    match RuleId::from_id(named).filter(|r| r.rule().is_violation()) {
        None => format!("misnamed: `{named}` is not a violation rule of the catalogue"),
        Some(_) => {
            let at = match index {
                Some(i) => {
                    let stated = expected
                        .stated_at(i)
                        .or_else(|| {
                            expected
                                .first
                                .filter(|(_, f)| *f == i)
                                .map(|(r, _)| vec![r])
                        })
                        .unwrap_or_default();
                    if stated.is_empty() {
                        format!("the case states no violation at {i}")
                    } else {
                        let names: Vec<String> = stated.iter().map(|r| format!("`{r}`")).collect();
                        format!("the violations at {i} are {}", names.join(", "))
                    }
                }
                None => "the case states no such violation".into(),
            };
            format!("misnamed: named `{named}`; {at}")
        }
    }
}

/// docs/projection.md: JSON equality after dropping `null`-valued object
/// keys on both sides (without copying either).
pub fn eq_ignoring_nulls(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let present =
                |m: &serde_json::Map<String, Value>| m.values().filter(|v| !v.is_null()).count();
            present(x) == present(y)
                && x.iter()
                    .filter(|(_, v)| !v.is_null())
                    .all(|(k, v)| y.get(k).is_some_and(|w| eq_ignoring_nulls(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| eq_ignoring_nulls(v, w))
        }
        _ => a == b,
    }
}

/// Drops `null`-valued object keys, at any depth (the model's one copy).
pub use agui_model::projection::normalize;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expect::exp;
    use agui_model::{RuleId, Verdict};
    use serde_json::json;

    fn listed(verdict: Verdict, all: &[(RuleId, usize)]) -> Expected {
        Expected {
            all: Some(all.to_vec()),
            ..exp(verdict, all.first().copied())
        }
    }
    fn accept() -> Outcome {
        Outcome::Accept { projection: None }
    }
    fn reject(i: usize, rule: Option<&str>) -> Outcome {
        Outcome::Reject {
            index: Some(i),
            rule: rule.map(str::to_string),
            message: None,
        }
    }
    const ALL: Capabilities = Capabilities::ALL;
    use RuleId as R;

    #[test]
    fn accept_scores_by_obligation() {
        let cases = [
            (exp(Verdict::Accept, None), Score::Pass),
            (
                exp(
                    Verdict::Reject,
                    Some((R::OwnershipContinuationDisagrees, 3)),
                ),
                Score::Fail,
            ),
            (listed(Verdict::Reject, &[(R::TextNotOpen, 3)]), Score::Warn),
            (
                listed(Verdict::Reject, &[(R::RunUnterminated, 10)]),
                Score::Info,
            ),
            (
                exp(Verdict::Accept, Some((R::InterruptUnknownId, 3))),
                Score::Info,
            ),
            (
                exp(Verdict::Accept, Some((R::AttributionNotAttributable, 0))),
                Score::Pass,
            ),
        ];
        for (e, want) in cases {
            assert_eq!(score(&e, &accept(), ALL).score, want, "{e:?}");
        }
    }

    /// Issue point 6: `reasoning.already-open` (should-reject) and
    /// `ownership.continuation-disagrees` (must-reject) at one event: M = F,
    /// and accepting is a FAIL, not a WARN.
    #[test]
    fn a_must_reject_sharing_the_first_index_fails_acceptance() {
        let e = listed(
            Verdict::Reject,
            &[
                (R::ReasoningAlreadyOpen, 4),
                (R::OwnershipContinuationDisagrees, 4),
            ],
        );
        assert_eq!(score(&e, &accept(), ALL).score, Score::Fail);
        assert_eq!(score(&e, &reject(4, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(5, None), ALL).score, Score::Fail);
    }

    #[test]
    fn reject_scores_by_index() {
        let must = exp(
            Verdict::Reject,
            Some((R::OwnershipContinuationDisagrees, 3)),
        );
        assert_eq!(score(&must, &reject(3, None), ALL).score, Score::Pass);
        assert_eq!(score(&must, &reject(2, None), ALL).score, Score::Fail);
        assert_eq!(score(&must, &reject(4, None), ALL).score, Score::Fail);
        let should = listed(Verdict::Reject, &[(R::TextNotOpen, 3)]);
        assert_eq!(score(&should, &reject(7, None), ALL).score, Score::Pass);
        assert_eq!(score(&should, &reject(1, None), ALL).score, Score::Fail);
        assert_eq!(
            score(&exp(Verdict::Accept, None), &reject(0, None), ALL).score,
            Score::Fail
        );
    }

    #[test]
    fn an_index_past_the_end_is_errored() {
        let should = listed(Verdict::Reject, &[(R::TextNotOpen, 3)]);
        // 10 events: index 10 is end of input, 11 is past it.
        assert_eq!(score(&should, &reject(10, None), ALL).score, Score::Pass);
        let s = score(&should, &reject(11, None), ALL);
        assert_eq!(s.score, Score::Errored);
        assert!(s.reason.contains("past the end"), "{}", s.reason);
    }

    #[test]
    fn full_knowledge_fails_a_rejection_past_a_later_must_reject() {
        let e = listed(
            Verdict::Reject,
            &[(R::TextNotOpen, 2), (R::OwnershipContinuationDisagrees, 5)],
        );
        assert_eq!(score(&e, &reject(5, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(6, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Fail);
    }

    #[test]
    fn a_misnamed_rule_fails() {
        let e = listed(
            Verdict::Reject,
            &[(R::TextNotOpen, 3), (R::RunUnterminated, 10)],
        );
        let right = score(&e, &reject(3, Some("text.not-open")), ALL);
        assert_eq!(
            (right.score, right.naming),
            (Score::Pass, Some(Naming::Right))
        );
        let wrong = score(&e, &reject(3, Some("tool.not-open")), ALL);
        assert_eq!(
            (wrong.score, wrong.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
        assert!(wrong.reason.starts_with("misnamed"), "{}", wrong.reason);
        // Right rule, but not at the index named.
        let elsewhere = score(&e, &reject(10, Some("text.not-open")), ALL);
        assert_eq!(elsewhere.score, Score::Fail);
        let later = score(&e, &reject(10, Some("run.unterminated")), ALL);
        assert_eq!(later.score, Score::Pass);
        let unknown = score(&e, &reject(3, Some("text.no-such-rule")), ALL);
        assert_eq!(
            (unknown.score, unknown.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
        let obligation = score(&e, &reject(3, Some("accept.empty-id")), ALL);
        assert_eq!(obligation.score, Score::Fail);
        let no_cap = score(
            &e,
            &reject(3, Some("tool.not-open")),
            Capabilities { rule: false, ..ALL },
        );
        assert_eq!((no_cap.score, no_cap.naming), (Score::Pass, None));
    }

    #[test]
    fn naming_against_a_first_violation_only() {
        let e = exp(
            Verdict::Reject,
            Some((R::OwnershipContinuationDisagrees, 3)),
        );
        // `schema.not-json` comes earlier in the catalogue: it cannot share
        // the index of a stated first violation.
        let earlier = score(&e, &reject(3, Some("schema.not-json")), ALL);
        assert_eq!(earlier.score, Score::Fail);
        // `chunk.ambiguous` comes later: it could break there too.
        let later = score(&e, &reject(3, Some("chunk.ambiguous")), ALL);
        assert_eq!(
            (later.score, later.naming),
            (Score::Pass, Some(Naming::Unjudged))
        );
        let valid = score(
            &exp(Verdict::Accept, None),
            &reject(2, Some("text.not-open")),
            ALL,
        );
        assert_eq!(
            (valid.score, valid.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
    }

    #[test]
    fn verdict_only_rejection_ignores_index() {
        let caps = Capabilities::default();
        let e = exp(
            Verdict::Reject,
            Some((R::OwnershipContinuationDisagrees, 3)),
        );
        assert_eq!(score(&e, &reject(0, None), caps).score, Score::Pass);
        assert_eq!(score(&e, &reject(99, None), caps).score, Score::Pass);
        let missing = Outcome::Reject {
            index: None,
            rule: None,
            message: None,
        };
        assert_eq!(score(&e, &missing, ALL).score, Score::Errored);
    }

    #[test]
    fn projection_compares_without_nulls() {
        let mut e = exp(Verdict::Accept, None);
        e.projection = Some(json!({"runs": [{"id": "r1", "messages": []}]}));
        let same = Outcome::Accept {
            projection: Some(json!({"runs": [{"messages": [], "id": "r1", "owner": null}]})),
        };
        assert_eq!(score(&e, &same, ALL).score, Score::Pass);
        let other = Outcome::Accept {
            projection: Some(json!({"runs": []})),
        };
        let s = score(&e, &other, ALL);
        assert_eq!(s.score, Score::Fail);
        assert!(s.projection_mismatch.is_some());
        let no_cap = Capabilities {
            projection: false,
            ..ALL
        };
        assert_eq!(score(&e, &other, no_cap).score, Score::Pass);
    }

    #[test]
    fn projection_is_scored_when_only_may_reject_violations() {
        let mut e = listed(Verdict::Reject, &[(R::RunUnterminated, 10)]);
        e.projection = Some(json!({"runs": [{"id": "r1", "status": "running"}]}));
        let same = Outcome::Accept {
            projection: Some(json!({"runs": [{"id": "r1", "status": "running"}]})),
        };
        assert_eq!(score(&e, &same, ALL).score, Score::Info);
        let other = Outcome::Accept {
            projection: Some(json!({"runs": [{"id": "r1", "status": "finished"}]})),
        };
        assert_eq!(score(&e, &other, ALL).score, Score::Fail);
    }

    #[test]
    fn null_keys_are_ignored_at_any_depth() {
        let eq = eq_ignoring_nulls;
        assert!(eq(
            &json!({"a": [{"b": 1, "c": null}], "d": null}),
            &json!({"a": [{"b": 1}]})
        ));
        assert!(!eq(&json!({"a": [{"b": 1}]}), &json!({"a": [{"b": 2}]})));
        assert!(!eq(&json!({"a": 1}), &json!({"a": 1, "b": 0})));
        assert!(!eq(&json!([1, 2]), &json!([2, 1])));
        assert!(!eq(&json!({"a": null}), &json!({"a": {}})));
    }

    #[test]
    fn warning_then_error() {
        let e = listed(
            Verdict::Reject,
            &[(R::InterruptUnknownId, 4), (R::RunUnterminated, 10)],
        );
        // F is the first *error* violation: 10, not the warning's 4.
        assert_eq!(score(&e, &reject(4, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &reject(10, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Info);
    }
}
