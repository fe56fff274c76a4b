//! How a live check ends when the producer does not end it: a stop the
//! user asked for (a signal), our time limits before and after the
//! response head and in the middle of an event, and a producer that keeps
//! the connection open after its run ended.
//!
//! Expected answers: docs/rules.md "Checker limits" (a stop of ours is a
//! `time` limit notice, never `run.unterminated` or
//! `transport.ended-early`; the verdict is `inconclusive` unless an error
//! came first) and docs/decisions.md "Stopping a live check".

mod support;

use agui_live::{LiveError, LiveRun, Options, Progress, Stop, check_url};
use agui_model::{LimitKind, RuleId, Verdict};
use serde_json::json;
use std::time::{Duration, Instant};
use support::events::{finish, not_open, start};
use support::raw::{RawEnd, RawReply, RawServer, head};
use support::server::{End, Reply, Server, sse_body};
use support::{input, opts, rules};

fn limits(run: &LiveRun) -> Vec<(LimitKind, usize)> {
    run.report
        .limits
        .iter()
        .map(|n| (n.kind, n.index))
        .collect()
}

/// A stop asked for `after` from now, as a signal would.
fn stop_after(after: Duration) -> Stop {
    let stop = Stop::default();
    let s = stop.clone();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        s.request(15);
    });
    stop
}

#[test]
fn a_stop_before_the_head_is_a_time_notice() {
    let server = RawServer::start(|_| RawReply {
        bytes: Vec::new(),
        end: RawEnd::Hang(Duration::from_secs(5)),
    });
    let o = Options {
        stop: stop_after(Duration::from_millis(300)),
        ..opts()
    };
    let t = Instant::now();
    let run = check_url(&server.url("x"), &input(), &o, None, &mut |_| {}).unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(run.status, None);
    assert_eq!(run.failure, Some(LiveError::Stopped { signal: 15 }));
    assert_eq!(rules(&run), []);
    assert_eq!(limits(&run), [(LimitKind::Time, 0)]);
    let m = &run.report.limits[0].message;
    assert!(m.contains("stopped by SIGTERM"), "{m}");
    assert_eq!(run.report.verdict(), Verdict::Inconclusive);
}

#[test]
fn a_stop_mid_body_keeps_what_came_and_blames_nothing() {
    let body = sse_body(&[start(), not_open()]);
    let server = Server::replying(Reply::sse(body).end(End::Hang(Duration::from_secs(5))));
    let stop = Stop::default();
    let o = Options {
        stop: stop.clone(),
        ..opts()
    };
    let t = Instant::now();
    // Stopped as soon as the second event was checked, as a signal would.
    let run = check_url(&server.url(), &input(), &o, None, &mut |p| {
        if let Progress::Violation(v) = p
            && v.rule == RuleId::TextNotOpen
        {
            stop.request(15);
        }
    })
    .unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(run.report.events, 2);
    // No run.unterminated, no transport.ended-early: the cut was ours.
    assert_eq!(rules(&run), [(RuleId::TextNotOpen, 1)]);
    assert_eq!(limits(&run), [(LimitKind::Time, 2)]);
    // The error came before the cut: reject.
    assert_eq!(run.report.verdict(), Verdict::Reject);
}

#[test]
fn headers_then_silence_is_a_time_notice_at_0() {
    let server = Server::replying(Reply::sse("").end(End::Hang(Duration::from_secs(5))));
    let mut o = opts();
    o.limits.idle = Duration::from_millis(300);
    let run = check_url(&server.url(), &input(), &o, None, &mut |_| {}).unwrap();
    assert_eq!(run.status, Some(200));
    assert_eq!(
        run.failure,
        Some(LiveError::Idle {
            limit: Duration::from_millis(300)
        })
    );
    assert_eq!(rules(&run), []);
    assert_eq!(limits(&run), [(LimitKind::Time, 0)]);
    assert_eq!(run.report.verdict(), Verdict::Inconclusive);
}

