//! Runs cases through an implementation and scores each answer.

use crate::implementation::{ImplInfo, Implementation, Incident};
use crate::outcome::Outcome;
use crate::score::{Naming, Score, Scored, score};
use crate::suite::SuiteCase;
use agui_model::RuleId;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One case's answer and score.
#[derive(Debug, Clone)]
pub struct CaseResult {
    /// Index into the cases the run was given.
    pub case: usize,
    pub outcome: Outcome,
    pub scored: Scored,
    pub elapsed: Duration,
    /// What the implementation wrote to stderr while answering, for a case
    /// that did not pass (an ERRORED outcome carries its own tail).
    pub stderr: Option<String>,
    /// The answer's `explain` object (suites/PROTOCOL.md), when it had one.
    pub explain: Option<serde_json::Value>,
}

/// Counts per score (and rule naming) for one row of the summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub counts: [u64; 6],
    pub named_right: u64,
    pub named_wrong: u64,
}

impl Tally {
    pub fn add(&mut self, s: &Scored) {
        self.counts[s.score as usize] += 1;
        match s.naming {
            Some(Naming::Right) => self.named_right += 1,
            Some(Naming::Wrong) => self.named_wrong += 1,
            _ => {}
        }
    }

    pub fn get(&self, s: Score) -> u64 {
        self.counts[s as usize]
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// A whole run.
#[derive(Debug, Clone)]
pub struct RunResult {
    pub suite: String,
    pub implementation: ImplInfo,
    pub results: Vec<CaseResult>,
    /// Things that went wrong outside any case (stop ignored, restarts).
    pub incidents: Vec<Incident>,
    /// Problems loading the suite (unreadable case files, …).
    pub problems: Vec<String>,
    /// Why the run stopped before its cases were all run (the
    /// implementation did not start, a signal), if it did.
    pub aborted: Option<String>,
    /// WARN fails the run (`--strict`).
    pub strict: bool,
    pub elapsed: Duration,
}

/// How a run ended, in the order of precedence of the exit statuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// Every case ran; none FAILED or ERRORED (nor WARNed, with `strict`).
    Passed,
    /// Some case FAILED or ERRORED (or WARNed, with `strict`).
    Failed,
    /// The run cannot vouch for the implementation: it aborted, no case
    /// ran, or the suite lost cases (a problem loading it).
    Incomplete,
}

impl RunStatus {
    /// The documented exit status of `agui-conform run` (suites/README.md).
    pub fn exit_code(self) -> u8 {
        match self {
            RunStatus::Passed => 0,
            RunStatus::Failed => 1,
            RunStatus::Incomplete => 3,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Passed => "passed",
            RunStatus::Failed => "failed",
            RunStatus::Incomplete => "incomplete",
        }
    }
}

impl RunResult {
    pub fn total(&self) -> Tally {
        let mut t = Tally::default();
        for r in &self.results {
            t.add(&r.scored);
        }
        t
    }

    /// The per-rule table: keyed by the case's first violation rule, or its
    /// `accept.*` obligation; `None` is valid cases with neither.
    pub fn per_rule(&self, cases: &[SuiteCase]) -> BTreeMap<Option<RuleId>, Tally> {
        let mut m: BTreeMap<Option<RuleId>, Tally> = BTreeMap::new();
        for r in &self.results {
            m.entry(cases[r.case].rule_key())
                .or_default()
                .add(&r.scored);
        }
        m
    }

    /// True when the run passed (see [`RunStatus`]).
    pub fn ok(&self) -> bool {
        self.status() == RunStatus::Passed
    }

    /// Whether a score fails this run (WARN only with `strict`).
    pub fn fails(&self, s: Score) -> bool {
        s.is_bad() || (self.strict && s == Score::Warn)
    }

    pub fn status(&self) -> RunStatus {
        if self.incomplete().is_some() {
            RunStatus::Incomplete
        } else if self.results.iter().any(|r| self.fails(r.scored.score)) {
            RunStatus::Failed
        } else {
            RunStatus::Passed
        }
    }

