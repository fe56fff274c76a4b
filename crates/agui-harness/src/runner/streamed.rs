//! A run that holds only what its end needs. Cases are made one at a time,
//! when a worker takes them (read from their file, or generated); each is
//! handed to a [`Sink`] once its answer is final (the JSON line, the run
//! record's line, with the stream of a case that did not pass), and then
//! only a summary of it is kept — no stream, no projection, no `explain`
//! ([`SuiteCase::summary`], [`CaseResult::lighten`]) — for the reports
//! written at the end. Memory follows the cases in flight, not the suite.

use super::{CaseResult, Held, MakeImpl, RunResult, on_workers, run_case, settle};
use crate::implementation::{ImplInfo, Implementation, Incident};
use crate::suite::{Planned, SuiteCase};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, Once};
use std::time::Instant;

/// Where a streamed run hands what it does.
pub trait Sink: Sync {
    /// The first implementation answered its handshake (once, before any
    /// case is handed on).
    fn started(&self, info: &ImplInfo) {
        let _ = info;
    }

    /// A case whose answer is final, whole (in the order they settle;
    /// [`CaseResult::case`] is its place in the plan).
    fn case(&self, r: &CaseResult, c: &SuiteCase);

    /// Case `index` of the plan could not be made (a problem of the suite).
    fn lost(&self, index: usize) {
        let _ = index;
    }
}

/// A finished streamed run: its results (lightened) and the summaries of
/// its cases, `run.results[k].case` indexing `cases`.
#[derive(Debug)]
pub struct Streamed {
    pub run: RunResult,
    pub cases: Vec<SuiteCase>,
}

/// A held case, without its stream when it can be made again (read from
/// its file, generated): a held case waits while the next one runs, and
/// two streams at once is what a run must not need. Its stream is made
/// again only if its outputs show it (it did not pass, or a second answer
/// made it ERRORED after all).
struct Waiting {
    case: SuiteCase,
    again: Option<Planned>,
}

impl std::borrow::Borrow<SuiteCase> for Waiting {
    fn borrow(&self) -> &SuiteCase {
        &self.case
    }
}

impl Waiting {
    fn new(case: SuiteCase, again: Option<Planned>) -> Waiting {
        match again {
            Some(again) => Waiting {
                case: case.without_stream(),
                again: Some(again),
            },
            None => Waiting { case, again: None },
        }
    }

    /// The case, whole again if its score now wants its stream.
    fn settled(self, r: &CaseResult) -> SuiteCase {
        match self.again {
            Some(again) if !r.scored.quiet() => again.materialize().unwrap_or(self.case),
            _ => self.case,
        }
    }
}

/// What one worker keeps.
#[derive(Default)]
struct Kept {
    held: Held<Waiting>,
    done: Vec<(CaseResult, SuiteCase)>,
    incidents: Vec<Incident>,
}

/// Runs the cases of `plan` on `jobs` implementations made by `make`, as
/// [`super::run_cases_parallel`] does, handing each settled case to `sink`.
/// A case that cannot be made is a problem of the run (and `sink.lost`).
pub fn run_plan(
    suite: &str,
    jobs: usize,
    make: &MakeImpl<'_>,
    plan: Vec<Planned>,
    mut problems: Vec<String>,
    sink: &dyn Sink,
) -> Streamed {
    let start = Instant::now();
    let slots: Vec<Mutex<Option<Planned>>> =
        plan.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let abort: Mutex<Option<String>> = Mutex::new(None);
    let lost: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let started = Once::new();
    let set_abort = |why: String| {
        stop.store(true, Ordering::Relaxed);
        if let Ok(mut a) = abort.lock() {
            a.get_or_insert(why);
        }
    };
    let hand_on = |kept: &mut Kept| {
        if let Some((mut r, w)) = kept.held.take() {
            let c = w.settled(&r);
            sink.case(&r, &c);
            r.lighten();
            kept.done.push((r, c.summary()));
        }
    };
    let work = |imp: &mut dyn Implementation, info: &ImplInfo| {
        started.call_once(|| sink.started(info));
        let mut kept = Kept::default();
        while !stop.load(Ordering::Relaxed) {
            if let Some(sig) = crate::subprocess::cleanup::interrupted() {
                set_abort(format!("interrupted by signal {sig}"));
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = slots.get(i) else { break };
            let Some(planned) = slot.lock().ok().and_then(|mut p| p.take()) else {
                continue;
            };
            // A problem names the file, as the corpus loader's do.
            let what = match &planned {
                Planned::File { path, .. } => path.display().to_string(),
                other => other.id(),
            };
            // Cheap to keep (a path, a seed): the case can be made again.
            let again = (!matches!(planned, Planned::Loaded(_))).then(|| planned.clone());
            let case = match planned.materialize() {
                Ok(c) => c,
                Err(e) => {
                    if let Ok(mut l) = lost.lock() {
                        l.push((i, format!("{what}: {e}")));
                    }
                    sink.lost(i);
                    continue;
                }
            };
            let r = run_case(imp, info, &case, i);
            // This case's stream goes before the previous one is made
            // again: one stream at a time.
            let waiting = Waiting::new(case, again);
            settle(imp, &mut kept.held, &mut kept.incidents);
            hand_on(&mut kept);
            kept.held = Some((r, waiting));
        }
        kept
    };
    // The last case of each worker is settled after its implementation
    // stopped: a second answer may come only then.
    let after_stop = |imp: &mut dyn Implementation, kept: &mut Kept| {
        settle(imp, &mut kept.held, &mut kept.incidents);
        hand_on(kept);
    };
    let pooled = on_workers(jobs, make, &set_abort, &work, &after_stop);
    let mut done: Vec<(CaseResult, SuiteCase)> = Vec::new();
    let mut incidents = pooled.incidents;
    for kept in pooled.outs {
        done.extend(kept.done);
        incidents.extend(kept.incidents);
    }
    done.sort_by_key(|(r, _)| r.case);
    let mut lost = lost.into_inner().unwrap_or_else(|e| e.into_inner());
    lost.sort();
    problems.extend(lost.into_iter().map(|(_, p)| p));
    problems.extend(super::case_problems(done.iter().map(|(r, c)| (r, c))));
    let (mut results, mut cases) = (Vec::with_capacity(done.len()), Vec::new());
    for (k, (mut r, c)) in done.into_iter().enumerate() {
        r.case = k;
        results.push(r);
        cases.push(c);
    }
    let aborted = abort.into_inner().unwrap_or_else(|e| e.into_inner());
    Streamed {
        run: RunResult {
            suite: suite.to_string(),
            implementation: pooled.info.unwrap_or_else(ImplInfo::not_started),
            results,
            incidents,
            problems,
            aborted,
            strict: false,
            elapsed: start.elapsed(),
        },
        cases,
    }
}
