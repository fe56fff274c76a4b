//! docs/rules.md "Scoring a consumer": an answer against the expectation →
//! PASS / FAIL / WARN / INFO, plus SKIPPED and ERRORED.

use crate::expect::{Expected, Facts};
use crate::implementation::Capabilities;
use crate::outcome::Outcome;
use agui_model::{Obligation, RuleId, Severity, Verdict};
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
/// docs/rules.md: with the `rule` capability a named rule "must name one of the
/// violations at the index it names: naming another rule (or an id that is
/// not in this catalogue) is a FAIL (\"misnamed\"), whatever the index".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// The named rule is a violation the case states at that index.
    Right,
    /// It is not (a FAIL).
    Wrong,
    /// The case does not state the violations at that index (it states only
    /// its first violation, and the rule could break there too): a problem
    /// of the case, never a PASS ([`Scored::case_problem`]).
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
    /// What the answer needs that the case does not state (revision 3:
    /// "a harness scores a named rule it cannot judge as a problem of the
    /// case, never as a PASS"). An answer that would otherwise PASS is then
    /// SKIPPED (not scored); a FAIL found without it stays a FAIL. The run
    /// lists it with the suite's problems, which makes it incomplete.
    pub case_problem: Option<String>,
    /// For a case converted from an official fixture: whether the answer
    /// agrees with the fixture ([`agreement`]).
    pub official: Option<Agreement>,
}

/// How an answer compares with an official fixture's expectation: the
/// outcome (completed = accepted, failed = rejected) and, when the answer
/// is an acceptance with a projection, the fixture's projection subset.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Agreement {
    /// The fixture's name.
    pub name: String,
    /// `1.0`, `1.1`, `draft`.
    pub version: String,
    /// The outcome the fixture pins (`completed`, `failed`).
    pub outcome: String,
    /// The outcome the answer amounts to.
    pub answered: String,
    /// `None` when the fixture is not comparable (then `not_comparable`
    /// says why).
    pub agrees: Option<bool>,
    /// Why the answer disagrees, or how an admitted gap was judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
}

impl Scored {
    fn new(score: Score, reason: impl Into<String>) -> Self {
        Scored {
            score,
            reason: reason.into(),
            naming: None,
            projection_mismatch: None,
            case_problem: None,
            official: None,
        }
    }

    /// Nothing to show of the case (its stream, in records): it passed, or
    /// was skipped without a problem of the case.
    pub fn quiet(&self) -> bool {
        match self.score {
            Score::Pass => true,
            Score::Skipped => self.case_problem.is_none(),
            _ => false,
        }
    }

    /// The answer cannot be judged on what the case states (`why`).
    fn unjudged(mut self, why: String) -> Self {
        if self.score == Score::Pass {
            self.score = Score::Skipped;
            self.reason = format!("not judged (a problem of the case): {why}");
        }
        self.case_problem = Some(match self.case_problem.take() {
            Some(before) => format!("{before}; {why}"),
            None => why,
        });
        self
    }
}

/// Scores an answer. Only what the capabilities promise is used: an index
/// without `index`, a rule without `rule`, a projection without
/// `projection` are ignored.
pub fn score(expected: &Expected, outcome: &Outcome, caps: Capabilities) -> Scored {
    let mut s = score_answer(expected, outcome, caps);
    s.official = agreement(expected, outcome, &s, caps);
    s
}

