//! A live check: POST the input, frame the body as SSE, check each event
//! with the reference [`Checker`] as it arrives, report violations as they
//! are found and save the capture as it goes.
//!
//! Each event's `data` is one stream item: JSON is pushed as a value,
//! anything else (a syntax error, invalid UTF-8, an event over the size
//! limit) with `push_unparseable`, so it is `schema.not-json` and checking
//! goes on. Event indexes are stream-item indexes, as in `check FILE`.
//!
//! The HTTP exchange is judged by the `transport.*` rules (RULES.md
//! "Transport rules"), reported through the checker so they are counted
//! and listed in stream order with the events' violations: a non-2xx
//! status, a content type other than `text/event-stream` (the body is read
//! as SSE all the same: a producer that mislabels a good stream should
//! still learn what its events break), lines a client ignores, an event
//! left unclosed at the end, a connection that ends abnormally inside a
//! run, a buffered response and long silences inside a run.
//!
//! When our own time limit cuts the exchange, or the body holds no event,
//! the events received so far are still checked and saved, and the
//! failure is returned beside the report.

use crate::capture::{CaptureWriter, line_for, oversize_line};
use crate::client::{self, Limits, Request};
use crate::error::{LiveError, body_start, is_event_stream};
use crate::outcome::RunLog;
use crate::sse::{Dispatch, SseParser, Unfinished};
use agui_model::json::{self, Note, ParseOptions};
use agui_model::{Checker, LimitKind, LimitNotice, Report, RuleId, RuleLevels, Violation};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The default cap on one event's data, as `check`'s longest line: 64 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = agui_model::stream::DEFAULT_MAX_LINE_BYTES;

/// `transport.idle`: the longest silence while a run is open (RULES.md).
pub const IDLE_WARNING: Duration = Duration::from_secs(30);
/// `transport.buffered`: a response at least this long…
const BUFFERED_MIN_RESPONSE: Duration = Duration::from_secs(1);
/// …whose events all arrived within this much of its end.
const BUFFERED_WINDOW: Duration = Duration::from_millis(100);

/// How to run a live check.
#[derive(Debug, Clone)]
pub struct Options {
    pub limits: Limits,
    pub headers: Vec<(String, String)>,
    pub max_event_bytes: usize,
    /// Build the projection (memory grows with the run's content).
    pub projection: bool,
    /// The silence that is `transport.idle` ([`IDLE_WARNING`]; shorter
    /// only in tests).
    pub idle_warning: Duration,
    /// Rule configuration (rules off or at another severity).
    pub levels: RuleLevels,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            headers: Vec::new(),
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            projection: false,
            idle_warning: IDLE_WARNING,
            levels: RuleLevels::default(),
        }
    }
}

