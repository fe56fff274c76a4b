//! The HTTP exchange: POST the input, then hand the body over in chunks,
//! under a total and an idle time limit.
//!
//! ureq reads the body; its global timeout is the total limit, so every
//! read it does ends by the deadline. ureq has no idle (per-read) timeout,
//! so the body is read on a thread of its own that passes chunks through a
//! small bounded channel: the caller waits on the channel at most the idle
//! limit (and never past the deadline). The channel holds a few chunks, so
//! memory stays bounded however large the body is. A reader thread left
//! blocked after an idle timeout ends at the total deadline at the latest.
//!
//! Compression: the request asks for `gzip, deflate, br`; ureq decodes gzip
//! and brotli itself (its `gzip` and `brotli` features, the latter the
//! pure-Rust `brotli-decompressor`) and a `deflate` body (zlib, RFC 9110)
//! is decoded here with flate2. A decoding error is a read error, so it ends
//! the stream like a reset would (`transport.ended-early`).

use crate::error::{LiveError, body_start};
use std::io::{self, Read};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// Size of one read from the body.
const CHUNK_BYTES: usize = 64 * 1024;
/// Chunks in flight between the reader thread and the caller.
const CHANNEL_CHUNKS: usize = 4;

/// Time limits of one exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From sending the request to the end of the body.
    pub total: Duration,
    /// Longest wait for the next bytes (response head included).
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            total: Duration::from_secs(300),
            idle: Duration::from_secs(120),
        }
    }
}

/// One request to a producer.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub url: &'a str,
    /// The JSON body.
    pub body: &'a [u8],
    /// Extra headers, sent after the defaults (a header named here replaces
    /// the default `Accept` or `Content-Type`).
    pub headers: &'a [(String, String)],
    pub limits: Limits,
}

/// A response whose body is being read.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: Option<String>,
    chunks: Receiver<Chunk>,
    deadline: Instant,
    limits: Limits,
    done: bool,
}

#[derive(Debug)]
enum Chunk {
    Bytes(Vec<u8>),
    End,
    Failed(io::Error),
}

/// Parses a `--header` argument: `Name: value`.
pub fn parse_header(arg: &str) -> Result<(String, String), LiveError> {
    let bad = || LiveError::Usage(format!("--header `{arg}`: expected `Name: value`"));
    let (name, value) = arg.split_once(':').ok_or_else(bad)?;
    let name = name.trim();
    let valid_name = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !valid_name {
        return Err(bad());
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// Sends the request and waits for the response head (of any status).
pub fn send(req: &Request<'_>) -> Result<Response, LiveError> {
    let start = Instant::now();
    let deadline = start + req.limits.total;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(req.limits.total))
        // The response head is awaited at most the idle limit too.
        .timeout_recv_response(Some(req.limits.idle))
        .user_agent(concat!("agui-conform/", env!("CARGO_PKG_VERSION")))
        .accept_encoding("gzip, deflate, br")
        .build()
        .into();
    let mut builder = agent.post(req.url);
    let has = |name: &str| {
        req.headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case(name))
    };
    if !has("accept") {
        builder = builder.header("Accept", "text/event-stream");
    }
    if !has("content-type") {
        builder = builder.header("Content-Type", "application/json");
    }
    for (k, v) in req.headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    let response = builder
        .send(req.body)
        .map_err(|e| request_error(e, req.limits))?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let deflate = response
        .headers()
        .get("content-encoding")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"deflate"));
    let reader = response.into_body().into_reader();
    let (tx, rx) = sync_channel(CHANNEL_CHUNKS);
    let spawned = std::thread::Builder::new()
        .name("agui-live-body".into())
        .spawn(move || {
            if deflate {
                pump(flate2::read::ZlibDecoder::new(reader), tx)
            } else {
                pump(reader, tx)
            }
        });
    spawned.map_err(|e| LiveError::Transport(format!("cannot start the body reader: {e}")))?;
    Ok(Response {
        status,
        content_type,
        chunks: rx,
        deadline,
        limits: req.limits,
        done: false,
    })
}

