//! Every fuzz target's body on its committed seed corpus, on the
//! regression inputs under `fuzz/regressions/`, and on seeded inputs:
//! random bytes, and (for the byte-level target) mutated seeds. A broken
//! invariant panics, failing the test with the target's own message.

use agui_fuzz::seeded::{Rng, corpus_files, mutate};
use agui_fuzz::{TARGETS, run_target};
use std::path::PathBuf;

fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Runs `target` on every file of `fuzz/<sub>/<target>/`; returns how many.
fn replay(sub: &str, target: &str) -> usize {
    let dir = fuzz_dir().join(sub).join(target);
    let files = corpus_files(&dir).expect("corpus dir readable");
    for f in &files {
        let data = std::fs::read(f).expect("seed readable");
        eprintln!("{target}: {}", f.display());
        run_target(target, &data).expect("known target");
    }
    files.len()
}

#[test]
fn seed_corpora_replay() {
    let mut total = 0;
    for t in TARGETS {
        let n = replay("seeds", t);
        assert!(n > 0, "no committed seeds for {t}");
        total += n;
    }
    eprintln!("{total} seeds replayed");
}

#[test]
fn regressions_replay() {
    for t in TARGETS {
        replay("regressions", t);
    }
}

/// Random inputs of random lengths: `n` per target.
fn random_inputs(target: &str, n: usize, max_len: usize) {
    let mut rng = Rng::new(0xA61 ^ target.len() as u64);
    for _ in 0..n {
        let len = rng.below(max_len + 1);
        let data = rng.bytes(len);
        run_target(target, &data).expect("known target");
    }
}

#[test]
fn check_bytes_on_random_and_mutated_streams() {
    random_inputs("check_bytes", 300, 256);
    let seeds = corpus_files(&fuzz_dir().join("seeds/check_bytes")).unwrap();
    let mut rng = Rng::new(7);
    for i in 0..1500 {
        let seed = std::fs::read(&seeds[i % seeds.len()]).unwrap();
        let m = mutate(&mut rng, &seed);
        agui_fuzz::check_bytes::run(&m);
    }
}

#[test]
fn fast_scan_on_random_and_mutated_lines() {
    random_inputs("fast_scan", 2000, 96);
    // Lines of the seed streams, mutated: near misses of real events.
    let seeds = corpus_files(&fuzz_dir().join("seeds/check_bytes")).unwrap();
    let mut rng = Rng::new(46);
    for i in 0..3000 {
        let seed = std::fs::read(&seeds[i % seeds.len()]).unwrap();
        let lines: Vec<&[u8]> = seed.split(|&b| b == b'\n').collect();
        let line = lines[rng.below(lines.len())];
        agui_fuzz::fast_scan::run(&mutate(&mut rng, line));
    }
}

#[test]
fn roundtrip_on_random_inputs() {
    random_inputs("roundtrip", 2000, 512);
}

#[test]
fn valid_streams_on_random_inputs() {
    random_inputs("valid_streams", 300, 2048);
}

#[test]
fn invalid_streams_on_random_inputs() {
    random_inputs("invalid_streams", 300, 2048);
}

#[test]
fn differential_on_random_inputs() {
    // A no-op unless AGUI_CONFORM_IMPL names an implementation.
    random_inputs("differential", 50, 2048);
}

/// The patch target on a few thousand seeded inputs (its invariants
/// include agreement with `json_patch`).
#[test]
fn patch_smoke() {
    random_inputs("patch", 4000, 512);
}

/// The body decoder on seeded inputs: whole, cut short and corrupted
/// bodies in every framing and coding, read in every cut.
#[test]
fn body_decode_smoke() {
    random_inputs("body_decode", 3000, 512);
}

