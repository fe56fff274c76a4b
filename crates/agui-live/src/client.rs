//! The HTTP exchange: POST the input, then hand the body over in pieces,
//! under a total and an idle time limit, until the body ends, fails, or
//! the caller is asked to stop.
//!
//! The whole exchange runs on a thread of its own that passes what it gets
//! (the response head, then the body in pieces) through a small bounded
//! channel; the caller waits on the channel a little at a time, so a
//! silent server, our time limits and a stop request ([`Stop`]) are all
//! noticed while waiting, the head included. The channel holds a few
//! pieces, so memory stays bounded however large the body is. When the
//! caller stops reading, the connection is shut down and the thread ends.
//!
//! ureq sends the request and reads the head; the body is decoded here, as
//! it arrives, from the bytes ureq receives ([`crate::tap`]): the framing
//! ([`crate::transfer`]) and the `Content-Encoding` ([`crate::encoding`];
//! `gzip, deflate, br` are asked for), so that every byte that arrived
//! before a fault is handed over before the fault is (a reset, a malformed
//! chunk, a body that does not decode; each ends the stream as
//! `transport.ended-early`).

use crate::encoding::{Coding, Decoder};
use crate::error::{LiveError, body_start};
use crate::redirect::{Hop, Hops, Next};
use crate::stop::Stop;
use crate::tap::Tap;
use crate::transfer::{Fault, Framing, Transfer};
use std::io;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};
use ureq::unversioned::resolver::DefaultResolver;
use ureq::unversioned::transport::{Connector as _, DefaultConnector};

/// Size of one read ureq does from the body.
const CHUNK_BYTES: usize = 64 * 1024;
/// Pieces in flight between the exchange thread and the caller.
const CHANNEL_CHUNKS: usize = 4;
/// How often a waiting caller looks at its stop flag.
const POLL: Duration = Duration::from_millis(50);
/// How much longer than ureq's own limits the caller waits for the head
/// before it gives up itself.
const HEAD_MARGIN: Duration = Duration::from_millis(500);

/// Time limits of one exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From sending the request to the end of the body.
    pub total: Duration,
    /// Longest wait for the next bytes (response head included); also the
    /// longest wait for the connection to be made.
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
    /// Asked between waits; a stop ends the exchange with
    /// [`LiveError::Stopped`].
    pub stop: Stop,
}

/// A response whose body is being read.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: Option<String>,
    /// Each 307/308 hop followed to this response.
    pub redirects: Vec<Hop>,
    /// A redirect this response asked for and that was not followed (its
    /// `Location`, a loop, too many hops).
    pub not_followed: Option<String>,
    chunks: Receiver<Msg>,
    deadline: Instant,
    limits: Limits,
    stop: Stop,
    /// When the last bytes (or the head) arrived.
    last: Instant,
    /// Shut down when reading stops, so the exchange thread ends.
    agent: Option<ureq::Agent>,
    done: bool,
}

/// What the exchange thread passes on.
#[derive(Debug)]
enum Msg {
    Head {
        status: u16,
        content_type: Option<String>,
        redirects: Vec<Hop>,
        not_followed: Option<String>,
    },
    Bytes(Vec<u8>),
    End,
    Failed(LiveError),
}

/// What [`Response::next`] got.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// The next bytes of the (decoded) body.
    Bytes(Vec<u8>),
    /// The body ended cleanly.
    End,
    /// Nothing came before the caller's `until`.
    Quiet,
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
/// Errors: [`LiveError::Connect`] (no connection), [`LiveError::Usage`]
/// (a bad URL), [`LiveError::Idle`] or [`LiveError::Timeout`] (no head in
/// time), [`LiveError::Stopped`].
pub fn send(req: &Request<'_>) -> Result<Response, LiveError> {
    let start = Instant::now();
    let deadline = start + req.limits.total;
    let tap = Tap::default();
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(req.limits.total))
        .timeout_connect(Some(req.limits.idle.min(req.limits.total)))
        // The response head is awaited at most the idle limit too.
        .timeout_recv_response(Some(req.limits.idle))
        .user_agent(concat!("agui-conform/", env!("CARGO_PKG_VERSION")))
        // Redirects are ours to follow ([`crate::redirect`]).
        .max_redirects(0)
        .build();
    let connector = DefaultConnector::new().chain(tap.connector());
    let agent = ureq::Agent::with_parts(config, connector, DefaultResolver::default());
    let (tx, rx) = sync_channel(CHANNEL_CHUNKS);
    let job = Job {
        agent: agent.clone(),
        tap,
        url: req.url.to_owned(),
        body: req.body.to_vec(),
        headers: req.headers.to_vec(),
        limits: req.limits,
        tx,
    };
    std::thread::Builder::new()
        .name("agui-live-exchange".into())
        .spawn(move || job.run())
        .map_err(|e| LiveError::Transport(format!("cannot start the exchange thread: {e}")))?;
    let mut response = Response {
        status: 0,
        content_type: None,
        redirects: Vec::new(),
        not_followed: None,
        chunks: rx,
        deadline,
        limits: req.limits,
        stop: req.stop.clone(),
        last: start,
        agent: Some(agent),
        done: false,
    };
    let head_by = start + req.limits.idle.min(req.limits.total) + HEAD_MARGIN;
    match response.wait(head_by)? {
        Some(Msg::Head {
            status,
            content_type,
            redirects,
            not_followed,
        }) => {
            response.status = status;
            response.content_type = content_type;
            response.redirects = redirects;
            response.not_followed = not_followed;
            response.last = Instant::now();
            Ok(response)
        }
        Some(Msg::Failed(e)) => Err(response.end(e)),
        Some(_) => Err(response.end(LiveError::Transport(
            "the exchange sent a body before its head".into(),
        ))),
        None => {
            let e = if req.limits.idle < req.limits.total {
                LiveError::Idle {
                    limit: req.limits.idle,
                }
            } else {
                LiveError::Timeout {
                    limit: req.limits.total,
                }
            };
            Err(response.end(e))
        }
    }
}

