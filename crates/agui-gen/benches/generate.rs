//! Generation throughput: scenario from seeded bytes → valid stream (and
//! its projection) → JSON Lines, in events per second.
//!
//! Two clocks: wall time (criterion's default), and this thread's CPU time
//! (`cpu/…`), which a machine shared with other work does not inflate.

use agui_gen::front::seeded_bytes;
use agui_gen::{Config, Scenario, render, render_jsonl};
use arbitrary::Unstructured;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// The calling thread's CPU time, in nanoseconds.
struct ThreadCpu;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, i: u64) -> u64 {
        thread_cpu_ns().saturating_sub(i)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WallTime.formatter()
    }
}

fn inputs(config: &Config) -> (Vec<Vec<u8>>, u64) {
    let inputs: Vec<Vec<u8>> = (0..200).map(|s| seeded_bytes(config, s)).collect();
    let mut out = Vec::new();
    for b in &inputs {
        if let Ok(sc) = Scenario::new(config, &mut Unstructured::new(b)) {
            render_jsonl(&sc, &mut out);
        }
    }
    let events = out.iter().filter(|&&b| b == b'\n').count() as u64;
    (inputs, events)
}

fn both<M: Measurement>(group: &mut BenchmarkGroup<'_, M>, config: &Config, inputs: &[Vec<u8>]) {
    // The stream alone (what `gen` and the fuzzers consume).
    group.bench_function("valid_stream_jsonl", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for bytes in inputs {
                if let Ok(sc) = Scenario::new(config, &mut Unstructured::new(bytes)) {
                    render_jsonl(&sc, &mut out);
                }
            }
            black_box(out.len())
        })
    });
    // The stream and its expected projection (what a valid case needs).
    group.bench_function("valid_with_projection_jsonl", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for bytes in inputs {
                if let Ok(sc) = Scenario::new(config, &mut Unstructured::new(bytes)) {
                    let r = render(&sc);
                    agui_gen::ev::write_jsonl(&r.events, &mut out);
                    black_box(&r.projection);
                }
            }
            black_box(out.len())
        })
    });
}

fn wall(c: &mut Criterion) {
    let config = Config::default();
    let (inputs, events) = inputs(&config);
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(events));
    both(&mut group, &config, &inputs);
    group.finish();
}

fn cpu(c: &mut Criterion<ThreadCpu>) {
    let config = Config::default();
    let (inputs, events) = inputs(&config);
    let mut group = c.benchmark_group("cpu/generate");
    group.throughput(Throughput::Elements(events));
    both(&mut group, &config, &inputs);
    group.finish();
}

criterion_group!(wall_benches, wall);
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = cpu
}
criterion_main!(wall_benches, cpu_benches);
