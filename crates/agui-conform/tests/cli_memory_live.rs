//! Memory is bounded over HTTP and in the HTML page (docs/rules.md
//! "Checker limits": limits bound memory, and a picture of the stream
//! keeps its own bound). A decompression bomb — a `deflate` body of a few
//! hundred KB that decodes to 100 MB of SSE events — is built at test
//! time, served over loopback, and `check --url --html` is run on it as a
//! child process; so is `check - --html` on 100 MB of JSON Lines written
//! to its standard input. The peak resident set (`wait4`'s `ru_maxrss`, a
//! memory figure, not a timing) must stay within a fixed multiple of the
//! limits in force (the page's budget and the longest event) of the same
//! check on 1 MB, whatever the size of the stream.

mod support;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use std::io::Write;
use std::process::{Command, Stdio};
use support::server::{Reply, Server};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// The page's budget and the longest event in force in these checks.
const PAGE_BYTES: usize = 4 << 20;
const EVENT_BYTES: usize = 1 << 20;

/// A zlib body decoding to about `decoded` bytes of one valid run: a
/// message of ~1 KB deltas. Built as it is compressed: the decoded body is
/// never held.
fn bomb(decoded: usize) -> Vec<u8> {
    let delta = "x".repeat(1000);
    let unit = format!(
        "data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{delta}\"}}\n\n"
    );
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    z.write_all(
        b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
          data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n\n",
    )
    .unwrap();
    for _ in 0..decoded / unit.len() {
        z.write_all(unit.as_bytes()).unwrap();
    }
    z.write_all(
        b"data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\n\
          data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
    )
    .unwrap();
    z.finish().unwrap()
}

/// Peak RSS in bytes and exit code of `agui-conform ARGS` (reaped by
/// `wait4`, which reports that one child's peak).
#[allow(clippy::zombie_processes)]
fn peak(args: &[&str]) -> (u64, i32) {
    peak_fed(args, 0)
}

/// [`peak`], with about `lines` bytes of one valid run in JSON Lines
/// written to its standard input as it reads (never held here).
#[allow(clippy::zombie_processes)]
fn peak_fed(args: &[&str], lines: usize) -> (u64, i32) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(stdin);
        let line = format!(
            "{{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{}\"}}\n",
            "x".repeat(1000)
        );
        if lines > 0 {
            let _ = w.write_all(
                b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\
                  {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n",
            );
            for _ in 0..lines / line.len() {
                let _ = w.write_all(line.as_bytes());
            }
            let _ = w.write_all(
                b"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\
                  {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n",
            );
        }
    });
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child; both pointers are valid.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let _ = feeder.join();
    // Linux reports kilobytes.
    (
        u64::try_from(usage.ru_maxrss).unwrap() * 1024,
        libc::WEXITSTATUS(status),
    )
}

/// Peak RSS of `check --url --html` on a bomb decoding to `decoded` bytes
/// (`extra` flags added), and the page written.
fn checked(decoded: usize, extra: &[&str]) -> (u64, String) {
    let body = bomb(decoded);
    let server = Server::replying(Reply::sse(body).header("Content-Encoding", "deflate"));
    let dir = support::Dir::new("memory-live");
    let page = dir.path("page.html");
    let (page_bytes, event_bytes) = (PAGE_BYTES.to_string(), EVENT_BYTES.to_string());
    let url = server.url();
    let mut args = vec![
        "check",
        "--url",
        &url,
        "--html",
        page.to_str().unwrap(),
        "--html-max-bytes",
        &page_bytes,
        "--max-line-bytes",
        &event_bytes,
    ];
    args.extend_from_slice(extra);
    let (rss, code) = peak(&args);
    assert_eq!(code, 0, "{decoded} bytes {extra:?}");
    (rss, std::fs::read_to_string(&page).unwrap())
}

