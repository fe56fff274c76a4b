//! How each run of a stream ended: finished, interrupted, cancelled,
//! errored (with the `RUN_ERROR` message and code) or unterminated.
//!
//! A run that ends in `RUN_ERROR` breaks no rule, so a report of violations
//! alone shows a producer that refused its input as "accept — no
//! violations". This log is kept beside the checker (it never judges a
//! rule) from the events it sees, and every report shows it.

use crate::input::{RUN_ID, THREAD_ID};
use serde_json::{Map, Value, json};
use std::fmt;

/// The run records kept in full; later runs are only counted (a long
/// capture of many runs stays in bounded memory).
pub const KEPT_RUNS: usize = 1000;

/// How one run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// `RUN_FINISHED` with a `success` outcome (or none); the
    /// `pendingToolCallIds` it named, if any.
    Finished { pending_tool_calls: Vec<String> },
    /// `RUN_FINISHED` with an `interrupt` outcome: its interrupts as sent.
    Interrupted { interrupts: Vec<Value> },
    /// `RUN_FINISHED` with a `cancelled` outcome.
    Cancelled,
    /// `RUN_ERROR`.
    Errored {
        message: String,
        code: Option<String>,
    },
    /// The input ended (or was cut) before the run's terminal event.
    Unterminated,
}

impl Outcome {
    /// The outcome's name in reports.
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Finished { .. } => "finished",
            Outcome::Interrupted { .. } => "interrupted",
            Outcome::Cancelled => "cancelled",
            Outcome::Errored { .. } => "errored",
            Outcome::Unterminated => "unterminated",
        }
    }

    /// The ids of an interrupt outcome's interrupts.
    pub fn interrupt_ids(&self) -> Vec<&str> {
        match self {
            Outcome::Interrupted { interrupts } => interrupts
                .iter()
                .filter_map(|i| i.get("id").and_then(agui_model::json::text))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// One run: where it started and ended, its ids and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// Index of its `RUN_STARTED` (or of its first event when it had none).
    pub start: usize,
    /// Index of its terminal event; the number of events when unterminated.
    pub end: usize,
    pub thread_id: Option<String>,
    pub run_id: Option<String>,
    pub outcome: Outcome,
}

impl RunRecord {
    /// The machine form (`runs` in `check --format json`).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("outcome".into(), json!(self.outcome.as_str()));
        m.insert("start".into(), json!(self.start));
        m.insert("end".into(), json!(self.end));
        if let Some(t) = &self.thread_id {
            m.insert(THREAD_ID.into(), json!(t));
        }
        if let Some(r) = &self.run_id {
            m.insert(RUN_ID.into(), json!(r));
        }
        match &self.outcome {
            Outcome::Errored { message, code } => {
                m.insert("message".into(), json!(message));
                if let Some(c) = code {
                    m.insert("code".into(), json!(c));
                }
            }
            Outcome::Interrupted { interrupts } => {
                m.insert("interrupts".into(), Value::Array(interrupts.clone()));
            }
            Outcome::Finished { pending_tool_calls } if !pending_tool_calls.is_empty() => {
                m.insert("pendingToolCallIds".into(), json!(pending_tool_calls));
            }
            _ => {}
        }
        Value::Object(m)
    }
}

impl fmt::Display for RunRecord {
    /// `run r1 (#0–#7): errored: model overloaded [code 503]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = self.run_id.as_deref().unwrap_or("(no id)");
        write!(
            f,
            "run {id} (#{}–#{}): {}",
            self.start,
            self.end,
            self.outcome.as_str()
        )?;
        match &self.outcome {
            Outcome::Errored { message, code } => {
                write!(f, ": {message}")?;
                if let Some(c) = code {
                    write!(f, " [code {c}]")?;
                }
            }
            Outcome::Interrupted { .. } => {
                write!(f, " ({})", self.outcome.interrupt_ids().join(", "))?
            }
            Outcome::Finished { pending_tool_calls } if !pending_tool_calls.is_empty() => {
                write!(f, " (pending tool calls {})", pending_tool_calls.join(", "))?
            }
            _ => {}
        }
        Ok(())
    }
}