/// What happens during a live check, as it happens.
#[derive(Debug)]
pub enum Progress<'a> {
    /// The response head arrived.
    Connected {
        status: u16,
        content_type: Option<&'a str>,
    },
    /// Something worth saying that is not a rule violation.
    Warning(&'a str),
    /// A violation, as soon as the checker finds it.
    Violation(&'a Violation),
}

/// The outcome of a live check whose response head arrived.
#[derive(Debug)]
pub struct LiveRun {
    /// Every violation of the events received (and of the end of input),
    /// the `transport.*` ones among them in stream order.
    pub report: Report,
    pub status: u16,
    pub content_type: Option<String>,
    /// Body bytes received (after decoding).
    pub body_bytes: u64,
    /// Why the exchange did not end cleanly, if it did not and no rule
    /// says so already (a time limit, a body without any event).
    pub failure: Option<LiveError>,
    /// The first error writing the capture, if any.
    pub capture_error: Option<String>,
    /// How each run of the stream ended.
    pub runs: RunLog,
}

/// Runs one live check. `Err` means nothing could be checked (the request
/// failed before a response head came back). A non-2xx status is a report
/// with `transport.status` at index 0 and nothing else: the body is not an
/// event stream to judge.
pub fn check_url(
    url: &str,
    input: &Value,
    opts: &Options,
    capture: Option<&mut CaptureWriter>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<LiveRun, LiveError> {
    let mut checker = if opts.projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    let mut runs = RunLog::new();
    let mut found = Vec::new();
    let ex = exchange(
        url,
        input,
        opts,
        &mut checker,
        &mut runs,
        &mut found,
        capture,
        on,
    )?;
    runs.finish(checker.events());
    let mut report = checker.finish();
    for v in &report.violations {
        on(Progress::Violation(v));
    }
    found.append(&mut report.violations);
    report.violations = found;
    Ok(LiveRun {
        report,
        status: ex.status,
        content_type: ex.content_type,
        body_bytes: ex.body_bytes,
        failure: ex.failure,
        capture_error: ex.capture_error,
        runs,
    })
}

/// One HTTP exchange of a live check, fed to a checker that may already
/// hold earlier exchanges (a conversation of several requests is checked
/// as one multi-run stream). Violations found go to `found` (and `on`);
/// the checker is left unfinished, so the end-of-input rules are the
/// caller's to ask for.
pub struct Exchange {
    pub status: u16,
    pub content_type: Option<String>,
    /// Body bytes received (after decoding).
    pub body_bytes: u64,
    /// Why the exchange did not end cleanly, if no rule says so already.
    pub failure: Option<LiveError>,
    /// The first error writing the capture, if any.
    pub capture_error: Option<String>,
}

/// Sends `input` and checks the answer through `checker` (see [`Exchange`]).
#[allow(clippy::too_many_arguments)]
pub fn exchange(
    url: &str,
    input: &Value,
    opts: &Options,
    checker: &mut Checker,
    runs: &mut RunLog,
    found: &mut Vec<Violation>,
    mut capture: Option<&mut CaptureWriter>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<Exchange, LiveError> {
    let body = serde_json::to_vec(input).map_err(|e| LiveError::Usage(e.to_string()))?;
    let sent = Instant::now();
    let mut response = client::send(&Request {
        url,
        body: &body,
        headers: &opts.headers,
        limits: opts.limits,
    })?;
    let content_type = response.content_type.clone();
    on(Progress::Connected {
        status: response.status,
        content_type: content_type.as_deref(),
    });
    let taken = std::mem::take(checker);
    *checker = taken.with_levels(opts.levels.clone());
    if !response.is_success() {
        let why = response.status_error().to_string();
        let at = checker.events();
        checker.report_external(Violation::new(RuleId::TransportStatus, at, why));
        tell(checker, found, on);
        return Ok(Exchange {
            status: response.status,
            content_type,
            body_bytes: 0,
            failure: None,
            capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
        });
    }
    if !content_type.as_deref().is_some_and(is_event_stream) {
        let what = content_type
            .as_deref()
            .map_or("no content type".to_owned(), |t| {
                format!("content type `{t}`")
            });
        let at = checker.events();
        checker.report_external(Violation::new(
            RuleId::TransportContentType,
            at,
            format!("the response has {what}, not text/event-stream; read as SSE all the same"),
        ));
        tell(checker, found, on);
    }

    let mut parser = SseParser::new(opts.max_event_bytes);
    let mut first = Vec::new();
    let mut body_bytes = 0u64;
    let mut failure = None;
    let max = opts.max_event_bytes;
    let mut last_byte = Instant::now();
    let mut first_event: Option<Instant> = None;
    let events_before = checker.events();
    loop {
        let next = response.next_chunk();
        let now = Instant::now();
        idle_check(checker, now - last_byte, opts.idle_warning);
        match next {
            Ok(Some(bytes)) => {
                last_byte = now;
                body_bytes += bytes.len() as u64;
                if first.len() <= crate::error::BODY_START_BYTES {
                    first.extend_from_slice(&bytes[..bytes.len().min(512)]);
                }
                parser.feed(&bytes, &mut |d| {
                    if matches!(d, Dispatch::Data { .. } | Dispatch::Oversize { .. }) {
                        first_event.get_or_insert(now);
                    }
                    if let Some(line) = feed(checker, d, max, runs)
                        && let Some(c) = capture.as_deref_mut()
                    {
                        c.line(&line);
                    }
                });
                tell(checker, found, on);
            }
            Ok(None) => break,
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let ended = Instant::now();
    let unfinished = parser.finish();
    match &failure {
        // Our own time limits cut the stream: a limit notice, never the
        // producer's `run.unterminated` (RULES.md "Checker limits"). The
        // failure stays, so callers can say why the exchange ended.
        Some(LiveError::Timeout { limit } | LiveError::Idle { limit }) => {
            let what = if matches!(failure, Some(LiveError::Timeout { .. })) {
                "the exchange took longer than"
            } else {
                "nothing arrived for longer than"
            };
            let at = checker.events();
            checker.cut(LimitNotice::new(
                LimitKind::Time,
                at,
                limit.as_millis() as u64,
                format!(
                    "{what} the limit of {:.1} s; the stream was cut here and is not judged further",
                    limit.as_secs_f64()
                ),
            ));
        }
        // A reset, a truncated chunked body, a decoding error.
        Some(e @ LiveError::Transport(_)) => {
            if checker.run_ended() {
                on(Progress::Warning(&format!(
                    "{e}, after the last run ended (not a violation)"
                )));
            } else {
                checker.end_early(&e.to_string());
            }
            failure = None;
        }
        Some(_) => {}
        None => {
            if let Some(u) = unfinished {
                let at = checker.events();
                checker.report_external(Violation::new(
                    RuleId::TransportUnterminatedEvent,
                    at,
                    unterminated_message(u),
                ));
            }
            if parser.dispatched() == 0 {
                // No event at all: the failure shows the body.
                failure = Some(LiveError::NoEvents {
                    content_type: content_type.clone(),
                    body_start: body_start(&first, body_bytes > first.len() as u64),
                });
            } else if let Some(at) = first_event {
                buffered_check(
                    checker,
                    checker.events() - events_before,
                    ended - sent,
                    ended - at,
                );
            }
        }
    }
    tell(checker, found, on);
    Ok(Exchange {
        status: response.status,
        content_type,
        body_bytes,
        failure,
        capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
    })
}

/// Hands the violations found so far to `on` and keeps them.
fn tell(checker: &mut Checker, found: &mut Vec<Violation>, on: &mut dyn FnMut(Progress<'_>)) {
    for v in checker.drain_violations() {
        on(Progress::Violation(&v));
        found.push(v);
    }
}

/// `transport.idle`: `gap` without a byte while a run was open.
fn idle_check(checker: &mut Checker, gap: Duration, threshold: Duration) {
    if gap >= threshold && checker.run_open() {
        checker.report_external(Violation::new(
            RuleId::TransportIdle,
            checker.events(),
            format!(
                "nothing arrived for {:.1} s while a run was open (threshold {:.1} s): \
                 intermediaries commonly close idle connections; send a comment as keep-alive",
                gap.as_secs_f64(),
                threshold.as_secs_f64()
            ),
        ));
    }
}

/// `transport.buffered`: the response lasted `total` and its `events`
/// events all came in its last `events_span`.
fn buffered_check(checker: &mut Checker, events: usize, total: Duration, events_span: Duration) {
    if events >= 2 && total >= BUFFERED_MIN_RESPONSE && events_span <= BUFFERED_WINDOW {
        checker.report_external(Violation::new(
            RuleId::TransportBuffered,
            checker.events(),
            format!(
                "the response took {:.1} s and all {} events arrived in its last {} ms: \
                 events are not flushed as they happen",
                total.as_secs_f64(),
                events,
                events_span.as_millis()
            ),
        ));
    }
}

/// What `transport.unterminated-event` says about the event left open.
pub fn unterminated_message(u: Unfinished) -> String {
    format!(
        "the body ends inside an event ({} bytes of data{}) not closed by a blank line: \
         a standard client discards it",
        u.data_bytes,
        if u.mid_line {
            ", cut inside a line"
        } else {
            ""
        }
    )
}

/// What `transport.framing` says about a line a client ignores.
pub fn framing_message(name: &[u8]) -> String {
    format!(
        "a line starting `{}` is neither a comment nor a data, event, id or retry field: \
         a standard client ignores it, so an event written without `data:` is lost",
        String::from_utf8_lossy(name)
    )
}

/// Feeds one event to the checker; returns its capture line (none for a
/// line the client ignores, which is `transport.framing` at the index the
/// lost event would have had).
pub fn feed(
    checker: &mut Checker,
    d: Dispatch<'_>,
    max: usize,
    runs: &mut RunLog,
) -> Option<Vec<u8>> {
    let i = checker.events();
    Some(match d {
        Dispatch::Unknown { name } => {
            checker.report_external(Violation::new(
                RuleId::TransportFraming,
                i,
                framing_message(name),
            ));
            return None;
        }
        Dispatch::Data { data, .. } => match parse(data, checker.limits().nesting) {
            Ok(Parsed::Value(v, notes)) => {
                runs.observe(i, &v);
                checker.push_parsed(&v, &notes);
                line_for(data, true)
            }
            Ok(Parsed::TooDeep(limit, why)) => {
                checker.push_over_limit(
                    LimitKind::Nesting,
                    limit,
                    &format!("SSE event {i}: {why}"),
                );
                line_for(data, true)
            }
            Err(why) => {
                checker.push_unparseable(&format!("SSE event {i}: {why}"));
                line_for(data, false)
            }
        },
        Dispatch::Oversize { bytes } => {
            checker.push_over_limit(
                LimitKind::LineBytes,
                max,
                &format!(
                    "SSE event {i}: {bytes} bytes of data, over the {max}-byte limit; skipped"
                ),
            );
            oversize_line(bytes, max)
        }
    })
}

/// What an event's data parses to.
enum Parsed {
    Value(Value, Vec<Note>),
    /// Nested deeper than the limit (a limit notice, not a violation).
    TooDeep(usize, String),
}

/// An event's data as JSON (RFC 8259, `agui_model::json`), or why it is not.
fn parse(data: &[u8], max_depth: usize) -> Result<Parsed, String> {
    let text = match std::str::from_utf8(data) {
        Ok(t) => t,
        Err(e) => return Err(format!("invalid UTF-8 at byte {}", e.valid_up_to())),
    };
    if data.iter().all(u8::is_ascii_whitespace) {
        return Err("empty data".to_owned());
    }
    match json::parse(text, &ParseOptions { max_depth }) {
        Ok(p) => Ok(Parsed::Value(p.value, p.notes)),
        Err(e @ json::ParseError::TooDeep { limit, .. }) => {
            Ok(Parsed::TooDeep(limit, e.to_string()))
        }
        Err(e) => Err(e.to_string()),
    }
}
