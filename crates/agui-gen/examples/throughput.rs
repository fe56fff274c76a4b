//! Generation throughput without criterion: scenario → JSON Lines for N
//! seeds; run under `perf stat -e task-clock` on a busy machine to count
//! CPU time rather than wall time.
use agui_gen::front::seeded_bytes;
use agui_gen::{Config, Scenario, render_jsonl};
use arbitrary::Unstructured;
use std::time::Instant;

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let config = Config::default();
    let inputs: Vec<Vec<u8>> = (0..200).map(|s| seeded_bytes(&config, s)).collect();
    let mut out = Vec::with_capacity(1 << 24);
    let (mut events, mut bytes) = (0usize, 0usize);
    let t = Instant::now();
    for i in 0..seeds as usize {
        out.clear();
        if let Ok(sc) = Scenario::new(&config, &mut Unstructured::new(&inputs[i % inputs.len()])) {
            render_jsonl(&sc, &mut out);
        }
        events += out.iter().filter(|&&b| b == b'\n').count();
        bytes += out.len();
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{events} events, {bytes} bytes in {s:.3} s wall: {:.0} events/s",
        events as f64 / s
    );
}
