//! The interrupt rules (docs/rules.md "Interrupt rules"), judged at
//! `RUN_FINISHED`: every invocation that finished suspended in the run
//! (its `SUBAGENT_FINISHED` listed interrupt ids) against the run's
//! `interrupt` outcome.

use super::book::who_tag;
use super::{Checker, s};
use crate::rules::RuleId;
use crate::wire::{self, SUBAGENT_RUN_ID, nested};
use serde_json::{Map, Value};

impl Checker {
    /// The interrupt rules at the `RUN_FINISHED` at `i` with `outcome` (if
    /// an object); the outcome's interrupts when it is `interrupt`.
    pub(super) fn judge_interrupts<'o>(
        &mut self,
        i: usize,
        outcome: Option<&'o Map<String, Value>>,
    ) -> Option<&'o [Value]> {
        if !self.book.suspended.is_empty() {
            // An invocation finished suspended: judged against the outcome.
            self.judged(super::area::INTERRUPTS);
        }
        let interrupted = outcome.and_then(|oc| s(oc, wire::TYPE)) == Some("interrupt");
        let interrupts: &[Value] = match outcome.and_then(|oc| oc.get(nested::INTERRUPTS)) {
            Some(Value::Array(list)) if interrupted => list,
            _ => &[],
        };
        if interrupts.len() > 1 {
            self.judged(super::area::INTERRUPTS);
            self.duplicate_interrupt_ids(i, interrupts);
        }
        for (inv, ids) in std::mem::take(&mut self.book.suspended) {
            // The invocation's suspended SUBAGENT_FINISHED, which listed
            // the interrupt ids.
            let suspended_at = self.book.invocation_at(&inv);
            if !interrupted {
                self.report_related(
                    RuleId::InterruptRunNotInterrupted,
                    i,
                    format!("invocation {inv:?} finished suspended, but the run's outcome is not `interrupt`"),
                    suspended_at,
                );
                continue;
            }
            for id in ids {
                match interrupts.iter().find(|x| x.get(nested::ID).and_then(crate::json::text) == Some(id.as_str())) {
                    None => self.report_related(
                        RuleId::InterruptUnknownId,
                        i,
                        format!("invocation {inv:?} lists interrupt {id:?}, which the run's interrupt outcome does not carry"),
                        suspended_at,
                    ),
                    Some(x) => {
                        let owner = x.get(SUBAGENT_RUN_ID).and_then(crate::json::text);
                        if owner != Some(inv.as_str()) {
                            self.report_related(
                                RuleId::InterruptOwnerMismatch,
                                i,
                                format!(
                                    "invocation {inv:?} lists interrupt {id:?}, but the run outcome attributes it to {}",
                                    who_tag(owner)
                                ),
                                suspended_at,
                            );
                        }
                    }
                }
            }
        }
        interrupted.then_some(interrupts)
    }

    /// `interrupt.duplicate-id`: two interrupts of the outcome share an
    /// `id` (each repeat reported once, at the `RUN_FINISHED`).
    fn duplicate_interrupt_ids(&mut self, i: usize, interrupts: &[Value]) {
        let ids: Vec<Option<&str>> = interrupts
            .iter()
            .map(|x| x.get(nested::ID).and_then(crate::json::text))
            .collect();
        for (k, id) in ids.iter().enumerate() {
            if let Some(id) = id
                && ids[..k].contains(&Some(id))
                && !ids[k + 1..].contains(&Some(id))
            {
                let n = ids.iter().filter(|x| **x == Some(id)).count();
                self.report(
                    RuleId::InterruptDuplicateId,
                    i,
                    format!("the run's interrupt outcome carries {n} interrupts with id {id:?}; each interrupt's id is unique within the run"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) per interrupt rule and a near
    //! miss, written by hand from docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;
    use serde_json::json;

    #[test]
    fn interrupt_duplicate_id() {
        expect_first(
            &[
                run_started(),
                run_interrupted(json!([
                    {"id": "i1", "reason": "approval"},
                    {"id": "i2", "reason": "approval"},
                    {"id": "i1", "reason": "input"}
                ])),
            ],
            R::InterruptDuplicateId,
            1,
        );
    }
    #[test]
    fn interrupt_duplicate_id_near_miss_distinct_ids() {
        expect_clean(&[
            run_started(),
            run_interrupted(json!([
                {"id": "i1", "reason": "approval"},
                {"id": "i2", "reason": "approval"}
            ])),
        ]);
    }

    #[test]
    fn interrupt_run_not_interrupted() {
        let events = [
            run_started(),
            started("s1", None),
            suspended("s1", &[]),
            run_finished(),
        ];
        expect_first(&events, R::InterruptRunNotInterrupted, 3);
    }
    #[test]
    fn interrupt_unknown_id() {
        let events = [
            run_started(),
            started("s1", None),
            suspended("s1", &["i9"]),
            run_interrupted(json!([{"id": "i1", "reason": "x", "subagentRunId": "s1"}])),
        ];
        expect_first(&events, R::InterruptUnknownId, 3);
    }
    #[test]
    fn interrupt_owner_mismatch() {
        let events = [
            run_started(),
            started("s1", None),
            suspended("s1", &["i1"]),
            run_interrupted(json!([{"id": "i1", "reason": "x"}])),
        ];
        expect_first(&events, R::InterruptOwnerMismatch, 3);
    }
    #[test]
    fn interrupt_near_miss_descendant_interrupted() {
        // s1 is suspended because its child s2 interrupted: s1 owns no interrupt.
        expect_clean(&[
            run_started(),
            started("s1", None),
            started("s2", Some("s1")),
            suspended("s2", &["i1"]),
            json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "suspended"}}),
            run_interrupted(json!([{"id": "i1", "reason": "x", "subagentRunId": "s2"}])),
        ]);
    }
}
