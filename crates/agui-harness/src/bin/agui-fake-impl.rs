//! Test support: a deliberately misbehaving (or scripted) implementation
//! of the agui-conform protocol, for the harness's own tests. Not an
//! implementation to score.
//!
//! `agui-fake-impl [--one-shot] [--fork] [--daemon] [--caps a,b] BEHAVIOUR[@SUBSTR]`
//!
//! `--fork` first starts a child (`sleep 1000`, its stdout closed) and
//! appends "OWN_PID CHILD_PID" to the file `$AGUI_FAKE_PIDFILE`: the
//! harness must kill it with the implementation. `--daemon` first starts
//! a daemon as a double fork does (`sleep 1000` in a session of its own,
//! its parent gone at once, its stdio on /dev/null, the environment
//! inherited): out of the process group, orphaned. Tests find it by a
//! marker they put in the environment.
//!
//! With `@SUBSTR` the behaviour applies only to cases whose id contains
//! SUBSTR; other cases are accepted. Behaviours:
//! answers: `accept`, `reject:N[:RULE]`, `reject-end`, `projection:JSON`,
//! `misname` (the reference model's verdict and index, a rule not violated
//! there: the catalogue's first), `misname-later` (the same, with the
//! catalogue's last stream rule not violated there),
//! `skip`, `self-error`, `sigblk` (rejects at 0, its message the signals it
//! was started with blocked, `SigBlk` of /proc/self/status); misbehaviours: `crash`, `hang`, `silent`,
//! `garbage`, `silent-exit`, `close-stdin` (closes stdin, then blocks),
//! `wrong-seq`, `flood`, `no-read`, `alloc`
//! (reserves 4 GiB at once, then blocks),
//! `two-answers`, `late-second-answer` (the second 200 ms later),
//! `exit-leaving-stdout` (starts a child that holds stdout open, exits
//! without answering), `say:TEXT` (writes TEXT to stderr, rejects at 0
//! with the message TEXT); process-level: `exit-after-handshake`, `ignore-stop`,
//! `bad-version`, `no-handshake`.

use serde_json::{Value, json};
use std::io::{BufRead, Read, Write};
use std::time::Duration;

