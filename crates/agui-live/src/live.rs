//! A live check: POST the input, frame the body as SSE, check each event
//! with the reference [`Checker`] as it arrives, report violations as they
//! are found and save the capture as it goes.
//!
//! Each event's `data` is one stream item: JSON is pushed as a value,
//! anything else (a syntax error, invalid UTF-8, an event over the size
//! limit) with `push_unparseable`, so it is `schema.not-json` and checking
//! goes on. Event indexes are stream-item indexes, as in `check FILE`.
//!
//! The HTTP exchange is judged by the `transport.*` rules (docs/rules.md
//! "Transport rules"), reported through the checker so they are counted
//! and listed in stream order with the events' violations: a non-2xx
//! status, a content type other than `text/event-stream` (the body is read
//! as SSE all the same: a producer that mislabels a good stream should
//! still learn what its events break), lines a client ignores, an event
//! left unclosed at the end, a connection that ends abnormally inside a
//! run, a buffered response and long silences inside a run. Every event
//! that arrived before a fault is checked before the fault is reported.
//!
//! What stops the exchange on our side is a `time` limit notice, never the
//! producer's fault: our time limits, and a stop the user asked for
//! ([`Stop`], SIGINT or SIGTERM) — before the response head too. After the
//! stream's last run ended, a producer that keeps the connection open is
//! waited on only [`RUN_END_GRACE`] for more events, then let go: a
//! `time` notice naming the grace and `--run-end-grace`, no blame. Either way the events received so far are checked and saved,
//! and the reason is returned beside the report.

use crate::capture::{CaptureWriter, line_for, oversize_line};
use crate::client::{self, Limits, Read, Request};
use crate::error::{LiveError, body_start, is_event_stream};
use crate::outcome::RunLog;
use crate::redirect::Hop;
use crate::sse::{Dispatch, SseParser, Unfinished};
use crate::stop::{Stop, signal_name};
use agui_model::stream::{self, Item};
use agui_model::{Checker, LimitKind, LimitNotice, Report, RuleId, RuleLevels, Violation};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The default cap on one event's data, as `check`'s longest line: 64 MiB.
pub const DEFAULT_MAX_EVENT_BYTES: usize = agui_model::stream::DEFAULT_MAX_LINE_BYTES;

/// `transport.idle`: the longest silence while a run is open (docs/rules.md).
pub const IDLE_WARNING: Duration = Duration::from_secs(30);
/// After the stream's last run ended (`RUN_FINISHED` or `RUN_ERROR`), how
/// long a connection kept open is waited on for another event before the
/// exchange ends: one request is one run, so a producer that keeps the
/// connection open is not waited on for the whole `--timeout`.
pub const RUN_END_GRACE: Duration = Duration::from_secs(2);
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
    /// The checker's own limits (`--max-depth`, `--max-state-bytes`, …), as
    /// for a file; its line limit is [`Options::max_event_bytes`].
    pub checker_limits: agui_model::Limits,
    /// Build the projection (memory grows with the run's content).
    pub projection: bool,
    /// The silence that is `transport.idle` ([`IDLE_WARNING`]; shorter
    /// only in tests).
    pub idle_warning: Duration,
    /// How long to wait for more after the last run ended
    /// ([`RUN_END_GRACE`]).
    pub run_end_grace: Duration,
    /// Rule configuration (rules off or at another severity).
    pub levels: RuleLevels,
    /// Violations kept for the report; the rest are counted, with a
    /// `violations` limit notice, so memory does not grow with them.
    pub max_violations: usize,
    /// A stop asked for from outside (a signal).
    pub stop: Stop,
    /// A 4xx answer with a body is the producer's refusal of the request
    /// ([`Exchange::refusal`]), not a `transport.status` violation: the
    /// producer suite scores it by what the scenario allows. A 5xx, or a
    /// 4xx with an empty body, stays `transport.status`.
    pub refusals: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limits: Limits::default(),
            headers: Vec::new(),
            max_event_bytes: DEFAULT_MAX_EVENT_BYTES,
            checker_limits: agui_model::Limits::default(),
            projection: false,
            idle_warning: IDLE_WARNING,
            run_end_grace: RUN_END_GRACE,
            levels: RuleLevels::default(),
            max_violations: agui_model::limits::DEFAULT_VIOLATIONS,
            stop: Stop::default(),
            refusals: false,
        }
    }
}

