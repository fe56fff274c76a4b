//! One-shot mode: one process per case; the events go to stdin as JSON
//! Lines, stdin is closed, and the one result line is read from stdout.

use super::process::{Line, Proc, Spawn, Wait};
use super::{Timeouts, describe_exit};
use crate::implementation::{ImplInfo, Implementation};
use crate::outcome::{Errored, Outcome};
use crate::protocol;
use serde_json::Value;
use std::time::Instant;

/// An implementation run once per case. There is no handshake: its name and
/// capabilities are given by the caller.
pub struct OneShot {
    spawn: Spawn,
    timeouts: Timeouts,
    info: ImplInfo,
    last_stderr: Option<String>,
    last_explain: Option<Value>,
}

impl OneShot {
    pub fn new(spawn: Spawn, timeouts: Timeouts, info: ImplInfo) -> Self {
        OneShot {
            spawn,
            timeouts,
            info,
            last_stderr: None,
            last_explain: None,
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
        self.answer(&input)
    }

    /// The lines go to stdin as they are.
    fn run_lines(&mut self, _id: &str, lines: &[String], _projection_scored: bool) -> Outcome {
        self.answer(agui_corpus::case::join_lines(lines).as_bytes())
    }

    fn case_stderr(&mut self) -> Option<String> {
        self.last_stderr.take()
    }

    fn case_explain(&mut self) -> Option<Value> {
        self.last_explain.take()
    }
}

impl OneShot {
    /// Runs the process on one stream and reads its result line.
    fn answer(&mut self, input: &[u8]) -> Outcome {
        self.last_stderr = None;
        self.last_explain = None;
        let mut proc = match Proc::start(&self.spawn) {
            Ok(p) => p,
            Err(e) => {
                return Outcome::errored(format!("cannot start `{}`: {e}", self.spawn.program));
            }
        };
        proc.send(input);
        proc.close_stdin();
        let outcome = match proc.line(Instant::now() + self.timeouts.case) {
            Ok(Line::Text(l)) => match protocol::parse_result_line_explained(&l) {
                Ok((o, explain)) => {
                    self.last_explain = explain;
                    o
                }
                Err(reason) => return fail(&mut proc, reason),
            },
            Ok(Line::TooLong(n)) => {
                return fail(
                    &mut proc,
                    format!(
                        "stdout line longer than {} bytes (flood; {n} bytes read)",
                        self.spawn.max_line
                    ),
                );
            }
            Ok(Line::Failed(e)) => return fail(&mut proc, format!("reading stdout failed: {e}")),
            Ok(Line::Eof) | Err(Wait::Closed) => {
                // A process that closed stdout is usually exiting: its
                // status is awaited for up to the stop grace.
                let status = proc.wait_until(Instant::now() + self.timeouts.stop);
                return fail(
                    &mut proc,
                    format!("the process printed no result ({})", describe_exit(status)),
                );
            }
            Err(Wait::Timeout) => {
                let reason = match proc.exited() {
                    Some(s) => format!(
                        "the process exited ({}) without a result; a process it started kept stdout open",
                        describe_exit(Some(s))
                    ),
                    None => format!(
                        "no answer within {} ms (hang)",
                        self.timeouts.case.as_millis()
                    ),
                };
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