fn sleep_forever() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn emit(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// The result object for a well-behaved answer, or `None` when the
/// behaviour is a misbehaviour (already acted out, or to act out).
fn answer(behaviour: &str, events: &[Value]) -> Option<Value> {
    let (name, arg) = behaviour.split_once(':').unwrap_or((behaviour, ""));
    Some(match name {
        "accept" => json!({"verdict": "accept"}),
        "reject" => {
            let mut parts = arg.splitn(2, ':');
            let index: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            let mut r = json!({"verdict": "reject", "index": index});
            if let Some(rule) = parts.next() {
                r["rule"] = json!(rule);
            }
            r
        }
        "reject-end" => json!({"verdict": "reject", "index": events.len()}),
        "say" => {
            eprintln!("{arg}");
            json!({"verdict": "reject", "index": 0, "message": arg})
        }
        "misname" => misnamed(events, false),
        "misname-later" => misnamed(events, true),
        "sigblk" => {
            // Which signals this process was started with blocked (Linux).
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let mask = status
                .lines()
                .find_map(|l| l.strip_prefix("SigBlk:"))
                .unwrap_or("?")
                .trim()
                .to_string();
            json!({"verdict": "reject", "index": 0, "message": mask})
        }
        "projection" => {
            json!({"verdict": "accept", "projection": serde_json::from_str::<Value>(arg).unwrap_or(Value::Null)})
        }
        _ => return None,
    })
}

/// Right verdict and index (the reference model's
/// first error), but a rule that is not among the violations there: the
/// catalogue's first such rule, or with `later` its last stream rule (one
/// a case that states only its first violation cannot rule out).
fn misnamed(events: &[Value], later: bool) -> Value {
    let mut c = agui_model::Checker::without_projection();
    for e in events {
        c.push(e);
    }
    let report = c.finish();
    let Some(first) = report
        .violations
        .iter()
        .find(|v| v.rule.severity() == agui_model::Severity::Error)
    else {
        return json!({"verdict": "accept"});
    };
    let there: Vec<agui_model::RuleId> = report
        .violations
        .iter()
        .filter(|v| v.index == first.index)
        .map(|v| v.rule)
        .collect();
    // The catalogue's first rule not broken there: earlier than the real
    // one where there is such a rule (what a case can rule out).
    let mut candidates = agui_model::RuleId::violations().filter(|r| !there.contains(r));
    let wrong = if later {
        candidates.last()
    } else {
        candidates.next()
    };
    json!({"verdict": "reject", "index": first.index, "rule": wrong.map(|r| r.as_str())})
}

/// Acts out a misbehaviour on a run request (returns for the ones that
/// keep the process alive).
fn misbehave(name: &str, seq: &Value) {
    match name {
        "crash" => {
            eprintln!("fake: about to crash on seq {seq}");
            std::process::abort();
        }
        "hang" | "no-read" => sleep_forever(),
        "close-stdin" => {
            eprintln!("fake: closing stdin on seq {seq}");
            // SAFETY: closing this process's own descriptor 0.
            unsafe {
                libc::close(0);
            }
            sleep_forever();
        }
        "silent" => {}
        "garbage" => emit("this is not json"),
        "silent-exit" => std::process::exit(0),
        "wrong-seq" => emit(&json!({"seq": seq.as_u64().unwrap_or(0) + 1000, "result": {"verdict": "accept"}}).to_string()),
        "late-second-answer" => {
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
            std::thread::sleep(Duration::from_millis(200));
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
        }
        "exit-leaving-stdout" => {
            let _ = spawn_sleeper(true);
            std::process::exit(0);
        }
        "two-answers" => {
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
            emit(&json!({"seq": seq, "result": {"verdict": "accept"}}).to_string());
        }
        "flood" => {
            let mut out = std::io::stdout().lock();
            let chunk = vec![b'x'; 1 << 16];
            loop {
                if out.write_all(&chunk).is_err() {
                    std::process::exit(1);
                }
            }
        }
        "alloc" => {
            // No core file: the abort ends the process at once.
            no_core_dump();
            // 4 GiB of address space at once, untouched: only a limit makes
            // it fail (Rust aborts: "memory allocation of … failed").
            // Without one the hog blocks, so no answer can come from a
            // working allocation, and no clock tells the two apart.
            let v: Vec<u8> = Vec::with_capacity(4 << 30);
            std::hint::black_box(&v);
            sleep_forever();
        }
        "skip" => emit(&json!({"seq": seq, "skipped": {"reason": "fake skips"}}).to_string()),
        "self-error" => emit(&json!({"seq": seq, "errored": {"message": "fake failed", "context": {"why": "asked to"}}}).to_string()),
        other => {
            eprintln!("fake: unknown behaviour {other}");
            std::process::exit(2);
        }
    }
}

/// Sets this process's core-file limit to 0.
fn no_core_dump() {
    let zero = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: setrlimit on this process with a valid struct.
    unsafe {
        libc::setrlimit(libc::RLIMIT_CORE, &zero);
    }
}

/// Starts `sleep 1000` (holding our stdout when `keep_stdout`) and records
/// "OWN_PID CHILD_PID" in `$AGUI_FAKE_PIDFILE`.
fn spawn_sleeper(keep_stdout: bool) -> Option<u32> {
    let mut cmd = std::process::Command::new("sleep");
    cmd.arg("1000").stdin(std::process::Stdio::null());
    if !keep_stdout {
        cmd.stdout(std::process::Stdio::null());
    }
    let child = cmd.spawn().ok()?;
    let pid = child.id();
    std::mem::forget(child);
    if let Ok(path) = std::env::var("AGUI_FAKE_PIDFILE") {
        use std::io::Write as _;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{} {pid}", std::process::id());
        }
    }
    Some(pid)
}

