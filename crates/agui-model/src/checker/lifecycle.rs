//! The lifecycle rules (docs/rules.md "Lifecycle rules"):
//! `SUBAGENT_STARTED`, `SUBAGENT_FINISHED` and `SUBAGENT_ERROR` against the
//! invocations of the current run, and against how each id last ended in
//! an earlier run of the stream ([`Remembered`], to judge resumption).

use super::book::{self, InvocationState};
use super::{Checker, names, s};
use crate::events::EventType;
use crate::projection::InvocationStatus;
use crate::rules::RuleId;
use crate::wire::{self, nested};
use serde_json::{Map, Value};

/// How an invocation last ended, remembered across the runs of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// Announced again after it ended, not (yet) closed.
    Open,
    Finished,
    Suspended,
    Errored,
    Abandoned,
}

/// How every invocation that ended in this stream last ended, and the
/// index of that end (its `SUBAGENT_FINISHED`/`SUBAGENT_ERROR`, or the
/// `RUN_ERROR` that abandoned it): the related event of the cross-run rules.
#[derive(Debug, Default)]
pub(super) struct Remembered {
    pub(super) ids: names::Names,
    how: Vec<(Ended, u32)>,
}

impl Remembered {
    pub(super) fn footprint(&self) -> usize {
        self.ids.footprint() + self.how.capacity() * std::mem::size_of::<(Ended, u32)>()
    }

    fn set(&mut self, id: &str, how: Ended, at: usize) {
        let n = self.ids.intern(id).index();
        let entry = (how, u32::try_from(at).unwrap_or(u32::MAX));
        if n >= self.how.len() {
            self.how.resize(n + 1, entry);
        }
        self.how[n] = entry;
    }

    /// Marks a remembered id announced again; how and where it had ended.
    fn reopen(&mut self, id: &str) -> Option<(Ended, usize)> {
        let n = self.ids.find(id)?.index();
        let (how, at) = self.how.get_mut(n)?;
        Some((std::mem::replace(how, Ended::Open), *at as usize))
    }

    /// Where a remembered id last ended (kept when it is announced again).
    fn ended_at(&self, id: &str) -> Option<usize> {
        let n = self.ids.find(id)?.index();
        self.how.get(n).map(|&(_, at)| at as usize)
    }
}

impl Checker {
    /// `SUBAGENT_STARTED` of `id` at `i`: announced, or announced again
    /// (resumed from an earlier run, or wrongly reused).
    pub(super) fn subagent_started(
        &mut self,
        i: usize,
        id: &str,
        name: Option<&str>,
        parent: Option<&str>,
    ) {
        self.judged(super::area::LIFECYCLE);
        if let Some(p) = parent
            && self.book.invocation(p).is_none()
        {
            // A parent known from an earlier run: where it last ended.
            let at = self.remembered.ended_at(p);
            self.report_related(
                RuleId::LifecycleUnknownParent,
                i,
                format!("SUBAGENT_STARTED {id:?} names parent {p:?}, which was not announced in this run"),
                at,
            );
        }
        if self.book.invocation(id) == Some(InvocationState::Active) {
            let at = self.book.invocation_at(id);
            self.report_related(
                RuleId::LifecycleAlreadyActive,
                i,
                format!("SUBAGENT_STARTED {id:?} while invocation {id:?} is already active"),
                at,
            );
            return;
        }
        // Only ids that ended are kept (absent reads as open), so a new id
        // costs one lookup here and one insertion when it ends.
        let before = if self.resume_off {
            None
        } else {
            self.remembered.reopen(id)
        };
        match self.book.invocation(id) {
            Some(ended) => {
                let how = match ended {
                    InvocationState::Suspended => "finished (suspended)",
                    InvocationState::Errored => "errored",
                    _ => "finished",
                };
                let at = self.book.invocation_at(id);
                self.report_related(
                    RuleId::LifecycleReusedId,
                    i,
                    format!("SUBAGENT_STARTED {id:?}: invocation {id:?} already {how} in this run; a new invocation needs a new id"),
                    at,
                );
            }
            None => {
                if self.book.is_attributed(id) {
                    self.report(
                        RuleId::LifecycleAnnounceAfterAttribution,
                        i,
                        format!("SUBAGENT_STARTED {id:?} comes after events already attributed to {id:?} in this run"),
                    );
                }
                if let Some((how @ (Ended::Finished | Ended::Errored), ended_at)) = before {
                    let how = if how == Ended::Finished {
                        "finished"
                    } else {
                        "errored"
                    };
                    self.report_related(
                        RuleId::LifecycleResumedNotSuspended,
                        i,
                        format!("SUBAGENT_STARTED {id:?} resumes an invocation an earlier run closed {how}, not suspended"),
                        Some(ended_at),
                    );
                }
            }
        }
        self.book.set_invocation(id, InvocationState::Active, i);
        if let Some(p) = self.projector.as_mut() {
            p.announced(self.book.names_mut(), id, name, parent);
        }
    }

