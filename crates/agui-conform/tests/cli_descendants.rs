//! Nothing outlives `run` or `fuzz`, nor a SIGTERM of the harness: an
//! implementation that starts a daemon (a double fork and `setsid`, out of
//! its process group, orphaned at once) has it killed with the process,
//! at every restart and at the end. Survivors are found in `/proc` by a
//! marker in their environment.
#![cfg(target_os = "linux")]

mod support;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::{BIN, Dir, accept_all, agui_run, procs};

/// An implementation that first starts a marked daemon (and counts its
/// starts in `starts`), then accepts every case, except that a case whose
/// line contains `$1` gets `$2`: `crash` (killed) or `hang`.
fn script(d: &Dir, marker: &str) -> String {
    let starts = d.path("starts");
    let body = accept_all(
        "daemonizer",
        "    *\"$1\"*) if [ \"$2\" = crash ]; then kill -9 $$; else sleep 100; fi ;;\n",
    );
    let text = format!(
        "echo started >> {}\n( setsid env AGUI_TEST_MARK={marker} sleep 1000 </dev/null >/dev/null 2>&1 & )\n{body}",
        starts.display()
    );
    d.script("imp.sh", &text)
}

fn starts(d: &Dir) -> usize {
    std::fs::read_to_string(d.path("starts"))
        .unwrap_or_default()
        .lines()
        .count()
}

/// Running (not zombie) processes whose environment holds
/// `AGUI_TEST_MARK=marker`.
fn marked(marker: &str) -> Vec<u32> {
    procs::running_with("AGUI_TEST_MARK", marker)
}

/// Asserts that no marked process runs; kills any found (by pid) first,
/// so a failure leaves nothing behind.
fn assert_none(marker: &str, when: &str) {
    let found = marked(marker);
    for pid in &found {
        // SAFETY: a plain syscall on a process this test's script started.
        unsafe {
            libc::kill(*pid as i32, libc::SIGKILL);
        }
    }
    assert!(found.is_empty(), "{when}: survivors {found:?}");
}

fn marker(name: &str) -> String {
    format!("cli-{name}-{}", std::process::id())
}

#[test]
fn nothing_outlives_a_run_with_a_restart() {
    let d = Dir::new("descendants-run");
    let m = marker("run");
    let imp = format!("{} after-error-interleaved crash", script(&d, &m));
    let out = agui_run()
        .args([
            "--suite",
            "quick",
            "--filter",
            "run/after-error",
            "--impl",
            &imp,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // The process that crashed, and its restart: two daemons were started.
    assert_eq!(starts(&d), 2);
    assert_none(&m, "after run");
}

#[test]
fn nothing_outlives_a_fuzz_campaign() {
    let d = Dir::new("descendants-fuzz");
    let m = marker("fuzz");
    let imp = format!("{} fuzz/valid/1 crash", script(&d, &m));
    let out = Command::new(BIN)
        .args(["fuzz", "--no-progress", "--format", "json", "--impl", &imp])
        .args(["--cases", "6", "--seed", "4", "--mode", "valid"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    // The crash, the restarts while shrinking it and after it.
    assert!(starts(&d) > 2, "{} starts", starts(&d));
    assert_none(&m, "after fuzz");
}

#[test]
fn nothing_outlives_a_sigterm_of_the_harness() {
    let d = Dir::new("descendants-term");
    let m = marker("term");
    let imp = format!("{} after-error hang", script(&d, &m));
    let mut child = agui_run()
        .args([
            "--suite",
            "quick",
            "--filter",
            "run/after-error",
            "--impl",
            &imp,
        ])
        .args(["--timeout-ms", "60000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while marked(&m).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!marked(&m).is_empty(), "the daemon never started");
    // SAFETY: a plain syscall on the harness this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    assert_none(&m, "after SIGTERM");
}

/// A producer server (for `adapters/producers/serve.sh`) that first starts
/// a daemon (a double fork and `setsid`), then answers `GET /versions`.
const DAEMONIZING_SERVER: &str = r#"import http.server, json, os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(1000)
        os._exit(0)
    os._exit(0)
os.wait()
class Versions(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"fake": "0"}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Versions).serve_forever()
"#;

/// serve.sh stops a server that daemonized a process out of its group.
#[test]
fn serve_sh_stops_a_server_that_daemonizes() {
    let d = Dir::new("descendants-serve");
    let m = marker("serve");
    d.file("producers/fake/server.py", DAEMONIZING_SERVER);
    let python = d.file(
        "producers/fake/.venv/bin/python",
        "#!/bin/sh\nexec python3 \"$@\"\n",
    );
    std::fs::set_permissions(&python, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let serve = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../adapters/producers/serve.sh"
    );
    let work = d.path("work");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(serve)
            .args(args)
            .env("AGUI_PRODUCERS_DIR", d.path("producers"))
            .env("AGUI_TEST_MARK", &m)
            .output()
            .unwrap()
    };
    let port = port.to_string();
    let work_s = work.display().to_string();
    let started = run(&["start", "fake", &port, &work_s]);
    assert!(started.status.success(), "{started:?}");
    // The server and its daemon.
    assert_eq!(marked(&m).len(), 2, "{:?}", marked(&m));
    let stopped = run(&["stop", "fake", &work_s]);
    assert!(stopped.status.success(), "{stopped:?}");
    assert_none(&m, "after serve.sh stop");
}

/// `run --producer URL --peer CMD --record FILE`: a SIGTERM of the harness
/// while the peer judges the streams (it hangs) kills the peer and the
/// daemon it started.
#[test]
fn nothing_outlives_a_sigterm_of_a_producer_run_with_a_peer() {
    let d = Dir::new("descendants-peer");
    let m = marker("peer");
    let server = support::suite_server();
    let peer = format!("{} '\"cmd\":\"run\"' hang", script(&d, &m));
    let record = d.path("producer.jsonl");
    let mut child = Command::new(BIN)
        .args([
            "run",
            "--no-progress",
            "--producer",
            &server.url(),
            "--peer",
            &peer,
        ])
        .arg("--record")
        .arg(&record)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while marked(&m).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!marked(&m).is_empty(), "the peer's daemon never started");
    // SAFETY: a plain syscall on the harness this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15));
    assert_none(&m, "after SIGTERM");
}
