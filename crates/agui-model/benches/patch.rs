//! One small `STATE_DELTA` (3 operations on a state of about 1 KB), applied
//! by the checker's applier (`agui_model::patch::apply`, undo log and
//! budget), by `json_patch::patch`, which it replaced, and by the other
//! atomic design (patch a scratch copy of the state, keep it on success).
//! Each iteration starts from a fresh copy of the state (not timed).

use agui_model::patch::{PatchBudget, apply, mem_size};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "support/patch_fixture.rs"]
mod patch_fixture;
use patch_fixture::{delta, state};

fn benches(c: &mut Criterion) {
    let doc = state();
    let size = mem_size(&doc);
    eprintln!(
        "state: {} bytes as compact JSON, mem_size {size}",
        doc.to_string().len()
    );
    let ops = delta();
    let budget = PatchBudget::default();
    let mut g = c.benchmark_group("state delta, 3 ops on ~1 KB");
    g.bench_function("agui_model::patch::apply", |b| {
        b.iter_batched_ref(
            || (doc.clone(), size),
            |(d, n)| black_box(apply(d, n, &ops, &budget)),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("json_patch::patch", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| black_box(json_patch::patch(d, &ops)),
            BatchSize::SmallInput,
        )
    });
    // The alternative design: patch a scratch copy, keep it on success.
    g.bench_function("scratch copy + json_patch::patch_unsafe", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| {
                let mut scratch = d.clone();
                let r = json_patch::patch_unsafe(&mut scratch, &ops);
                if r.is_ok() {
                    *d = scratch;
                }
                black_box(r)
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group!(patch, benches);
criterion_main!(patch);