fn score_answer(expected: &Expected, outcome: &Outcome, caps: Capabilities) -> Scored {
    if expected.outcome_only
        && let Some(o) = &expected.official
    {
        return score_outcome_only(o, expected.events, outcome, caps);
    }
    let facts = expected.facts();
    match outcome {
        Outcome::Skipped { reason } => Scored::new(Score::Skipped, reason.clone()),
        Outcome::Errored(e) => Scored::new(Score::Errored, e.reason.clone()),
        Outcome::Accept { projection } => {
            let projection = projection.as_ref().filter(|_| caps.projection);
            match official_projection(expected, projection) {
                Some(mismatch) if facts.m.is_none() => mismatch,
                _ => score_accept(expected, &facts, projection),
            }
        }
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
            let mut s = score_reject(expected, &facts, index);
            if let (true, Some(named)) = (caps.rule, rule.as_deref()) {
                let n = naming(expected, index, named);
                s.naming = Some(n);
                match n {
                    Naming::Right => {}
                    Naming::Wrong => {
                        let why = misnamed(expected, index, named);
                        s.reason = if s.score == Score::Fail {
                            format!("{}; {why}", s.reason)
                        } else {
                            why
                        };
                        s.score = Score::Fail;
                    }
                    Naming::Unjudged => s = s.unjudged(unstated_naming(expected, index, named)),
                }
            }
            s
        }
    }
}

/// The official fixture's projection expectations against a reported
/// projection: `Some(FAIL)` when they differ.
fn official_projection(expected: &Expected, projection: Option<&Value>) -> Option<Scored> {
    let o = expected
        .official
        .as_ref()
        .filter(|o| o.expects_projection())?;
    let got = projection?;
    let why = agui_corpus::official::check_projection(o, got).err()?;
    let mut s = Scored::new(
        Score::Fail,
        format!("accepted with a projection that differs from the official fixture's: {why}"),
    );
    s.projection_mismatch = Some((official_summary(o), normalize(got)));
    Some(s)
}

/// What an official fixture expects of the projection, for a report.
fn official_summary(o: &agui_corpus::Official) -> Value {
    let mut m = serde_json::Map::new();
    if o.run_error {
        m.insert("runError".into(), Value::Bool(true));
    }
    if let Some(n) = o.message_count {
        m.insert("messageCount".into(), n.into());
    }
    if let Some(v) = &o.messages {
        m.insert("messages".into(), Value::Array(v.clone()));
    }
    if let Some(v) = &o.state {
        m.insert("state".into(), v.clone());
    }
    Value::Object(m)
}

/// A fixture read natively (`run --official-dir`): no rule is known, so
/// `failed` passes a rejection anywhere at or after the first event and
/// fails an acceptance; `completed` passes an acceptance whose projection
/// (when reported) matches the fixture's subset, and fails a rejection.
fn score_outcome_only(
    o: &agui_corpus::Official,
    events: usize,
    outcome: &Outcome,
    caps: Capabilities,
) -> Scored {
    let want = match agui_corpus::official::admitted_gap(&o.name) {
        Some((ours, _)) => ours,
        None => Some(o.outcome),
    };
    match outcome {
        Outcome::Skipped { reason } => Scored::new(Score::Skipped, reason.clone()),
        Outcome::Errored(e) => Scored::new(Score::Errored, e.reason.clone()),
        Outcome::Reject { index: Some(i), .. } if caps.index && *i > events => Scored::new(
            Score::Errored,
            format!(
                "malformed answer: rejection index {i} is past the end of the stream ({events} events)"
            ),
        ),
        Outcome::Reject { .. } => match want {
            Some(agui_corpus::OfficialOutcome::Completed) => Scored::new(
                Score::Fail,
                "rejected a stream the official fixture completes",
            ),
            _ => Scored::new(Score::Pass, ""),
        },
        Outcome::Accept { projection } => {
            if want == Some(agui_corpus::OfficialOutcome::Failed) {
                return Scored::new(Score::Fail, "accepted a stream the official fixture fails");
            }
            let projection = projection.as_ref().filter(|_| caps.projection);
            if o.not_comparable.is_none()
                && let Some(got) = projection
                && let Err(why) = agui_corpus::official::check_projection(o, got)
            {
                let mut s = Scored::new(
                    Score::Fail,
                    format!(
                        "accepted with a projection that differs from the official fixture's: {why}"
                    ),
                );
                s.projection_mismatch = Some((official_summary(o), normalize(got)));
                return s;
            }
            Scored::new(Score::Pass, "")
        }
    }
}

