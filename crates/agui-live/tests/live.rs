//! Live checks against a real HTTP server on 127.0.0.1 (tests/support):
//! framing variants at awkward byte boundaries, corpus cases, every kind
//! of failed exchange, a large body and non-JSON data.
//!
//! Expected answers come from the HTML standard's event-stream rules, from
//! docs/rules.md (an item that is not JSON is `schema.not-json`; a stream that
//! ends inside a run is `run.unterminated` at index = number of events),
//! and from the corpus cases' hand-written expectations.

mod support;

use agui_live::capture::CaptureWriter;
use agui_live::{Limits, LiveError, LiveRun, Options, Progress, check_url};
use agui_model::RuleId;
use serde_json::json;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::server::{Body, End, Framing, Reply, Server, corpus_events, corpus_expect, sse_body};
use support::{input, opts, rules};

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;

/// Runs a live check; returns the run and the warnings reported.
fn check(server: &Server, opts: &Options) -> (LiveRun, Vec<String>) {
    let mut warnings = Vec::new();
    let run = check_url(&server.url(), &input(), opts, None, &mut |p| {
        if let Progress::Warning(w) = p {
            warnings.push(w.to_owned());
        }
    })
    .unwrap();
    (run, warnings)
}

/// A `Write` whose bytes the test can read after the check.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn check_saving(server: &Server, opts: &Options) -> (LiveRun, String) {
    let saved = Shared::default();
    let mut w = CaptureWriter::new(saved.clone());
    let run = check_url(&server.url(), &input(), opts, Some(&mut w), &mut |_| {}).unwrap();
    (run, saved.text())
}

#[test]
fn framing_variants_at_awkward_boundaries() {
    // One valid run, spelled with every framing feature the standard has:
    // a BOM, CRLF / CR / LF endings, comments, event/id/retry fields, an
    // unknown field, a field without colon, multi-line data.
    let body = format!(
        "\u{FEFF}: hello\r\nretry: 3000\r\nid: 1\r\nevent: RUN_STARTED\r\ndata: {START}\r\n\r\n\
         :keep-alive\r\
         data: {{\"type\":\"TEXT_MESSAGE_START\",\r\
         data:  \"messageId\":\"m1\",\"role\":\"assistant\"}}\r\r\
         foo: bar\nid\ndata:{{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"a:b\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}}\r\n\n\
         data: {FINISH}\n\r\n"
    );
    for (pieces, framing) in [
        (vec![1usize], Framing::Chunked),
        (vec![2, 3, 5, 7], Framing::Close),
        (vec![13, 1, 64], Framing::Length),
        (vec![usize::MAX], Framing::Chunked),
    ] {
        let server = Server::replying(
            Reply::sse(body.clone())
                .framing(framing)
                .pieces(&pieces, Duration::from_micros(200)),
        );
        let (run, warnings) = check(&server, &opts());
        assert_eq!(run.failure, None, "{pieces:?} {framing:?}");
        assert!(warnings.is_empty());
        assert_eq!(run.report.events, 5, "{pieces:?} {framing:?}");
        // `foo: bar` is a line a client ignores (transport.framing), in
        // the block of the third event: index 2.
        assert_eq!(
            rules(&run),
            [(RuleId::TransportFraming, 2)],
            "{pieces:?} {framing:?}"
        );
    }
}

#[test]
fn corpus_cases_give_their_expected_first_violation() {
    for (case, pieces) in [
        (
            "ownership/continuation-disagrees-interleaved.json",
            vec![3, 17, 1],
        ),
        ("ownership/continuation-disagrees.json", vec![1]),
        ("accept/interleaved.json", vec![5, 9]),
    ] {
        let events = corpus_events(case);
        let server = Server::replying(
            Reply::sse(sse_body(&events)).pieces(&pieces, Duration::from_micros(100)),
        );
        let (run, _) = check(&server, &opts());
        assert_eq!(run.failure, None, "{case}");
        assert_eq!(run.report.events, events.len(), "{case}");
        let expect = corpus_expect(case);
        assert_eq!(
            run.report.verdict().as_str(),
            expect["verdict"].as_str().unwrap(),
            "{case}"
        );
        if let Some(rule) = expect["rule"].as_str() {
            let first = run.report.first().unwrap();
            assert_eq!(first.rule.as_str(), rule, "{case}");
            assert_eq!(
                first.index as u64,
                expect["index"].as_u64().unwrap(),
                "{case}"
            );
        }
    }
}

