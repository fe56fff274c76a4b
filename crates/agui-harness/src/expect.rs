//! What the spec says about a case's stream, in the terms the scoring needs.
//!
//! docs/rules.md "Scoring a consumer" (revision 3) needs F (the first index
//! holding a violation a consumer may reject for: must-, should- or
//! may-reject, whatever its severity), M (the first must-reject violation)
//! and whether should-reject / may-reject violations exist: "a harness
//! never takes M as absent when the case does not state it, it asks for
//! the case to state it". A case fixes them by one of:
//!
//! - no violation: the stream is valid (F, M absent);
//! - a **must-reject** first violation at `I`: F = M = `I` (what follows
//!   cannot move either);
//! - only **warnings** (verdict `accept`, a warning first): M absent; a
//!   may-reject first warning is F. A must-accept first one
//!   (`attribution.not-attributable`) is no violation for scoring and does
//!   not fix F: a rejection of such a case cannot be judged
//!   ([`Facts::f_stated`]), and an acceptance scores PASS where a later
//!   may-reject warning would make it INFO (either answer conforms);
//! - every violation stated (`violations` of a corpus case; a generator by
//!   construction): exact ([`Facts::from_all`]).
//!
//! Revision 3 asks every case to state all its violations, so that a rule
//! named at any index can be judged; a case stating only its first one
//! still loads, and what it leaves open is a problem of the case when an
//! answer needs it ([`crate::score`]). Anything else is refused by
//! [`Expected::consistent`] (and by the corpus lint,
//! `agui_corpus::load::undetermined`).

use agui_model::{Obligation, RuleId, Severity, Verdict};

/// The expected answer of one case, as its source states it.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub verdict: Verdict,
    /// The stream's first violation (any severity), when it has one.
    pub first: Option<(RuleId, usize)>,
    /// The expected projection (canonical form), when the case states one.
    pub projection: Option<serde_json::Value>,
    /// Every violation in stream order, when the source states them all.
    pub all: Option<Vec<(RuleId, usize)>>,
    /// The number of events (a rejection index past it is malformed).
    pub events: usize,
    /// A case converted from an official fixture: what the fixture expects
    /// (the projection subset, the outcome the answer is compared with for
    /// agreement).
    pub official: Option<agui_corpus::Official>,
    /// Read natively from an official fixture (`run --official-dir`): no
    /// rule is known, the answer is scored at the outcome level
    /// ([`crate::score`]).
    pub outcome_only: bool,
}

impl Expected {
    /// From a corpus case.
    pub fn from_case(case: &agui_corpus::Case) -> Result<Self, String> {
        let e = &case.expect;
        let first = match (e.rule, e.index) {
            (Some(r), Some(i)) => Some((r, i)),
            (None, None) => None,
            _ => {
                return Err(
                    "expect names a rule without an index or an index without a rule".into(),
                );
            }
        };
        let x = Expected {
            verdict: e.verdict,
            first,
            projection: case.projection.clone(),
            all: case
                .violations
                .as_ref()
                .map(|v| v.iter().map(|s| (s.rule, s.index)).collect()),
            events: case.len(),
            official: case.official.as_deref().cloned(),
            outcome_only: false,
        };
        x.consistent()?;
        Ok(x)
    }

    /// Rejects expectations that contradict the catalogue (an error-severity
    /// first violation with verdict `accept`, a `reject` with no violation)
    /// or that leave F or M undetermined.
    pub fn consistent(&self) -> Result<(), String> {
        if self.outcome_only {
            return match &self.official {
                Some(_) if self.first.is_none() && self.all.is_none() => Ok(()),
                _ => Err(
                    "an outcome-level expectation names no rule and needs the official fixture's"
                        .into(),
                ),
            };
        }
        if let Some(all) = &self.all {
            if all.first() != self.first.as_ref() {
                return Err("the stated violations do not start with the first violation".into());
            }
            let error = all.iter().any(|(r, _)| r.severity() == Severity::Error);
            if error != (self.verdict == Verdict::Reject) {
                return Err("the verdict disagrees with the stated violations".into());
            }
        }
        match (self.verdict, self.first) {
            (Verdict::Reject, None) => Err("verdict reject but no violation named".into()),
            (Verdict::Accept, Some((r, _))) if r.severity() == Severity::Error => Err(format!(
                "verdict accept but first violation `{r}` has error severity"
            )),
            (_, Some((r, _))) if !r.rule().is_violation() => {
                Err(format!("`{r}` is an obligation, not a violation"))
            }
            (_, Some((r, _))) if self.all.is_none() && !first_determines(self.verdict, r) => {
                Err(format!(
                    "M is not determined: the first violation `{r}` is not must-reject and the case does not state its violations"
                ))
            }
            _ => Ok(()),
        }
    }

