//! Memory never grows with the number of violations (RULES.md "Checker
//! limits"): `check` on many one-violation lines, each output form, peak
//! resident set of the child read with `wait4`. A memory bound, not a
//! timing; the 2-million-line figure of docs/performance.md comes from
//! `agui-bench violations`.

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
