//! Cases per second: in-process against the reference model (target
//! ≥ 20,000/s) and over the persistent protocol against the example
//! implementation (target ≥ 5,000/s). The cases are the default suite's
//! (the corpus, plus generated ones in a build with the generator);
//! scoring is included. Medians: target/criterion/harness/*/new/estimates.json.

use agui_harness::implementation::{Implementation, Reference};
use agui_harness::runner::run_case;
use agui_harness::subprocess::{Persistent, Spawn, Timeouts};
use agui_harness::{Suite, SuiteCase};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::time::Duration;

fn cases() -> Vec<SuiteCase> {
    let suite = Suite::find("default").expect("default suite");
    let (cases, problems) = suite.cases();
    for p in problems {
        eprintln!("bench: {p}");
    }
    assert!(!cases.is_empty(), "no cases to run");
    eprintln!("bench: {} cases per batch", cases.len());
    cases
}

fn run_all(
    imp: &mut dyn Implementation,
    info: &agui_harness::ImplInfo,
    cases: &[SuiteCase],
) -> usize {
    let mut bad = 0;
    for (i, c) in cases.iter().enumerate() {
        if run_case(imp, info, c, i).scored.score.is_bad() {
            bad += 1;
        }
    }
    bad
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    let mut g = c.benchmark_group("harness");
    g.throughput(Throughput::Elements(cases.len() as u64));
    g.sample_size(20)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));

    let mut reference = Reference::default();
    let info = reference.describe().expect("reference");
    g.bench_function("reference-in-process", |b| {
        b.iter(|| run_all(&mut reference, &info, &cases))
    });

    for (name, cmd) in [
        (
            "persistent-protocol-example",
            env!("CARGO_BIN_EXE_agui-example-impl").to_string(),
        ),
        (
            "persistent-protocol-example-no-projection",
            format!(
                "{} --no-projection",
                env!("CARGO_BIN_EXE_agui-example-impl")
            ),
        ),
    ] {
        let mut spawn = Spawn::parse(&cmd).expect("command");
        spawn.max_line = 64 << 20;
        let mut example = Persistent::new(spawn, Timeouts::default());
        let info = example.describe().expect("example implementation starts");
        g.bench_function(name, |b| b.iter(|| run_all(&mut example, &info, &cases)));
        let _ = example.shutdown();
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
