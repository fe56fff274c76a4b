//! A small HTTP/1.1 server for the tests, on 127.0.0.1 and a port the
//! system picks. It records each request and answers with a scripted
//! [`Reply`]: any status and content type, a chunked, close-delimited or
//! sized body written in pieces of chosen sizes with pauses, and a chosen
//! ending (clean, cut, hanging, trickling comments). Everything it does is
//! bounded: at most [`MAX_CONNECTIONS`] connections, hangs and trickles
//! for at most the time given, then it closes.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Connections served before the accept loop ends.
pub const MAX_CONNECTIONS: usize = 64;

/// How the body is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// `Transfer-Encoding: chunked`, one chunk per piece.
    Chunked,
    /// No length: the body ends when the connection closes.
    Close,
    /// `Content-Length` of the whole body.
    Length,
}

/// How the response ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The body is complete.
    Finish,
    /// The connection closes without ending the body (chunked: no last
    /// chunk; sized: fewer bytes than announced).
    Cut,
    /// After the body, nothing more for this long, then close.
    Hang(Duration),
    /// After the body, a `: ping` comment every `every` for `total`.
    Trickle { every: Duration, total: Duration },
}

/// The body's bytes.
#[derive(Debug, Clone)]
pub enum Body {
    Bytes(Vec<u8>),
    /// `head`, `unit` `count` times, `tail`: a large body made as it is
    /// written, never held whole.
    Repeat {
        head: Vec<u8>,
        unit: Vec<u8>,
        count: usize,
        tail: Vec<u8>,
    },
}

impl Body {
    fn len(&self) -> usize {
        match self {
            Body::Bytes(b) => b.len(),
            Body::Repeat {
                head,
                unit,
                count,
                tail,
            } => head.len() + unit.len() * count + tail.len(),
        }
    }
}

/// A scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub content_type: Option<String>,
    pub framing: Framing,
    pub body: Body,
    /// Write sizes, cycled (the body is cut at these boundaries).
    pub pieces: Vec<usize>,
    /// Pause after each piece.
    pub pause: Duration,
    pub end: End,
    /// Extra response headers.
    pub headers: Vec<(String, String)>,
    /// Pause between the response head and the body.
    pub delay: Duration,
}

impl Reply {
    /// A 200 `text/event-stream` chunked reply of `body`, in one piece.
    pub fn sse(body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type: Some("text/event-stream".into()),
            framing: Framing::Chunked,
            body: Body::Bytes(body.into()),
            pieces: vec![usize::MAX],
            pause: Duration::ZERO,
            end: End::Finish,
            headers: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Reply {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn delay(mut self, d: Duration) -> Reply {
        self.delay = d;
        self
    }

    pub fn pieces(mut self, sizes: &[usize], pause: Duration) -> Reply {
        self.pieces = sizes.to_vec();
        self.pause = pause;
        self
    }

    pub fn framing(mut self, f: Framing) -> Reply {
        self.framing = f;
        self
    }

    pub fn end(mut self, e: End) -> Reply {
        self.end = e;
        self
    }

    pub fn status(mut self, s: u16) -> Reply {
        self.status = s;
        self
    }

    pub fn content_type(mut self, t: Option<&str>) -> Reply {
        self.content_type = t.map(str::to_owned);
        self
    }
}

/// A request as the server read it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

pub struct Server {
    pub addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl Server {
    /// Starts serving; `handler` picks the reply for each request.
    pub fn start(handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let log = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().take(MAX_CONNECTIONS) {
                let Ok(stream) = stream else { continue };
                let handler = handler.clone();
                let log = log.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &*handler, &log);
                });
            }
        });
        Server { addr, requests }
    }

    /// Always the same reply.
    pub fn replying(reply: Reply) -> Server {
        Server::start(move |_| reply.clone())
    }

    pub fn url(&self) -> String {
        format!("http://{}/agent", self.addr)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Recorded>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; len.min(1 << 20)];
    reader.read_exact(&mut body)?;
    let req = Recorded {
        method,
        path,
        headers,
        body,
    };
    let reply = handler(&req);
    log.lock().unwrap().push(req);
    respond(stream, &reply)
}

fn respond(mut out: TcpStream, r: &Reply) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {} Whatever\r\n", r.status);
    if let Some(t) = &r.content_type {
        head += &format!("Content-Type: {t}\r\n");
    }
    match r.framing {
        Framing::Chunked => head += "Transfer-Encoding: chunked\r\n",
        Framing::Length => {
            // A cut sized body announces more than it sends.
            let extra = if r.end == End::Cut { 100 } else { 0 };
            head += &format!("Content-Length: {}\r\n", r.body.len() + extra)
        }
        Framing::Close => {}
    }
    for (k, v) in &r.headers {
        head += &format!("{k}: {v}\r\n");
    }
    head += "Connection: close\r\n\r\n";
    out.write_all(head.as_bytes())?;
    out.flush()?;
    if !r.delay.is_zero() {
        std::thread::sleep(r.delay);
    }

    let mut sizes = r.pieces.iter().cycle();
    let mut send = |bytes: &[u8], out: &mut TcpStream| -> std::io::Result<()> {
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = (*sizes.next().unwrap()).clamp(1, rest.len());
            piece(out, r.framing, &rest[..n])?;
            rest = &rest[n..];
            if !r.pause.is_zero() {
                std::thread::sleep(r.pause);
            }
        }
        Ok(())
    };
    match &r.body {
        Body::Bytes(b) => send(b, &mut out)?,
        Body::Repeat {
            head,
            unit,
            count,
            tail,
        } => {
            send(head, &mut out)?;
            for _ in 0..*count {
                send(unit, &mut out)?;
            }
            send(tail, &mut out)?;
        }
    }
    match r.end {
        End::Finish | End::Hang(_) | End::Trickle { .. } => {}
        End::Cut => return out.shutdown(std::net::Shutdown::Both),
    }
    if let End::Hang(d) = r.end {
        std::thread::sleep(d);
    }
    if let End::Trickle { every, total } = r.end {
        let start = Instant::now();
        while start.elapsed() < total {
            if piece(&mut out, r.framing, b": ping\n\n").is_err() {
                return Ok(());
            }
            std::thread::sleep(every);
        }
    }
    if r.framing == Framing::Chunked {
        out.write_all(b"0\r\n\r\n")?;
    }
    out.flush()?;
    out.shutdown(std::net::Shutdown::Both)
}

fn piece(out: &mut TcpStream, framing: Framing, bytes: &[u8]) -> std::io::Result<()> {
    if framing == Framing::Chunked {
        out.write_all(format!("{:x}\r\n", bytes.len()).as_bytes())?;
        out.write_all(bytes)?;
        out.write_all(b"\r\n")?;
    } else {
        out.write_all(bytes)?;
    }
    out.flush()
}

/// The events of a corpus case (`corpus/AREA/NAME.json`).
pub fn corpus_events(rel: &str) -> Vec<serde_json::Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let case: serde_json::Value = serde_json::from_str(&text).unwrap();
    case["events"].as_array().unwrap().clone()
}

/// The case's expectation: verdict, and the first rule and index if any.
pub fn corpus_expect(rel: &str) -> serde_json::Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel);
    let case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    case["expect"].clone()
}

/// Events as an SSE body: one `data:` line each, a blank line after.
pub fn sse_body(events: &[serde_json::Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(serde_json::to_string(e).unwrap().as_bytes());
        out.extend_from_slice(b"\n\n");
    }
    out
}
