//! Criterion benchmarks of the checker on a generated stream (the writer of
//! `agui_bench::synth`): the whole checker per line (fast path) and per
//! value (the `Value` path), with the projection on and off; the schema
//! validator alone; the stream reader alone. Generation and harness
//! throughput have their own benches in agui-gen and agui-harness.

use agui_bench::synth::{self, Shape};
use agui_model::stream::{self, ReadOptions};
use agui_model::{Checker, schema};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use std::ops::ControlFlow;

const EVENTS: usize = 20_000;

fn stream_bytes() -> Vec<u8> {
    let shape = Shape {
        events: EVENTS,
        invocations: 64,
        runs: 20,
        seed: 7,
    };
    let mut buf = Vec::new();
    synth::write(&shape, &mut buf).expect("the writer writes to memory");
    buf
}

fn benches(c: &mut Criterion) {
    let bytes = stream_bytes();
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let values: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_slice(l).expect("valid JSON"))
        .collect();

    let mut g = c.benchmark_group("checker");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.sample_size(20);
    g.bench_function("push_line, projection off", |b| {
        b.iter(|| {
            let mut ch = Checker::without_projection();
            for l in &lines {
                ch.push_line(l);
            }
            black_box(ch.finish())
        })
    });
    g.bench_function("push_line, projection on", |b| {
        b.iter(|| {
            let mut ch = Checker::new();
            for l in &lines {
                ch.push_line(l);
            }
            black_box(ch.finish())
        })
    });
    g.bench_function("push (parsed values), projection off", |b| {
        b.iter(|| {
            let mut ch = Checker::without_projection();
            for v in &values {
                ch.push(v);
            }
            black_box(ch.finish())
        })
    });
    g.bench_function("parse to Value + push, projection off", |b| {
        b.iter(|| {
            let mut ch = Checker::without_projection();
            for l in &lines {
                let v: Value = serde_json::from_slice(l).expect("valid JSON");
                ch.push(&v);
            }
            black_box(ch.finish())
        })
    });
    g.finish();

    let mut g = c.benchmark_group("schema");
    g.throughput(Throughput::Elements(values.len() as u64));
    g.bench_function("validate (values already parsed)", |b| {
        b.iter(|| {
            for v in &values {
                black_box(schema::validate(v));
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("stream");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("read_stream (lines into Values)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            stream::read_stream(&bytes[..], &ReadOptions::default(), |item| {
                black_box(item);
                n += 1;
                ControlFlow::Continue(())
            })
            .expect("in memory");
            n
        })
    });
    g.bench_function("read_stream_with (raw lines taken)", |b| {
        b.iter(|| {
            stream::read_stream_with(
                &bytes[..],
                &ReadOptions::default(),
                |l, _| black_box(l).len() > 1,
                |item| {
                    black_box(item);
                    ControlFlow::Continue(())
                },
            )
            .expect("in memory")
        })
    });
    g.finish();
}

criterion_group!(checker, benches);
criterion_main!(checker);
