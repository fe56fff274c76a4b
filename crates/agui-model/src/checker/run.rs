//! The run rules (docs/rules.md "Run rules"): an event's place in the
//! stream (before, inside or after a run), and what `RUN_STARTED`,
//! `RUN_FINISHED` and `RUN_ERROR` start and end. `run.unterminated` is
//! judged at the end of input ([`Checker::finish`]).

use super::chunks::Lanes;
use super::{Checker, Phase};
use crate::body::Val;
use crate::events::EventType;
use crate::rules::RuleId;
use crate::wire::nested;
use serde_json::Value;

impl Checker {
    /// `run.first-event`: the stream's first item is `what`, neither
    /// `RUN_STARTED` nor `RUN_ERROR`. An *implicit* run opens (checked as a
    /// run, never projected nor reported unterminated).
    fn first_event_not_a_start(&mut self, i: usize, what: &str) {
        self.report(
            RuleId::RunFirstEvent,
            i,
            format!("the first {what}; a stream starts with RUN_STARTED (or RUN_ERROR)"),
        );
        self.book.reset(true);
        self.phase = Phase::Active;
        self.run_mark = i;
    }

    /// A stream item that is no event (not JSON, not an object, no known
    /// `type`): the stream rules skip it, but as the stream's first item it
    /// is still the first event, and not a `RUN_STARTED` (the catalogue
    /// counts every item as an event).
    pub(super) fn no_event(&mut self, i: usize) {
        if self.phase == Phase::Start {
            self.judged(super::area::RUN);
            self.first_event_not_a_start(i, "item is not an event of a known type");
        }
    }

    /// The run rules of an event's place in the stream (before, inside or
    /// after a run); whether the event goes on to the rules of its type.
    pub(super) fn enter(&mut self, i: usize, ty: EventType) -> bool {
        // Every event that reaches the stream rules is judged by its place.
        self.judged(super::area::RUN);
        match (self.phase, ty) {
            (Phase::Active, EventType::RunStarted) if !self.book.implicit => {
                // docs/rules.md: per-run bookkeeping "is reset at each
                // `RUN_STARTED`" — this one too, although it breaks a rule.
                self.report_related(
                    RuleId::RunAlreadyActive,
                    i,
                    "RUN_STARTED while a run is active (no RUN_FINISHED or RUN_ERROR ended it); a new run starts here, the active one is abandoned".to_owned(),
                    Some(self.run_mark),
                );
                true
            }
            (_, EventType::RunStarted) | (Phase::Active, _) => true,
            (Phase::Start, EventType::RunError) => {
                // A run that failed before it started: shown errored
                // (docs/rules.md revision 4, "A consumer MUST treat the
                // run as failed").
                self.run_mark = i;
                self.phase = Phase::Errored;
                if let Some(p) = self.projector.as_mut() {
                    p.run_started(None, None);
                    p.run_ended("errored");
                }
                false
            }
            (Phase::Start, _) => {
                self.first_event_not_a_start(i, &format!("event is {ty}"));
                true
            }
            // docs/rules.md `accept.late-run-error`: the finished run
            // failed after all.
            (Phase::Finished, EventType::RunError) => true,
            (Phase::Finished, _) => {
                self.report_related(
                    RuleId::RunAfterFinished,
                    i,
                    format!("{ty} after RUN_FINISHED; only RUN_STARTED may follow a finished run"),
                    Some(self.run_mark),
                );
                false
            }
            (Phase::Errored, _) => {
                self.report_related(
                    RuleId::RunAfterError,
                    i,
                    format!(
                        "{ty} after RUN_ERROR; RUN_ERROR ends everything, only RUN_STARTED may follow"
                    ),
                    Some(self.run_mark),
                );
                false
            }
        }
    }