/// Whether the answer agrees with the official fixture (docs/rules.md
/// revision 4, "The official corpus is a suite"): accepted for `completed`,
/// rejected for `failed`, and an accepted projection (when reported)
/// matching the fixture's subset. An admitted gap is judged by our rule
/// (agrees unless the score is FAIL). Not comparable, skipped and errored
/// answers agree with nothing (`agrees: None`).
pub fn agreement(
    expected: &Expected,
    outcome: &Outcome,
    scored: &Scored,
    caps: Capabilities,
) -> Option<Agreement> {
    let o = expected.official.as_ref()?;
    let answered = match outcome {
        Outcome::Accept { .. } => "completed",
        Outcome::Reject { .. } => "failed",
        Outcome::Skipped { .. } => "skipped",
        Outcome::Errored(_) => "errored",
    };
    let mut a = Agreement {
        name: o.name.clone(),
        version: o.version.clone(),
        outcome: o.outcome.as_str().to_owned(),
        answered: answered.to_owned(),
        agrees: None,
        why: None,
        not_comparable: o.not_comparable.clone(),
    };
    if o.not_comparable.is_some()
        || matches!(outcome, Outcome::Skipped { .. } | Outcome::Errored(_))
    {
        return Some(a);
    }
    if let Some(gap) = &o.gap {
        a.agrees = Some(scored.score != Score::Fail);
        a.why = Some(format!("{gap}; judged by our rule: {}", scored.score));
        return Some(a);
    }
    if answered != o.outcome.as_str() {
        a.agrees = Some(false);
        a.why = Some(format!("the fixture expects `{}`", o.outcome.as_str()));
        return Some(a);
    }
    if let Outcome::Accept {
        projection: Some(got),
    } = outcome
        && caps.projection
        && o.expects_projection()
        && let Err(why) = agui_corpus::official::check_projection(o, got)
    {
        a.agrees = Some(false);
        a.why = Some(why);
        return Some(a);
    }
    a.agrees = Some(true);
    Some(a)
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
        && !eq_ignoring_nulls(&agui_model::projection::by_place(want, got), want)
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

/// docs/rules.md: "FAIL if the stream has no violation a consumer may
/// reject for …; FAIL if i < F … or if M exists and i > M; otherwise PASS."
fn score_reject(expected: &Expected, facts: &Facts, index: Option<usize>) -> Scored {
    if !facts.f_stated {
        // A must-accept first warning, stated alone: nothing breaks before
        // it, so a rejection there is certainly early; anything else needs
        // the violations the case does not state.
        let first = expected.first;
        if let (Some(i), Some((r, at))) = (index, first)
            && i < at
        {
            return Scored::new(
                Score::Fail,
                format!(
                    "rejected at {i}, inside the valid prefix (the stream's first violation, `{r}` at {at}, is must-accept)"
                ),
            );
        }
        let first = first.map_or_else(String::new, |(r, at)| {
            format!(" (`{r}` at {at}, must-accept)")
        });
        return Scored::new(Score::Pass, "").unjudged(format!(
            "the case states only its first violation{first}, not whether a violation a consumer may reject for follows it, so a rejection cannot be judged; it must state all its violations"
        ));
    }
    if !facts.any {
        return Scored::new(
            Score::Fail,
            if expected.first.is_none() {
                "rejected a valid stream".to_string()
            } else {
                format!(
                    "rejected a stream with no violation a consumer may reject for (only must-accept warnings: {})",
                    describe_first(expected)
                )
            },
        );
    }
    if let Some(i) = index {
        if let Some(f) = facts.f.filter(|f| i < *f) {
            return Scored::new(
                Score::Fail,
                format!(
                    "rejected at {i}, inside the valid prefix (the first violation a consumer may reject for is at {f})"
                ),
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

/// The rule named, when it is a rule an event stream can break.
fn stream_rule(named: &str) -> Option<RuleId> {
    RuleId::from_id(named).filter(|r| r.rule().is_violation() && r.rule().is_stream_rule())
}

fn naming(expected: &Expected, index: Option<usize>, named: &str) -> Naming {
    let Some(rule) = stream_rule(named) else {
        return Naming::Wrong;
    };
    if let Some(all) = &expected.all {
        let hit = all
            .iter()
            .any(|(r, i)| *r == rule && index.is_none_or(|x| x == *i));
        return if hit { Naming::Right } else { Naming::Wrong };
    }
    let Some((first, at)) = expected.first else {
        // No violation at all: the case states everything.
        return Naming::Wrong;
    };
    if rule == first && index.is_none_or(|x| x == at) {
        return Naming::Right;
    }
    if ruled_out(expected, index, rule).is_some() {
        Naming::Wrong
    } else {
        Naming::Unjudged
    }
}

/// What a first violation stated alone still rules out, and why: nothing
/// breaks before it, nor at its index before it in catalogue order
/// (violations at one event are reported in that order), and a stream
/// accepted with warnings only breaks no error rule.
fn ruled_out(expected: &Expected, index: Option<usize>, rule: RuleId) -> Option<String> {
    let (first, at) = expected.first?;
    match index {
        Some(i) if i < at => {
            return Some(format!("the stream's first violation is `{first}` at {at}"));
        }
        Some(i) if i == at && rule < first => {
            return Some(format!(
                "the first violation at {at} is `{first}`, and violations at one event come in catalogue order"
            ));
        }
        _ => {}
    }
    (expected.verdict == Verdict::Accept && rule.severity() == Severity::Error)
        .then(|| "the stream breaks only warning rules (verdict accept)".to_string())
}

fn misnamed(expected: &Expected, index: Option<usize>, named: &str) -> String {
    let Some(rule) = RuleId::from_id(named).filter(|r| r.rule().is_violation()) else {
        return format!("misnamed: `{named}` is not a violation rule of the catalogue");
    };
    if !rule.rule().is_stream_rule() {
        return format!("misnamed: `{named}` judges an HTTP exchange, never an event stream");
    }
    if expected.all.is_none()
        && let Some(why) = ruled_out(expected, index, rule)
    {
        return format!("misnamed: named `{named}`; {why}");
    }
    let at = match index {
        Some(i) => {
            let stated = expected.stated_at(i).unwrap_or_default();
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

/// Why a named rule cannot be judged on a case that states only its first
/// violation.
fn unstated_naming(expected: &Expected, index: Option<usize>, named: &str) -> String {
    let at = index.map_or_else(String::new, |i| format!(" at {i}"));
    let first = expected
        .first
        .map_or_else(String::new, |(r, i)| format!(" (`{r}` at {i})"));
    format!(
        "`{named}` named{at} cannot be judged: the case states only its first violation{first}, not all its violations"
    )
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
    fn listed_accept(all: &[(RuleId, usize)]) -> Expected {
        listed(Verdict::Accept, all)
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
            (
                listed(Verdict::Reject, &[(R::OwnershipStepOwner, 3)]),
                Score::Warn,
            ),
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
        let should = listed(Verdict::Reject, &[(R::OwnershipStepOwner, 3)]);
        assert_eq!(score(&should, &reject(7, None), ALL).score, Score::Pass);
        assert_eq!(score(&should, &reject(1, None), ALL).score, Score::Fail);
        assert_eq!(
            score(&exp(Verdict::Accept, None), &reject(0, None), ALL).score,
            Score::Fail
        );
    }

    #[test]
    fn an_index_past_the_end_is_errored() {
        let should = listed(Verdict::Reject, &[(R::OwnershipStepOwner, 3)]);
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
            &[
                (R::OwnershipStepOwner, 2),
                (R::OwnershipContinuationDisagrees, 5),
            ],
        );
        assert_eq!(score(&e, &reject(5, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(6, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Fail);
    }

    #[test]
    fn a_misnamed_rule_fails() {
        let e = listed(
            Verdict::Reject,
            &[(R::OwnershipStepOwner, 3), (R::RunUnterminated, 10)],
        );
        let right = score(&e, &reject(3, Some("ownership.step-owner")), ALL);
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
        let elsewhere = score(&e, &reject(10, Some("ownership.step-owner")), ALL);
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
        assert!(
            earlier.reason.contains("catalogue order"),
            "{}",
            earlier.reason
        );
        // Nothing breaks before the first violation.
        let before = score(&e, &reject(2, Some("chunk.ambiguous")), ALL);
        assert_eq!(
            (before.score, before.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
        // `chunk.ambiguous` comes later: it could break there too, and the
        // case does not say. Revision 3: a problem of the case, never a
        // PASS (it was PASS, "unjudged").
        let later = score(&e, &reject(3, Some("chunk.ambiguous")), ALL);
        assert_eq!(
            (later.score, later.naming),
            (Score::Skipped, Some(Naming::Unjudged))
        );
        let problem = later.case_problem.as_deref().unwrap_or_default();
        assert!(
            problem.contains("`chunk.ambiguous` named at 3 cannot be judged"),
            "{problem}"
        );
        assert!(later.reason.starts_with("not judged"), "{}", later.reason);
        // A FAIL found by the index stays a FAIL; the case is still noted.
        let late = score(&e, &reject(4, Some("run.unterminated")), ALL);
        assert_eq!(late.score, Score::Fail);
        assert!(late.case_problem.is_some());
        let valid = score(
            &exp(Verdict::Accept, None),
            &reject(2, Some("ownership.step-owner")),
            ALL,
        );
        assert_eq!(
            (valid.score, valid.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
        // A warnings-only case breaks no error rule anywhere.
        let warned = exp(Verdict::Accept, Some((R::SchemaLoneSurrogate, 2)));
        let error = score(&warned, &reject(5, Some("ownership.step-owner")), ALL);
        assert_eq!(
            (error.score, error.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
        let warning = score(&warned, &reject(5, Some("interrupt.unknown-id")), ALL);
        assert_eq!(
            (warning.score, warning.naming),
            (Score::Skipped, Some(Naming::Unjudged))
        );
        // A transport rule never breaks in an event stream.
        let transport = score(&e, &reject(3, Some("transport.framing")), ALL);
        assert_eq!(
            (transport.score, transport.naming),
            (Score::Fail, Some(Naming::Wrong))
        );
    }

    /// Revision 3: F counts every violation a consumer may reject for, so
    /// rejecting a warnings-only stream before its first warning rejects a
    /// valid prefix (it was PASS: F counted only errors).
    #[test]
    fn rejecting_before_the_first_warning_fails() {
        let warned = exp(Verdict::Accept, Some((R::InterruptUnknownId, 3)));
        let s = score(&warned, &reject(1, None), ALL);
        assert_eq!(s.score, Score::Fail);
        assert!(s.reason.contains("inside the valid prefix"), "{}", s.reason);
        assert_eq!(score(&warned, &reject(3, None), ALL).score, Score::Pass);
        assert_eq!(score(&warned, &reject(10, None), ALL).score, Score::Pass);
        let listed = listed(Verdict::Accept, &[(R::SchemaDuplicateKey, 4)]);
        assert_eq!(score(&listed, &reject(2, None), ALL).score, Score::Fail);
        // Only must-accept warnings: nothing a consumer may reject for.
        let only = listed_accept(&[(R::AttributionNotAttributable, 0)]);
        let s = score(&only, &reject(0, None), ALL);
        assert_eq!(s.score, Score::Fail);
        assert!(
            s.reason.contains("no violation a consumer may reject for"),
            "{}",
            s.reason
        );
    }

    /// A must-accept first warning stated alone does not fix F: a
    /// rejection at or after it is a problem of the case; before it, early.
    #[test]
    fn a_must_accept_first_warning_alone_leaves_f_open() {
        let e = exp(Verdict::Accept, Some((R::AttributionNotAttributable, 2)));
        let early = score(&e, &reject(1, None), ALL);
        assert_eq!(early.score, Score::Fail);
        let open = score(&e, &reject(2, None), ALL);
        assert_eq!(open.score, Score::Skipped);
        assert!(open.case_problem.is_some());
        let blind = score(&e, &reject(0, None), Capabilities::default());
        assert_eq!(blind.score, Score::Skipped);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Pass);
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
        // Revision 3: F is the first violation a consumer may reject for,
        // the may-reject warning at 4 (it was the first error, 10).
        assert_eq!(score(&e, &reject(3, None), ALL).score, Score::Fail);
        assert_eq!(score(&e, &reject(4, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(10, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Info);
    }

    /// An official fixture's expectation, as the mapping gives it.
    fn official(name: &str, expect: serde_json::Value) -> agui_corpus::Official {
        let fixture = json!({"name": name, "stream": [], "expect": expect});
        let mut o = agui_corpus::official::map_fixture(&fixture)
            .unwrap()
            .official;
        o.version = "1.1".into();
        o
    }

    fn with_official(e: Expected, o: agui_corpus::Official) -> Expected {
        Expected {
            official: Some(o),
            ..e
        }
    }

    fn projection(content: &str) -> Outcome {
        Outcome::Accept {
            projection: Some(json!({"runs": [{"status": "finished",
                "messages": [{"id": "m1", "role": "assistant", "content": content}]}]})),
        }
    }

    #[test]
    fn an_official_projection_is_compared_by_subset() {
        let e = with_official(
            exp(Verdict::Accept, None),
            official(
                "f",
                json!({"outcome": "completed", "messages": [{"role": "assistant", "content": "hi"}]}),
            ),
        );
        let s = score(&e, &projection("hi"), ALL);
        assert_eq!(s.score, Score::Pass, "{s:?}");
        assert_eq!(s.official.as_ref().unwrap().agrees, Some(true));
        let s = score(&e, &projection("bye"), ALL);
        assert_eq!(s.score, Score::Fail, "{s:?}");
        assert!(s.reason.contains("messages[0].content"), "{}", s.reason);
        let a = s.official.unwrap();
        assert_eq!((a.agrees, a.answered.as_str()), (Some(false), "completed"));
        // Without the projection capability nothing is compared.
        let caps = Capabilities {
            projection: false,
            ..ALL
        };
        assert_eq!(score(&e, &projection("bye"), caps).score, Score::Pass);
    }

    #[test]
    fn agreement_is_the_outcome_the_fixture_pins() {
        let o = official("f", json!({"outcome": "failed"}));
        let e = with_official(exp(Verdict::Reject, Some((R::TextNotOpen, 1))), o);
        assert_eq!(
            score(&e, &reject(1, None), ALL).official.unwrap().agrees,
            Some(true)
        );
        let a = score(&e, &accept(), ALL).official.unwrap();
        assert_eq!(a.agrees, Some(false));
        assert_eq!(a.why.as_deref(), Some("the fixture expects `failed`"));
        // Skipped and errored answers agree with nothing.
        let skipped = Outcome::Skipped {
            reason: "n/a".into(),
        };
        assert_eq!(score(&e, &skipped, ALL).official.unwrap().agrees, None);
    }

    #[test]
    fn outcome_only_scores_without_rules() {
        let mut e = with_official(
            Expected {
                verdict: Verdict::Reject,
                first: None,
                ..exp(Verdict::Reject, None)
            },
            official("f", json!({"outcome": "failed"})),
        );
        e.outcome_only = true;
        assert_eq!(e.consistent(), Ok(()));
        // Any rejection index passes; an acceptance fails.
        assert_eq!(score(&e, &reject(0, None), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(9, Some("x.y")), ALL).score, Score::Pass);
        assert_eq!(score(&e, &accept(), ALL).score, Score::Fail);
        assert_eq!(score(&e, &reject(11, None), ALL).score, Score::Errored);
        // The admitted gap of a fatal unknown role is expected completed.
        e.official = Some(official(
            "unknown-enum-value-role-fatal",
            json!({"outcome": "failed"}),
        ));
        assert_eq!(score(&e, &accept(), ALL).score, Score::Pass);
        assert_eq!(score(&e, &reject(1, None), ALL).score, Score::Fail);
    }
}
