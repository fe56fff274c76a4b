//! Runs cases through an implementation and scores each answer.
//!
//! One answer per case: a case is handed on (`on_case`, a sink) only once
//! its answer is final. A second answer to it can arrive while the next
//! case runs, or while the implementation stops, so each case is held
//! until then ([`settle`]): what a sink is shown and what the summary
//! counts always agree.

pub mod streamed;

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
    /// The projection diff for people (expected against reported), kept
    /// when the projections themselves are dropped ([`CaseResult::lighten`]).
    pub projection_diff: Option<String>,
}

impl CaseResult {
    /// Drops what only the case's own outputs needed (a reported
    /// projection, the projections of a mismatch — their diff is kept —,
    /// the adapter's `explain`), once those are written: a run keeps a
    /// summary of each case, not its answer.
    pub fn lighten(&mut self) {
        if let Outcome::Accept {
            projection: Some(p),
        } = &mut self.outcome
        {
            // Still "with projection" in a report, without its size.
            *p = serde_json::Value::Null;
        }
        if let Some((want, got)) = self.scored.projection_mismatch.take() {
            self.projection_diff = Some(json_diff(&want, &got, 30));
        }
        self.explain = None;
    }
}

/// A compact unified diff of two JSON values (pretty-printed), cut to
/// `max_lines`: the corpus's [`agui_corpus::reference::json_diff`] with the
/// report's headers (kept by a case's result, shown by the reports).
pub fn json_diff(
    expected: &serde_json::Value,
    got: &serde_json::Value,
    max_lines: usize,
) -> String {
    let text = agui_corpus::reference::json_diff(expected, got, ("expected", "reported"), 1);
    let mut lines: Vec<&str> = text.lines().collect();
    let cut = lines.len() > max_lines;
    lines.truncate(max_lines);
    let mut out = lines.join("\n");
    if cut {
        out.push_str("\n… (diff cut)");
    }
    out
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
            return Some(format!(
                "the suite has {n} problem{s} (cases lost or not judged)"
            ));
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
    let projection_scored = case.expected.projection.is_some()
        || case
            .expected
            .official
            .as_ref()
            .is_some_and(agui_corpus::Official::expects_projection);
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
        projection_diff: None,
    }
}

/// A case whose answer may not be final yet: a second answer to it can
/// still arrive (while the next case runs, or at stop).
pub(crate) type Held<C> = Option<(CaseResult, C)>;

/// Charges late-found misbehaviour (a second answer) to the held case it
/// names, which is then ERRORED; one that names an earlier case, already
/// handed on, becomes an incident of the run.
pub(crate) fn settle<C: std::borrow::Borrow<SuiteCase>>(
    imp: &mut dyn Implementation,
    held: &mut Held<C>,
    incidents: &mut Vec<Incident>,
) {
    let late = imp.instrumented().map(|x| x.late_errors());
    for (id, reason) in late.into_iter().flatten() {
        match held {
            Some((r, c)) if c.borrow().id == id => {
                r.outcome = Outcome::errored(reason);
                r.scored = score(
                    &c.borrow().expected,
                    &r.outcome,
                    crate::implementation::Capabilities::default(),
                );
                r.explain = None;
            }
            _ => incidents.push(format!(
                "case `{id}`: {reason} (its answer was already reported)"
            )),
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
    let mut incidents = Vec::new();
    let mut held: Held<&SuiteCase> = None;
    for (i, c) in cases.iter().enumerate() {
        let r = run_case(imp, &info, c, i);
        settle(imp, &mut held, &mut incidents);
        if let Some((r, c)) = held.replace((r, c)) {
            on_case(&r, c);
            results.push(r);
        }
    }
    // The last case: a second answer that comes only at stop is [`finish`]'s.
    settle(imp, &mut held, &mut incidents);
    if let Some((r, c)) = held {
        on_case(&r, c);
        results.push(r);
    }
    let mut problems = problems;
    problems.extend(case_problems(results.iter().map(|r| (r, &cases[r.case]))));
    Ok(RunResult {
        suite: suite.to_string(),
        implementation: info,
        results,
        incidents,
        problems,
        aborted: None,
        strict: false,
        elapsed: start.elapsed(),
    })
}

/// The cases an answer could not be judged on (docs/rules.md "Scoring a
/// consumer", revision 3: "a harness scores a named rule it cannot judge
/// as a problem of the case"), as problems of the run: like a case that
/// does not load, they leave the run incomplete.
pub(crate) fn case_problems<'a>(
    results: impl Iterator<Item = (&'a CaseResult, &'a SuiteCase)>,
) -> Vec<String> {
    results
        .filter_map(|(r, c)| {
            let why = r.scored.case_problem.as_deref()?;
            Some(format!("case `{}`: {why}", c.id))
        })
        .collect()
}

/// Stops the implementation and records what went wrong on the way out
/// (also a second answer to the last case that came only at stop).
pub fn finish(run: &mut RunResult, imp: &mut dyn Implementation) {
    run.incidents.extend(imp.shutdown());
    let mut none: Held<SuiteCase> = None;
    settle(imp, &mut none, &mut run.incidents);
}

/// Makes one implementation (one process, for a subprocess) per worker.
pub type MakeImpl<'a> = dyn Fn() -> anyhow::Result<Box<dyn Implementation + Send>> + Sync + 'a;

/// Runs the cases on `jobs` implementations at once, each made by `make`,
/// and stops them all. Results are in case order, whole; `on_case` sees
/// each as it is settled. A worker whose implementation cannot be made or
/// started aborts the run ([`RunResult::aborted`]; the other workers stop
/// taking cases), and so does a signal ([`crate::subprocess::cleanup`]):
/// what ran is kept. [`streamed::run_plan`] is the same without holding
/// the cases or their answers.
pub fn run_cases_parallel(
    suite: &str,
    jobs: usize,
    make: &MakeImpl<'_>,
    cases: &[SuiteCase],
    problems: Vec<String>,
    on_case: &(dyn Fn(&CaseResult, &SuiteCase) + Sync),
) -> RunResult {
    use std::sync::Mutex;
    struct Whole<'a> {
        on_case: &'a (dyn Fn(&CaseResult, &SuiteCase) + Sync),
        results: Mutex<Vec<CaseResult>>,
    }
    impl streamed::Sink for Whole<'_> {
        fn case(&self, r: &CaseResult, c: &SuiteCase) {
            (self.on_case)(r, c);
            if let Ok(mut all) = self.results.lock() {
                all.push(r.clone());
            }
        }
    }
    let sink = Whole {
        on_case,
        results: Mutex::new(Vec::new()),
    };
    let plan = cases
        .iter()
        .cloned()
        .map(crate::suite::Planned::Loaded)
        .collect();
    let mut streamed = streamed::run_plan(suite, jobs, make, plan, problems, &sink);
    let mut results = sink.results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|r| r.case);
    streamed.run.results = results;
    streamed.run
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
    after_stop: &(dyn Fn(&mut dyn Implementation, &mut T) + Sync),
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
        let mut out = work(&mut *imp, &info);
        let incidents = imp.shutdown();
        after_stop(&mut *imp, &mut out);
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
