//! A live check: POST the input, frame the body as SSE, check each event
//! with the reference [`Checker`] as it arrives, report violations as they
//! are found and save the capture as it goes.
//!
//! Each event's `data` is one stream item: JSON is pushed as a value,
//! anything else (a syntax error, invalid UTF-8, an event over the size
//! limit) with `push_unparseable`, so it is `schema.not-json` and checking
//! goes on. Event indexes are stream-item indexes, as in `check FILE`.
//!
//! When the exchange fails after the response head (a cut connection, an
//! unfinished event, a timeout, no events at all), the events received so
//! far are still checked and saved; the failure is returned beside the
//! report. A response that is not `text/event-stream` is read as SSE all
//! the same, with a warning: the checker judges events, and a producer
//! that mislabels a good stream should still learn what its events break.
//! If such a body holds no event, the failure shows its first bytes.

use crate::capture::{CaptureWriter, line_for, oversize_line};
use crate::client::{self, Limits, Request};
use crate::error::{LiveError, body_start, is_event_stream};
use crate::sse::{Dispatch, SseParser};
use agui_model::json::{self, Note, ParseOptions};
use agui_model::{Checker, LimitKind, LimitNotice, Report, Violation};
use serde_json::Value;

/// The default cap on one event's data, as `check`'s longest line: 64 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = agui_model::stream::DEFAULT_MAX_LINE_BYTES;

/// How to run a live check.
#[derive(Debug, Clone)]
pub struct Options {
    pub limits: Limits,
    pub headers: Vec<(String, String)>,
    pub max_event_bytes: usize,
    /// Build the projection (memory grows with the run's content).
    pub projection: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            headers: Vec::new(),
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            projection: false,
        }
    }
}

/// What happens during a live check, as it happens.
#[derive(Debug)]
pub enum Progress<'a> {
    /// The response head arrived (2xx).
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
    /// Every violation of the events received (and of the end of input).
    pub report: Report,
    pub status: u16,
    pub content_type: Option<String>,
    /// Body bytes received.
    pub body_bytes: u64,
    /// Why the exchange did not end cleanly, if it did not.
    pub failure: Option<LiveError>,
    /// The first error writing the capture, if any.
    pub capture_error: Option<String>,
}

/// Runs one live check. `Err` means nothing could be checked (the request
/// failed or the status is not 2xx).
pub fn check_url(
    url: &str,
    input: &Value,
    opts: &Options,
    mut capture: Option<&mut CaptureWriter>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<LiveRun, LiveError> {
    let body = serde_json::to_vec(input).map_err(|e| LiveError::Usage(e.to_string()))?;
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
    match &content_type {
        Some(t) if is_event_stream(t) => {}
        other => {
            let what = other.as_deref().map_or("no content type".to_owned(), |t| {
                format!("content type `{t}`")
            });
            on(Progress::Warning(&format!(
                "the response has {what}, not text/event-stream; reading it as SSE anyway"
            )));
        }
    }

    let mut checker = if opts.projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    let mut parser = SseParser::new(opts.max_event_bytes);
    let mut found: Vec<Violation> = Vec::new();
    let mut first = Vec::new();
    let mut body_bytes = 0u64;
    let mut failure = None;
    let max = opts.max_event_bytes;
    loop {
        match response.next_chunk() {
            Ok(Some(bytes)) => {
                body_bytes += bytes.len() as u64;
                if first.len() <= crate::error::BODY_START_BYTES {
                    first.extend_from_slice(&bytes[..bytes.len().min(512)]);
                }
                parser.feed(&bytes, &mut |d| {
                    let line = feed(&mut checker, d, max);
                    if let Some(c) = capture.as_deref_mut() {
                        c.line(&line);
                    }
                    for v in checker.drain_violations() {
                        on(Progress::Violation(&v));
                        found.push(v);
                    }
                });
            }
            Ok(None) => break,
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let unfinished = parser.finish();
    let mut timed_out = false;
    // Our own time limits cut the stream: a limit notice, never the
    // producer's `run.unterminated` (RULES.md "Checker limits"). The
    // failure stays, so callers can say why the exchange ended.
    if let Some(LiveError::Timeout { limit } | LiveError::Idle { limit }) = &failure {
        let what = if matches!(failure, Some(LiveError::Timeout { .. })) {
            "the exchange took longer than"
        } else {
            "nothing arrived for longer than"
        };
        checker.cut(LimitNotice::new(
            LimitKind::Time,
            checker.events(),
            limit.as_millis() as u64,
            format!(
                "{what} the limit of {:.1} s; the stream was cut here and is not judged further",
                limit.as_secs_f64()
            ),
        ));
        timed_out = true;
    }
    if failure.is_none() && !timed_out {
        // No event at all says more (and shows the body) than a cut one.
        if parser.dispatched() == 0 {
            failure = Some(LiveError::NoEvents {
                content_type: content_type.clone(),
                body_start: body_start(&first, body_bytes > first.len() as u64),
            });
        } else if let Some(u) = unfinished {
            failure = Some(LiveError::ClosedMidEvent {
                data_bytes: u.data_bytes,
                mid_line: u.mid_line,
            });
        }
    }
    let mut report = checker.finish();
    for v in &report.violations {
        on(Progress::Violation(v));
    }
    found.append(&mut report.violations);
    report.violations = found;
    Ok(LiveRun {
        report,
        status: response.status,
        content_type,
        body_bytes,
        failure,
        capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
    })
}

/// Feeds one event to the checker; returns its capture line.
fn feed(checker: &mut Checker, d: Dispatch<'_>, max: usize) -> Vec<u8> {
    let i = checker.events();
    match d {
        Dispatch::Data { data, .. } => match parse(data, checker.limits().nesting) {
            Ok(Parsed::Value(v, notes)) => {
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
    }
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
