//! The small `STATE_DELTA` of `benches/patch.rs`, timed A/B/C interleaved:
//! each round times 2,000 deltas per applier, the appliers in rotating
//! order, so a busy machine's drift hits all three alike; prints each
//! applier's median time per delta over the rounds, and the median of its
//! per-round ratio to ours. Criterion's numbers on
//! a shared machine drifted more than the differences measured here.
//!
//! `cargo bench -p agui-model --bench patch_ab [-- ROUNDS]`

use agui_model::patch::{PatchBudget, apply, mem_size};
use json_patch::PatchOperation;
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

#[path = "support/patch_fixture.rs"]
mod patch_fixture;
use patch_fixture::{delta, state};

const PER_ROUND: usize = 2000;

type Applier = fn(&mut Value, &mut usize, &[PatchOperation]) -> bool;

fn ours(d: &mut Value, n: &mut usize, ops: &[PatchOperation]) -> bool {
    apply(d, n, ops, &PatchBudget::default()).is_ok()
}

fn json_patch_patch(d: &mut Value, _: &mut usize, ops: &[PatchOperation]) -> bool {
    json_patch::patch(d, ops).is_ok()
}

fn scratch_copy(d: &mut Value, _: &mut usize, ops: &[PatchOperation]) -> bool {
    let mut scratch = d.clone();
    let ok = json_patch::patch_unsafe(&mut scratch, ops).is_ok();
    if ok {
        *d = scratch;
    }
    ok
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(101);
    let doc = state();
    let size = mem_size(&doc);
    let ops = delta();
    let appliers: [(&str, Applier); 3] = [
        ("agui_model::patch::apply", ours),
        ("json_patch::patch", json_patch_patch),
        ("scratch copy + json_patch::patch_unsafe", scratch_copy),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); appliers.len()];
    for round in 0..rounds {
        for k in 0..appliers.len() {
            let which = (round + k) % appliers.len();
            let mut docs: Vec<(Value, usize)> =
                (0..PER_ROUND).map(|_| (doc.clone(), size)).collect();
            let f = appliers[which].1;
            let start = Instant::now();
            for (d, n) in &mut docs {
                black_box(f(d, n, &ops));
            }
            let ns = start.elapsed().as_nanos() as f64 / PER_ROUND as f64;
            times[which].push(ns);
            drop(docs);
        }
    }
    println!(
        "state {} bytes as compact JSON; {rounds} rounds x {PER_ROUND} deltas",
        doc.to_string().len()
    );
    // Paired by round: each applier against ours, same moment of the machine.
    for (k, (name, _)) in appliers.iter().enumerate().skip(1) {
        let mut ratio: Vec<f64> = times[k].iter().zip(&times[0]).map(|(t, o)| t / o).collect();
        ratio.sort_by(f64::total_cmp);
        println!(
            "{name:45} / ours: median ratio {:.2} (quartiles {:.2}..{:.2})",
            ratio[ratio.len() / 2],
            ratio[ratio.len() / 4],
            ratio[3 * ratio.len() / 4]
        );
    }
    for ((name, _), t) in appliers.iter().zip(&mut times) {
        t.sort_by(f64::total_cmp);
        println!(
            "{name:45} median {:7.0} ns/delta  (quartiles {:.0}..{:.0})",
            t[t.len() / 2],
            t[t.len() / 4],
            t[3 * t.len() / 4]
        );
    }
}
