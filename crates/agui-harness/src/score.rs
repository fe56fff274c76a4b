//! docs/rules.md "Scoring a consumer": an answer against the expectation →
//! PASS / FAIL / WARN / INFO, plus SKIPPED and ERRORED.

use crate::expect::{Expected, Facts};
use crate::implementation::Capabilities;
use crate::outcome::Outcome;
use serde_json::Value;
use std::fmt;

/// The score of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// How a rule the implementation named compares with the expectation
/// (credited separately from the score).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// The named rule is the expected violation at that index.
    Right,
    /// It is not.
    Wrong,
    /// The rejection index lies past the violation the case states; what is
    /// broken there is not known, so the naming is not judged.
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
/// without `index`, a projection without `projection` are ignored.
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
            if caps.rule {
                s.naming = rule.as_deref().map(|r| naming(expected, index, r));
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

fn score_accept(expected: &Expected, facts: &Facts, projection: Option<&Value>) -> Scored {
    if let Some(m) = facts.m {
        return Scored::new(
            Score::Fail,
            format!(
                "accepted a stream with a must-reject violation at {m}: {}",
                describe_first(expected)
            ),
        );
    }
    if !facts.f_exact {
        // The case says "reject" but names only an earlier warning; the
        // obligation of its error violation is not stated.
        return Scored::new(
            Score::Warn,
            format!(
                "accepted a stream the case rejects (first violation {}; the obligation of its error violation is not stated)",
                describe_first(expected)
            ),
        );
    }
    if facts.should_reject {
        return Scored::new(
            Score::Warn,
            format!(
                "accepted a should-reject violation: {}",
                describe_first(expected)
            ),
        );
    }
    if facts.may_reject {
        return Scored::new(
            Score::Info,
            format!(
                "accepted a may-reject violation: {}",
                describe_first(expected)
            ),
        );
    }
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
    Scored::new(Score::Pass, "")
}

fn score_reject(facts: &Facts, index: Option<usize>) -> Scored {
    if !facts.any {
        return Scored::new(Score::Fail, "rejected a valid stream");
    }
    if let Some(i) = index {
        if let Some(f) = facts.f.filter(|f| i < *f) {
            let what = if facts.f_exact {
                "the first error violation is"
            } else {
                "the first error violation is at or after"
            };
            return Scored::new(
                Score::Fail,
                format!("rejected at {i}, a valid prefix ({what} {f})"),
            );
        }
        if let Some(m) = facts.m.filter(|m| i > *m) {
            return Scored::new(
                Score::Fail,
                format!("rejected at {i}, past the must-reject violation at {m}"),
            );
        }
    }
    Scored::new(Score::Pass, "")
}

fn naming(expected: &Expected, index: Option<usize>, named: &str) -> Naming {
    if let Some(all) = &expected.all {
        let hit = all
            .iter()
            .any(|(r, i)| r.as_str() == named && index.is_none_or(|x| x == *i));
        return if hit { Naming::Right } else { Naming::Wrong };
    }
    match expected.first {
        Some((r, _)) if r.as_str() == named => Naming::Right,
        Some((_, i)) if index.is_some_and(|x| x != i) => Naming::Unjudged,
        _ => Naming::Wrong,
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

/// Drops `null`-valued object keys, at any depth.
pub fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, x)| !x.is_null())
                .map(|(k, x)| (k.clone(), normalize(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        x => x.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::{RuleId, Verdict};
    use serde_json::json;

    fn exp(verdict: Verdict, first: Option<(RuleId, usize)>) -> Expected {
        Expected {
            verdict,
            first,
            projection: None,
            all: None,
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

    #[test]
    fn accept_scores_by_obligation() {
        let cases = [
            (exp(Verdict::Accept, None), Score::Pass),
            (
                exp(
                    Verdict::Reject,
                    Some((RuleId::OwnershipContinuationDisagrees, 3)),
                ),
                Score::Fail,
            ),
            (
                exp(Verdict::Reject, Some((RuleId::TextNotOpen, 3))),
                Score::Warn,
            ),
            (
                exp(Verdict::Reject, Some((RuleId::RunUnterminated, 3))),
                Score::Info,
            ),
            (
                exp(Verdict::Accept, Some((RuleId::InterruptUnknownId, 3))),
                Score::Info,
            ),
            (
                exp(
                    Verdict::Accept,
                    Some((RuleId::AttributionNotAttributable, 0)),
                ),
                Score::Pass,
            ),
        ];
        for (e, want) in cases {
            assert_eq!(score(&e, &accept(), ALL).score, want, "{e:?}");
        }
    }

    #[test]
    fn reject_scores_by_index() {
        let must = exp(
            Verdict::Reject,
            Some((RuleId::OwnershipContinuationDisagrees, 3)),
        );
        assert_eq!(score(&must, &reject(3, None), ALL).score, Score::Pass);
        assert_eq!(score(&must, &reject(2, None), ALL).score, Score::Fail);
        assert_eq!(score(&must, &reject(4, None), ALL).score, Score::Fail);
        let should = exp(Verdict::Reject, Some((RuleId::TextNotOpen, 3)));
        assert_eq!(score(&should, &reject(7, None), ALL).score, Score::Pass);
        assert_eq!(score(&should, &reject(1, None), ALL).score, Score::Fail);
        assert_eq!(
            score(&exp(Verdict::Accept, None), &reject(0, None), ALL).score,
            Score::Fail
        );
    }

    #[test]
    fn full_knowledge_fails_a_rejection_past_a_later_must_reject() {
        let mut e = exp(Verdict::Reject, Some((RuleId::TextNotOpen, 2)));
        e.all = Some(vec![
            (RuleId::TextNotOpen, 2),
            (RuleId::OwnershipContinuationDisagrees, 5),
        ]);
        assert_eq!(score(&e, &reject(5, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(6, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Fail);
    }

    #[test]
    fn rule_naming_is_credited_separately() {
        let e = exp(Verdict::Reject, Some((RuleId::TextNotOpen, 3)));
        let right = score(&e, &reject(3, Some("text.not-open")), ALL);
        assert_eq!(
            (right.score, right.naming),
            (Score::Pass, Some(Naming::Right))
        );
        let wrong = score(&e, &reject(3, Some("tool.not-open")), ALL);
        assert_eq!(
            (wrong.score, wrong.naming),
            (Score::Pass, Some(Naming::Wrong))
        );
        let later = score(&e, &reject(5, Some("tool.not-open")), ALL);
        assert_eq!(later.naming, Some(Naming::Unjudged));
        let no_cap = score(
            &e,
            &reject(3, Some("tool.not-open")),
            Capabilities { rule: false, ..ALL },
        );
        assert_eq!(no_cap.naming, None);
    }

    #[test]
    fn verdict_only_rejection_ignores_index() {
        let caps = Capabilities::default();
        let e = exp(
            Verdict::Reject,
            Some((RuleId::OwnershipContinuationDisagrees, 3)),
        );
        assert_eq!(score(&e, &reject(0, None), caps).score, Score::Pass);
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
        e.projection = Some(json!({"runs": [{"runId": "r1", "messages": []}]}));
        let same = Outcome::Accept {
            projection: Some(json!({"runs": [{"messages": [], "runId": "r1", "owner": null}]})),
        };
        assert_eq!(score(&e, &same, ALL).score, Score::Pass);
        let other = Outcome::Accept {
            projection: Some(json!({"runs": []})),
        };
        let s = score(&e, &other, ALL);
        assert_eq!(s.score, Score::Fail);
        assert!(s.projection_mismatch.is_some());
        assert_eq!(
            score(
                &e,
                &other,
                Capabilities {
                    projection: false,
                    ..ALL
                }
            )
            .score,
            Score::Pass
        );
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
    fn warning_then_unknown_error() {
        let e = exp(Verdict::Reject, Some((RuleId::InterruptUnknownId, 4)));
        assert_eq!(score(&e, &reject(3, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &reject(6, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Warn);
    }
}