/// The runs of one stream, fed event by event.
#[derive(Debug, Default, Clone)]
pub struct RunLog {
    runs: Vec<RunRecord>,
    open: Option<RunRecord>,
    /// Runs ended in all, kept or not, per outcome name.
    counts: [usize; 5],
}

fn slot(o: &Outcome) -> usize {
    match o {
        Outcome::Finished { .. } => 0,
        Outcome::Interrupted { .. } => 1,
        Outcome::Cancelled => 2,
        Outcome::Errored { .. } => 3,
        Outcome::Unterminated => 4,
    }
}

const NAMES: [&str; 5] = [
    "finished",
    "interrupted",
    "cancelled",
    "errored",
    "unterminated",
];

fn string(o: &Map<String, Value>, key: &str) -> Option<String> {
    o.get(key)
        .and_then(agui_model::json::text)
        .map(str::to_owned)
}

impl RunLog {
    pub fn new() -> Self {
        RunLog::default()
    }

    /// Sees event `index`. Run events shape the log; any other event opens
    /// a run when none is open (a stream that does not start with
    /// `RUN_STARTED`).
    pub fn observe(&mut self, index: usize, event: &Value) {
        let Some(o) = event.as_object() else {
            return;
        };
        match o.get("type").and_then(agui_model::json::text) {
            Some("RUN_STARTED") => {
                self.close(index, Outcome::Unterminated);
                self.open = Some(RunRecord {
                    start: index,
                    end: index,
                    thread_id: string(o, THREAD_ID),
                    run_id: string(o, RUN_ID),
                    outcome: Outcome::Unterminated,
                });
            }
            Some("RUN_FINISHED") => {
                let outcome = o.get("outcome").and_then(Value::as_object);
                let kind = outcome
                    .and_then(|oc| oc.get("type"))
                    .and_then(agui_model::json::text);
                let list = |key: &str| -> Vec<Value> {
                    match outcome.and_then(|oc| oc.get(key)) {
                        Some(Value::Array(a)) => a.clone(),
                        _ => Vec::new(),
                    }
                };
                let ended = match kind {
                    Some("interrupt") => Outcome::Interrupted {
                        interrupts: list("interrupts"),
                    },
                    Some("cancelled") => Outcome::Cancelled,
                    _ => Outcome::Finished {
                        pending_tool_calls: list("pendingToolCallIds")
                            .iter()
                            .filter_map(|v| agui_model::json::text(v).map(str::to_owned))
                            .collect(),
                    },
                };
                self.end(index, o, ended);
            }
            Some("RUN_ERROR") => {
                let ended = Outcome::Errored {
                    message: string(o, "message").unwrap_or_default(),
                    code: string(o, "code"),
                };
                self.end(index, o, ended);
            }
            _ => {
                if self.open.is_none() {
                    self.open = Some(RunRecord {
                        start: index,
                        end: index,
                        thread_id: None,
                        run_id: None,
                        outcome: Outcome::Unterminated,
                    });
                }
            }
        }
    }

    fn end(&mut self, index: usize, o: &Map<String, Value>, outcome: Outcome) {
        let mut run = self.open.take().unwrap_or(RunRecord {
            start: index,
            end: index,
            thread_id: None,
            run_id: None,
            outcome: Outcome::Unterminated,
        });
        run.thread_id = run.thread_id.or_else(|| string(o, THREAD_ID));
        run.run_id = run.run_id.or_else(|| string(o, RUN_ID));
        run.end = index;
        run.outcome = outcome;
        self.keep(run);
    }

    /// Ends the open run, if any, with `outcome` at `index`.
    fn close(&mut self, index: usize, outcome: Outcome) {
        if let Some(mut run) = self.open.take() {
            run.end = index;
            run.outcome = outcome;
            self.keep(run);
        }
    }

    fn keep(&mut self, run: RunRecord) {
        self.counts[slot(&run.outcome)] += 1;
        if self.runs.len() < KEPT_RUNS {
            self.runs.push(run);
        }
    }

    /// Ends the log at the end of input (`events` items): a run still open
    /// is unterminated.
    pub fn finish(&mut self, events: usize) {
        self.close(events, Outcome::Unterminated);
    }

