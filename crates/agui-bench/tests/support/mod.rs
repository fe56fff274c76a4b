//! Set-up the bench's differential tests share: the corpus cases, the
//! writers' streams and a seeded generator for the edits.
#![allow(dead_code)]

use agui_bench::synth::{self, Shape};
use agui_bench::workload::{self, ManyRuns};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[path = "../../../agui-model/tests/support/corpus.rs"]
mod corpus;

/// Every corpus case file (`corpus/**/*.json`, the schema left out).
pub fn corpus_files() -> Vec<PathBuf> {
    corpus::files(env!("CARGO_MANIFEST_DIR"))
}

/// A corpus case, read as RFC 8259 JSON (a projection may hold 1e400).
pub fn read_case(file: &Path) -> Value {
    let text = std::fs::read_to_string(file).expect("readable");
    agui_model::json::parse(&text, &Default::default())
        .expect("JSON")
        .value
}

/// The large-stream writer's stream of this shape.
pub fn synth_stream(seed: u64, events: usize, invocations: usize, runs: usize) -> Vec<u8> {
    let mut buf = Vec::new();
    let shape = Shape {
        events,
        invocations,
        runs,
        seed,
    };
    synth::write(&shape, &mut buf).expect("writes");
    buf
}

/// The many-run workload of this shape.
pub fn many_runs(seed: u64, runs: usize, per_run: usize) -> Vec<u8> {
    let mut buf = Vec::new();
    let shape = ManyRuns {
        runs,
        per_run,
        seed,
    };
    workload::write(&shape, &mut buf).expect("writes");
    buf
}

/// Seeded, so the test is reproducible (rand's `StdRng`).
pub struct Rng(rand::rngs::StdRng);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(rand::SeedableRng::seed_from_u64(seed))
    }
    pub fn below(&mut self, n: usize) -> usize {
        rand::Rng::random_range(&mut self.0, 0..n.max(1))
    }
}
