//! Prints the size of the default suite and the time the reference takes
//! on it, split into checking and scoring (a quick profile).
use agui_harness::implementation::{Implementation, Reference};
use std::time::Instant;
fn main() {
    let suite = agui_harness::Suite::find("default").unwrap();
    let (cases, _) = suite.cases();
    let events: usize = cases.iter().map(|c| c.events.len()).sum();
    println!(
        "{} cases, {} events, {:.1} events/case",
        cases.len(),
        events,
        events as f64 / cases.len() as f64
    );
    let mut r = Reference::default();
    let info = r.describe().unwrap();
    for with in [true, false] {
        let t = Instant::now();
        for _ in 0..5 {
            for c in &cases {
                let mut k = if with {
                    agui_model::Checker::new()
                } else {
                    agui_model::Checker::without_projection()
                };
                for e in &c.events {
                    k.push(e);
                }
                let rep = k.finish();
                std::hint::black_box(rep.projection.map(|p| p.to_json()));
            }
        }
        println!(
            "checker (projection {with}) only: {:.0} cases/s",
            5.0 * cases.len() as f64 / t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        for _ in 0..5 {
            for (i, c) in cases.iter().enumerate() {
                std::hint::black_box(agui_harness::runner::run_case(&mut r, &info, c, i));
            }
        }
        println!(
            "run_case: {:.0} cases/s",
            5.0 * cases.len() as f64 / t.elapsed().as_secs_f64()
        );
    }
}