    /// `RUN_STARTED` at `i`: a new run, its bookkeeping reset, the state
    /// and messages of its input recorded.
    pub(super) fn run_started(
        &mut self,
        i: usize,
        thread_id: Option<&str>,
        run_id: Option<&str>,
        input: Option<&Val<'_>>,
    ) {
        self.run_mark = i;
        match (&self.thread, thread_id) {
            (Some(first), Some(t)) if first != t => self.report(
                RuleId::RunThreadChanged,
                i,
                format!(
                    "RUN_STARTED on thread {t:?}, but an earlier run of this stream is on thread {first:?}: every run of a stream carries one threadId"
                ),
            ),
            (None, Some(t)) => self.thread = Some(t.to_owned()),
            _ => {}
        }
        self.run_ids = (thread_id.map(str::to_owned), run_id.map(str::to_owned));
        if let Some(p) = self.projector.as_mut() {
            p.run_left_open(&self.state);
        }
        self.lanes = Lanes::default();
        self.book.reset(false);
        self.phase = Phase::Active;
        let input = input.and_then(Val::value);
        if let Some(input) = input.as_deref().and_then(Value::as_object) {
            match input.get(nested::STATE) {
                None | Some(Value::Null) => {}
                Some(state) => self.replace_state(i, state),
            }
            if let Some(Value::Array(messages)) = input.get(nested::MESSAGES) {
                self.record_messages(i, messages, false);
            }
        }
        if let Some(p) = self.projector.as_mut() {
            p.run_started(thread_id, run_id);
        }
    }

    /// `RUN_FINISHED` at `i`: what it leaves open, then the lifecycle and
    /// interrupt rules of the run's end.
    pub(super) fn run_finished(
        &mut self,
        i: usize,
        thread_id: Option<&str>,
        run_id: Option<&str>,
        outcome: Option<&Val<'_>>,
    ) {
        self.ids_agree(i, EventType::RunFinished, thread_id, run_id);
        self.run_mark = i;
        let (open, first_opener) = self.book.open_entities();
        if !open.is_empty() {
            self.report_related(
                RuleId::RunOpenEntitiesAtFinish,
                i,
                format!("RUN_FINISHED while open: {}", open.join(", ")),
                first_opener,
            );
        }
        self.open_at_run_finish(i);
        let outcome = outcome.and_then(Val::value);
        let outcome = outcome.as_deref().and_then(Value::as_object);
        let interrupts = self.judge_interrupts(i, outcome);
        self.phase = Phase::Finished;
        if let Some(p) = self.projector.as_mut() {
            if let Some(interrupts) = interrupts {
                p.interrupts(interrupts);
            }
            p.run_ended(status_of_outcome(outcome));
        }
    }

    /// `RUN_ERROR` at `i` ends the run and abandons what it left active;
    /// after `RUN_FINISHED` (`accept.late-run-error`) it marks the run
    /// finished there as failed.
    pub(super) fn run_error(&mut self, i: usize) {
        if self.phase != Phase::Finished {
            self.abandon_active(i);
        }
        self.run_mark = i;
        self.phase = Phase::Errored;
        if let Some(p) = self.projector.as_mut() {
            p.run_ended("errored");
        }
    }

    /// `run.ids-disagree`: a run's end names another run or thread than
    /// its `RUN_STARTED` (an id left out agrees).
    fn ids_agree(
        &mut self,
        i: usize,
        ty: EventType,
        thread_id: Option<&str>,
        run_id: Option<&str>,
    ) {
        let (started_thread, started_run) = &self.run_ids;
        // The two ids' wire names, as the table spells them (`RUN_STARTED`'s
        // required fields: threadId, runId).
        let [thread_key, run_key] = [0, 1].map(|k| EventType::RunStarted.fields()[k].key);
        let differs = [
            (thread_key, thread_id, started_thread),
            (run_key, run_id, started_run),
        ]
        .into_iter()
        .find_map(|(what, said, started)| match (said, started.as_deref()) {
            (Some(said), Some(started)) if said != started => {
                Some((what, said, started.to_owned()))
            }
            _ => None,
        });
        if let Some((what, said, started)) = differs {
            self.report_related(
                RuleId::RunIdsDisagree,
                i,
                format!(
                    "{ty} carries {what} {said:?}, but its run started with {what} {started:?}"
                ),
                Some(self.run_mark),
            );
        }
    }
}