/// The exchange thread's work.
struct Job {
    agent: ureq::Agent,
    tap: Tap,
    url: String,
    body: Vec<u8>,
    headers: Vec<(String, String)>,
    limits: Limits,
    tx: SyncSender<Msg>,
}

impl Job {
    fn run(self) {
        let mut hops = Hops::new(&self.url);
        let mut url = self.url.clone();
        let (response, not_followed) = loop {
            let response = match self.send(&url) {
                Ok(r) => r,
                Err(e) => {
                    let _ = self.tx.send(Msg::Failed(request_error(e, self.limits)));
                    return;
                }
            };
            let location = response
                .headers()
                .get("location")
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            match hops.next(response.status().as_u16(), location.as_deref()) {
                Next::Follow(to) => url = to,
                Next::Stop(note) => break (response, note),
            }
        };
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let status = response.status().as_u16();
        let transfer_encoding: Vec<String> = response
            .headers()
            .get_all("transfer-encoding")
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect();
        let te: Vec<&str> = transfer_encoding.iter().map(String::as_str).collect();
        let http10 = response.version() == ureq::http::Version::HTTP_10;
        let framing = Framing::of(status, http10, &te, header("content-length").as_deref());
        let coding = Coding::of(header("content-encoding").as_deref());
        let head = Msg::Head {
            status,
            content_type: header("content-type"),
            redirects: hops.followed,
            not_followed,
        };
        if self.tx.send(head).is_err() {
            return;
        }
        self.tap.arm();
        let reader = response.into_body().into_reader();
        let mut body = Body {
            transfer: Transfer::new(framing),
            decoder: Decoder::new(coding),
            tx: &self.tx,
            gone: false,
        };
        let end = body.pump(reader, &self.tap, self.limits);
        if !body.gone {
            let _ = self.tx.send(end);
        }
    }
}

impl Job {
    /// POSTs the input to `url` with our headers and the caller's.
    fn send(&self, url: &str) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let mut builder = self.agent.post(url);
        let has = |name: &str| {
            self.headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(name))
        };
        if !has("accept") {
            builder = builder.header("Accept", "text/event-stream");
        }
        if !has("content-type") {
            builder = builder.header("Content-Type", "application/json");
        }
        if !has("accept-encoding") {
            builder = builder.header("Accept-Encoding", "gzip, deflate, br");
        }
        for (k, v) in &self.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        builder.send(&self.body[..])
    }
}

/// The body of one response, decoded from the tap as ureq reads it.
struct Body<'a> {
    transfer: Transfer,
    decoder: Decoder,
    tx: &'a SyncSender<Msg>,
    /// The caller stopped listening.
    gone: bool,
}

impl Body<'_> {
    /// Reads until the body ends or fails; the last message to send.
    fn pump(&mut self, mut reader: impl io::Read, tap: &Tap, limits: Limits) -> Msg {
        let mut scratch = vec![0; CHUNK_BYTES];
        loop {
            // ureq's reading pumps the connection; its output is dropped.
            let r = reader.read(&mut scratch);
            if let Err(f) = self.decode(&tap.take()) {
                return fault(&f);
            }
            if self.gone {
                return Msg::End;
            }
            match r {
                Ok(0) => {
                    return match tap.reset() {
                        Some(why) if !self.complete() => Msg::Failed(LiveError::Transport(
                            format!("the connection was reset: {why}"),
                        )),
                        _ => self.finish(),
                    };
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) if self.complete() => return Msg::End,
                // The connection closed or was reset early: the decoders
                // say where the body stood.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return self.finish(),
                Err(e) => {
                    return Msg::Failed(match tap.reset() {
                        Some(why) => {
                            LiveError::Transport(format!("the connection was reset: {why}"))
                        }
                        None => read_error(e, limits),
                    });
                }
            }
        }
    }

    /// Decodes raw body bytes, passing every decoded byte on before the
    /// first fault (of the content coding, else of the framing).
    fn decode(&mut self, raw: &[u8]) -> Result<(), Fault> {
        let mut bad: Option<Fault> = None;
        let (decoder, tx, gone) = (&mut self.decoder, self.tx, &mut self.gone);
        let framed = self.transfer.feed(raw, &mut |data| {
            if bad.is_some() || *gone {
                return;
            }
            if let Err(f) = decoder.feed(data, &mut |piece| {
                if !*gone && tx.send(Msg::Bytes(piece.to_vec())).is_err() {
                    *gone = true;
                }
            }) {
                bad = Some(f);
            }
        });
        match bad {
            Some(f) => Err(f),
            None => framed,
        }
    }

    fn complete(&self) -> bool {
        self.transfer.done() && self.decoder.finish().is_ok()
    }

    /// The connection ended cleanly: is the body whole?
    fn finish(&self) -> Msg {
        match self.transfer.finish().and_then(|()| self.decoder.finish()) {
            Ok(()) => Msg::End,
            Err(f) => fault(&f),
        }
    }
}

