//! Issue 42 on live checks: one line-length rule (an event of exactly N
//! bytes of data is read under a limit of N, one of N + 1 skipped, as a
//! file's line is), and a stop after the run is our own: a `time` limit
//! notice naming the grace and its flag.
//!
//! Expected answers: docs/rules.md "Checker limits" (line length; a stop
//! the checker's own time limit causes is a `time` notice and the verdict
//! is `inconclusive` unless an error came first) and `run.after-finished`
//! for an event after `RUN_FINISHED`.

mod support;

use agui_live::{LiveRun, Options, check_url};
use agui_model::{LimitKind, RuleId, Verdict};
use serde_json::{Value, json};
use std::time::Duration;
use support::events::{finish, start};
use support::opts;
use support::server::{End, Reply, Server, sse_body};

fn check(server: &Server, o: &Options) -> LiveRun {
    let input = agui_live::input::default_input();
    check_url(&server.url(), &input, o, None, &mut |_| {}).unwrap()
}

fn rules(run: &LiveRun) -> Vec<(RuleId, usize)> {
    let v = &run.report.violations;
    v.iter().map(|v| (v.rule, v.index)).collect()
}

fn limits(run: &LiveRun) -> Vec<(LimitKind, usize)> {
    let l = &run.report.limits;
    l.iter().map(|n| (n.kind, n.index)).collect()
}

/// A `CUSTOM` event of exactly `len` bytes of JSON text.
fn custom_of(len: usize) -> Value {
    let bare = json!({"type": "CUSTOM", "name": "n", "value": ""}).to_string();
    let v = json!({"type": "CUSTOM", "name": "n", "value": "x".repeat(len - bare.len())});
    assert_eq!(v.to_string().len(), len);
    v
}

#[test]
fn an_event_of_exactly_the_limit_is_read_and_one_byte_more_is_skipped() {
    let o = Options {
        max_event_bytes: 100,
        ..opts()
    };
    let at = check(
        &Server::replying(Reply::sse(sse_body(&[start(), custom_of(100), finish()]))),
        &o,
    );
    assert_eq!(limits(&at), []);
    assert_eq!(rules(&at), []);
    assert_eq!(at.report.verdict(), Verdict::Accept);
    let over = check(
        &Server::replying(Reply::sse(sse_body(&[start(), custom_of(101), finish()]))),
        &o,
    );
    assert_eq!(limits(&over), [(LimitKind::LineBytes, 1)]);
    assert_eq!(over.report.verdict(), Verdict::Inconclusive);
}

/// `RUN_STARTED`, `RUN_FINISHED`, then after `pause` a stray
/// `TEXT_MESSAGE_END` on the same connection, kept open.
fn stray_after(pause: Duration) -> Server {
    let first = sse_body(&[start(), finish()]);
    let mut body = first.clone();
    body.extend(sse_body(&[
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
    ]));
    Server::replying(
        Reply::sse(body)
            .pieces(&[first.len(), usize::MAX], pause)
            .end(End::Hang(Duration::from_secs(8))),
    )
}

#[test]
fn a_stop_after_the_run_is_a_time_notice_naming_the_grace() {
    let o = Options {
        run_end_grace: Duration::from_millis(300),
        ..opts()
    };
    let run = check(&stray_after(Duration::from_millis(1500)), &o);
    assert_eq!(run.failure, None);
    assert_eq!(run.report.events, 2);
    assert_eq!(rules(&run), []);
    assert_eq!(limits(&run), [(LimitKind::Time, 2)]);
    assert_eq!(run.report.limits[0].limit, 300);
    let message = &run.report.limits[0].message;
    assert!(message.contains("--run-end-grace 0.3"), "{message}");
    assert_eq!(run.report.verdict(), Verdict::Inconclusive);
    // Waited for long enough, the stray event is judged.
    let o = Options {
        run_end_grace: Duration::from_secs(4),
        ..opts()
    };
    let run = check(&stray_after(Duration::from_millis(500)), &o);
    assert_eq!(rules(&run), [(RuleId::RunAfterFinished, 2)]);
    assert_eq!(run.report.verdict(), Verdict::Reject);
}

/// A producer at `/agent/` answering one valid run; `/agent` answers
/// `status` with `Location: /agent/` (a missing trailing slash), and
/// `/loop` redirects to itself through `/agent`.
fn redirecting(status: u16) -> Server {
    Server::start(move |req| match req.path.as_str() {
        "/agent/" => Reply::sse(sse_body(&[start(), finish()])),
        "/loop" => Reply::sse("").status(307).header("Location", "/agent"),
        _ if status == 0 => Reply::sse("").status(307).header("Location", "/loop"),
        _ => Reply::sse("").status(status).header("Location", "/agent/"),
    })
}

#[test]
fn a_307_or_308_repeats_the_post_with_its_body() {
    for status in [307, 308] {
        let server = redirecting(status);
        let mut warnings = Vec::new();
        let input = agui_live::input::default_input();
        let run = check_url(&server.url(), &input, &opts(), None, &mut |p| {
            if let agui_live::Progress::Warning(w) = p {
                warnings.push(w.to_owned());
            }
        })
        .unwrap();
        assert_eq!(run.status, Some(200), "{status}");
        assert_eq!(rules(&run), [], "{status}");
        assert_eq!(run.report.events, 2);
        let asked = server.requests();
        assert_eq!(asked.len(), 2, "{status}");
        assert!(asked.iter().all(|r| r.method == "POST"), "{asked:?}");
        assert_eq!(asked[0].body, asked[1].body);
        assert_eq!(asked[1].json(), input);
        // The hop is named.
        let hop = format!("{status} {} → {}/", server.url(), server.url());
        assert!(warnings.iter().any(|w| w.contains(&hop)), "{warnings:?}");
    }
}

#[test]
fn a_301_302_or_303_is_judged_as_its_status_with_its_location() {
    for status in [301, 302, 303] {
        let server = redirecting(status);
        let run = check(&server, &opts());
        assert_eq!(rules(&run), [(RuleId::TransportStatus, 0)], "{status}");
        let message = &run.report.violations[0].message;
        assert!(message.contains(&format!("HTTP {status}")), "{message}");
        let location = format!("Location: {}/", server.url());
        assert!(message.contains(&location), "{message}");
        assert!(message.contains("GET"), "{message}");
        // Never followed: one request.
        assert_eq!(server.requests().len(), 1, "{status}");
    }
}

#[test]
fn a_redirect_loop_is_named_and_not_followed() {
    let server = redirecting(0);
    let run = check(&server, &opts());
    assert_eq!(rules(&run), [(RuleId::TransportStatus, 0)]);
    let message = &run.report.violations[0].message;
    assert!(message.contains("redirect loop"), "{message}");
    assert!(message.contains("after redirects: 307"), "{message}");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn raw_deflate_and_identity_in_a_list_are_decoded() {
    use std::io::Write;
    let body = sse_body(&[start(), finish()]);
    let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    raw.write_all(&body).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&body).unwrap();
    for (coding, bytes) in [
        ("deflate", raw.finish().unwrap()),
        ("identity, gzip", gz.finish().unwrap()),
    ] {
        let server = Server::replying(Reply::sse(bytes).header("Content-Encoding", coding));
        let run = check(&server, &opts());
        assert_eq!(run.failure, None, "{coding}");
        assert_eq!(run.report.events, 2, "{coding}");
        assert_eq!(rules(&run), [], "{coding}");
    }
}
