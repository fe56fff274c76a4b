//! Several implementation processes at once: results come back in case
//! order with the same scores as a sequential run, and a crash in one
//! worker restarts only that worker's process (if it gets another case).

mod support;

use agui_harness::runner::run_cases_parallel;
use agui_harness::{Implementation, Score};
use support::*;

#[test]
fn parallel_runs_keep_case_order_and_scores() {
    let cases: Vec<_> = (0..40).map(|i| valid(&format!("c/{i:02}"))).collect();
    let make =
        || -> anyhow::Result<Box<dyn Implementation + Send>> { Ok(Box::new(fake("crash@c/17"))) };
    let run = run_cases_parallel("t", 3, &make, &cases, Vec::new(), &|_, _| {});
    let order: Vec<usize> = run.results.iter().map(|r| r.case).collect();
    assert_eq!(order, (0..40).collect::<Vec<_>>());
    for r in &run.results {
        let want = if r.case == 17 {
            Score::Errored
        } else {
            Score::Pass
        };
        assert_eq!(r.scored.score, want, "case {}", r.case);
    }
    // The crashed worker restarts only if it gets another case.
    assert!(run.incidents.len() <= 1, "{:?}", run.incidents);
    assert!(
        run.incidents
            .iter()
            .all(|i| i.ends_with(": the implementation was restarted 1 time"))
    );
}

#[test]
fn a_worker_that_cannot_start_aborts_the_run() {
    let make =
        || -> anyhow::Result<Box<dyn Implementation + Send>> { Ok(Box::new(fake("bad-version"))) };
    let run = run_cases_parallel("t", 2, &make, &[valid("a")], Vec::new(), &|_, _| {});
    let why = run.aborted.clone().unwrap();
    assert!(why.contains("protocol 99"), "{why}");
    assert!(run.results.is_empty());
    assert_eq!(run.status(), agui_harness::RunStatus::Incomplete);
    assert_eq!(run.status().exit_code(), 3);
}
