//! agui-bench: the large-stream writer and the side-by-side measurement
//! behind `cargo run --release -p agui-bench` (see `docs/performance-log.md`).

pub mod cores;
mod emit;
pub mod jobs;
pub mod measure;
pub mod pairs;
pub mod synth;
pub mod workload;
