//! A loopback server that answers with bytes exactly as scripted: the
//! response head and body written in one piece (so that they come in one
//! read), then a clean close, a reset, or silence. For faults a scripted
//! HTTP server cannot make: a malformed chunk header, corrupt compressed
//! data, a reset right after the data. Serves until the test ends.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::time::Duration;

/// How the connection ends after the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawEnd {
    /// A clean close (FIN).
    Close,
    /// A reset (RST: SO_LINGER with a zero timeout, then close).
    Reset,
    /// Nothing more for this long, then a clean close.
    Hang(Duration),
}

/// What to send for one request.
pub struct RawReply {
    pub bytes: Vec<u8>,
    pub end: RawEnd,
}

type Handler = dyn Fn(&str) -> RawReply + Send + Sync;

pub struct RawServer {
    pub addr: SocketAddr,
}

impl RawServer {
    /// Serves every connection with `handler(request path)`.
    pub fn start(handler: impl Fn(&str) -> RawReply + Send + Sync + 'static) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let handler: Arc<Handler> = Arc::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let handler = handler.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &*handler);
                });
            }
        });
        RawServer { addr }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{path}", self.addr)
    }
}

fn serve(mut stream: TcpStream, handler: &Handler) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .trim_start_matches('/')
        .to_owned();
    let mut len = 0usize;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':')
            && k.trim().eq_ignore_ascii_case("content-length")
        {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    reader.read_exact(&mut body)?;
    let reply = handler(&path);
    stream.write_all(&reply.bytes)?;
    stream.flush()?;
    match reply.end {
        RawEnd::Close => stream.shutdown(std::net::Shutdown::Both),
        RawEnd::Reset => {
            let linger = libc::linger {
                l_onoff: 1,
                l_linger: 0,
            };
            // SAFETY: a valid socket and a `linger` of the size given.
            let r = unsafe {
                libc::setsockopt(
                    stream.as_raw_fd(),
                    libc::SOL_SOCKET,
                    libc::SO_LINGER,
                    (&raw const linger).cast(),
                    std::mem::size_of::<libc::linger>() as libc::socklen_t,
                )
            };
            assert_eq!(r, 0, "SO_LINGER");
            drop(stream);
            Ok(())
        }
        RawEnd::Hang(d) => {
            std::thread::sleep(d);
            stream.shutdown(std::net::Shutdown::Both)
        }
    }
}

/// A response head: status 200, `text/event-stream`, then `headers`.
pub fn head(headers: &[&str]) -> Vec<u8> {
    let mut h = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n".to_owned();
    for x in headers {
        h += x;
        h += "\r\n";
    }
    h += "Connection: close\r\n\r\n";
    h.into_bytes()
}
