//! Fuzzing campaigns (`agui-conform fuzz`, and [`property`] for a Rust
//! implementation's own tests): an endless supply of generated streams —
//! each with its answer known by construction — scored exactly as `run`
//! scores a case, every failure shrunk and each distinct one (rule and
//! score) kept, and saved as a corpus case when asked.
//!
//! A case is fixed by the campaign seed and its number ([`draw`]), so
//! `--seed` with `--cases` reproduces a campaign whatever the number of
//! workers: the finding kept for a signature is the lowest-numbered case.

pub mod draw;
pub mod minimize;
pub mod property;
pub mod summary;

pub use draw::{Mix, Recipe};
pub use minimize::{Shrunk, Signature};

use crate::implementation::{ImplInfo, Implementation, Incident};
use crate::outcome::Outcome;
use crate::runner::{MakeImpl, RunStatus, Tally, on_workers, run_case};
use crate::score::{Score, Scored};
use crate::suite::SuiteCase;
use agui_model::RuleId;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a campaign runs.
#[derive(Debug, Clone)]
pub struct Plan {
    pub seed: u64,
    /// Stop after this many cases (`None`: no limit).
    pub cases: Option<u64>,
    /// Stop after this long (`None`: no limit). Neither: until a signal.
    pub time: Option<Duration>,
    pub mix: Mix,
    /// Invalid streams break one of these (all violation rules if empty).
    pub rules: Vec<RuleId>,
    /// Save each distinct failure here (corpus format).
    pub save: Option<PathBuf>,
    /// Most questions to the implementation while shrinking one failure.
    pub shrink_budget: usize,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            seed: 0,
            cases: Some(1000),
            time: None,
            mix: Mix::Mixed,
            rules: Vec::new(),
            save: None,
            shrink_budget: 2000,
        }
    }
}

/// A campaign's time bound as `fuzz --time` takes it: `90`, `90s`, `5m`,
/// `2h`, `500ms` (plain numbers are seconds).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (e.g. 90s, 5m, 1h)"))?;
    Ok(match unit {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" | "min" => Duration::from_secs(n * 60),
        "h" => Duration::from_secs(n * 3600),
        _ => return Err(format!("`{s}`: unknown unit `{unit}` (ms, s, m, h)")),
    })
}

/// ERRORED failures (crashes, hangs) are shrunk with at most this many
/// questions: each may cost a case timeout and a restart.
const ERRORED_SHRINK_BUDGET: usize = 16;

/// Counts so far.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Cases answered.
    pub cases: u64,
    pub tally: Tally,
    /// Cases per signature that failed (FAIL or ERRORED).
    pub failures: BTreeMap<Signature, u64>,
    /// Scores per rule the cases test (`None`: valid streams), so a record
    /// of the campaign can be read per rule family like a suite's.
    pub per_rule: BTreeMap<Option<RuleId>, Tally>,
    /// Violation rules of the cases answered (not SKIPPED): what the
    /// implementation was actually tested on.
    pub covered: BTreeSet<RuleId>,
    pub valid: u64,
    /// Case numbers the generator declined (no stream; not run).
    pub declined: u64,
    /// Answers the generated case could not judge (a rule named where the
    /// case states only its first violation): problems of the generator,
    /// which leave the campaign incomplete.
    pub unjudged: u64,
    /// The first [`PROBLEMS_KEPT`] of them, `case `id`: why`.
    pub problems: Vec<String>,
}

/// Problems of generated cases kept for the summary (the rest counted).
const PROBLEMS_KEPT: usize = 10;

impl Stats {
    fn add(&mut self, case: &SuiteCase, scored: &Scored) {
        self.cases += 1;
        self.tally.add(scored);
        self.per_rule
            .entry(case.rule_key())
            .or_default()
            .add(scored);
        if let Some(why) = &scored.case_problem {
            self.unjudged += 1;
            if self.problems.len() < PROBLEMS_KEPT {
                self.problems.push(format!("case `{}`: {why}", case.id));
            }
        }
        match case.rule_key() {
            Some(r) if scored.score != Score::Skipped => {
                self.covered.insert(r);
            }
            Some(_) => {}
            None => self.valid += 1,
        }
        if scored.score.is_bad() {
            *self
                .failures
                .entry(minimize::signature(case, scored.score))
                .or_default() += 1;
        }
    }

