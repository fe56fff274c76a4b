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
    pub elapsed: Duration,
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

    /// True when no case failed or errored.
    pub fn ok(&self) -> bool {
        self.results.iter().all(|r| !r.scored.score.is_bad())
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
    let outcome = if info.capabilities.schema_only && !case.expected.schema_decided() {
        Outcome::Skipped {
            reason: "schema-only implementation; the case is decided by stream rules".into(),
        }
    } else if let Some(lines) = &case.lines {
        if info.capabilities.raw_lines {
            imp.run_lines(&case.id, lines, case.expected.projection.is_some())
        } else {
            Outcome::Skipped {
                reason: "the case is raw JSON Lines text (a duplicate key or a lone surrogate, which a JSON value cannot carry) and the implementation does not declare `raw-lines`".into(),
            }
        }
    } else {
        imp.run_case_hinted(&case.id, &case.events, case.expected.projection.is_some())
    };
    let scored = score(&case.expected, &outcome, info.capabilities);
    CaseResult {
        case: index,
        outcome,
        scored,
        elapsed: t.elapsed(),
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
    }
    Ok(RunResult {
        suite: suite.to_string(),
        implementation: info,
        results,
        incidents: Vec::new(),
        problems,
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
/// finishes. With `jobs` ≤ 1 this is [`run_cases`] then [`finish`].
pub fn run_cases_parallel(
    suite: &str,
    jobs: usize,
    make: &MakeImpl<'_>,
    cases: &[SuiteCase],
    problems: Vec<String>,
    on_case: &(dyn Fn(&CaseResult, &SuiteCase) + Sync),
) -> anyhow::Result<RunResult> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let worker = || -> anyhow::Result<(ImplInfo, Vec<CaseResult>, Vec<Incident>)> {
        let mut imp = make()?;
        let info = imp.describe()?;
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(c) = cases.get(i) else { break };
            let r = run_case(&mut *imp, &info, c, i);
            on_case(&r, c);
            out.push(r);
        }
        Ok((info, out, imp.shutdown()))
    };
    let parts: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs.max(1)).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a worker panicked")))
            })
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    let mut implementation = None;
    let mut results = Vec::with_capacity(cases.len());
    let mut incidents = Vec::new();
    for (k, (info, rs, inc)) in parts.into_iter().enumerate() {
        implementation.get_or_insert(info);
        results.extend(rs);
        incidents.extend(inc.into_iter().map(|i| {
            if jobs > 1 {
                format!("worker {k}: {i}")
            } else {
                i
            }
        }));
    }
    results.sort_by_key(|r| r.case);
    let implementation = implementation.ok_or_else(|| anyhow::anyhow!("no worker ran"))?;
    Ok(RunResult {
        suite: suite.to_string(),
        implementation,
        results,
        incidents,
        problems,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::Reference;
    use crate::suite::Origin;
    use agui_model::Verdict;

    fn lines_case() -> SuiteCase {
        let lines = [
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
            r#"{"type":"CUSTOM","name":"a","name":"b","value":1}"#,
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
        ];
        SuiteCase {
            id: "schema/x".into(),
            description: String::new(),
            events: Vec::new(),
            lines: Some(lines.iter().map(|l| l.to_string()).collect()),
            expected: crate::Expected {
                verdict: Verdict::Accept,
                first: Some((RuleId::SchemaDuplicateKey, 1)),
                projection: None,
                all: None,
            },
            obligation: None,
            origin: Origin::Corpus {
                path: Default::default(),
            },
        }
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