#[test]
fn the_request_is_a_post_of_the_input_asking_for_sse() {
    let server = Server::replying(Reply::sse(format!("data: {START}\n\ndata: {FINISH}\n\n")));
    let mut o = opts();
    o.headers = vec![
        ("Authorization".into(), "Bearer k".into()),
        ("Accept".into(), "text/event-stream; q=1".into()),
    ];
    let sent = json!({"threadId": "tx", "runId": "rx", "messages": []});
    check_url(&server.url(), &sent, &o, None, &mut |_| {}).unwrap();
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/agent");
    assert_eq!(r.header("authorization"), Some("Bearer k"));
    // The user's Accept replaces the default rather than doubling it.
    assert_eq!(r.header("accept"), Some("text/event-stream; q=1"));
    assert_eq!(
        r.headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("accept"))
            .count(),
        1
    );
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.json(), sent);
}

#[test]
fn violations_are_reported_as_they_arrive() {
    // The bad event comes first; the server then waits before finishing.
    let bad =
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m9","delta":"x","subagentRunId":null}"#;
    let body_start = format!("data: {START}\n\ndata: {bad}\n\n");
    let server = Server::start(move |_| {
        Reply::sse(body_start.clone()).end(End::Hang(Duration::from_millis(800)))
    });
    let seen: Arc<Mutex<Vec<(RuleId, usize, Instant)>>> = Arc::default();
    let s2 = seen.clone();
    let run = check_url(&server.url(), &input(), &opts(), None, &mut |p| {
        if let Progress::Violation(v) = p {
            s2.lock().unwrap().push((v.rule, v.index, Instant::now()));
        }
    })
    .unwrap();
    let done = Instant::now();
    let seen = seen.lock().unwrap();
    // `null` for an absent subagentRunId is `attribution.null` (docs/rules.md).
    let (rule, index, at) = seen
        .iter()
        .find(|s| s.0 == RuleId::AttributionNull)
        .unwrap();
    assert_eq!((*rule, *index), (RuleId::AttributionNull, 1));
    assert!(
        done - *at >= Duration::from_millis(500),
        "not live: {:?}",
        done - *at
    );
    // Every violation reported live is in the final report, same order.
    let live: Vec<(RuleId, usize)> = seen.iter().map(|s| (s.0, s.1)).collect();
    assert_eq!(live, rules(&run));
}

#[test]
fn non_2xx_status_is_transport_status_with_the_body_start() {
    let server = Server::replying(
        Reply::sse("upstream model overloaded\nretry later")
            .status(503)
            .content_type(Some("text/plain")),
    );
    let (run, _) = check(&server, &opts());
    assert_eq!(run.status, Some(503));
    assert_eq!(run.failure, None);
    // transport.status at 0 and nothing else: the body is not judged.
    assert_eq!(rules(&run), [(RuleId::TransportStatus, 0)]);
    assert_eq!(run.report.verdict(), agui_model::Verdict::Reject);
    let m = &run.report.violations[0].message;
    assert!(m.contains("HTTP 503"), "{m}");
    assert!(m.contains("upstream model overloaded\\nretry later"), "{m}");
    // A long body is cut with a mark.
    let server = Server::replying(Reply::sse("x".repeat(5000)).status(404));
    let (run, _) = check(&server, &opts());
    assert_eq!(rules(&run), [(RuleId::TransportStatus, 0)]);
    let m = &run.report.violations[0].message;
    assert!(m.ends_with('…') && m.len() < 500, "{m}");
}

