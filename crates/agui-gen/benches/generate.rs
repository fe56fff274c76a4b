//! Generation throughput: scenario from seeded bytes → valid stream with
//! its projection → JSON Lines, in events per second.

use agui_gen::ev::write_jsonl;
use agui_gen::front::seeded_bytes;
use agui_gen::{Config, Scenario, render, render_jsonl};
use arbitrary::Unstructured;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let config = Config::default();
    let inputs: Vec<Vec<u8>> = (0..200).map(|s| seeded_bytes(&config, s)).collect();
    // Events per batch, to report throughput in events.
    let events: usize = inputs
        .iter()
        .map(|b| {
            Scenario::new(&config, &mut Unstructured::new(b))
                .map(|sc| render(&sc).events.len())
                .unwrap_or(0)
        })
        .sum();
    let mut group = c.benchmark_group("generate");
    group.throughput(Throughput::Elements(events as u64));
    // The stream alone (what `gen` and the fuzzers consume).
    group.bench_function("valid_stream_jsonl", |b| {
        let mut out = Vec::with_capacity(1 << 20);
        b.iter(|| {
            out.clear();
            for bytes in &inputs {
                if let Ok(sc) = Scenario::new(&config, &mut Unstructured::new(bytes)) {
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
            for bytes in &inputs {
                if let Ok(sc) = Scenario::new(&config, &mut Unstructured::new(bytes)) {
                    let r = render(&sc);
                    write_jsonl(&r.events, &mut out);
                    black_box(&r.projection);
                }
            }
            black_box(out.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