/// One event as the checker saw it.
#[derive(Debug, Clone, Copy)]
pub enum Seen<'a> {
    /// JSON data, parsed.
    Json { value: &'a Value, data: &'a [u8] },
    /// Data nested deeper than the limit: skipped, with a notice.
    TooDeep { why: &'a str, data: &'a [u8] },
    /// Data that is not JSON: `schema.not-json`.
    NotJson { why: &'a str, data: &'a [u8] },
    /// Data over the size limit, not kept: skipped, with a notice.
    OverLimit {
        why: &'a str,
        bytes: u64,
        limit: usize,
    },
}

impl Seen<'_> {
    /// The event's line in a capture (see [`crate::capture`]).
    pub fn capture_line(&self) -> Vec<u8> {
        match *self {
            Seen::Json { data, .. } | Seen::TooDeep { data, .. } => line_for(data, true),
            Seen::NotJson { data, .. } => line_for(data, false),
            Seen::OverLimit { bytes, limit, .. } => oversize_line(bytes, limit),
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
    /// An event, as soon as the checker has it.
    Event(&'a Seen<'a>),
    /// A violation, as soon as the checker finds it.
    Violation(&'a Violation),
}

/// The outcome of a live check.
#[derive(Debug)]
pub struct LiveRun {
    /// Every violation of the events received (and of the end of input),
    /// the `transport.*` ones among them in stream order, up to
    /// [`Options::max_violations`].
    pub report: Report,
    /// The response status; none when no response head came (a limit
    /// notice says why).
    pub status: Option<u16>,
    pub content_type: Option<String>,
    /// Body bytes received (after decoding).
    pub body_bytes: u64,
    /// Why the exchange did not end cleanly, if it did not and no rule
    /// says so already (a time limit, a stop, a body without any event).
    pub failure: Option<LiveError>,
    /// The first error writing the capture, if any.
    pub capture_error: Option<String>,
    /// How each run of the stream ended.
    pub runs: RunLog,
    /// Each 307/308 hop followed to the response, in order (the report
    /// names them).
    pub redirects: Vec<Hop>,
}

/// Violations kept for a report, up to a cap (see
/// [`Options::max_violations`]).
#[derive(Debug, Default)]
pub struct Found {
    pub violations: Vec<Violation>,
    /// The cap was reached (its notice was given).
    full: bool,
}

impl Found {
    /// Keeps `v` unless `cap` is reached; the first one past it is a
    /// `violations` notice, which `notice` records.
    pub fn keep(&mut self, v: Violation, cap: usize, notice: impl FnOnce(LimitNotice)) {
        if self.violations.len() < cap {
            self.violations.push(v);
        } else if !self.full {
            self.full = true;
            notice(LimitNotice::new(
                LimitKind::Violations,
                v.index,
                cap as u64,
                format!("more than {cap} violations: the rest are counted, not kept"),
            ));
        }
    }
}

/// Runs one live check. `Err` means nothing could be checked (no
/// connection, a bad URL). No response head within our time limits (or a
/// stop before it) is a report with a `time` limit notice at index 0. A
/// non-2xx status is a report with `transport.status` at index 0 and
/// nothing else: the body is not an event stream to judge.
pub fn check_url(
    url: &str,
    input: &Value,
    opts: &Options,
    capture: Option<&mut CaptureWriter>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<LiveRun, LiveError> {
    let checker = if opts.projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    let mut checker = checker.with_limits(agui_model::Limits {
        line_bytes: opts.max_event_bytes,
        ..opts.checker_limits
    });
    let mut runs = RunLog::new();
    let mut found = Found::default();
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
    let mut notices = Vec::new();
    for v in std::mem::take(&mut report.violations) {
        on(Progress::Violation(&v));
        found.keep(v, opts.max_violations, |n| notices.push(n));
    }
    report.counts.limits += notices.len();
    report.limits.extend(notices);
    report.violations = found.violations;
    Ok(LiveRun {
        report,
        status: ex.status,
        content_type: ex.content_type,
        body_bytes: ex.body_bytes,
        failure: ex.failure,
        capture_error: ex.capture_error,
        runs,
        redirects: ex.redirects,
    })
}

/// One HTTP exchange of a live check, fed to a checker that may already
/// hold earlier exchanges (a conversation of several requests is checked
/// as one multi-run stream). Violations found go to `found` (and `on`);
/// the checker is left unfinished, so the end-of-input rules are the
/// caller's to ask for.
pub struct Exchange {
    /// None when no response head came.
    pub status: Option<u16>,
    pub content_type: Option<String>,
    /// Body bytes received (after decoding).
    pub body_bytes: u64,
    /// Why the exchange did not end cleanly, if no rule says so already.
    pub failure: Option<LiveError>,
    /// The first error writing the capture, if any.
    pub capture_error: Option<String>,
    /// Each 307/308 hop followed to the response.
    pub redirects: Vec<Hop>,
    /// The connection was let go after the last run ended
    /// ([`Options::run_end_grace`]): the `time` notice's message.
    pub let_go: Option<String>,
    /// With [`Options::refusals`]: the first bytes of a 4xx answer's body
    /// (the producer refused the request; no rule was judged).
    pub refusal: Option<String>,
}

/// Cuts the stream with a `time` notice when `e` is a stop of ours (a
/// time limit, or a stop asked for); `elapsed` is how long the exchange
/// had run. False for any other failure.
fn cut_by_us(checker: &mut Checker, e: &LiveError, elapsed: Duration) -> bool {
    let (limit, what) = match e {
        LiveError::Timeout { limit } => (
            *limit,
            format!(
                "the exchange took longer than the limit of {:.1} s",
                limit.as_secs_f64()
            ),
        ),
        LiveError::Idle { limit } => (
            *limit,
            format!(
                "nothing arrived for longer than the limit of {:.1} s",
                limit.as_secs_f64()
            ),
        ),
        LiveError::Stopped { signal } => (
            elapsed,
            format!(
                "stopped by {} after {:.1} s (not the producer's doing)",
                signal_name(*signal),
                elapsed.as_secs_f64()
            ),
        ),
        _ => return false,
    };
    let at = checker.events();
    checker.cut(LimitNotice::new(
        LimitKind::Time,
        at,
        u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
        format!("{what}; the stream was cut here and is not judged further"),
    ));
    true
}

/// Sends `input` and checks the answer through `checker` (see [`Exchange`]).
#[allow(clippy::too_many_arguments)]
pub fn exchange(
    url: &str,
    input: &Value,
    opts: &Options,
    checker: &mut Checker,
    runs: &mut RunLog,
    found: &mut Found,
    mut capture: Option<&mut CaptureWriter>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<Exchange, LiveError> {
    let body = serde_json::to_vec(input).map_err(|e| LiveError::Usage(e.to_string()))?;
    let sent = Instant::now();
    let taken = std::mem::take(checker);
    *checker = taken.with_levels(opts.levels.clone());
    let cap = opts.max_violations;
    let sending = client::send(&Request {
        url,
        body: &body,
        headers: &opts.headers,
        limits: opts.limits,
        stop: opts.stop.clone(),
    });
    let mut response = match sending {
        Ok(r) => r,
        // No head in time, or a stop while waiting: ours, a notice.
        Err(e) if cut_by_us(checker, &e, sent.elapsed()) => {
            tell(checker, found, cap, on);
            return Ok(Exchange {
                status: None,
                content_type: None,
                body_bytes: 0,
                failure: Some(e),
                capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
                redirects: Vec::new(),
                let_go: None,
                refusal: None,
            });
        }
        Err(e) => return Err(e),
    };
    let content_type = response.content_type.clone();
    for hop in &response.redirects {
        on(Progress::Warning(&format!(
            "redirected: {hop} (the POST repeated with its body)"
        )));
    }
    on(Progress::Connected {
        status: response.status,
        content_type: content_type.as_deref(),
    });
    if !response.is_success() {
        let error = response.status_error();
        if let LiveError::Status { status, body_start } = &error
            && opts.refusals
            && (400..500).contains(status)
            && !blank(body_start)
        {
            return Ok(Exchange {
                status: Some(*status),
                content_type,
                body_bytes: 0,
                failure: None,
                capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
                let_go: None,
                refusal: Some(body_start.clone()),
                redirects: response.redirects.clone(),
            });
        }
        let mut why = error.to_string();
        if let Some(note) = &response.not_followed {
            why.push_str(&format!("; {note}"));
        }
        if !response.redirects.is_empty() {
            let hops: Vec<String> = response.redirects.iter().map(Hop::to_string).collect();
            why.push_str(&format!(" (after redirects: {})", hops.join(", ")));
        }
        let at = checker.events();
        checker.report_external(Violation::new(RuleId::TransportStatus, at, why));
        tell(checker, found, cap, on);
        return Ok(Exchange {
            status: Some(response.status),
            content_type,
            body_bytes: 0,
            failure: None,
            capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
            redirects: response.redirects.clone(),
            let_go: None,
            refusal: None,
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
        tell(checker, found, cap, on);
    }

    let mut parser = SseParser::new(opts.max_event_bytes);
    let mut first = Vec::new();
    let mut body_bytes = 0u64;
    let mut failure = None;
    let max = opts.max_event_bytes;
    let mut last_byte = Instant::now();
    let mut first_event: Option<Instant> = None;
    let mut last_event = Instant::now();
    // The connection was let go after the last run ended (no blame).
    let mut let_go = None;
    let events_before = checker.events();
    loop {
        let until = checker.run_ended().then(|| last_event + opts.run_end_grace);
        let next = response.next(until);
        let now = Instant::now();
        idle_check(checker, now - last_byte, opts.idle_warning);
        match next {
            Ok(Read::Bytes(bytes)) => {
                last_byte = now;
                body_bytes += bytes.len() as u64;
                if first.len() <= crate::error::BODY_START_BYTES {
                    first.extend_from_slice(&bytes[..bytes.len().min(512)]);
                }
                parser.feed(&bytes, &mut |d| {
                    if matches!(d, Dispatch::Data { .. } | Dispatch::Oversize { .. }) {
                        first_event.get_or_insert(now);
                        last_event = now;
                    }
                    feed(checker, d, max, runs, &mut |seen| {
                        if let Some(c) = capture.as_deref_mut() {
                            c.line(&seen.capture_line());
                        }
                        on(Progress::Event(seen));
                    });
                });
                tell(checker, found, cap, on);
            }
            Ok(Read::End) => break,
            Ok(Read::Quiet) => {
                response.close();
                let grace = opts.run_end_grace;
                let what = format!(
                    "the producer kept the connection open {0:.1} s after its run ended \
                     with nothing more (the wait of --run-end-grace {0:.1}; a larger \
                     --run-end-grace waits longer); stopped reading there",
                    grace.as_secs_f64(),
                );
                on(Progress::Warning(&format!("{what} (not a violation)")));
                // Our own stop: a `time` notice (docs/rules.md "Checker
                // limits"); what came later is not judged.
                let at = checker.events();
                checker.cut(LimitNotice::new(
                    LimitKind::Time,
                    at,
                    u64::try_from(grace.as_millis()).unwrap_or(u64::MAX),
                    format!("{what}; anything sent later is not judged"),
                ));
                let_go = Some(what);
                break;
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let ended = if let_go.is_some() {
        last_event
    } else {
        Instant::now()
    };
    let unfinished = parser.finish();
    match &failure {
        // Our own time limits, or a stop: a limit notice, never the
        // producer's `run.unterminated` (docs/rules.md "Checker limits").
        // The failure stays, so callers can say why the exchange ended.
        Some(e) if cut_by_us(checker, e, sent.elapsed()) => {}
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
            // A partial event after the run ended was cut by us.
            if let Some(u) = unfinished.filter(|_| let_go.is_none()) {
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
    tell(checker, found, cap, on);
    Ok(Exchange {
        status: Some(response.status),
        content_type,
        body_bytes,
        failure,
        capture_error: capture.and_then(|c| c.error().map(str::to_owned)),
        redirects: std::mem::take(&mut response.redirects),
        let_go,
        refusal: None,
    })
}

/// Whether a body's first bytes ([`crate::error::body_start`], with line
/// ends and tabs escaped) say nothing: empty or white space only.
fn blank(body_start: &str) -> bool {
    ["\\n", "\\r", "\\t"]
        .iter()
        .fold(body_start.to_owned(), |s, esc| s.replace(esc, ""))
        .trim()
        .is_empty()
}

/// Hands the violations found so far to `on` and keeps them, up to `cap`.
fn tell(checker: &mut Checker, found: &mut Found, cap: usize, on: &mut dyn FnMut(Progress<'_>)) {
    for v in checker.drain_violations() {
        on(Progress::Violation(&v));
        found.keep(v, cap, |n| checker.notice(n));
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

/// Feeds one event to the checker and shows it to `seen` (a line the
/// client ignores is `transport.framing`, at the index the lost event
/// would have had, and no event).
pub fn feed(
    checker: &mut Checker,
    d: Dispatch<'_>,
    max: usize,
    runs: &mut RunLog,
    seen: &mut dyn FnMut(&Seen<'_>),
) {
    let i = checker.events();
    match d {
        Dispatch::Unknown { name } => {
            checker.report_external(Violation::new(
                RuleId::TransportFraming,
                i,
                framing_message(name),
            ));
        }
        Dispatch::Data { data, .. } => {
            match stream::sse_data_item(data, 0, &checker.limits().read_options()) {
                Item::Value { value, notes, .. } => {
                    runs.observe(i, &value);
                    checker.push_parsed(&value, &notes);
                    seen(&Seen::Json {
                        value: &value,
                        data,
                    });
                }
                Item::OverLimit {
                    kind: LimitKind::Nesting,
                    limit,
                    reason,
                    ..
                } => {
                    let why = format!("SSE event {i}: {reason}");
                    checker.push_over_limit(LimitKind::Nesting, limit, &why);
                    seen(&Seen::TooDeep { why: &why, data });
                }
                Item::OverLimit { reason, .. } => {
                    let why = format!("SSE event {i}: {reason}");
                    checker.push_over_limit(LimitKind::LineBytes, max, &why);
                    seen(&Seen::OverLimit {
                        why: &why,
                        bytes: data.len() as u64,
                        limit: max,
                    });
                }
                Item::Unparseable { reason, .. } => {
                    let why = format!("SSE event {i}: {reason}");
                    checker.push_unparseable(&why);
                    seen(&Seen::NotJson { why: &why, data });
                }
            }
        }
        Dispatch::Oversize { bytes } => {
            let why =
                format!("SSE event {i}: {bytes} bytes of data, over the {max}-byte limit; skipped");
            checker.push_over_limit(LimitKind::LineBytes, max, &why);
            seen(&Seen::OverLimit {
                why: &why,
                bytes,
                limit: max,
            });
        }
    }
}