    /// `SUBAGENT_FINISHED` (with its outcome, if an object) or
    /// `SUBAGENT_ERROR`.
    pub(super) fn subagent_ended(
        &mut self,
        i: usize,
        ty: EventType,
        id: &str,
        outcome: Option<&Map<String, Value>>,
    ) {
        self.judged(super::area::LIFECYCLE);
        if self.book.invocation(id) != Some(InvocationState::Active) {
            let why = if self.book.invocation(id).is_some() {
                "already closed"
            } else {
                "never announced in this run"
            };
            let at = self.book.invocation_at(id);
            self.report_related(
                RuleId::LifecycleNotActive,
                i,
                format!("{ty} for {id:?}, which is not active ({why})"),
                at,
            );
            return;
        }
        let (state, ended, status) = if ty == EventType::SubagentError {
            (
                InvocationState::Errored,
                Ended::Errored,
                InvocationStatus::Errored,
            )
        } else {
            if outcome.and_then(|oc| s(oc, wire::TYPE)) == Some("suspended") {
                let ids: Vec<String> = outcome
                    .and_then(|oc| oc.get(nested::INTERRUPT_IDS))
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(crate::json::text)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                self.book.suspended.push((id.to_owned(), ids.clone()));
                (
                    InvocationState::Suspended,
                    Ended::Suspended,
                    InvocationStatus::Suspended(ids),
                )
            } else {
                (
                    InvocationState::Finished,
                    Ended::Finished,
                    InvocationStatus::Finished,
                )
            }
        };
        // Both are on record since the announcement: no new keys.
        self.book.set_invocation(id, state, i);
        if !self.resume_off {
            self.remembered.set(id, ended, i);
        }
        if let Some(p) = self.projector.as_mut() {
            p.invocation_ended(self.book.names_mut(), id, status);
        }
    }

    /// `lifecycle.open-at-run-finish`: the `RUN_FINISHED` at `i` while
    /// invocations are active (the first [`book::LISTED`] named).
    pub(super) fn open_at_run_finish(&mut self, i: usize) {
        let active_ids = self.book.active_invocations();
        let first_active = active_ids
            .first()
            .and_then(|id| self.book.invocation_at(id));
        let count = active_ids.len();
        let mut active: Vec<String> = active_ids
            .into_iter()
            .take(book::LISTED)
            .map(|s| format!("{s:?}"))
            .collect();
        if count > book::LISTED {
            active.push(format!("and {} more", count - book::LISTED));
        }
        if !active.is_empty() {
            self.report_related(
                RuleId::LifecycleOpenAtRunFinish,
                i,
                format!(
                    "RUN_FINISHED while invocation(s) {} still active",
                    active.join(", ")
                ),
                first_active,
            );
        }
    }

    /// `RUN_ERROR` at `i` abandons every active invocation: remembered, so
    /// that a later run announcing one again is judged as resuming it.
    pub(super) fn abandon_active(&mut self, i: usize) {
        if !self.resume_off {
            for id in self.book.active_invocations() {
                self.remembered.set(id, Ended::Abandoned, i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) and one near miss per lifecycle
    //! rule, written by hand from docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;
    use serde_json::json;

    #[test]
    fn lifecycle_announce_after_attribution() {
        expect_first(
            &[
                run_started(),
                custom(Some("s1")),
                started("s1", None),
                finished("s1"),
                run_finished(),
            ],
            R::LifecycleAnnounceAfterAttribution,
            2,
        );
    }
    #[test]
    fn lifecycle_announce_near_miss_snapshot_history_does_not_count() {
        expect_clean(&[
            run_started(),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "m0", "role": "assistant", "content": "old", "subagentRunId": "s1"}]}),
            started("s1", None),
            finished("s1"),
            run_finished(),
        ]);
    }
    #[test]
    fn lifecycle_already_active() {
        expect_first(
            &[run_started(), started("s1", None), started("s1", None)],
            R::LifecycleAlreadyActive,
            2,
        );
    }
    #[test]
    fn lifecycle_reused_id() {
        expect_first(
            &[
                run_started(),
                started("s1", None),
                finished("s1"),
                started("s1", None),
                finished("s1"),
                run_finished(),
            ],
            R::LifecycleReusedId,
            3,
        );
        expect_first(
            &[
                run_started(),
                started("s1", None),
                sub_error("s1"),
                started("s1", None),
            ],
            R::LifecycleReusedId,
            3,
        );
    }
    #[test]
    fn lifecycle_not_active() {
        expect_first(&[run_started(), finished("s1")], R::LifecycleNotActive, 1);
        expect_first(
            &[
                run_started(),
                started("s1", None),
                finished("s1"),
                sub_error("s1"),
            ],
            R::LifecycleNotActive,
            3,
        );
    }
    #[test]
    fn lifecycle_unknown_parent() {
        expect_first(
            &[run_started(), started("s2", Some("s1"))],
            R::LifecycleUnknownParent,
            1,
        );
    }
    #[test]
    fn lifecycle_unknown_parent_near_miss_parent_finished_first() {
        expect_clean(&[
            run_started(),
            started("s1", None),
            finished("s1"),
            started("s2", Some("s1")),
            finished("s2"),
            run_finished(),
        ]);
    }
    #[test]
    fn lifecycle_open_at_run_finish() {
        expect_first(
            &[run_started(), started("s1", None), run_finished()],
            R::LifecycleOpenAtRunFinish,
            2,
        );
    }
    #[test]
    fn lifecycle_resumed_not_suspended() {
        let events = [
            run_started(),
            started("s1", None),
            finished("s1"),
            run_finished(),
            run_started_id("r2"),
            started("s1", None),
            finished("s1"),
            run_finished_id("r2"),
        ];
        expect_first(&events, R::LifecycleResumedNotSuspended, 5);
    }
    #[test]
    fn lifecycle_resumed_near_miss_suspended_then_resumed() {
        expect_clean(&[
            run_started(),
            started("s1", None),
            suspended("s1", &["i1"]),
            run_interrupted(json!([{"id": "i1", "reason": "approval", "subagentRunId": "s1"}])),
            run_started_id("r2"),
            started("s1", None),
            finished("s1"),
            run_finished_id("r2"),
        ]);
    }
}