#[test]
fn a_decompression_bomb_over_http_stays_within_the_limits() {
    const MB: usize = 1 << 20;
    let limits = (PAGE_BYTES + EVENT_BYTES) as u64;
    for extra in [&[][..], &["--format", "json", "--no-projection"]] {
        let (small, _) = checked(MB, extra);
        let (big, page) = checked(100 * MB, extra);
        eprintln!(
            "check --url --html {extra:?}: peak RSS {:.1} MB for 1 MB decoded, {:.1} MB for 100 MB decoded",
            small as f64 / 1e6,
            big as f64 / 1e6
        );
        // 100 times the body, within three times the limits of the same
        // check on 1 MB (before: 1.7 GB, about 17 times the body).
        assert!(big < small + 3 * limits, "{extra:?}: {small} → {big} bytes");
        // The page keeps its budget (and its fixed shell) and says what it
        // left out.
        assert!(
            page.len() < PAGE_BYTES + PAGE_BYTES / 4 + (512 << 10),
            "{}",
            page.len()
        );
        assert!(
            page.contains(r#""leftOut":{"#),
            "the page says what it left out"
        );
    }
}

#[test]
fn a_large_stream_on_stdin_draws_a_bounded_page() {
    const MB: usize = 1 << 20;
    let limits = (PAGE_BYTES + EVENT_BYTES) as u64;
    let dir = support::Dir::new("memory-stdin");
    let page = dir.path("page.html");
    let (page_bytes, event_bytes) = (PAGE_BYTES.to_string(), EVENT_BYTES.to_string());
    let args = [
        "check",
        "-",
        "--html",
        page.to_str().unwrap(),
        "--html-max-bytes",
        &page_bytes,
        "--max-line-bytes",
        &event_bytes,
    ];
    let (small, code) = peak_fed(&args, MB);
    assert_eq!(code, 0);
    let (big, code) = peak_fed(&args, 100 * MB);
    assert_eq!(code, 0);
    eprintln!(
        "check - --html: peak RSS {:.1} MB for 1 MB of JSON Lines, {:.1} MB for 100 MB",
        small as f64 / 1e6,
        big as f64 / 1e6
    );
    assert!(big < small + 3 * limits, "{small} → {big} bytes");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.len() < PAGE_BYTES + PAGE_BYTES / 4 + (512 << 10),
        "{}",
        html.len()
    );
    assert!(html.contains(r#""leftOut":{"#));
}

/// A zlib body decoding to about `decoded` bytes of many short runs, each
/// one message of a ~1 KB delta (one run's projection stays small: the
/// projection's own bound is the checker's, not tested here).
fn bomb_of_runs(decoded: usize) -> Vec<u8> {
    let run = format!(
        "data: {{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{}\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}}\n\n\
         data: {{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}}\n\n",
        "x".repeat(1000)
    );
    let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
    for _ in 0..decoded / run.len() {
        z.write_all(run.as_bytes()).unwrap();
    }
    z.finish().unwrap()
}

#[test]
fn run_producer_on_a_decompression_bomb_stays_within_the_limits() {
    const MB: usize = 1 << 20;
    let peak_of = |decoded: usize| {
        let server = Server::replying(
            Reply::sse(bomb_of_runs(decoded)).header("Content-Encoding", "deflate"),
        );
        let dir = support::Dir::new("memory-producer");
        let captures = dir.path("captures");
        let url = server.url();
        let (rss, code) = peak(&[
            "run",
            "--producer",
            &url,
            "--filter",
            "plain",
            "--format",
            "json",
            "--captures",
            captures.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{decoded}");
        // The capture file holds the whole conversation all the same.
        let saved = std::fs::metadata(captures.join("plain.jsonl"))
            .unwrap()
            .len();
        assert!(saved as usize > decoded * 9 / 10, "{saved}");
        rss
    };
    let small = peak_of(MB);
    let big = peak_of(100 * MB);
    eprintln!(
        "run --producer: peak RSS {:.1} MB for 1 MB decoded, {:.1} MB for 100 MB decoded",
        small as f64 / 1e6,
        big as f64 / 1e6
    );
    // What the suite keeps of a conversation for its record is bounded
    // (agui_live::suite::STREAM_KEEP_BYTES, 4 MiB of JSON, held as values
    // of up to about four times that): within five times it.
    assert!(big < small + 5 * (4 << 20), "{small} → {big} bytes");
}
