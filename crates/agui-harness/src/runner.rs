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