    /// The runs kept, in stream order.
    pub fn runs(&self) -> &[RunRecord] {
        &self.runs
    }

    /// Runs ended in all (kept or not).
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }

    /// `(outcome, count)` for each outcome seen, in a fixed order.
    pub fn tally(&self) -> Vec<(&'static str, usize)> {
        NAMES
            .iter()
            .zip(self.counts)
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| (*name, n))
            .collect()
    }

    /// Whether a run is open (started, not yet ended).
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The runs that ended in `RUN_ERROR`.
    pub fn errors(&self) -> impl Iterator<Item = &RunRecord> {
        self.runs
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Errored { .. }))
    }

    /// The machine form: one object per run kept.
    pub fn to_json(&self) -> Value {
        Value::Array(self.runs.iter().map(RunRecord::to_json).collect())
    }

    /// One line for a text report: `runs: 2 finished, 1 errored`, then one
    /// line per run that did not simply finish (at most `shown`).
    pub fn render_text(&self, shown: usize) -> String {
        if self.total() == 0 {
            return "runs: none\n".to_owned();
        }
        let tally: Vec<String> = self
            .tally()
            .iter()
            .map(|(name, n)| format!("{n} {name}"))
            .collect();
        let mut out = format!("runs: {}\n", tally.join(", "));
        let notable = self
            .runs
            .iter()
            .filter(|r| !matches!(&r.outcome, Outcome::Finished { pending_tool_calls } if pending_tool_calls.is_empty()));
        for r in notable.take(shown) {
            out.push_str(&format!("  {r}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(events: &[Value]) -> RunLog {
        let mut l = RunLog::new();
        for (i, e) in events.iter().enumerate() {
            l.observe(i, e);
        }
        l.finish(events.len());
        l
    }

    #[test]
    fn each_terminal_event_gives_its_outcome() {
        let l = log(&[
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r2",
                   "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "approve"}]}}),
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r3"}),
            json!({"type": "RUN_ERROR", "message": "no user message", "code": "BAD_INPUT"}),
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r4"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m"}),
        ]);
        let outcomes: Vec<&str> = l.runs().iter().map(|r| r.outcome.as_str()).collect();
        assert_eq!(
            outcomes,
            ["finished", "interrupted", "errored", "unterminated"]
        );
        assert_eq!(l.runs()[1].outcome.interrupt_ids(), ["i1"]);
        assert_eq!(
            l.runs()[2].outcome,
            Outcome::Errored {
                message: "no user message".into(),
                code: Some("BAD_INPUT".into())
            }
        );
        assert_eq!((l.runs()[2].start, l.runs()[2].end), (4, 5));
        assert_eq!((l.runs()[3].start, l.runs()[3].end), (6, 8));
        assert_eq!(
            l.to_json()[2],
            json!({"outcome": "errored", "start": 4, "end": 5, "threadId": "t", "runId": "r3",
                   "message": "no user message", "code": "BAD_INPUT"})
        );
        assert_eq!(
            l.render_text(10).lines().next(),
            Some("runs: 1 finished, 1 interrupted, 1 errored, 1 unterminated")
        );
    }

    #[test]
    fn pending_tool_calls_are_kept() {
        let l = log(&[
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                   "outcome": {"type": "success", "pendingToolCallIds": ["c1"]}}),
        ]);
        assert_eq!(
            l.runs()[0].outcome,
            Outcome::Finished {
                pending_tool_calls: vec!["c1".into()]
            }
        );
        assert_eq!(
            l.runs()[0].to_string(),
            "run r (#0–#1): finished (pending tool calls c1)"
        );
    }

    #[test]
    fn a_lone_run_error_and_a_run_without_start_are_runs() {
        let l = log(&[json!({"type": "RUN_ERROR", "message": "down"})]);
        assert_eq!(l.runs()[0].outcome.as_str(), "errored");
        let l = log(&[
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                   "outcome": {"type": "cancelled"}}),
        ]);
        assert_eq!(l.runs()[0].outcome, Outcome::Cancelled);
        assert_eq!(l.runs()[0].run_id.as_deref(), Some("r"));
        assert_eq!(log(&[]).render_text(5), "runs: none\n");
    }
}
