//! Memory is bounded by the limits (docs/rules.md "Checker limits"):
//! `check` on many one-violation lines and on hostile inputs built at test
//! time, each output form, the peak resident set of the child read with
//! `wait4`. Nor does `run`'s grow with the number of cases: it holds one
//! case at a time, and keeps no stream or answer after a case's lines are
//! written. Memory bounds, not timings; the figures of docs/performance.md
//! come from `agui-bench violations` and `memory`.

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// Peak RSS in bytes and exit code of `check ARGS FILE`.
fn peak(args: &[&str], file: &std::path::Path) -> (u64, i32) {
    let mut c = Command::new(BIN);
    c.arg("check").args(args).arg(file);
    peak_of(c)
}

/// Peak RSS in bytes and exit code of a command (reaped by `wait4` itself,
/// which reports the peak of that child, or of a descendant it waited for
/// if one grew larger).
#[allow(clippy::zombie_processes)]
fn peak_of(mut command: Command) -> (u64, i32) {
    let child = command
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
/// twice: the line's parse and the copy a snapshot makes), the state
/// three times (held, copied, written), the projection four times (what
/// it holds is counted, its buffers grow by doubling: held twice, copied,
/// written), the bookkeeping twice (its vectors grow by doubling).
const ALLOWED: u64 = 2 * (64 << 20) + 3 * (4 << 20) + 4 * (4 << 20) + 2 * (8 << 20);

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

/// Writes a corpus case of `bytes` or a little more to `path`: one valid
/// run, one long assistant message in 100-character deltas. Written as it
/// goes: this process stays small, and a child's peak as `wait4` reports it
/// starts from its parent's at the spawn (the memory it was forked from).
fn write_big_case(path: &std::path::Path, id: &str, bytes: usize) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(
        out,
        r#"{{"id":"{id}","description":"a long message","spec":"s","events":[{{"type":"RUN_STARTED","threadId":"t","runId":"r"}},{{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}}"#
    )
    .unwrap();
    let event = format!(
        r#",{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"{}"}}"#,
        "x".repeat(100)
    );
    for _ in 0..bytes.div_ceil(event.len()) {
        out.write_all(event.as_bytes()).unwrap();
    }
    write!(
        out,
        r#",{{"type":"TEXT_MESSAGE_END","messageId":"m"}},{{"type":"RUN_FINISHED","threadId":"t","runId":"r"}}],"expect":{{"verdict":"accept"}}}}"#
    )
    .unwrap();
    out.flush().unwrap();
}

/// A persistent implementation that parses nothing (Python reading lines,
/// far smaller than the harness): it rejects every case at 0, so every
/// case FAILs and the record keeps every stream.
const LEAN: &str = r#"import re, sys
for line in sys.stdin:
    if '"cmd":"start"' in line[:40]:
        print('{"protocol":1,"implementation":{"name":"lean"},"capabilities":["verdict","index"]}', flush=True)
    elif '"cmd":"stop"' in line[:40]:
        break
    else:
        seq = re.search(r'"seq":(\d+)', line[:100]).group(1)
        print('{"seq":%s,"result":{"verdict":"reject","index":0}}' % seq, flush=True)
"#;

#[test]
fn run_holds_one_case_at_a_time() {
    const CASE: usize = 16 << 20;
    let base = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("memory-run");
    let _ = std::fs::remove_dir_all(&base);
    let imp = base.join("lean.py");
    std::fs::create_dir_all(&base).unwrap();
    std::fs::write(&imp, LEAN).unwrap();
    let mut peaks = Vec::new();
    for n in [1, 3] {
        let dir = base.join(format!("suite-{n}"));
        std::fs::create_dir_all(dir.join("corpus/big")).unwrap();
        for k in 0..n {
            let id = format!("big/case-{k}");
            write_big_case(&dir.join(format!("corpus/{id}.json")), &id, CASE);
        }
        std::fs::write(
            dir.join("big.toml"),
            "[timeouts]\ncase-ms = 120000\n[corpus]\ndirs = [\"corpus\"]\n",
        )
        .unwrap();
        let record = dir.join("run.jsonl");
        let mut c = Command::new(BIN);
        c.args(["run", "--no-progress", "--format", "json", "--suite"])
            .arg(dir.join("big.toml"))
            .args(["--impl", &format!("python3 {}", imp.display()), "--record"])
            .arg(&record);
        let (p, code) = peak_of(c);
        assert_eq!(code, 1, "{n} cases: every case FAILs");
        // Every stream is in the record, one line per case.
        let text = std::fs::read_to_string(&record).unwrap();
        let kept = text
            .lines()
            .filter(|l| l.contains(r#""stream":{"events":["#))
            .count();
        assert_eq!(kept, n, "{n} cases");
        eprintln!("run, {n} cases of 16 MB: peak RSS {} MB", p >> 20);
        peaks.push(p);
    }
    let _ = std::fs::remove_dir_all(&base);
    // Two more cases, within a quarter of one case's file of the same
    // peak (holding them cost several times their file each).
    assert!(
        peaks[1] < peaks[0] + (CASE as u64 / 4),
        "1 case: {} MB, 3 cases: {} MB",
        peaks[0] >> 20,
        peaks[1] >> 20
    );
}
