//! Persistent mode: one process answers many cases; it is restarted (and
//! `start` replayed) after any case it misbehaved on.

use super::process::{self, Line, Proc, Spawn};
use super::{Awaited, Timeouts, describe_exit, describe_silence};
use crate::implementation::{ImplInfo, Implementation, Incident, Instrumented, Sealed};
use crate::outcome::{Errored, Outcome};
use crate::protocol::{self, RunRequest, StartAnswer, StartRefused};
use serde_json::Value;
use std::time::{Duration, Instant};

/// After this many handshakes in a row fail, the remaining cases error at
/// once instead of each waiting for another failed start.
const MAX_START_FAILURES: u32 = 3;

/// An implementation behind the persistent protocol.
pub struct Persistent {
    spawn: Spawn,
    timeouts: Timeouts,
    proc: Option<Proc>,
    info: Option<ImplInfo>,
    seq: u64,
    start_failures: u32,
    starts: u32,
    buf: Vec<u8>,
    /// The last case answered well (id, seq): a late second answer of it is
    /// charged to it, not to the case that reads it.
    prev: Option<(String, u64)>,
    late: Vec<(String, String)>,
    /// The last answer's `explain` object.
    explain: Option<Value>,
    /// Nothing goes on past this ([`Instrumented::set_deadline`]).
    deadline: Option<Instant>,
    /// The last case was cut at the deadline.
    cut: bool,
}

/// A failed start: the reason and the stderr tail; `cut` when it was the
/// outside deadline that ended it.
struct StartFailure {
    reason: String,
    stderr: Option<String>,
    cut: bool,
}

/// The reason of a case (or start) cut at the outside deadline.
pub(crate) fn cut_reason(after: Duration) -> String {
    format!(
        "cut short: the time limit ran out after {} ms of waiting (not scored)",
        after.as_millis()
    )
}

impl Persistent {
    pub fn new(spawn: Spawn, timeouts: Timeouts) -> Self {
        Persistent {
            spawn,
            timeouts,
            proc: None,
            info: None,
            seq: 0,
            start_failures: 0,
            starts: 0,
            buf: Vec::new(),
            prev: None,
            late: Vec::new(),
            explain: None,
            deadline: None,
            cut: false,
        }
    }

    /// `now + limit`, or the outside deadline when it comes first (then
    /// also `true`).
    fn until(&self, limit: Duration) -> (Instant, bool) {
        let own = Instant::now() + limit;
        match self.deadline {
            Some(d) if d < own => (d, true),
            _ => (own, false),
        }
    }

    /// How many times a process was started (1 + restarts).
    pub fn starts(&self) -> u32 {
        self.starts
    }

    fn start(&mut self) -> Result<ImplInfo, StartFailure> {
        let (deadline, outside) = self.until(self.timeouts.start);
        if outside && deadline <= Instant::now() {
            return Err(StartFailure {
                reason: cut_reason(Duration::ZERO),
                stderr: None,
                cut: true,
            });
        }
        let mut proc = Proc::start(&self.spawn).map_err(|e| StartFailure {
            reason: format!("cannot start `{}`: {e}", self.spawn.program),
            stderr: None,
            cut: false,
        })?;
        proc.watch(self.timeouts.stop, true);
        self.starts += 1;
        let mut line = serde_json::to_vec(&protocol::start_request()).unwrap_or_default();
        line.push(b'\n');
        proc.send(&line);
        let sent = Instant::now();
        let got = proc.line(deadline);
        if outside && matches!(got, Err(process::Wait::Timeout)) {
            proc.kill();
            return Err(StartFailure {
                reason: cut_reason(sent.elapsed()),
                stderr: proc.stderr_tail(),
                cut: true,
            });
        }
        let answer = match got {
            Ok(Line::Text(l)) => serde_json::from_slice::<StartAnswer>(&l)
                .map_err(|e| {
                    format!(
                        "handshake answer is not a protocol message ({e}): {}",
                        protocol::snippet(&l)
                    )
                })
                .and_then(|a| {
                    a.into_info().map_err(|r| match r {
                        StartRefused::Version(m) | StartRefused::Malformed(m) => m,
                    })
                }),
            other => Err(format!(
                "no handshake answer: {}",
                describe_silence(
                    &mut proc,
                    other,
                    &self.spawn,
                    self.timeouts.start,
                    self.timeouts.stop,
                    Awaited::Answer,
                )
            )),
        };
        match answer {
            Ok(info) => {
                self.proc = Some(proc);
                Ok(info)
            }
            Err(reason) => {
                proc.kill();
                Err(StartFailure {
                    reason,
                    stderr: proc.stderr_tail(),
                    cut: false,
                })
            }
        }
    }

