//! Memory never grows with the number of violations (docs/rules.md
//! "Checker limits"): `check` on many one-violation lines, each output
//! form, peak resident set of the child read with `wait4`. Nor does `run`'s
//! with the number of cases: it holds one case at a time, and keeps no
//! stream or answer after a case's lines are written. Memory bounds, not
//! timings; the 2-million-line figure of docs/performance.md comes from
//! `agui-bench violations`.

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