#[test]
fn wrong_content_type_is_a_warning_and_is_still_read_as_sse() {
    let body = format!("data: {START}\n\ndata: {FINISH}\n\n");
    for ct in [Some("application/json"), None] {
        let server = Server::replying(Reply::sse(body.clone()).content_type(ct));
        let (run, warnings) = check(&server, &opts());
        assert_eq!(run.failure, None);
        assert_eq!(run.report.events, 2);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(rules(&run), [(RuleId::TransportContentType, 0)]);
        assert_eq!(run.report.verdict(), agui_model::Verdict::Accept);
    }
    // Parameters are allowed.
    let server = Server::replying(
        Reply::sse(body.clone()).content_type(Some("text/event-stream; charset=utf-8")),
    );
    assert_eq!(rules(&check(&server, &opts()).0), []);
    // A JSON body is not SSE: its line is ignored by a client (framing),
    // left unclosed at the end, and the failure shows the body.
    let server = Server::replying(
        Reply::sse(r#"{"error":"use /stream"}"#).content_type(Some("application/json")),
    );
    let (run, _) = check(&server, &opts());
    assert_eq!(
        rules(&run),
        [
            (RuleId::TransportContentType, 0),
            (RuleId::TransportFraming, 0),
            (RuleId::TransportUnterminatedEvent, 0)
        ]
    );
    assert_eq!(
        run.failure,
        Some(LiveError::NoEvents {
            content_type: Some("application/json".into()),
            body_start: r#"{"error":"use /stream"}"#.into()
        })
    );
}

#[test]
fn an_event_without_data_is_framing_at_the_index_it_would_have_had() {
    let body = format!(
        "data: {START}\n\n{{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}}\n\ndata: {FINISH}\n\n"
    );
    let server = Server::replying(Reply::sse(body));
    let (run, _) = check(&server, &opts());
    assert_eq!(run.report.events, 2);
    assert_eq!(rules(&run), [(RuleId::TransportFraming, 1)]);
    assert!(run.report.violations[0].message.contains("`{\"type\"`"));
}

#[test]
fn connection_closed_mid_event_keeps_what_came_before() {
    let good = format!("data: {START}\n\n");
    let cut = format!("{good}data: {{\"type\":\"TEXT_MESS");
    // Close-delimited: the body ends cleanly, inside an event.
    let server = Server::replying(
        Reply::sse(cut.clone())
            .framing(Framing::Close)
            .pieces(&[4], Duration::ZERO),
    );
    let (run, saved) = check_saving(&server, &opts());
    assert_eq!(run.failure, None);
    assert_eq!(run.report.events, 1);
    assert_eq!(saved, format!("{START}\n"));
    // The event left open, then the run that never ended, both at 1.
    assert_eq!(
        rules(&run),
        [
            (RuleId::TransportUnterminatedEvent, 1),
            (RuleId::RunUnterminated, 1)
        ]
    );
    assert!(
        run.report.violations[0]
            .message
            .contains("18 bytes of data, cut inside a line")
    );

    // Chunked or sized, a body cut mid-event inside a run ended early:
    // transport.ended-early instead of run.unterminated.
    for framing in [Framing::Chunked, Framing::Length] {
        let server = Server::replying(Reply::sse(cut.clone()).framing(framing).end(End::Cut));
        let (run, saved) = check_saving(&server, &opts());
        assert_eq!(run.failure, None, "{framing:?}");
        assert_eq!(run.report.events, 1);
        assert_eq!(saved, format!("{START}\n"));
        assert_eq!(
            rules(&run),
            [(RuleId::TransportEndedEarly, 1)],
            "{framing:?}"
        );
    }
    // Cut after the run ended: a warning, no violation.
    let server = Server::replying(
        Reply::sse(format!("{good}data: {FINISH}\n\ndata: {{\"ty"))
            .framing(Framing::Chunked)
            .end(End::Cut),
    );
    let (run, warnings) = check(&server, &opts());
    assert_eq!(rules(&run), []);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn a_silence_inside_a_run_is_transport_idle() {
    let first = format!("data: {START}\n\n");
    let body = format!("{first}data: {FINISH}\n\n");
    let server = Server::replying(
        Reply::sse(body).pieces(&[first.len(), usize::MAX], Duration::from_millis(400)),
    );
    let opts = Options {
        idle_warning: Duration::from_millis(200),
        ..opts()
    };
    let (run, _) = check(&server, &opts);
    // The gap before the first event and after the last are outside a run.
    assert_eq!(rules(&run), [(RuleId::TransportIdle, 1)]);
    assert_eq!(run.report.verdict(), agui_model::Verdict::Accept);
    // The default threshold is docs/rules.md's 30 s.
    assert_eq!(Options::default().idle_warning, Duration::from_secs(30));
}

#[test]
fn a_body_held_back_then_sent_at_once_is_transport_buffered() {
    let body = format!("data: {START}\n\ndata: {FINISH}\n\n");
    let server = Server::replying(Reply::sse(body.clone()).delay(Duration::from_millis(1100)));
    let (run, _) = check(&server, &opts());
    assert_eq!(rules(&run), [(RuleId::TransportBuffered, 2)]);
    // The same events flushed as they happen, over as long: not buffered.
    let first = format!("data: {START}\n\n").len();
    let server =
        Server::replying(Reply::sse(body).pieces(&[first, usize::MAX], Duration::from_millis(600)));
    let (run, _) = check(&server, &opts());
    assert_eq!(rules(&run), []);
}

/// `data` as a brotli stream (RFC 7932) of one uncompressed meta-block:
/// WBITS 16 (bit 0), ISLAST 0, MNIBBLES 4 (two 0 bits), MLEN-1 in 16 bits,
/// ISUNCOMPRESSED 1, padding to the byte, the bytes; then an empty last
/// meta-block (ISLAST 1, ISLASTEMPTY 1).
fn brotli_stored(data: &[u8]) -> Vec<u8> {
    assert!(!data.is_empty() && data.len() <= 1 << 16);
    let header = (((data.len() - 1) as u32) << 4) | (1 << 20);
    let mut out = header.to_le_bytes()[..3].to_vec();
    out.extend_from_slice(data);
    out.push(0b11);
    out
}

#[test]
fn compressed_bodies_are_decoded() {
    use flate2::write::{GzEncoder, ZlibEncoder};
    let body = format!("data: {START}\n\ndata: {FINISH}\n\n");
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(body.as_bytes()).unwrap();
    let mut zl = ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    zl.write_all(body.as_bytes()).unwrap();
    for (encoding, bytes) in [
        ("gzip", gz.finish().unwrap()),
        ("deflate", zl.finish().unwrap()),
        ("br", brotli_stored(body.as_bytes())),
    ] {
        let server = Server::replying(
            Reply::sse(bytes)
                .header("Content-Encoding", encoding)
                .pieces(&[7], Duration::ZERO),
        );
        let (run, _) = check(&server, &opts());
        assert_eq!(run.failure, None, "{encoding}");
        assert_eq!(run.report.events, 2, "{encoding}");
        assert_eq!(rules(&run), [], "{encoding}");
        let accept = server.requests()[0]
            .header("accept-encoding")
            .unwrap()
            .to_owned();
        assert!(
            accept.contains("gzip") && accept.contains("deflate") && accept.contains("br"),
            "{accept}"
        );
    }
    // A body that does not decode ends the stream early.
    let server = Server::replying(
        Reply::sse(format!("data: {START}\n\n")).header("Content-Encoding", "gzip"),
    );
    let (run, _) = check(&server, &opts());
    assert_eq!(rules(&run), [(RuleId::TransportEndedEarly, 0)]);
}

#[test]
fn a_silent_server_hits_the_idle_timeout() {
    let server = Server::replying(
        Reply::sse(format!("data: {START}\n\n")).end(End::Hang(Duration::from_secs(5))),
    );
    let mut o = opts();
    o.limits = Limits {
        total: Duration::from_secs(10),
        idle: Duration::from_millis(300),
    };
    let t = Instant::now();
    let (run, _) = check(&server, &o);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(
        run.failure,
        Some(LiveError::Idle {
            limit: Duration::from_millis(300)
        })
    );
    assert_eq!(run.report.events, 1);
    // Our limit, not the producer's fault: a `time` notice, no
    // `run.unterminated`, verdict inconclusive.
    assert_eq!(rules(&run), []);
    assert_eq!(run.report.limits[0].kind, agui_model::LimitKind::Time);
    assert_eq!(run.report.verdict(), agui_model::Verdict::Inconclusive);
}

#[test]
fn a_never_ending_server_hits_the_total_timeout() {
    // Comments keep arriving, so only the total limit can end it.
    let server = Server::replying(Reply::sse(format!("data: {START}\n\n")).end(End::Trickle {
        every: Duration::from_millis(30),
        total: Duration::from_secs(5),
    }));
    let mut o = opts();
    o.limits = Limits {
        total: Duration::from_millis(600),
        // Longer than the total: only the total limit can fire.
        idle: Duration::from_secs(5),
    };
    let t = Instant::now();
    let (run, _) = check(&server, &o);
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    assert_eq!(
        run.failure,
        Some(LiveError::Timeout {
            limit: Duration::from_millis(600)
        })
    );
    assert_eq!(run.report.events, 1);
    // Our limit, not the producer's fault: a `time` notice, no
    // `run.unterminated`, verdict inconclusive.
    assert_eq!(rules(&run), []);
    assert_eq!(run.report.limits[0].kind, agui_model::LimitKind::Time);
    assert_eq!(run.report.verdict(), agui_model::Verdict::Inconclusive);
}

#[test]
fn a_server_that_never_answers_is_a_time_notice_not_an_error() {
    // Accepts the connection, reads the request, sends nothing.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        if let Ok((s, _)) = listener.accept() {
            std::thread::sleep(Duration::from_secs(3));
            drop(s);
        }
    });
    let mut o = opts();
    o.limits.idle = Duration::from_millis(300);
    let t = Instant::now();
    let run = check_url(&url, &input(), &o, None, &mut |_| {}).unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    // No head in time is our limit, not the producer's fault: a report
    // with a `time` notice at 0, inconclusive.
    assert_eq!(run.status, None);
    assert_eq!(
        run.failure,
        Some(LiveError::Idle {
            limit: Duration::from_millis(300)
        })
    );
    assert_eq!(rules(&run), []);
    assert_eq!(run.report.limits.len(), 1);
    assert_eq!(
        (run.report.limits[0].kind, run.report.limits[0].index),
        (agui_model::LimitKind::Time, 0)
    );
    assert_eq!(run.report.verdict(), agui_model::Verdict::Inconclusive);
}