/// Reads the body into the channel until it ends, fails or nobody listens.
fn pump(mut reader: impl Read, tx: std::sync::mpsc::SyncSender<Chunk>) {
    loop {
        let mut buf = vec![0; CHUNK_BYTES];
        let chunk = match reader.read(&mut buf) {
            Ok(0) => Chunk::End,
            Ok(n) => {
                buf.truncate(n);
                Chunk::Bytes(buf)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => Chunk::Failed(e),
        };
        let last = !matches!(chunk, Chunk::Bytes(_));
        if tx.send(chunk).is_err() || last {
            return;
        }
    }
}

impl Response {
    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The error for a non-2xx status, with the first bytes of the body.
    pub fn status_error(&mut self) -> LiveError {
        let (start, more) = self.first_bytes(crate::error::BODY_START_BYTES + 1);
        LiveError::Status {
            status: self.status,
            body_start: body_start(&start, more),
        }
    }

    /// The next bytes of the body; `Ok(None)` at its end.
    pub fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, LiveError> {
        if self.done {
            return Ok(None);
        }
        let now = Instant::now();
        let Some(left) = self.deadline.checked_duration_since(now) else {
            self.done = true;
            return Err(LiveError::Timeout {
                limit: self.limits.total,
            });
        };
        let wait = left.min(self.limits.idle);
        match self.chunks.recv_timeout(wait) {
            Ok(Chunk::Bytes(b)) => Ok(Some(b)),
            Ok(Chunk::End) => {
                self.done = true;
                Ok(None)
            }
            Ok(Chunk::Failed(e)) => {
                self.done = true;
                Err(read_error(e, self.limits))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.done = true;
                Err(if wait < self.limits.idle {
                    LiveError::Timeout {
                        limit: self.limits.total,
                    }
                } else {
                    LiveError::Idle {
                        limit: self.limits.idle,
                    }
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.done = true;
                Err(LiveError::Transport("the body reader stopped".into()))
            }
        }
    }

    /// Up to `n` first bytes of the body, for an error message; the flag
    /// says whether there was more. Waits at most a few seconds.
    fn first_bytes(&mut self, n: usize) -> (Vec<u8>, bool) {
        self.limits.idle = self.limits.idle.min(Duration::from_secs(5));
        let mut out = Vec::new();
        while out.len() < n {
            match self.next_chunk() {
                Ok(Some(b)) => out.extend_from_slice(&b),
                _ => break,
            }
        }
        let more = out.len() > n;
        out.truncate(n);
        (out, more)
    }
}

/// A failure of `send`: a timeout, or anything else that kept the response
/// head from arriving.
fn request_error(e: ureq::Error, limits: Limits) -> LiveError {
    match e {
        ureq::Error::Timeout(ureq::Timeout::RecvResponse) => LiveError::Idle { limit: limits.idle },
        ureq::Error::Timeout(_) => LiveError::Timeout {
            limit: limits.total,
        },
        ureq::Error::BadUri(m) => LiveError::Usage(format!("bad URL: {m}")),
        other => LiveError::Connect(other.to_string()),
    }
}

/// A failure while reading the body.
fn read_error(e: io::Error, limits: Limits) -> LiveError {
    match ureq::Error::from(e) {
        ureq::Error::Timeout(_) => LiveError::Timeout {
            limit: limits.total,
        },
        ureq::Error::Io(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            LiveError::Transport("the connection closed before the body was complete".into())
        }
        other => LiveError::Transport(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_parse_name_and_value() {
        assert_eq!(
            parse_header("Authorization: Bearer a:b").unwrap(),
            ("Authorization".into(), "Bearer a:b".into())
        );
        assert_eq!(
            parse_header("X-Empty:").unwrap(),
            ("X-Empty".into(), "".into())
        );
        assert!(parse_header("no colon").is_err());
        assert!(parse_header(": v").is_err());
        assert!(parse_header("bad name: v").is_err());
    }
}
