//! Pipes, as a shell uses them: every subcommand ends quietly (exit 0,
//! nothing on stderr) when the reader of its stdout goes away, and `check`
//! reading a pipe prints each violation as soon as its line was read, while
//! the writer still holds the pipe open.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// Runs `args`, reads `n` bytes of its stdout, closes the pipe, and returns
/// the exit status and stderr.
fn head(args: &[&str], stdin: Option<Vec<u8>>, n: usize) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        });
    }
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; n];
    out.read_exact(&mut buf).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().code(), err)
}

#[test]
fn every_subcommand_ends_quietly_when_stdout_closes() {
    let many_bad: Vec<u8> = "{}\n".repeat(200_000).into_bytes();
    for (args, stdin) in [
        (vec!["gen", "--count", "2000"], None),
        (vec!["rules"], None),
        (vec!["rules", "--format", "json"], None),
        (vec!["run", "--no-progress", "-v"], None),
        (vec!["run", "--no-progress", "--format", "json"], None),
        (vec!["check", "-"], Some(many_bad.clone())),
        (vec!["check", "--all", "-"], Some(many_bad.clone())),
        (
            vec!["check", "--format", "json", "-"],
            Some(many_bad.clone()),
        ),
    ] {
        let (code, err) = head(&args, stdin, 10);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

/// Reads the child's stdout on a thread, handing over each piece as it
/// arrives (the JSON report is one line, written piece by piece).
fn lines_of(mut out: std::process::ChildStdout) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    rx
}

#[test]
fn violations_from_a_stalled_pipe_arrive_before_the_input_ends() {
    for format in ["text", "json"] {
        let mut child = Command::new(BIN)
            .args(["check", "--format", format, "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let mut out = lines_of(child.stdout.take().unwrap());
        // One run, then an event without `type`; then the writer stalls.
        input
            .write_all(
                b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"foo\":1}\n",
            )
            .unwrap();
        input.flush().unwrap();
        let first = wait_for(&mut out, "schema.missing-field");
        assert!(first.is_some(), "{format}: nothing before the input ended");
        drop(input);
        // The rest comes at the end.
        while out.recv_timeout(Duration::from_secs(20)).is_ok() {}
        assert_eq!(child.wait().unwrap().code(), Some(1), "{format}");
    }
}

/// The output read so far, once it holds `needle` (up to 20 s).
fn wait_for(out: &mut mpsc::Receiver<String>, needle: &str) -> Option<String> {
    let mut seen = String::new();
    while let Ok(line) = out.recv_timeout(Duration::from_secs(20)) {
        seen.push_str(&line);
        if seen.contains(needle) {
            return Some(seen);
        }
    }
    None
}

/// `check --format json` into a pipe asks for a pipe of 1 MiB, so the
/// projection copied in at the end takes fewer turns between writer and
/// reader; without the projection the pipe is left as it was.
#[test]
fn a_json_report_with_the_projection_widens_its_pipe() {
    use std::os::fd::AsRawFd;
    let stream = concat!(
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        "\n",
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
        "\n"
    );
    let ceiling = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok())
        .unwrap_or(0);
    for (extra, widened) in [(None, true), (Some("--no-projection"), false)] {
        let mut child = Command::new(BIN)
            .args(["check", "--format", "json", "-"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut report = String::new();
        out.read_to_string(&mut report).unwrap();
        assert!(child.wait().unwrap().success(), "{report}");
        assert!(report.contains(r#""verdict":"accept""#), "{report}");
        // SAFETY: F_GETPIPE_SZ only reads the size of a pipe we hold.
        let size = unsafe { libc::fcntl(out.as_raw_fd(), libc::F_GETPIPE_SZ) };
        let want = if widened && ceiling >= 1 << 20 {
            1 << 20
        } else {
            64 << 10
        };
        assert_eq!(size, want, "{extra:?}");
    }
}

/// A report whose runs went to the spill file (more than 1 MiB of
/// projection) comes out whole and in order into a pipe (where the file's
/// pages are spliced in), into a file and to `/dev/null`: the same bytes,
/// with every run and every message's text as the stream made it.
#[test]
fn spilled_runs_reach_a_pipe_and_a_file_alike() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.jsonl");
    let (mut lines, mut want) = (String::new(), Vec::new());
    for run in 0..6 {
        lines.push_str(&format!(
            "{{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r{run}\"}}\n"
        ));
        for k in 0..400 {
            let (id, text) = (
                format!("m{run}.{k}"),
                format!("{run}:{k}:{}", "é\\\"x".repeat(200)),
            );
            lines.push_str(&format!(
                "{{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"{id}\",\"role\":\"assistant\"}}\n\
                 {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"{id}\",\"delta\":\"{text}\"}}\n\
                 {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"{id}\"}}\n"
            ));
            want.push((run, id, text.replace("\\\"", "\"")));
        }
        lines.push_str(&format!(
            "{{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r{run}\"}}\n"
        ));
    }
    std::fs::write(&input, lines).unwrap();
    let args = ["check", "--format", "json", input.to_str().unwrap()];
    let piped = Command::new(BIN).args(args).output().unwrap();
    assert!(
        piped.status.success(),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    let into = dir.path().join("report.json");
    let file = std::fs::File::create(&into).unwrap();
    let status = Command::new(BIN).args(args).stdout(file).status().unwrap();
    assert!(status.success());
    assert!(
        piped.stdout == std::fs::read(&into).unwrap(),
        "pipe and file differ"
    );
    let null = Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(null.success());
    assert!(piped.stdout.len() > 2 << 20, "{} bytes", piped.stdout.len());
    let report: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    let runs = report["projection"]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 6);
    for (run, id, text) in &want {
        let r = &runs[*run];
        assert_eq!(r["runId"], format!("r{run}"));
        let m = r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == id.as_str())
            .unwrap();
        assert!(m["content"] == text.as_str(), "{id}");
    }
}