    pub fn facts(&self) -> Facts {
        match &self.all {
            Some(all) => Facts::from_all(all),
            None => Facts::from_first(self.first),
        }
    }

    /// The violations the case states at `index` (`None`: not stated).
    pub fn stated_at(&self, index: usize) -> Option<Vec<RuleId>> {
        self.all.as_ref().map(|all| {
            all.iter()
                .filter(|(_, i)| *i == index)
                .map(|(r, _)| *r)
                .collect()
        })
    }

    /// True when the schema-area rules alone decide the expected answer:
    /// a valid stream, or one whose first violation is a schema-area rule
    /// that also settles the verdict.
    pub fn schema_decided(&self) -> bool {
        match self.first {
            None => true,
            Some((r, _)) => {
                r.rule().area == "schema"
                    && (r.severity() == Severity::Error || self.verdict == Verdict::Accept)
            }
        }
    }
}

/// True when a first violation alone fixes F and M: it is must-reject, or
/// the verdict is `accept` (only warnings).
fn first_determines(verdict: Verdict, r: RuleId) -> bool {
    (r.severity() == Severity::Error && r.obligation() == Obligation::MustReject)
        || (verdict == Verdict::Accept && r.severity() == Severity::Warning)
}

/// The quantities of docs/rules.md "Scoring a consumer".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// F: the first index holding a violation a consumer may reject for
    /// (absent also when the case does not fix it: see `f_stated`).
    pub f: Option<usize>,
    /// M.
    pub m: Option<usize>,
    pub should_reject: bool,
    pub may_reject: bool,
    /// Some violation a consumer may reject for exists (must-accept
    /// warnings do not count).
    pub any: bool,
    /// Whether the case fixes F, `any` and `may_reject`: false only for a
    /// warnings-only case that states just its first warning, a
    /// must-accept one (a may-reject warning may follow it).
    pub f_stated: bool,
}

impl Default for Facts {
    /// A valid stream.
    fn default() -> Self {
        Facts {
            f: None,
            m: None,
            should_reject: false,
            may_reject: false,
            any: false,
            f_stated: true,
        }
    }
}

impl Facts {
    pub fn from_all(all: &[(RuleId, usize)]) -> Facts {
        let counted = || all.iter().filter(|(r, _)| counts(*r));
        Facts {
            f: counted().map(|(_, i)| *i).min(),
            m: counted()
                .filter(|(r, _)| r.obligation() == Obligation::MustReject)
                .map(|(_, i)| *i)
                .min(),
            should_reject: counted().any(|(r, _)| r.obligation() == Obligation::ShouldReject),
            may_reject: counted().any(|(r, _)| r.obligation() == Obligation::MayReject),
            any: counted().next().is_some(),
            f_stated: true,
        }
    }

    /// For a case whose first violation determines M (see
    /// [`Expected::consistent`]): must-reject error, or warnings only.
    pub fn from_first(first: Option<(RuleId, usize)>) -> Facts {
        let Some((r, i)) = first else {
            return Facts::default();
        };
        if r.severity() == Severity::Error {
            return Facts {
                f: Some(i),
                m: (r.obligation() == Obligation::MustReject).then_some(i),
                should_reject: r.obligation() == Obligation::ShouldReject,
                may_reject: r.obligation() == Obligation::MayReject,
                any: true,
                f_stated: true,
            };
        }
        // Warnings only: no must- or should-reject violation (every such
        // rule is an error).
        if counts(r) {
            Facts {
                f: Some(i),
                may_reject: r.obligation() == Obligation::MayReject,
                any: true,
                ..Facts::default()
            }
        } else {
            Facts {
                f_stated: false,
                ..Facts::default()
            }
        }
    }
}