#[test]
fn a_body_that_stalls_mid_event_is_cut_without_blame() {
    let mut body = sse_body(&[start()]);
    body.extend_from_slice(b"data: {\"type\":\"TEXT_MESS");
    let server = Server::replying(Reply::sse(body).end(End::Hang(Duration::from_secs(5))));
    let mut o = opts();
    o.limits.idle = Duration::from_millis(300);
    let run = check_url(&server.url(), &input(), &o, None, &mut |_| {}).unwrap();
    assert_eq!(run.report.events, 1);
    // The partial event is not `transport.unterminated-event`: we cut it.
    assert_eq!(rules(&run), []);
    assert_eq!(limits(&run), [(LimitKind::Time, 1)]);
    assert_eq!(run.report.verdict(), Verdict::Inconclusive);
}

#[test]
fn a_connection_kept_open_after_the_run_is_let_go_after_the_grace() {
    let o = Options {
        run_end_grace: Duration::from_millis(300),
        ..opts()
    };
    // Silent, or sending keep-alive comments: comments do not extend it.
    for end in [
        End::Hang(Duration::from_secs(8)),
        End::Trickle {
            every: Duration::from_millis(50),
            total: Duration::from_secs(8),
        },
    ] {
        let server = Server::replying(Reply::sse(sse_body(&[start(), finish()])).end(end));
        let mut warnings = Vec::new();
        let t = Instant::now();
        let run = check_url(&server.url(), &input(), &o, None, &mut |p| {
            if let Progress::Warning(w) = p {
                warnings.push(w.to_owned());
            }
        })
        .unwrap();
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "{end:?}: {:?}",
            t.elapsed()
        );
        assert_eq!(run.failure, None, "{end:?}");
        assert_eq!(run.report.events, 2);
        assert_eq!(rules(&run), [], "{end:?}");
        // Our stop: a `time` notice (what came later is not judged).
        assert_eq!(limits(&run), [(LimitKind::Time, 2)], "{end:?}");
        assert_eq!(run.report.verdict(), Verdict::Inconclusive);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("kept the connection open")),
            "{warnings:?}"
        );
    }
    // An event within the grace is waited for: a second run is read whole.
    let first = sse_body(&[start(), finish()]);
    let mut body = first.clone();
    body.extend(sse_body(&[
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r2"}),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2"}),
    ]));
    let server = Server::replying(
        Reply::sse(body)
            .pieces(&[first.len(), usize::MAX], Duration::from_millis(150))
            .end(End::Hang(Duration::from_secs(8))),
    );
    // A grace well over the pause, so a busy machine cannot make it lapse.
    let o = Options {
        run_end_grace: Duration::from_secs(1),
        ..opts()
    };
    let t = Instant::now();
    let run = check_url(&server.url(), &input(), &o, None, &mut |_| {}).unwrap();
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert_eq!(run.report.events, 4);
    assert_eq!(run.runs.total(), 2);
    assert_eq!(rules(&run), []);
}

#[test]
fn violations_kept_are_capped_and_all_counted() {
    let mut body = sse_body(&[start()]);
    for _ in 0..10 {
        body.extend_from_slice(b"data: not json\n\n");
    }
    body.extend(sse_body(&[finish()]));
    let server = Server::replying(Reply::sse(body));
    let o = Options {
        max_violations: 3,
        ..opts()
    };
    let run = check_url(&server.url(), &input(), &o, None, &mut |_| {}).unwrap();
    assert_eq!(run.report.violations.len(), 3);
    assert_eq!(run.report.counts.violations(), 10);
    assert_eq!(limits(&run), [(LimitKind::Violations, 4)]);
    // The violations limit leaves nothing unjudged.
    assert_eq!(run.report.verdict(), Verdict::Reject);
}

#[test]
fn a_stop_after_the_head_ends_a_silent_body() {
    // A head, then nothing: the stop ends the wait at once.
    let server = RawServer::start(|_| RawReply {
        bytes: head(&[]),
        end: RawEnd::Hang(Duration::from_secs(5)),
    });
    let stop = Stop::default();
    let o = Options {
        stop: stop.clone(),
        ..opts()
    };
    let t = Instant::now();
    // Stopped once the head arrived, as a signal would.
    let run = check_url(&server.url("x"), &input(), &o, None, &mut |p| {
        if let Progress::Connected { .. } = p {
            stop.request(15);
        }
    })
    .unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(run.status, Some(200));
    assert_eq!(limits(&run), [(LimitKind::Time, 0)]);
    assert_eq!(run.report.verdict(), Verdict::Inconclusive);
}