fn fault(f: &Fault) -> Msg {
    Msg::Failed(LiveError::Transport(f.to_string()))
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

    /// Marks the exchange done and shuts its connection down; returns `e`.
    fn end(&mut self, e: LiveError) -> LiveError {
        self.close();
        e
    }

    /// Waits for the exchange thread's next message until `by` (`None`
    /// then), the total deadline or a stop, a little at a time.
    fn wait(&mut self, by: Instant) -> Result<Option<Msg>, LiveError> {
        loop {
            if let Some(signal) = self.stop.requested() {
                return Err(self.end(LiveError::Stopped { signal }));
            }
            let now = Instant::now();
            let until = by.min(self.deadline + HEAD_MARGIN);
            if now >= until {
                return Ok(None);
            }
            match self.chunks.recv_timeout((until - now).min(POLL)) {
                Ok(m) => return Ok(Some(m)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(
                        self.end(LiveError::Transport("the exchange thread stopped".into()))
                    );
                }
            }
        }
    }

    /// The next bytes of the body, its end, or [`Read::Quiet`] when nothing
    /// came before `until`.
    pub fn next(&mut self, until: Option<Instant>) -> Result<Read, LiveError> {
        if self.done {
            return Ok(Read::End);
        }
        let idle_at = self.last + self.limits.idle;
        let by = [Some(self.deadline), Some(idle_at), until]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(self.deadline);
        match self.wait(by)? {
            Some(Msg::Bytes(b)) => {
                self.last = Instant::now();
                Ok(Read::Bytes(b))
            }
            Some(Msg::End) => {
                self.done = true;
                Ok(Read::End)
            }
            Some(Msg::Failed(e)) => Err(self.end(e)),
            Some(Msg::Head { .. }) => {
                Err(self.end(LiveError::Transport("a second response head".into())))
            }
            None => {
                let now = Instant::now();
                if now >= self.deadline {
                    Err(self.end(LiveError::Timeout {
                        limit: self.limits.total,
                    }))
                } else if now >= idle_at {
                    Err(self.end(LiveError::Idle {
                        limit: self.limits.idle,
                    }))
                } else {
                    Ok(Read::Quiet)
                }
            }
        }
    }

    /// Stops reading: the connection is shut down, so the exchange thread
    /// ends at once instead of at the total time limit.
    pub fn close(&mut self) {
        self.done = true;
        if let Some(agent) = self.agent.take() {
            agent.shutdown();
        }
    }

    /// Up to `n` first bytes of the body, for an error message; the flag
    /// says whether there was more. Waits at most a few seconds.
    fn first_bytes(&mut self, n: usize) -> (Vec<u8>, bool) {
        self.limits.idle = self.limits.idle.min(Duration::from_secs(5));
        let mut out = Vec::new();
        while out.len() < n {
            match self.next(None) {
                Ok(Read::Bytes(b)) => out.extend_from_slice(&b),
                _ => break,
            }
        }
        let more = out.len() > n;
        out.truncate(n);
        (out, more)
    }
}

impl Drop for Response {
    fn drop(&mut self) {
        self.close();
    }
}

/// A failure before the response head: a timeout, or anything else that
/// kept the head from arriving.
fn request_error(e: ureq::Error, limits: Limits) -> LiveError {
    match e {
        ureq::Error::Timeout(ureq::Timeout::RecvResponse) => LiveError::Idle { limit: limits.idle },
        ureq::Error::Timeout(ureq::Timeout::Connect | ureq::Timeout::Resolve) => {
            LiveError::Connect(format!(
                "no connection within {:.1} s (--idle-timeout)",
                limits.idle.min(limits.total).as_secs_f64()
            ))
        }
        ureq::Error::Timeout(_) => LiveError::Timeout {
            limit: limits.total,
        },
        ureq::Error::BadUri(m) => LiveError::Usage(format!("bad URL: {m}")),
        other => LiveError::Connect(other.to_string()),
    }
}

/// A failure while reading the body (after the bytes read were decoded).
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