/// "Warnings whose consumer side is must-accept are not violations here."
fn counts(r: RuleId) -> bool {
    r.rule().is_violation() && r.obligation() != Obligation::MustAccept
}

/// A ten-event expectation with only a verdict and a first violation, for
/// the unit tests here and in [`crate::score`].
#[cfg(test)]
pub(crate) fn exp(verdict: Verdict, first: Option<(RuleId, usize)>) -> Expected {
    Expected {
        verdict,
        first,
        projection: None,
        all: None,
        events: 10,
        official: None,
        outcome_only: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_must_reject_sets_f_and_m() {
        let f = Facts::from_first(Some((RuleId::OwnershipContinuationDisagrees, 4)));
        assert_eq!((f.f, f.m, f.any), (Some(4), Some(4), true));
    }

    #[test]
    fn a_first_should_reject_alone_is_undetermined() {
        let e = exp(Verdict::Reject, Some((RuleId::OwnershipStepOwner, 2)));
        assert!(e.consistent().unwrap_err().contains("M is not determined"));
        let e = Expected {
            all: Some(vec![(RuleId::OwnershipStepOwner, 2)]),
            ..e
        };
        assert_eq!(e.consistent(), Ok(()));
        let f = e.facts();
        assert_eq!(
            (f.f, f.m, f.should_reject, f.may_reject),
            (Some(2), None, true, false)
        );
    }

    #[test]
    fn must_accept_warning_is_no_violation() {
        let f = Facts::from_first(Some((RuleId::AttributionNotAttributable, 0)));
        assert!(!f.any);
        assert_eq!(f.f, None);
        // It states nothing about the warnings after it: F is not fixed.
        assert!(!f.f_stated);
        let listed = Facts::from_all(&[(RuleId::AttributionNotAttributable, 0)]);
        assert!(listed.f_stated && !listed.any);
    }

    /// Revision 3: a warnings-only stream has an F (its first may-reject
    /// warning), so a rejection before it rejects a valid prefix.
    #[test]
    fn a_may_reject_warning_is_f() {
        let f = Facts::from_first(Some((RuleId::SchemaLoneSurrogate, 2)));
        assert_eq!(
            (f.f, f.m, f.may_reject, f.f_stated),
            (Some(2), None, true, true)
        );
        let f = Facts::from_all(&[
            (RuleId::AttributionNotAttributable, 1),
            (RuleId::SchemaDuplicateKey, 3),
        ]);
        assert_eq!((f.f, f.any), (Some(3), true));
    }

    #[test]
    fn a_warning_then_an_error_needs_the_list() {
        let e = exp(Verdict::Reject, Some((RuleId::InterruptUnknownId, 5)));
        assert!(e.consistent().is_err());
        let e = Expected {
            all: Some(vec![
                (RuleId::InterruptUnknownId, 5),
                (RuleId::RunUnterminated, 10),
            ]),
            ..e
        };
        assert_eq!(e.consistent(), Ok(()));
        let f = e.facts();
        // Revision 3: F is the first violation a consumer may reject for,
        // the warning at 5, not the first error at 10.
        assert_eq!((f.f, f.m, f.may_reject, f.any), (Some(5), None, true, true));
    }

    #[test]
    fn all_violations_are_exact() {
        let f = Facts::from_all(&[
            (RuleId::AttributionNotAttributable, 0),
            (RuleId::OwnershipStepOwner, 2),
            (RuleId::OwnershipContinuationDisagrees, 6),
            (RuleId::RunUnterminated, 9),
        ]);
        assert_eq!(
            (f.f, f.m, f.should_reject, f.may_reject, f.any),
            (Some(2), Some(6), true, true, true)
        );
    }

    #[test]
    fn inconsistent_expectations_are_refused() {
        assert!(
            exp(Verdict::Accept, Some((RuleId::OwnershipStepOwner, 1)))
                .consistent()
                .is_err()
        );
        assert!(exp(Verdict::Reject, None).consistent().is_err());
        let listed_wrong = Expected {
            all: Some(vec![(RuleId::OwnershipStepOwner, 3)]),
            ..exp(Verdict::Reject, Some((RuleId::OwnershipStepOwner, 1)))
        };
        assert!(listed_wrong.consistent().is_err());
    }
}
