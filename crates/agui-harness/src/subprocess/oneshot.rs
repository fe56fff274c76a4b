//! One-shot mode: one process per case; the events go to stdin as JSON
//! Lines, stdin is closed, and the one result line is read from stdout.

use super::persistent::cut_reason;
use super::process::{Line, Proc, Spawn, Wait};
use super::{Awaited, Timeouts, describe_silence};
use crate::implementation::{ImplInfo, Implementation, Instrumented, Sealed};
use crate::outcome::{Errored, Outcome};
use crate::protocol;
use serde_json::Value;
use std::time::{Duration, Instant};

/// An implementation run once per case. There is no handshake: its name and
/// capabilities are given by the caller.
pub struct OneShot {
    spawn: Spawn,
    timeouts: Timeouts,
    info: ImplInfo,
    last_stderr: Option<String>,
    last_explain: Option<Value>,
    /// Nothing goes on past this ([`Instrumented::set_deadline`]).
    deadline: Option<Instant>,
    /// The last case was cut at the deadline.
    cut: bool,
}

impl OneShot {
    pub fn new(spawn: Spawn, timeouts: Timeouts, info: ImplInfo) -> Self {
        OneShot {
            spawn,
            timeouts,
            info,
            last_stderr: None,
            last_explain: None,
            deadline: None,
            cut: false,
        }
    }
}

fn fail(proc: &mut Proc, reason: String) -> Outcome {
    proc.kill();
    Outcome::Errored(Errored {
        reason,
        stderr_tail: proc.stderr_tail(),
        context: None,
    })
}

impl Implementation for OneShot {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        Ok(self.info.clone())
    }

    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        let mut input = Vec::new();
        for e in events {
            if serde_json::to_writer(&mut input, e).is_err() {
                return Outcome::errored("cannot encode the case");
            }
            input.push(b'\n');
        }
        self.answer(input)
    }

    /// The lines go to stdin as they are.
    fn run_lines(&mut self, _id: &str, lines: &[String]) -> Outcome {
        self.answer(agui_corpus::case::join_lines(lines).into_bytes())
    }

    fn instrumented(&mut self) -> Option<&mut dyn Instrumented> {
        Some(self)
    }
}

impl Sealed for OneShot {}

impl Instrumented for OneShot {
    fn case_stderr(&mut self) -> Option<String> {
        self.last_stderr.take()
    }

    fn case_explain(&mut self) -> Option<Value> {
        self.last_explain.take()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn take_cut(&mut self) -> bool {
        std::mem::take(&mut self.cut)
    }
}

impl OneShot {
    /// Runs the process on one stream and reads its result line.
    fn answer(&mut self, input: Vec<u8>) -> Outcome {
        self.last_stderr = None;
        self.last_explain = None;
        self.cut = false;
        let own = Instant::now() + self.timeouts.case;
        let (deadline, outside) = match self.deadline {
            Some(d) if d < own => (d, true),
            _ => (own, false),
        };
        if outside && deadline <= Instant::now() {
            self.cut = true;
            return Outcome::errored(cut_reason(Duration::ZERO));
        }
        let mut proc = match Proc::start(&self.spawn) {
            Ok(p) => p,
            Err(e) => {
                return Outcome::errored(format!("cannot start `{}`: {e}", self.spawn.program));
            }
        };
        proc.watch(self.timeouts.stop, false);
        proc.send_owned(input);
        proc.close_stdin();
        let sent = Instant::now();
        let outcome = match proc.line(deadline) {
            Ok(Line::Text(l)) => match protocol::parse_result_line_explained(&l) {
                Ok((o, explain)) => {
                    self.last_explain = explain;
                    o
                }
                Err(reason) => return fail(&mut proc, reason),
            },
            Err(Wait::Timeout) if outside => {
                self.cut = true;
                return fail(&mut proc, cut_reason(sent.elapsed()));
            }
            other => {
                let reason = describe_silence(
                    &mut proc,
                    other,
                    &self.spawn,
                    self.timeouts.case,
                    self.timeouts.stop,
                    Awaited::Result,
                );
                return fail(&mut proc, reason);
            }
        };
        // The answer counts; a process that lingers after it is killed,
        // and so is whatever it started (its process group), in any case.
        proc.wait_until(Instant::now() + self.timeouts.stop);
        proc.kill();
        self.last_stderr = proc.stderr_tail();
        outcome
    }
}
