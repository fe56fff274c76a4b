//! The size of the default suite and where in-process time goes: the
//! reference checker alone (with and without projection) against the
//! harness's `run_case` (checking plus scoring). A quick profile beside
//! the criterion bench: `cargo run --release -p agui-harness --example suite_stats`.

use agui_harness::implementation::{Implementation, Reference};
use std::time::Instant;

const ROUNDS: usize = 5;

fn rate(cases: usize, t: Instant) -> f64 {
    (ROUNDS * cases) as f64 / t.elapsed().as_secs_f64()
}

fn main() -> anyhow::Result<()> {
    let suite = agui_harness::Suite::find("default")?;
    let (cases, _) = suite.cases();
    let events: usize = cases.iter().map(|c| c.events.len()).sum();
    println!(
        "{} cases, {events} events ({:.1} per case)",
        cases.len(),
        events as f64 / cases.len() as f64
    );
    for projection in [true, false] {
        let t = Instant::now();
        for _ in 0..ROUNDS {
            for c in &cases {
                let mut k = if projection {
                    agui_model::Checker::new()
                } else {
                    agui_model::Checker::without_projection()
                };
                for e in &c.events {
                    k.push(e);
                }
                std::hint::black_box(k.finish().projection.map(|p| p.to_json()));
            }
        }
        println!(
            "checker alone (projection: {projection}): {:.0} cases/s",
            rate(cases.len(), t)
        );
    }
    let mut r = Reference::default();
    let info = r.describe()?;
    let t = Instant::now();
    for _ in 0..ROUNDS {
        for (i, c) in cases.iter().enumerate() {
            std::hint::black_box(agui_harness::runner::run_case(&mut r, &info, c, i));
        }
    }
    println!(
        "harness run_case (projection only where scored): {:.0} cases/s",
        rate(cases.len(), t)
    );
    Ok(())
}
