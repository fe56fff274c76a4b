//! What the spec says about a case's stream, in the terms the scoring needs.
//!
//! docs/rules.md "Scoring a consumer" needs F (first error-severity violation),
//! M (first must-reject violation) and whether should-reject / may-reject
//! violations exist. A corpus case (and a generated invalid case) states only
//! its **first** violation and the verdict, so [`Facts::from_first`] derives
//! what that determines and nothing more:
//!
//! - no violation: the stream is valid (F, M absent; nothing to reject);
//! - first violation of **error** severity at `I`: F = `I`; M = `I` when the
//!   rule is must-reject, otherwise M is taken as absent (a later must-reject
//!   violation is not known to the case); should/may-reject from that rule;
//! - first violation of **warning** severity, verdict `accept`: no error
//!   violation exists; F and M absent; may-reject when the rule is
//!   (a must-accept warning such as `attribution.not-attributable` is not a
//!   violation for scoring);
//! - first violation of **warning** severity, verdict `reject`: an error
//!   violation exists at some unknown index `>= I`: F is only bounded below
//!   ([`Facts::f_exact`] is false). See `score` for how that is scored.
//!
//! A source that knows every violation (a generator, by construction) uses
//! [`Facts::from_all`], which is exact.

use agui_model::{Obligation, RuleId, Severity, Verdict};

/// The expected answer of one case, as its source states it.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub verdict: Verdict,
    /// The stream's first violation (any severity), when it has one.
    pub first: Option<(RuleId, usize)>,
    /// The expected projection (canonical form), when the case states one.
    pub projection: Option<serde_json::Value>,
    /// Every violation in stream order, when the source knows them all.
    pub all: Option<Vec<(RuleId, usize)>>,
}

impl Expected {
    /// From a corpus case's `expect` and `projection`.
    pub fn from_corpus(
        e: &agui_corpus::Expect,
        projection: Option<serde_json::Value>,
    ) -> Result<Self, String> {
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
            projection,
            all: None,
        };
        x.consistent()?;
        Ok(x)
    }

    /// Rejects expectations that contradict the catalogue (an error-severity
    /// first violation with verdict `accept`, a `reject` with no violation).
    pub fn consistent(&self) -> Result<(), String> {
        match (self.verdict, self.first) {
            (Verdict::Reject, None) => Err("verdict reject but no violation named".into()),
            (Verdict::Accept, Some((r, _))) if r.severity() == Severity::Error => Err(format!(
                "verdict accept but first violation `{r}` has error severity"
            )),
            (_, Some((r, _))) if !r.rule().is_violation() => {
                Err(format!("`{r}` is an obligation, not a violation"))
            }
            _ => Ok(()),
        }
    }

    pub fn facts(&self) -> Facts {
        match &self.all {
            Some(all) => Facts::from_all(all),
            None => Facts::from_first(self.verdict, self.first),
        }
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

/// The quantities of docs/rules.md "Scoring a consumer".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts {
    /// F, or its lower bound when `!f_exact`.
    pub f: Option<usize>,
    /// False when an error violation is known to exist only at or after `f`.
    pub f_exact: bool,
    /// M.
    pub m: Option<usize>,
    pub should_reject: bool,
    pub may_reject: bool,
    /// Some violation exists (must-accept warnings do not count).
    pub any: bool,
}

impl Facts {
    pub fn from_all(all: &[(RuleId, usize)]) -> Facts {
        let counted = || all.iter().filter(|(r, _)| counts(*r));
        Facts {
            f: counted()
                .filter(|(r, _)| r.severity() == Severity::Error)
                .map(|(_, i)| *i)
                .min(),
            f_exact: true,
            m: counted()
                .filter(|(r, _)| r.obligation() == Obligation::MustReject)
                .map(|(_, i)| *i)
                .min(),
            should_reject: counted().any(|(r, _)| r.obligation() == Obligation::ShouldReject),
            may_reject: counted().any(|(r, _)| r.obligation() == Obligation::MayReject),
            any: counted().next().is_some(),
        }
    }

    pub fn from_first(verdict: Verdict, first: Option<(RuleId, usize)>) -> Facts {
        let Some((r, i)) = first else {
            return Facts {
                f_exact: true,
                ..Facts::default()
            };
        };
        let obl = r.obligation();
        if r.severity() == Severity::Error {
            return Facts {
                f: Some(i),
                f_exact: true,
                m: (obl == Obligation::MustReject).then_some(i),
                should_reject: obl == Obligation::ShouldReject,
                may_reject: obl == Obligation::MayReject,
                any: true,
            };
        }
        match verdict {
            Verdict::Accept => Facts {
                f: None,
                f_exact: true,
                m: None,
                should_reject: false,
                may_reject: obl == Obligation::MayReject,
                any: counts(r),
            },
            // A case never expects `inconclusive` (the loader refuses it).
            Verdict::Reject | Verdict::Inconclusive => Facts {
                f: Some(i),
                f_exact: false,
                m: None,
                should_reject: false,
                may_reject: obl == Obligation::MayReject,
                any: true,
            },
        }
    }
}

/// "Warnings whose consumer side is must-accept are not violations here."
fn counts(r: RuleId) -> bool {
    r.rule().is_violation() && r.obligation() != Obligation::MustAccept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_must_reject_sets_f_and_m() {
        let f = Facts::from_first(
            Verdict::Reject,
            Some((RuleId::OwnershipContinuationDisagrees, 4)),
        );
        assert_eq!((f.f, f.m, f.f_exact, f.any), (Some(4), Some(4), true, true));
    }

    #[test]
    fn first_should_reject_leaves_m_unknown() {
        let f = Facts::from_first(Verdict::Reject, Some((RuleId::TextNotOpen, 2)));
        assert_eq!(
            (f.f, f.m, f.should_reject, f.may_reject),
            (Some(2), None, true, false)
        );
    }

    #[test]
    fn must_accept_warning_is_no_violation() {
        let f = Facts::from_first(
            Verdict::Accept,
            Some((RuleId::AttributionNotAttributable, 0)),
        );
        assert!(!f.any);
        assert_eq!(f.f, None);
    }

    #[test]
    fn warning_then_error_bounds_f() {
        let f = Facts::from_first(Verdict::Reject, Some((RuleId::InterruptUnknownId, 5)));
        assert_eq!(
            (f.f, f.f_exact, f.any, f.may_reject),
            (Some(5), false, true, true)
        );
    }

    #[test]
    fn all_violations_are_exact() {
        let f = Facts::from_all(&[
            (RuleId::AttributionNotAttributable, 0),
            (RuleId::TextNotOpen, 2),
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
        let e = Expected {
            verdict: Verdict::Accept,
            first: Some((RuleId::TextNotOpen, 1)),
            projection: None,
            all: None,
        };
        assert!(e.consistent().is_err());
        let e = Expected {
            verdict: Verdict::Reject,
            first: None,
            projection: None,
            all: None,
        };
        assert!(e.consistent().is_err());
    }
}