    /// Why the run is incomplete, in one sentence, if it is.
    pub fn incomplete(&self) -> Option<String> {
        if let Some(a) = &self.aborted {
            return Some(format!("the run aborted: {a}"));
        }
        if !self.problems.is_empty() {
            let n = self.problems.len();
            let s = if n == 1 { "" } else { "s" };
            return Some(format!("the suite has {n} problem{s} (cases lost)"));
        }
        if self.results.is_empty() {
            return Some("no case ran".into());
        }
        None
    }
}

/// Runs and scores one case. A schema-only implementation is not asked
/// about cases the schema rules alone do not decide (SKIPPED).
pub fn run_case(
    imp: &mut dyn Implementation,
    info: &ImplInfo,
    case: &SuiteCase,
    index: usize,
) -> CaseResult {
    let t = Instant::now();
    let projection_scored = case.expected.projection.is_some();
    let outcome = if info.capabilities.schema_only && !case.expected.schema_decided() {
        Outcome::Skipped {
            reason: "schema-only implementation; the case is decided by stream rules".into(),
        }
    } else if let Some(lines) = &case.lines {
        if info.capabilities.raw_lines {
            match imp.instrumented() {
                Some(x) => x.run_lines_hinted(&case.id, lines, projection_scored),
                None => imp.run_lines(&case.id, lines),
            }
        } else {
            Outcome::Skipped {
                reason: "the case is raw JSON Lines text (a duplicate key or a lone surrogate, which a JSON value cannot carry) and the implementation does not declare `raw-lines`".into(),
            }
        }
    } else {
        match imp.instrumented() {
            Some(x) => x.run_case_hinted(&case.id, &case.events, projection_scored),
            None => imp.run_case(&case.id, &case.events),
        }
    };
    let scored = score(&case.expected, &outcome, info.capabilities);
    let (stderr, explain) = match imp.instrumented() {
        Some(x) => {
            let failed = scored.score != Score::Pass && !matches!(outcome, Outcome::Errored(_));
            (x.case_stderr().filter(|_| failed), x.case_explain())
        }
        None => (None, None),
    };
    CaseResult {
        case: index,
        outcome,
        scored,
        elapsed: t.elapsed(),
        stderr,
        explain,
    }
}

/// Charges late-found misbehaviour (a second answer) to the case that
/// caused it, among the results this implementation produced.
fn charge_late(imp: &mut dyn Implementation, cases: &[SuiteCase], out: &mut [CaseResult]) {
    let late = imp.instrumented().map(|x| x.late_errors());
    for (id, reason) in late.into_iter().flatten() {
        if let Some(r) = out.iter_mut().rev().find(|r| cases[r.case].id == id) {
            r.outcome = Outcome::errored(reason.clone());
            r.scored = score(
                &cases[r.case].expected,
                &r.outcome,
                crate::implementation::Capabilities::default(),
            );
        }
    }
}

/// Runs every case in order; `on_case` sees each result as it comes
/// (progress bars, streaming output). The implementation is left running
/// (failures may be shrunk with it); call [`finish`] to stop it.
pub fn run_cases(
    suite: &str,
    imp: &mut dyn Implementation,
    cases: &[SuiteCase],
    problems: Vec<String>,
    mut on_case: impl FnMut(&CaseResult, &SuiteCase),
) -> anyhow::Result<RunResult> {
    let start = Instant::now();
    let info = imp.describe()?;
    let mut results = Vec::with_capacity(cases.len());
    for (i, c) in cases.iter().enumerate() {
        let r = run_case(imp, &info, c, i);
        on_case(&r, c);
        results.push(r);
        charge_late(imp, cases, &mut results);
    }
    Ok(RunResult {
        suite: suite.to_string(),
        implementation: info,
        results,
        incidents: Vec::new(),
        problems,
        aborted: None,
        strict: false,
        elapsed: start.elapsed(),
    })
}

/// Stops the implementation and records what went wrong on the way out.
pub fn finish(run: &mut RunResult, imp: &mut dyn Implementation) {
    run.incidents.extend(imp.shutdown());
}

/// Makes one implementation (one process, for a subprocess) per worker.
pub type MakeImpl<'a> = dyn Fn() -> anyhow::Result<Box<dyn Implementation + Send>> + Sync + 'a;

/// Runs the cases on `jobs` implementations at once, each made by `make`,
/// and stops them all. Results are in case order; `on_case` sees each as it
/// finishes. A worker whose implementation cannot be made or started aborts
/// the run ([`RunResult::aborted`]; the other workers stop taking cases),
/// and so does a signal ([`crate::subprocess::cleanup`]): what ran is kept.
pub fn run_cases_parallel(
    suite: &str,
    jobs: usize,
    make: &MakeImpl<'_>,
    cases: &[SuiteCase],
    problems: Vec<String>,
    on_case: &(dyn Fn(&CaseResult, &SuiteCase) + Sync),
) -> RunResult {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let abort: Mutex<Option<String>> = Mutex::new(None);
    let set_abort = |why: String| {
        stop.store(true, Ordering::Relaxed);
        if let Ok(mut a) = abort.lock() {
            a.get_or_insert(why);
        }
    };
    let pooled = on_workers(jobs, make, &set_abort, &|imp, info| {
        let mut out = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            if let Some(sig) = crate::subprocess::cleanup::interrupted() {
                set_abort(format!("interrupted by signal {sig}"));
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = cases.get(i) else { break };
            let r = run_case(imp, info, c, i);
            on_case(&r, c);
            out.push(r);
            charge_late(imp, cases, &mut out);
        }
        out
    });
    let mut results: Vec<CaseResult> = pooled.outs.into_iter().flatten().collect();
    results.sort_by_key(|r| r.case);
    let aborted = abort.into_inner().unwrap_or_else(|e| e.into_inner());
    RunResult {
        suite: suite.to_string(),
        implementation: pooled.info.unwrap_or_else(ImplInfo::not_started),
        results,
        incidents: pooled.incidents,
        problems,
        aborted,
        strict: false,
        elapsed: start.elapsed(),
    }
}

/// What the workers of [`on_workers`] end with: the first started
/// implementation's info (`None` when none started), each worker's output,
/// and every incident (labelled by worker when there are several).
pub(crate) struct Pooled<T> {
    pub info: Option<ImplInfo>,
    pub outs: Vec<T>,
    pub incidents: Vec<Incident>,
}

/// Runs `jobs` workers at once, each on its own implementation made by
/// `make` and started (`describe`), doing `work` with it, then stopping it.
/// A worker whose implementation cannot be made or started, or that
/// panics, calls `abort` (the run's or the campaign's).
pub(crate) fn on_workers<T: Default + Send>(
    jobs: usize,
    make: &MakeImpl<'_>,
    abort: &(dyn Fn(String) + Sync),
    work: &(dyn Fn(&mut dyn Implementation, &ImplInfo) -> T + Sync),
) -> Pooled<T> {
    let worker = || -> (Option<ImplInfo>, T, Vec<Incident>) {
        let mut imp = match make() {
            Ok(i) => i,
            Err(e) => {
                abort(format!("{e:#}"));
                return (None, T::default(), Vec::new());
            }
        };
        let info = match imp.describe() {
            Ok(i) => i,
            Err(e) => {
                abort(format!("{e:#}"));
                return (None, T::default(), imp.shutdown());
            }
        };
        let out = work(&mut *imp, &info);
        let incidents = imp.shutdown();
        (Some(info), out, incidents)
    };
    let jobs = jobs.max(1);
    let parts: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    abort("a worker panicked".into());
                    (None, T::default(), Vec::new())
                })
            })
            .collect()
    });
    let mut pooled = Pooled {
        info: None,
        outs: Vec::with_capacity(jobs),
        incidents: Vec::new(),
    };
    for (k, (info, out, incidents)) in parts.into_iter().enumerate() {
        if let Some(i) = info {
            pooled.info.get_or_insert(i);
        }
        pooled.outs.push(out);
        pooled.incidents.extend(incidents.into_iter().map(|i| {
            if jobs > 1 {
                format!("worker {k}: {i}")
            } else {
                i
            }
        }));
    }
    pooled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::Reference;

    /// The corpus's raw-lines case `schema/duplicate-key` (accepted, with a
    /// warning), its projection dropped so that none is scored.
    fn lines_case() -> SuiteCase {
        let file = agui_assets::get("corpus/schema/duplicate-key.json").unwrap();
        let case: agui_corpus::Case = serde_json::from_slice(file.bytes).unwrap();
        let mut c = SuiteCase::from_corpus(case, Default::default()).unwrap();
        assert!(c.lines.is_some());
        c.expected.projection = None;
        c
    }

    #[test]
    fn raw_lines_go_only_to_implementations_that_take_them() {
        let case = lines_case();
        let mut imp = Reference::default();
        let mut info = Reference::info();
        let r = run_case(&mut imp, &info, &case, 0);
        assert_eq!(r.outcome, Outcome::Accept { projection: None });
        assert_eq!(r.scored.score, Score::Info);
        info.capabilities.raw_lines = false;
        let r = run_case(&mut imp, &info, &case, 0);
        match &r.outcome {
            Outcome::Skipped { reason } => assert!(reason.contains("raw-lines"), "{reason}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(r.scored.score, Score::Skipped);
    }
}