/// How a run shows that a `RUN_FINISHED` with this outcome ended it
/// (docs/projection.md): `cancelled`, `interrupted`, else `finished`.
pub(super) fn status_of(outcome: Option<&Val<'_>>) -> &'static str {
    let outcome = outcome.and_then(Val::value);
    status_of_outcome(outcome.as_deref().and_then(Value::as_object))
}

fn status_of_outcome(outcome: Option<&serde_json::Map<String, Value>>) -> &'static str {
    match outcome
        .and_then(|o| o.get(crate::wire::TYPE))
        .and_then(Value::as_str)
    {
        Some("cancelled") => "cancelled",
        Some("interrupt") => "interrupted",
        _ => "finished",
    }
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) and one near miss per run
    //! rule, written by hand from docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;

    #[test]
    fn run_first_event() {
        expect_first(
            &[text_start("m1", None), text_end("m1", None)],
            R::RunFirstEvent,
            0,
        );
    }
    #[test]
    fn run_first_event_near_miss_run_error_first() {
        // RUN_ERROR is an allowed first event.
        expect_clean(&[run_error()]);
    }
    #[test]
    fn run_already_active() {
        expect_first(
            &[run_started(), run_started(), run_finished()],
            R::RunAlreadyActive,
            1,
        );
    }
    #[test]
    fn run_already_active_near_miss_sequential_runs() {
        expect_clean(&[
            run_started(),
            run_finished(),
            run_started_id("r2"),
            run_finished_id("r2"),
        ]);
    }
    #[test]
    fn run_after_finished() {
        expect_first(
            &[run_started(), run_finished(), custom(None)],
            R::RunAfterFinished,
            2,
        );
    }
    #[test]
    fn run_after_finished_near_miss_late_run_error() {
        // Revision 4, `accept.late-run-error`: "A producer MAY emit
        // RUN_ERROR after RUN_FINISHED".
        expect_clean(&[run_started(), run_finished(), run_error()]);
        // And nothing but RUN_STARTED after it (`run.after-error`).
        expect_first(
            &[run_started(), run_finished(), run_error(), run_error()],
            R::RunAfterError,
            3,
        );
    }
    #[test]
    fn run_ids_disagree() {
        expect_first(
            &[run_started(), run_finished_id("r9")],
            R::RunIdsDisagree,
            1,
        );
        let other_thread =
            serde_json::json!({"type": "RUN_FINISHED", "threadId": "t9", "runId": "r1"});
        expect_first(&[run_started(), other_thread], R::RunIdsDisagree, 1);
    }
    #[test]
    fn run_ids_disagree_near_miss_each_run_its_own_id() {
        // A second run's RUN_FINISHED agrees with its own RUN_STARTED, not
        // with the first run's.
        expect_clean(&[
            run_started(),
            run_finished(),
            run_started_id("r2"),
            custom(None),
            run_finished_id("r2"),
        ]);
    }
    #[test]
    fn run_thread_changed() {
        let t2 = serde_json::json!({"type": "RUN_STARTED", "threadId": "t2", "runId": "r2"});
        let t2_end = serde_json::json!({"type": "RUN_FINISHED", "threadId": "t2", "runId": "r2"});
        expect_first(
            &[run_started(), run_finished(), t2, t2_end],
            R::RunThreadChanged,
            2,
        );
    }
    #[test]
    fn run_after_error() {
        expect_first(
            &[run_started(), run_error(), text_start("m1", None)],
            R::RunAfterError,
            2,
        );
    }
    #[test]
    fn run_after_error_near_miss_new_run() {
        expect_clean(&[
            run_started(),
            run_error(),
            run_started_id("r2"),
            run_finished_id("r2"),
        ]);
    }
    #[test]
    fn run_open_entities_at_finish() {
        expect_first(
            &[run_started(), text_start("m1", None), run_finished()],
            R::RunOpenEntitiesAtFinish,
            2,
        );
        expect_first(
            &[
                run_started(),
                step_started("plan", Some("s1")),
                run_finished(),
            ],
            R::RunOpenEntitiesAtFinish,
            2,
        );
    }
    #[test]
    fn run_open_entities_near_miss_chunk_stream_closed_by_finish() {
        // RUN_FINISHED closes every lane, so a chunk stream is never open at it.
        expect_clean(&[
            run_started(),
            text_chunk(Some("m1"), Some("hi"), None),
            run_finished(),
        ]);
    }
    #[test]
    fn run_unterminated() {
        expect_first(
            &[run_started(), text_start("m1", None), text_end("m1", None)],
            R::RunUnterminated,
            3,
        );
    }
    #[test]
    fn run_unterminated_near_miss_run_error_ends_it() {
        expect_clean(&[run_started(), started("s1", None), run_error()]);
    }
}
