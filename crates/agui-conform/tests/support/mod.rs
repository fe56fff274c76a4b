//! What the CLI tests share: a scratch folder, a shell script speaking
//! suites/PROTOCOL.md, a valid stream, and agui-live's test server with a
//! producer that answers the suite's inputs.
#![allow(dead_code)] // each test binary uses its own share of these

#[path = "../../../agui-live/tests/support/server.rs"]
pub mod server;

#[path = "../../../agui-live/tests/support/events.rs"]
pub mod events;

#[path = "../../../agui-live/tests/support/raw.rs"]
pub mod raw;

#[path = "../../../agui-harness/tests/support/procs.rs"]
pub mod procs;

use serde_json::{Value, json};
use server::{Reply, Server, sse_body};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// Runs the CLI with `args` (no colour) and waits for its output.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Runs the CLI with `args` (no colour) and `stdin` on its standard input,
/// written from a thread of its own (borrowed, not copied) while this one
/// collects the output. The CLI may stop reading early: a broken pipe is
/// not the test's failure.
pub fn run_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let _ = pipe.write_all(stdin);
        });
        child.wait_with_output().unwrap()
    })
}

/// An output stream as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `<CARGO_TARGET_TMPDIR>/<test>` (created): where a test binary keeps
/// the files it writes, left for a look after a failure.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Events as JSON Lines, one a line, each line ended.
pub fn jsonl(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// A scratch folder, removed at the end.
pub struct Dir(pub PathBuf);

impl Dir {
    /// `<tmp>/agui-cli-<name>-<pid>-<n>`, empty (n counts the calls).
    pub fn new(name: &str) -> Dir {
        let p = {
            // Unique per call: two tests of one binary may pick the same name.
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::env::temp_dir().join(format!("agui-cli-{name}-{}-{n}", std::process::id()))
        };
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }

    /// Writes a file (and its folders) and returns its path.
    pub fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Writes a shell script; returns the command that runs it.
    pub fn script(&self, name: &str, text: &str) -> String {
        format!("sh {}", self.file(name, text).display())
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A persistent-mode implementation named `name`: it answers the handshake
/// and accepts every case (echoing its `seq`), except where a `case`
/// branch of `special` (shell `pattern) action ;;` lines) matches the
/// request line first.
pub fn accept_all(name: &str, special: &str) -> String {
    format!(
        r#"while read -r line; do
  case "$line" in
    *'"cmd":"start"'*) echo '{{"protocol":1,"implementation":{{"name":"{name}"}},"capabilities":["verdict","index","rule"]}}' ;;
    *'"cmd":"stop"'*) exit 0 ;;
{special}    *) seq=$(printf '%s' "$line" | sed 's/^[^0-9]*"seq":\([0-9]*\).*/\1/')
       echo "{{\"seq\":$seq,\"result\":{{\"verdict\":\"accept\"}}}}" ;;
  esac
done
"#
    )
}

/// `agui-conform run --no-progress --format json`, to add arguments to.
pub fn agui_run() -> Command {
    let mut c = Command::new(BIN);
    c.args(["run", "--no-progress", "--format", "json"]);
    c
}

/// The `summary` object of a JSON run's last stdout line (`null` if none).
pub fn run_summary(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    serde_json::from_str::<Value>(last).unwrap_or(Value::Null)["summary"].clone()
}

/// A valid stream: one run with one whole assistant message (accept).
pub const VALID: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}
"#;

/// A producer on 127.0.0.1 for the suite: each input is answered with one
/// valid run, and the state-carrying one breaks `attribution.null` (a
/// `CUSTOM` event with `subagentRunId: null`, at index 1).
pub fn suite_server() -> Server {
    Server::start(|req| {
        let input = req.json();
        let (t, r) = (input["threadId"].clone(), input["runId"].clone());
        let mut events = vec![json!({"type": "RUN_STARTED", "threadId": t, "runId": r})];
        if input["state"].as_object().is_some_and(|s| !s.is_empty()) {
            events.push(json!({"type": "CUSTOM", "name": "n", "value": 1, "subagentRunId": null}));
        }
        events.push(json!({"type": "RUN_FINISHED", "threadId": t, "runId": r}));
        Reply::sse(sse_body(&events))
    })
}

/// The test server answering every request with the events of a JSON Lines
/// file as one SSE body (a live check of a stream the tests keep as a file).
pub fn serve_jsonl(path: &std::path::Path) -> Server {
    let text = std::fs::read_to_string(path).unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Server::replying(Reply::sse(sse_body(&events)))
}

/// `/dev/full`, where it is a device (some containers have none: writing
/// to the path there would make a plain file of it in /dev); `None`, with
/// a note on stderr naming the part of `test` that is skipped, elsewhere.
pub fn full_device(test: &str) -> Option<&'static std::path::Path> {
    use std::os::unix::fs::FileTypeExt;
    let full = std::path::Path::new("/dev/full");
    let is_device = std::fs::metadata(full).is_ok_and(|m| m.file_type().is_char_device());
    if !is_device {
        eprintln!("SKIPPED {test}: /dev/full is not a character device here");
    }
    is_device.then_some(full)
}