    /// A case already counted turned out ERRORED (a late second answer).
    fn rescore(&mut self, case: &SuiteCase, was: Score) {
        self.tally.counts[was as usize] = self.tally.counts[was as usize].saturating_sub(1);
        self.tally.counts[Score::Errored as usize] += 1;
        if let Some(t) = self.per_rule.get_mut(&case.rule_key()) {
            t.counts[was as usize] = t.counts[was as usize].saturating_sub(1);
            t.counts[Score::Errored as usize] += 1;
        }
        if was.is_bad()
            && let Some(n) = self.failures.get_mut(&minimize::signature(case, was))
        {
            *n = n.saturating_sub(1);
        }
        *self
            .failures
            .entry(minimize::signature(case, Score::Errored))
            .or_default() += 1;
    }
}

/// One distinct failure: the first (lowest-numbered) case with its
/// signature, shrunk.
#[derive(Debug, Clone)]
pub struct Finding {
    pub signature: Signature,
    /// The case number in the campaign, and its id.
    pub number: u64,
    pub id: String,
    /// The score's reason and the answer, on the case as found.
    pub reason: String,
    pub outcome: String,
    /// The answer as found, as `run --format json` writes it.
    pub answer: serde_json::Value,
    pub original_size: usize,
    pub shrunk: Shrunk,
    /// Where it was saved, or why it could not be.
    pub saved: Option<Result<PathBuf, String>>,
    /// What the implementation wrote to stderr on the case as found (the
    /// tail an ERRORED answer kept, or what it wrote while answering), as
    /// `run` shows it for a case.
    pub stderr: Option<String>,
}

/// A finished (or interrupted) campaign.
#[derive(Debug, Clone)]
pub struct Campaign {
    pub plan: Plan,
    pub implementation: ImplInfo,
    pub stats: Stats,
    /// One per signature, in signature order.
    pub findings: Vec<Finding>,
    pub incidents: Vec<Incident>,
    /// Why it stopped early (the implementation did not start, a signal).
    pub aborted: Option<String>,
    /// What the time limit cut short: a case in flight (not scored), a
    /// shrinking stopped part-way, a failure kept unshrunk.
    pub cut: Vec<String>,
    pub elapsed: Duration,
}

impl Campaign {
    /// Cases per second.
    pub fn rate(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.stats.cases as f64 / s
        } else {
            0.0
        }
    }

    /// As `run`'s statuses: passed (no FAIL or ERRORED), failed,
    /// incomplete (aborted, no case ran, or an answer a generated case
    /// could not judge).
    pub fn status(&self) -> RunStatus {
        if self.aborted.is_some() || self.stats.cases == 0 || self.stats.unjudged > 0 {
            RunStatus::Incomplete
        } else if self.stats.tally.get(Score::Fail) + self.stats.tally.get(Score::Errored) > 0 {
            RunStatus::Failed
        } else {
            RunStatus::Passed
        }
    }
}

/// What the workers share.
struct Shared<'a> {
    plan: &'a Plan,
    next: AtomicU64,
    stop: AtomicBool,
    start: Instant,
    /// `start + plan.time`: nothing goes on past it.
    deadline: Option<Instant>,
    cut: Mutex<Vec<String>>,
    stats: Mutex<Stats>,
    findings: Mutex<BTreeMap<Signature, Finding>>,
    abort: Mutex<Option<String>>,
    on_progress: &'a (dyn Fn(&Stats, Duration) + Sync),
}

