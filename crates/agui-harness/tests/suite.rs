//! The default suite as individual named tests (libtest-mimic), so that
//! `cargo test -p agui-harness --test suite -- ownership/` filters and
//! `cargo nextest run --partition count:1/4` spreads a run over machines.
//!
//! Against the built-in reference by default; against a vendor with
//! `AGUI_CONFORM_IMPL='CMD ARGS'` (persistent protocol;
//! `AGUI_CONFORM_ONE_SHOT=1` and `AGUI_CONFORM_CAPS=verdict,index` for
//! one-shot). `AGUI_CONFORM_SUITE` names another suite.
//!
//! PASS, WARN and INFO pass; FAIL and ERRORED fail with the reason;
//! SKIPPED shows as ignored, never as passed. Each WARN is printed on
//! stderr as it happens (each INFO too with `AGUI_CONFORM_VERBOSE=1`) and
//! counted at the end;
//! `AGUI_CONFORM_STRICT=1` makes WARN fail. Suite problems (a lost case
//! file, a missing folder) fail the extra trial `suite/problems`; an answer
//! its case states too little to judge fails the case's own trial (a
//! problem of the case, docs/rules.md "Scoring a consumer").

use agui_harness::implementation::{ImplInfo, Implementation};
use agui_harness::report::terminal;
use agui_harness::runner::run_case;
use agui_harness::session::ImplSpec;
use agui_harness::{Score, Suite, SuiteCase};
use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

static WARNED: AtomicU64 = AtomicU64::new(0);
static INFORMED: AtomicU64 = AtomicU64::new(0);

/// `AGUI_CONFORM_VERBOSE=1`: every INFO case is listed too.
fn verbose() -> bool {
    std::env::var_os("AGUI_CONFORM_VERBOSE").is_some_and(|v| v == "1")
}

fn strict() -> bool {
    std::env::var("AGUI_CONFORM_STRICT").is_ok_and(|v| v == "1")
}

type Imp = Box<dyn Implementation + Send>;

/// Idle implementations (one per test thread at most; one per process
/// under nextest).
static POOL: Mutex<Vec<Imp>> = Mutex::new(Vec::new());
static SPEC: OnceLock<ImplSpec> = OnceLock::new();

fn take() -> Result<(Imp, ImplInfo), Failed> {
    let pooled = POOL.lock().map_err(|e| e.to_string())?.pop();
    let mut imp = match pooled {
        Some(i) => i,
        None => SPEC
            .get()
            .ok_or("no implementation spec")?
            .build()
            .map_err(|e| format!("{e:#}"))?,
    };
    let info = imp.describe().map_err(|e| format!("{e:#}"))?;
    Ok((imp, info))
}

fn check(case: &SuiteCase) -> Result<Completion, Failed> {
    let (mut imp, info) = take()?;
    let r = run_case(&mut *imp, &info, case, 0);
    if let Ok(mut p) = POOL.lock() {
        p.push(imp);
    }
    if let Some(why) = &r.scored.case_problem {
        return Err(format!("{}: a problem of the case: {why}", case.id).into());
    }
    match r.scored.score {
        Score::Warn if strict() => Err(terminal::case_detail(&r, case).into()),
        Score::Warn | Score::Info => {
            let n = if r.scored.score == Score::Warn {
                &WARNED
            } else {
                &INFORMED
            };
            n.fetch_add(1, Ordering::Relaxed);
            // An INFO is an answer that conforms (either answer does): listed
            // only when asked, so a green run stays quiet.
            if r.scored.score == Score::Warn || verbose() {
                eprintln!("{}", terminal::case_detail(&r, case));
            }
            Ok(Completion::Completed)
        }
        Score::Pass => Ok(Completion::Completed),
        Score::Skipped => Ok(Completion::ignored_with(r.scored.reason)),
        Score::Fail | Score::Errored => Err(terminal::case_detail(&r, case).into()),
    }
}

fn main() {
    // Ctrl-C kills the implementations too (they run in their own
    // process groups), then exits.
    agui_harness::subprocess::cleanup::install(agui_harness::subprocess::cleanup::OnSignal::Exit);
    let args = Arguments::from_args();
    let suite_name = std::env::var("AGUI_CONFORM_SUITE").unwrap_or_else(|_| "default".into());
    let suite = match Suite::find(&suite_name) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("suite: {e:#}");
            std::process::exit(2);
        }
    };
    let (plan, problems) = suite.plan();
    for p in &problems {
        eprintln!("suite `{}`: {p}", suite.name);
    }
    let command = std::env::var("AGUI_CONFORM_IMPL")
        .ok()
        .filter(|c| !c.trim().is_empty());
    let spec = ImplSpec {
        command,
        one_shot: std::env::var("AGUI_CONFORM_ONE_SHOT").is_ok_and(|v| v == "1"),
        capabilities: std::env::var("AGUI_CONFORM_CAPS")
            .map(|c| c.split(',').map(str::to_string).collect())
            .unwrap_or_default(),
        name: None,
        language: None,
        timeouts: suite.file.timeouts.to_timeouts(),
        memory_limit: None,
        max_line: None,
    };
    let _ = SPEC.set(spec);
    // Generated cases are generated when their test runs, not when the
    // suite is listed (nextest lists once per test process).
    let mut trials: Vec<Trial> = plan
        .into_iter()
        .map(|p| {
            let name = p.id();
            Trial::ignorable_test(name, move || check(&p.materialize()?))
        })
        .collect();
    // Lost cases, or none at all, are never silently green.
    let mut problems = problems;
    if trials.is_empty() {
        problems.push(format!("suite `{}` has no case", suite.name));
    }
    if !problems.is_empty() {
        let text = problems.join("\n");
        trials.push(Trial::test("suite/problems", move || Err(text.into())));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    let (w, i) = (
        WARNED.load(Ordering::Relaxed),
        INFORMED.load(Ordering::Relaxed),
    );
    if w + i > 0 {
        eprintln!(
            "{w} case(s) WARN (deviation from the reference clients), {i} INFO (AGUI_CONFORM_VERBOSE=1 lists them)"
        );
    }
    if let Ok(mut pool) = POOL.lock() {
        for mut imp in pool.drain(..) {
            for incident in imp.shutdown() {
                eprintln!("incident: {incident}");
            }
        }
    }
    conclusion.exit();
}
