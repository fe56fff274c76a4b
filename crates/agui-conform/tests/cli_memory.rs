//! Memory is bounded by the limits (docs/rules.md "Checker limits"):
//! `check` on many one-violation lines and on hostile inputs built at test
//! time, each output form, the peak resident set of the child read with
//! `wait4`. A memory bound, not a timing; the figures of
//! docs/performance.md come from `agui-bench violations` and `memory`.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// Peak RSS in bytes and exit code of `check ARGS FILE` (reaped by `wait4`
/// itself, which reports that one child's peak).
#[allow(clippy::zombie_processes)]
fn peak(args: &[&str], file: &std::path::Path) -> (u64, i32) {
    let child = Command::new(BIN)
        .arg("check")
        .args(args)
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; both pointers are valid.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    // Linux reports kilobytes.
    (
        u64::try_from(usage.ru_maxrss).unwrap() * 1024,
        libc::WEXITSTATUS(status),
    )
}

#[test]
fn peak_memory_does_not_grow_with_the_violations() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let small = dir.join("memory-small.jsonl");
    let big = dir.join("memory-big.jsonl");
    std::fs::write(&small, "{}\n".repeat(20_000)).unwrap();
    std::fs::write(&big, "{}\n".repeat(200_000)).unwrap();
    for args in [
        &["--format", "json"][..],
        &["--format", "text", "--all"],
        &["--format", "json", "--no-projection"],
    ] {
        let (s, code) = peak(args, &small);
        assert_eq!(code, 1);
        let (b, code) = peak(args, &big);
        assert_eq!(code, 1);
        assert!(b < 64 << 20, "{args:?}: {b} bytes");
        // 10× the violations, within 4 MB of the same peak.
        assert!(b < s + (4 << 20), "{args:?}: {s} → {b} bytes");
    }
    let _ = std::fs::remove_file(small);
    let _ = std::fs::remove_file(big);
}

/// The limits the hostile inputs are checked under, as flags.
const LIMITS: [&str; 8] = [
    "--max-line-bytes",
    "1048576",
    "--max-state-bytes",
    "4194304",
    "--max-projection-bytes",
    "4194304",
    "--max-bookkeeping-bytes",
    "8388608",
];

/// What the limits above allow in all: a parsed line (64 MiB at least,
/// twice: the line's parse and the copy a snapshot makes), the state and
/// the projection three times each (held, copied, written), the
/// bookkeeping twice (its vectors grow by doubling).
const ALLOWED: u64 = 2 * (64 << 20) + 3 * (4 << 20) + 3 * (4 << 20) + 2 * (8 << 20);

/// Writes a hostile stream into the test's temp directory.
fn hostile(h: agui_gen::hostile::Hostile) -> std::path::PathBuf {
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hostile-{}.jsonl", h.name()));
    let out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    h.write(out).unwrap();
    file
}

#[test]
fn peak_memory_is_bounded_by_the_limits_on_hostile_inputs() {
    use agui_gen::hostile::Hostile;
    let base_file = hostile(Hostile::ManyRuns { runs: 1 });
    let (base, _) = peak(&["--format", "json"], &base_file);
    // Each of these holds gigabytes (or hundreds of megabytes) when a
    // limit does not bound what it costs.
    for h in [
        Hostile::CopyChain { copies: 23 },
        Hostile::OneMessage {
            bytes: 96 << 20,
            array: true,
        },
        Hostile::WideSnapshot { bytes: 16 << 20 },
        Hostile::OpenIds { ids: 1_000_000 },
    ] {
        let file = hostile(h);
        for form in [&["--format", "json"][..], &["--format", "text"][..]] {
            let args: Vec<&str> = form.iter().chain(&LIMITS).copied().collect();
            let (p, code) = peak(&args, &file);
            assert!(
                code == 0 || code == 1 || code == 3,
                "{}: exit {code}",
                h.name()
            );
            assert!(
                p < base + ALLOWED,
                "{} {form:?}: peak {} MB, base {} MB, allowed {} MB more",
                h.name(),
                p >> 20,
                base >> 20,
                ALLOWED >> 20
            );
        }
        let _ = std::fs::remove_file(file);
    }
    let _ = std::fs::remove_file(base_file);
}

#[test]
fn peak_memory_does_not_grow_with_runs_or_owners_past_the_bookkeeping_budget() {
    use agui_gen::hostile::Hostile;
    let tight = ["--max-bookkeeping-bytes", "1048576"];
    for (small, large) in [
        (
            Hostile::ManyRuns { runs: 5_000 },
            Hostile::ManyRuns { runs: 40_000 },
        ),
        (
            Hostile::ManyOwners { owners: 20_000 },
            Hostile::ManyOwners { owners: 160_000 },
        ),
    ] {
        let (fs, fl) = (hostile(small), hostile(large));
        for form in [&["--format", "json"][..], &["--format", "text"][..]] {
            let args: Vec<&str> = form.iter().chain(&tight).copied().collect();
            let (s, _) = peak(&args, &fs);
            let (l, _) = peak(&args, &fl);
            // Eight times the ids: without the budget the records of the
            // larger stream hold 9 MB (runs) to 60 MB (owners) more; with
            // it, under 2 MB.
            assert!(
                l < s + (4 << 20),
                "{} → {} {form:?}: {} MB → {} MB",
                small.name(),
                large.name(),
                s >> 20,
                l >> 20
            );
        }
        let _ = std::fs::remove_file(fs);
        let _ = std::fs::remove_file(fl);
    }
}