#[test]
fn connection_refused_is_a_request_error() {
    // Bind then drop: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let e = check_url(
        &format!("http://127.0.0.1:{port}/"),
        &input(),
        &opts(),
        None,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, LiveError::Connect(_)), "{e:?}");
}

#[test]
fn a_large_body_is_streamed() {
    // 24 MiB of message content in 96 events of 256 KiB, made as it is
    // sent; then one event of 3 MiB, over a 1 MiB cap.
    let delta = "x".repeat(256 * 1024);
    let unit = format!(
        "data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{delta}\"}}\n\n"
    );
    let head = format!(
        "data: {START}\n\ndata: {{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}}\n\n"
    );
    let tail = format!(
        "data: {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{}\"}}\n\n\
         data: {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}}\n\ndata: {FINISH}\n\n",
        "y".repeat(3 << 20)
    );
    let server = Server::replying(Reply {
        body: Body::Repeat {
            head: head.into_bytes(),
            unit: unit.into_bytes(),
            count: 96,
            tail: tail.into_bytes(),
        },
        pieces: vec![100_003],
        ..Reply::sse("")
    });
    let mut o = opts();
    o.max_event_bytes = 1 << 20;
    let mut w = CaptureWriter::new(std::io::sink());
    let run = check_url(&server.url(), &input(), &o, Some(&mut w), &mut |_| {}).unwrap();
    assert_eq!(run.failure, None);
    assert!(run.body_bytes > 27 << 20, "{}", run.body_bytes);
    // 2 + 96 + the oversize one + END + FINISHED.
    assert_eq!(run.report.events, 101);
    assert_eq!(w.lines(), 101);
    // The oversize event is skipped at our limit: a notice, no violation.
    assert_eq!(rules(&run), []);
    assert_eq!(run.report.limits.len(), 1);
    let n = &run.report.limits[0];
    assert_eq!((n.kind, n.index), (agui_model::LimitKind::LineBytes, 98));
    assert!(
        n.message.contains("over the 1048576-byte limit"),
        "{}",
        n.message
    );
}