/// The body decoder's smoke test reaches whole bodies that decode to their
/// payload, and faults, in every coding.
#[test]
fn seeded_body_inputs_reach_whole_bodies_and_faults() {
    use agui_fuzz::body_decode::{case, decode};
    let mut rng = Rng::new(0xA61 ^ "body_decode".len() as u64);
    let (mut whole, mut faults) = (0, 0);
    for _ in 0..3000 {
        let len = rng.below(513);
        let data = rng.bytes(len);
        let Ok(c) = case(&mut arbitrary::Unstructured::new(&data)) else {
            continue;
        };
        let d = decode(c.framing, c.coding, &c.body, &c.cuts);
        if c.payload.is_some() && d.fault.is_none() {
            whole += 1;
        }
        if d.fault.is_some() {
            faults += 1;
        }
    }
    assert!(
        whole > 300 && faults > 300,
        "{whole} whole, {faults} faults"
    );
}

/// The patch smoke test is only worth something if the seeded inputs reach
/// every outcome: count them.
#[test]
fn seeded_patch_inputs_reach_every_outcome() {
    use agui_model::patch::{PatchError, apply, mem_size};
    let mut rng = Rng::new(0xA61 ^ "patch".len() as u64);
    let (mut applied, mut fails, mut over, mut cases) = (0, 0, 0, 0);
    for _ in 0..2000 {
        let len = rng.below(513);
        let data = rng.bytes(len);
        let Ok(c) = agui_fuzz::patch::case(&mut arbitrary::Unstructured::new(&data)) else {
            continue;
        };
        cases += 1;
        let mut doc = c.doc.clone();
        let mut size = mem_size(&doc);
        match apply(&mut doc, &mut size, &c.ops, &c.budget) {
            Ok(()) => applied += 1,
            Err(PatchError::Fails { .. }) => fails += 1,
            Err(PatchError::OverBudget { .. }) => over += 1,
        }
    }
    eprintln!("{cases} cases: {applied} apply, {fails} fail, {over} over budget");
    assert!(
        applied >= 200 && fails >= 300 && over >= 100,
        "{applied} {fails} {over}"
    );
}

#[test]
fn unknown_target_is_an_error() {
    assert!(run_target("no_such_target", b"").is_err());
}

/// The generator-driven smoke tests above are only worth something if most
/// seeded inputs become streams: count them.
#[test]
fn seeded_inputs_mostly_become_streams() {
    let mut rng = Rng::new(0xA61 ^ "valid_streams".len() as u64);
    let (mut valid, mut invalid, mut events) = (0, 0, 0);
    for _ in 0..200 {
        let len = rng.below(2049);
        let data = rng.bytes(len);
        if let Ok(g) = agui_gen::valid_stream(&mut arbitrary::Unstructured::new(&data)) {
            valid += 1;
            events += g.events.len();
        }
        if agui_gen::invalid_stream(&mut arbitrary::Unstructured::new(&data)).is_ok() {
            invalid += 1;
        }
    }
    eprintln!("valid {valid}/200 ({events} events), invalid {invalid}/200");
    assert!(
        valid >= 100 && invalid >= 60,
        "valid {valid}/200, invalid {invalid}/200"
    );
    assert!(
        events >= 2 * valid,
        "generated valid streams are tiny: {events} events"
    );
}

/// The hostile shapes (deep nesting, split and lone surrogates, numbers
/// outside a double, duplicate keys, root patches) keep every `check_bytes`
/// invariant, as they are and with bytes flipped.
#[test]
fn check_bytes_on_hostile_shapes() {
    let seeds = agui_fuzz::seeds::hostile_seeds();
    assert!(seeds.len() >= 6);
    for (_, bytes) in &seeds {
        agui_fuzz::check_bytes::run(bytes);
        for at in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[at] ^= 0x20;
            agui_fuzz::check_bytes::run(&b);
            b.truncate(at);
            agui_fuzz::check_bytes::run(&b);
        }
    }
    // Past the default nesting limit: a notice, on the checker's stack.
    let deep = format!("{}{}\n", "[".repeat(12_000), "]".repeat(12_000));
    std::thread::Builder::new()
        .stack_size(agui_model::Limits::default().stack_bytes())
        .spawn(move || agui_fuzz::check_bytes::run(deep.as_bytes()))
        .unwrap()
        .join()
        .unwrap();
}