    /// Ends the process after a misbehaviour; the next case restarts it.
    fn fail(&mut self, reason: String) -> Outcome {
        let stderr_tail = self.proc.take().and_then(|mut p| {
            p.kill();
            p.stderr_tail()
        });
        Outcome::Errored(Errored {
            reason,
            stderr_tail,
            context: None,
        })
    }
}

impl Implementation for Persistent {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        if let Some(i) = &self.info {
            return Ok(i.clone());
        }
        match self.start() {
            Ok(info) => {
                self.info = Some(info.clone());
                Ok(info)
            }
            Err(f) => {
                let tail = f
                    .stderr
                    .map(|t| format!("\nstderr tail:\n{t}"))
                    .unwrap_or_default();
                anyhow::bail!("implementation failed to start: {}{tail}", f.reason)
            }
        }
    }

    fn run_case(&mut self, id: &str, events: &[Value]) -> Outcome {
        self.exchange(id, |seq, buf| {
            serde_json::to_writer(buf, &RunRequest::new(seq, id, events))
        })
    }

    fn run_lines(&mut self, id: &str, lines: &[String]) -> Outcome {
        self.exchange(id, |seq, buf| {
            serde_json::to_writer(buf, &RunRequest::lines(seq, id, lines))
        })
    }

    fn shutdown(&mut self) -> Vec<Incident> {
        self.stop()
    }

    fn instrumented(&mut self) -> Option<&mut dyn Instrumented> {
        Some(self)
    }
}

impl Sealed for Persistent {}

/// How one request went.
enum Asked {
    /// An answer (or an outcome of ours: cut at the deadline).
    Answered(Outcome),
    /// The process was gone before answering, having exited with status
    /// 0 (stdout closed, exited): perhaps between cases.
    Gone(String),
    /// Any other failure (a bad answer, silence): the process is killed.
    Failed(String),
}

impl Instrumented for Persistent {
    /// Read on demand (only for cases that did not pass): the share of
    /// stderr since the case was sent.
    fn case_stderr(&mut self) -> Option<String> {
        self.proc.as_mut().and_then(Proc::stderr_since_mark)
    }

    fn case_explain(&mut self) -> Option<Value> {
        self.explain.take()
    }

    fn late_errors(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.late)
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn take_cut(&mut self) -> bool {
        std::mem::take(&mut self.cut)
    }
}

impl Persistent {
    /// Starts the process when none runs; an outcome for the case when
    /// it cannot be.
    fn ensure_started(&mut self) -> Option<Outcome> {
        if self.proc.is_none() {
            if self.start_failures >= MAX_START_FAILURES {
                return Some(Outcome::errored(format!(
                    "not restarted: the handshake failed {MAX_START_FAILURES} times in a row"
                )));
            }
            match self.start() {
                Ok(info) => {
                    self.start_failures = 0;
                    self.info.get_or_insert(info);
                }
                Err(f) if f.cut => {
                    self.cut = true;
                    return Some(Outcome::errored(f.reason));
                }
                Err(f) => {
                    self.start_failures += 1;
                    return Some(Outcome::Errored(Errored {
                        reason: format!("restart failed: {}", f.reason),
                        stderr_tail: f.stderr,
                        context: None,
                    }));
                }
            }
        }
        None
    }

    /// Sends one `run` request for case `id` (written by `request` for a
    /// sequence number) and reads its answer, (re)starting the process
    /// first when needed.
    fn exchange(
        &mut self,
        id: &str,
        request: impl FnOnce(u64, &mut Vec<u8>) -> serde_json::Result<()>,
    ) -> Outcome {
        self.explain = None;
        self.cut = false;
        if let Some(o) = self.ensure_started() {
            return o;
        }
        self.seq += 1;
        let seq = self.seq;
        self.buf.clear();
        if let Err(e) = request(seq, &mut self.buf) {
            return Outcome::errored(format!("cannot encode the case: {e}"));
        }
        self.buf.push(b'\n');
        // The process answered the previous case: if it exited cleanly
        // before answering this one, it may have left between cases. The case
        // is then sent again to a fresh process, and the exit charged to
        // the case after which it happened.
        let retry = self.prev.clone().map(|(prev, _)| (prev, self.buf.clone()));
        match (self.ask(id, seq), retry) {
            (Asked::Gone(reason), Some((prev, again))) => {
                self.fail(reason.clone());
                self.prev = None;
                if let Some(o) = self.ensure_started() {
                    return o;
                }
                self.buf = again;
                match self.ask(id, seq) {
                    Asked::Answered(o) => {
                        self.late.push((
                            prev,
                            format!(
                                "the implementation exited after answering this case, before the next one ({reason}); it must keep running until `stop`"
                            ),
                        ));
                        o
                    }
                    Asked::Gone(r) | Asked::Failed(r) => self.fail(r),
                }
            }
            (Asked::Answered(o), _) => o,
            (Asked::Gone(r) | Asked::Failed(r), _) => self.fail(r),
        }
    }