#[test]
fn non_json_data_is_not_json_and_checking_goes_on() {
    let bad = r#"{"type":"STEP_FINISHED","stepName":"s"}"#;
    let body = format!(
        "data: {START}\n\ndata: not json\n\ndata: \n\ndata: \u{1}\n\ndata: {bad}\n\ndata: {FINISH}\n\n"
    );
    let mut bytes = body.into_bytes();
    // And one event of invalid UTF-8.
    bytes.extend_from_slice(b"data: {\"a\":\"\xFF\"}\n\n");
    let server = Server::replying(Reply::sse(bytes).pieces(&[6], Duration::ZERO));
    let (run, saved) = check_saving(&server, &opts());
    assert_eq!(run.failure, None);
    assert_eq!(run.report.events, 7);
    let got = rules(&run);
    assert_eq!(
        got[..3],
        [
            (RuleId::SchemaNotJson, 1),
            (RuleId::SchemaNotJson, 2),
            (RuleId::SchemaNotJson, 3)
        ]
    );
    // The STEP_FINISHED with no open step is still checked (index 4).
    assert!(
        got.iter().any(|&(r, i)| i == 4 && r == RuleId::StepNotOpen),
        "{got:?}"
    );
    assert!(got.contains(&(RuleId::SchemaNotJson, 6)), "{got:?}");
    let utf8 = &run
        .report
        .violations
        .iter()
        .find(|v| v.index == 6)
        .unwrap()
        .message;
    assert!(utf8.contains("invalid UTF-8"), "{utf8}");
    // One line per event, so re-checking the capture finds the same items.
    assert_eq!(saved.lines().count(), 7);
}