impl Shared<'_> {
    fn set_abort(&self, why: String) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut a) = self.abort.lock() {
            a.get_or_insert(why);
        }
    }

    /// The next case number, or `None` when the campaign is over.
    fn take(&self) -> Option<u64> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(sig) = crate::subprocess::cleanup::interrupted() {
            self.set_abort(format!("interrupted by signal {sig}"));
            return None;
        }
        if self.over() {
            self.stop.store(true, Ordering::Relaxed);
            return None;
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        if self.plan.cases.is_some_and(|max| n >= max) {
            self.stop.store(true, Ordering::Relaxed);
            return None;
        }
        Some(n)
    }

    /// Whether the time limit has passed.
    fn over(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Says what the time limit cut short.
    fn note_cut(&self, what: String) {
        if let Ok(mut c) = self.cut.lock() {
            c.push(what);
        }
    }

    /// Whether a failure with this signature at case `n` is the one to
    /// keep (no finding yet, or only a later-numbered one).
    fn wanted(&self, sig: Signature, n: u64) -> bool {
        self.findings
            .lock()
            .map(|f| f.get(&sig).is_none_or(|x| x.number > n))
            .unwrap_or(false)
    }

    fn keep(&self, mut f: Finding) {
        let Ok(mut all) = self.findings.lock() else {
            return;
        };
        if all.get(&f.signature).is_some_and(|x| x.number <= f.number) {
            return;
        }
        if let Some(dir) = &self.plan.save {
            f.saved = Some(summary::save(dir, &f).map_err(|e| format!("{e:#}")));
        }
        all.insert(f.signature, f);
    }
}

/// The last few cases a worker ran: a late second answer names one.
struct Recent(Vec<(u64, Recipe, SuiteCase, Score)>);

/// One worker: takes case numbers until the campaign is over.
fn work(imp: &mut dyn Implementation, info: &ImplInfo, sh: &Shared) {
    let plan = sh.plan;
    let mut recent = Recent(Vec::new());
    if let Some(x) = imp.instrumented() {
        x.set_deadline(sh.deadline);
    }
    while let Some(n) = sh.take() {
        let Some((recipe, case)) = Recipe::draw_case(plan.seed, n, plan.mix, &plan.rules) else {
            if let Ok(mut s) = sh.stats.lock() {
                s.declined += 1;
            }
            continue;
        };
        let r = run_case(imp, info, &case, 0);
        if imp.instrumented().is_some_and(|x| x.take_cut()) {
            sh.note_cut(format!(
                "case {n} ({}) was in flight when the time ran out: cut after {} ms, not scored",
                case.id,
                r.elapsed.as_millis()
            ));
            continue;
        }
        if let Ok(mut s) = sh.stats.lock() {
            s.add(&case, &r.scored);
            (sh.on_progress)(&s, sh.start.elapsed());
        }
        let score = r.scored.score;
        if score.is_bad() {
            let stderr = crate::report::stderr(&r).map(str::to_owned);
            let answer = (&r.scored, &r.outcome, stderr);
            found(imp, info, sh, n, &recipe, &case, answer);
        }
        recent.0.push((n, recipe, case, score));
        if recent.0.len() > 4 {
            recent.0.remove(0);
        }
        let late = imp.instrumented().map(|x| x.late_errors());
        for (id, reason) in late.into_iter().flatten() {
            let Some(k) = recent.0.iter().position(|x| x.2.id == id) else {
                continue;
            };
            let (n, recipe, case, was) = recent.0.remove(k);
            if let Ok(mut s) = sh.stats.lock() {
                s.rescore(&case, was);
            }
            let outcome = Outcome::errored(reason.clone());
            let scored = crate::score::score(
                &case.expected,
                &outcome,
                crate::implementation::Capabilities::default(),
            );
            found(imp, info, sh, n, &recipe, &case, (&scored, &outcome, None));
        }
    }
}