    /// Sends the request in `self.buf` (case `id`, sequence number `seq`)
    /// and reads its answer.
    fn ask(&mut self, id: &str, seq: u64) -> Asked {
        let (deadline, outside) = self.until(self.timeouts.case);
        if outside && deadline <= Instant::now() {
            self.cut = true;
            return Asked::Answered(Outcome::errored(cut_reason(Duration::ZERO)));
        }
        let Some(proc) = self.proc.as_mut() else {
            return Asked::Answered(Outcome::errored("no process"));
        };
        proc.mark_stderr();
        proc.send_owned(std::mem::take(&mut self.buf));
        let sent = Instant::now();
        let mut gone = false;
        let answer = loop {
            match proc.line(deadline) {
                Ok(Line::Text(l)) => {
                    let stale = protocol::answer_seq(&l).and_then(|s| {
                        self.prev
                            .as_ref()
                            .filter(|(_, p)| *p == s && s < seq)
                            .map(|(id, _)| id.clone())
                    });
                    if let Some(prev) = stale {
                        self.late.push((
                            prev,
                            "answered twice: a second answer arrived after the next case was sent"
                                .into(),
                        ));
                        continue;
                    }
                    break protocol::parse_run_answer_explained(&l, seq);
                }
                Err(process::Wait::Timeout) if outside => {
                    self.cut = true;
                    break Err(cut_reason(sent.elapsed()));
                }
                other => {
                    gone = matches!(
                        other,
                        Ok(Line::Eof)
                            | Err(process::Wait::Closed | process::Wait::Exited(_))
                            | Err(process::Wait::StdinClosed { .. })
                    );
                    break Err(describe_silence(
                        proc,
                        other,
                        &self.spawn,
                        self.timeouts.case,
                        self.timeouts.stop,
                        Awaited::Answer,
                    ));
                }
            }
        };
        let answer = answer.and_then(|o| match proc.line_now() {
            Some(extra) => Err(format!(
                "answered twice: another line followed the answer: {}",
                protocol::snippet(&extra)
            )),
            None => Ok(o),
        });
        match answer {
            Ok((o, explain)) => {
                self.prev = Some((id.to_string(), seq));
                self.explain = explain;
                Asked::Answered(o)
            }
            // Exited cleanly (status 0) without answering: it may have
            // left after the previous case. A crash is this case's.
            Err(reason)
                if gone
                    && proc
                        .wait_until(Instant::now() + self.timeouts.stop)
                        .is_some_and(|s| s.success()) =>
            {
                Asked::Gone(reason)
            }
            Err(reason) => {
                self.prev = None;
                Asked::Failed(reason)
            }
        }
    }

    fn stop(&mut self) -> Vec<Incident> {
        let mut incidents = Vec::new();
        if self.starts > 1 {
            let n = self.starts - 1;
            let s = if n == 1 { "" } else { "s" };
            incidents.push(format!("the implementation was restarted {n} time{s}"));
        }
        if let Some(mut p) = self.proc.take() {
            let mut line = serde_json::to_vec(&protocol::stop_request()).unwrap_or_default();
            line.push(b'\n');
            p.send(&line);
            p.close_stdin();
            let deadline = Instant::now() + self.timeouts.stop;
            // A line after stop: a second answer to the last case is that
            // case's error (anything else is ignored: no answer is due).
            while let Ok(Line::Text(l)) = p.line(deadline) {
                let seq = protocol::answer_seq(&l);
                if let Some((id, prev)) = &self.prev
                    && seq == Some(*prev)
                {
                    self.late.push((
                        id.clone(),
                        "answered twice: a second answer arrived after stop was sent".into(),
                    ));
                }
            }
            match p.wait_until(deadline) {
                Some(s) if s.success() => {}
                Some(s) => incidents.push(format!(
                    "after stop the implementation ended with {}",
                    describe_exit(Some(s))
                )),
                None => {
                    p.kill();
                    incidents.push(format!(
                        "the implementation ignored stop; killed after {} ms",
                        self.timeouts.stop.as_millis()
                    ));
                }
            }
            // Whatever it started dies with it (its process group).
            p.kill();
        }
        incidents
    }
}

impl Drop for Persistent {
    fn drop(&mut self) {
        if let Some(mut p) = self.proc.take() {
            p.kill();
        }
    }
}