/// Fork, `setsid`, fork again, and exec `sleep 1000` with stdio on
/// /dev/null in the grandchild; the middle process exits at once, so the
/// sleeper is orphaned. Called while this process has one thread.
fn daemonize_sleeper() {
    let (Ok(prog), Ok(arg), Ok(null)) = (
        std::ffi::CString::new("sleep"),
        std::ffi::CString::new("1000"),
        std::ffi::CString::new("/dev/null"),
    ) else {
        return;
    };
    let argv = [prog.as_ptr(), arg.as_ptr(), std::ptr::null()];
    // SAFETY: between fork and exec/_exit only async-signal-safe calls are
    // made, on data prepared before the fork; this process is
    // single-threaded here.
    unsafe {
        let middle = libc::fork();
        if middle == 0 {
            libc::setsid();
            if libc::fork() == 0 {
                let fd = libc::open(null.as_ptr(), libc::O_RDWR);
                for target in 0..3 {
                    libc::dup2(fd, target);
                }
                libc::execvp(prog.as_ptr(), argv.as_ptr());
                libc::_exit(127);
            }
            libc::_exit(0);
        }
        if middle > 0 {
            let mut status = 0;
            libc::waitpid(middle, &mut status, 0);
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let one_shot = take_flag(&mut args, "--one-shot");
    if take_flag(&mut args, "--fork") {
        let _ = spawn_sleeper(false);
    }
    if take_flag(&mut args, "--daemon") {
        daemonize_sleeper();
    }
    let caps = take_value(&mut args, "--caps").unwrap_or_else(|| "verdict,index,rule".into());
    let spec = args.pop().unwrap_or_else(|| "accept".into());
    let (behaviour, only) = match spec.split_once('@') {
        Some((b, s)) => (b.to_string(), Some(s.to_string())),
        None => (spec, None),
    };
    if one_shot {
        let mut input = String::new();
        let _ = std::io::stdin().read_to_string(&mut input);
        let events: Vec<Value> = input
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        match answer(&behaviour, &events) {
            Some(r) => emit(&r.to_string()),
            None => misbehave(behaviour.as_str(), &json!(0)),
        }
        return;
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let msg: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        match msg["cmd"].as_str() {
            Some("start") => {
                match behaviour.as_str() {
                    "bad-version" => {
                        emit(r#"{"protocol": 99, "error": "fake speaks only 99"}"#);
                        continue;
                    }
                    "no-handshake" => sleep_forever(),
                    _ => {}
                }
                let caps: Vec<&str> = caps.split(',').collect();
                emit(&json!({"protocol": 1, "implementation": {"name": "fake", "version": "0", "language": "rust"}, "capabilities": caps}).to_string());
                if behaviour == "exit-after-handshake" {
                    eprintln!("fake: leaving after the handshake");
                    std::process::exit(3);
                }
                if behaviour == "no-read" {
                    sleep_forever();
                }
            }
            Some("run") => {
                let id = msg["case"]["id"].as_str().unwrap_or("");
                let applies = only.as_deref().is_none_or(|s| id.contains(s));
                let process_level = matches!(
                    behaviour.as_str(),
                    "ignore-stop" | "exit-after-handshake" | "no-read"
                );
                let b = if applies && !process_level {
                    behaviour.as_str()
                } else {
                    "accept"
                };
                let events = msg["case"]["events"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[]);
                match answer(b, events) {
                    Some(r) => emit(&json!({"seq": msg["seq"], "result": r}).to_string()),
                    None => misbehave(b, &msg["seq"]),
                }
            }
            Some("stop") => {
                if behaviour == "ignore-stop" {
                    sleep_forever();
                }
                return;
            }
            _ => {}
        }
    }
}

fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != flag);
    args.len() != before
}

fn take_value(args: &mut Vec<String>, flag: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}