/// Shrinks and keeps a failure of case `n` if it is the first of its kind;
/// `answer` is its score, the answer and the implementation's stderr.
fn found(
    imp: &mut dyn Implementation,
    info: &ImplInfo,
    sh: &Shared,
    n: u64,
    recipe: &Recipe,
    case: &SuiteCase,
    answer: (&Scored, &Outcome, Option<String>),
) {
    let (scored, outcome, stderr) = answer;
    let sig = minimize::signature(case, scored.score);
    if !sh.wanted(sig, n) {
        return;
    }
    let over = sh.over();
    let budget = if over {
        // Time is up: kept as found.
        sh.note_cut(format!(
            "{} {}: kept as found (case {n}), not shrunk: the time had run out",
            sig.1,
            summary::key(&sig)
        ));
        0
    } else if scored.score == Score::Errored {
        ERRORED_SHRINK_BUDGET.min(sh.plan.shrink_budget)
    } else {
        sh.plan.shrink_budget
    };
    let mut shrunk = minimize::shrink(imp, info, recipe, case, sig, budget, sh.deadline);
    if shrunk.cut_short {
        sh.note_cut(format!(
            "{} {}: shrinking stopped when the time ran out, after {} questions",
            sig.1,
            summary::key(&sig),
            shrunk.tests
        ));
    }
    if shrunk.outcome.is_empty() {
        // Nothing smaller failed alike: the case as found.
        (shrunk.outcome, shrunk.reason, shrunk.answer) =
            (outcome.short(), scored.reason.clone(), outcome.to_json());
    }
    sh.keep(Finding {
        signature: sig,
        number: n,
        id: case.id.clone(),
        reason: scored.reason.clone(),
        outcome: outcome.short(),
        answer: outcome.to_json(),
        original_size: case.lines.as_ref().map_or(case.events.len(), Vec::len),
        shrunk,
        saved: None,
        stderr,
    });
}

fn new_shared<'a>(
    plan: &'a Plan,
    on_progress: &'a (dyn Fn(&Stats, Duration) + Sync),
) -> Shared<'a> {
    let start = Instant::now();
    Shared {
        plan,
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        start,
        deadline: plan.time.map(|t| start + t),
        cut: Mutex::new(Vec::new()),
        stats: Mutex::new(Stats::default()),
        findings: Mutex::new(BTreeMap::new()),
        abort: Mutex::new(None),
        on_progress,
    }
}

fn finish(sh: Shared, info: Option<ImplInfo>, incidents: Vec<Incident>) -> Campaign {
    let elapsed = sh.start.elapsed();
    let plan = sh.plan.clone();
    Campaign {
        plan,
        implementation: info.unwrap_or_else(ImplInfo::not_started),
        stats: sh.stats.into_inner().unwrap_or_else(|e| e.into_inner()),
        findings: sh
            .findings
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_values()
            .collect(),
        incidents,
        aborted: sh.abort.into_inner().unwrap_or_else(|e| e.into_inner()),
        cut: sh.cut.into_inner().unwrap_or_else(|e| e.into_inner()),
        elapsed,
    }
}

/// Runs a campaign on one implementation in this thread (in-process
/// implementations; a subprocess one too). The implementation is left
/// running.
pub fn run_with(
    plan: &Plan,
    imp: &mut dyn Implementation,
    on_progress: &(dyn Fn(&Stats, Duration) + Sync),
) -> Campaign {
    let sh = new_shared(plan, on_progress);
    if let Some(x) = imp.instrumented() {
        x.set_deadline(sh.deadline);
    }
    let info = match imp.describe() {
        Ok(i) => i,
        Err(e) => {
            sh.set_abort(format!("{e:#}"));
            return finish(sh, None, Vec::new());
        }
    };
    work(imp, &info, &sh);
    finish(sh, Some(info), Vec::new())
}

/// Runs a campaign on `jobs` implementations at once, each made by
/// `make` (one process each, for a command), and stops them all. One
/// that cannot be made or started aborts the campaign (what ran is kept).
pub fn run_parallel(
    plan: &Plan,
    jobs: usize,
    make: &MakeImpl<'_>,
    on_progress: &(dyn Fn(&Stats, Duration) + Sync),
) -> Campaign {
    let sh = new_shared(plan, on_progress);
    // The deadline holds from the first handshake on.
    let bounded = || {
        let mut imp = make()?;
        if let Some(x) = imp.instrumented() {
            x.set_deadline(sh.deadline);
        }
        Ok(imp)
    };
    let pooled = on_workers(
        jobs,
        &bounded,
        &|why| sh.set_abort(why),
        &|imp, info| work(imp, info, &sh),
        &|_, _| {},
    );
    finish(sh, pooled.info, pooled.incidents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert!(parse_duration("5x").is_err());
        assert!(parse_duration("m").is_err());
    }
}
