//! What can go wrong talking to a producer, each with a message that says
//! what happened and what was received.

use std::fmt;
use std::time::Duration;

/// A failure of the exchange (not of the stream's conformance).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveError {
    /// A `--header` that is not `Name: value`, or a URL ureq rejects.
    Usage(String),
    /// The request could not be sent or no response head came back.
    Connect(String),
    /// The response status is not 2xx; `body_start` is its first bytes.
    Status { status: u16, body_start: String },
    /// The whole exchange took longer than the total time limit.
    Timeout { limit: Duration },
    /// Nothing arrived for longer than the idle limit.
    Idle { limit: Duration },
    /// The user asked us to stop (SIGINT, SIGTERM): signal `signal`.
    Stopped { signal: i32 },
    /// Reading the body failed (a reset, a chunked body cut short, …).
    Transport(String),
    /// The body ended inside an event; the event is discarded.
    ClosedMidEvent { data_bytes: u64, mid_line: bool },
    /// The body ended cleanly but held no event at all.
    NoEvents {
        content_type: Option<String>,
        body_start: String,
    },
}

impl fmt::Display for LiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiveError::Usage(m) => write!(f, "{m}"),
            LiveError::Connect(m) => write!(f, "request failed: {m}"),
            LiveError::Status { status, body_start } => {
                write!(f, "the producer answered HTTP {status}, not 2xx")?;
                if body_start.is_empty() {
                    write!(f, " (empty body)")
                } else {
                    write!(f, "; body starts: {body_start}")
                }
            }
            LiveError::Timeout { limit } => write!(
                f,
                "timed out: the stream did not end within {} (--timeout)",
                secs(*limit)
            ),
            LiveError::Idle { limit } => write!(
                f,
                "timed out: nothing received for {} (--idle-timeout)",
                secs(*limit)
            ),
            LiveError::Stopped { signal } => {
                write!(f, "stopped by {}", crate::stop::signal_name(*signal))
            }
            LiveError::Transport(m) => write!(f, "connection failed mid-stream: {m}"),
            LiveError::ClosedMidEvent {
                data_bytes,
                mid_line,
            } => write!(
                f,
                "connection closed mid-event: an unfinished event ({data_bytes} bytes of data{}) was discarded",
                if *mid_line { ", cut inside a line" } else { "" }
            ),
            LiveError::NoEvents {
                content_type,
                body_start,
            } => {
                write!(f, "the response held no SSE event")?;
                match content_type {
                    Some(t) if !is_event_stream(t) => write!(f, " (content type `{t}`)")?,
                    None => write!(f, " (no content type)")?,
                    Some(_) => {}
                }
                if body_start.is_empty() {
                    write!(f, "; the body is empty")
                } else {
                    write!(f, "; body starts: {body_start}")
                }
            }
        }
    }
}

impl std::error::Error for LiveError {}

fn secs(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// True for `text/event-stream`, with or without parameters.
pub fn is_event_stream(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/event-stream"))
}

/// How many bytes of a body an error message shows.
pub const BODY_START_BYTES: usize = 300;

/// The first bytes of a body, printable on one line: invalid UTF-8 and
/// control characters escaped, cut at [`BODY_START_BYTES`] with a mark.
pub fn body_start(bytes: &[u8], more: bool) -> String {
    let cut = bytes.len() > BODY_START_BYTES;
    let shown = &bytes[..bytes.len().min(BODY_START_BYTES)];
    let text = String::from_utf8_lossy(shown);
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    if cut || more {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_stream_content_types() {
        assert!(is_event_stream("text/event-stream"));
        assert!(is_event_stream("Text/Event-Stream; charset=utf-8"));
        assert!(!is_event_stream("application/json"));
        assert!(!is_event_stream("text/event-streams"));
    }

    #[test]
    fn body_start_is_one_printable_line() {
        assert_eq!(body_start(b"a\nb\x01\xFF", false), "a\\nb\\u{1}\u{FFFD}");
        let long = vec![b'x'; BODY_START_BYTES + 5];
        let s = body_start(&long, false);
        assert_eq!(s.chars().count(), BODY_START_BYTES + 1);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn messages_name_status_and_body() {
        let e = LiveError::Status {
            status: 503,
            body_start: "busy".into(),
        };
        assert_eq!(
            e.to_string(),
            "the producer answered HTTP 503, not 2xx; body starts: busy"
        );
    }
}