#[test]
fn saved_capture_rechecks_to_the_same_report() {
    let events = corpus_events("ownership/continuation-disagrees-interleaved.json");
    let mut body = sse_body(&events);
    // Add one multi-line JSON event and one multi-line non-JSON event.
    body.extend_from_slice(b"data: {\"type\":\ndata: \"CUSTOM\",\"name\":\"n\",\"value\":1}\n\n");
    body.extend_from_slice(b"data: [oops\ndata: more\n\n");
    let server = Server::replying(Reply::sse(body).pieces(&[11, 2], Duration::ZERO));
    let (run, saved) = check_saving(&server, &opts());
    assert_eq!(run.failure, None);
    // The first lines are the served events, byte for byte.
    let served: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    let lines: Vec<&str> = saved.lines().collect();
    assert_eq!(lines[..served.len()], served[..]);
    assert_eq!(
        lines[served.len()],
        r#"{"type": "CUSTOM","name":"n","value":1}"#
    );
    assert!(lines[served.len() + 1].starts_with("!not-json"));
    // Offline, the capture gives the same violations at the same indexes.
    let mut offline = Vec::new();
    agui_model::stream::read_stream(
        saved.as_bytes(),
        &agui_model::stream::ReadOptions::default(),
        |item| {
            offline.push(item);
            std::ops::ControlFlow::Continue(())
        },
    )
    .unwrap();
    let mut c = agui_model::Checker::without_projection();
    for item in offline {
        agui_model::check::push_item(&mut c, item);
    }
    let again = c.finish();
    let pairs: Vec<(RuleId, usize)> = again.violations.iter().map(|v| (v.rule, v.index)).collect();
    assert_eq!(pairs, rules(&run));
}
