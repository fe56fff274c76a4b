//! A tap on the connection ureq reads: the bytes of the response body as
//! they arrive, before ureq decodes them.
//!
//! ureq sends the request, follows redirects, reads the response head and
//! drives the connection (TLS and proxies included), but its body decoders
//! lose the bytes they decoded in a read that ends in a fault (see
//! [`crate::transfer`]). So the body is decoded here, from this tap: the
//! transport ureq reads through is wrapped, and once [`Tap::arm`] is called
//! (after the final response head), every byte it receives is kept for the
//! caller to take. ureq's own reading of the body only pumps the
//! connection; its output is dropped.
//!
//! This uses ureq's `unversioned` transport interface, which does not
//! follow semver: a ureq upgrade may need this file changed (it then fails
//! to compile; it cannot misbehave silently).

use std::io;
use std::sync::{Arc, Mutex, MutexGuard};
use ureq::unversioned::transport::{Buffers, ConnectionDetails, Connector, NextTimeout, Transport};

/// What the tap saw since it was armed.
#[derive(Debug, Default)]
struct Seen {
    armed: bool,
    /// The unconsumed input at arming (the start of the body) was taken.
    started: bool,
    bytes: Vec<u8>,
    /// The connection was reset (ureq reads a reset as an end).
    reset: Option<String>,
}

/// The caller's side of the tap; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Tap(Arc<Mutex<Seen>>);

impl Tap {
    fn seen(&self) -> MutexGuard<'_, Seen> {
        // A panic while holding the lock leaves plain bytes: still usable.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// From now on, keep the bytes received (the response head was read).
    pub fn arm(&self) {
        self.seen().armed = true;
    }

    /// The bytes received since the last call.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.seen().bytes)
    }

    /// Why the connection was reset, if it was.
    pub fn reset(&self) -> Option<String> {
        self.seen().reset.clone()
    }

    /// The connector to chain after ureq's own.
    pub fn connector(&self) -> TapConnector {
        TapConnector(self.clone())
    }
}

/// Wraps each connection ureq makes in a [`Tapped`] transport.
#[derive(Debug)]
pub struct TapConnector(Tap);

impl Connector<Box<dyn Transport>> for TapConnector {
    type Out = Tapped;

    fn connect(
        &self,
        _: &ConnectionDetails,
        chained: Option<Box<dyn Transport>>,
    ) -> Result<Option<Tapped>, ureq::Error> {
        Ok(chained.map(|inner| Tapped {
            inner,
            tap: self.0.clone(),
        }))
    }
}

/// A transport that copies what it receives into its [`Tap`] once armed.
#[derive(Debug)]
pub struct Tapped {
    inner: Box<dyn Transport>,
    tap: Tap,
}

impl Tapped {
    /// At the first use after arming, the input ureq has not consumed yet
    /// (the body's first bytes, read with the head) is kept.
    fn start(&mut self) {
        let mut seen = self.tap.seen();
        if seen.armed && !seen.started {
            seen.started = true;
            let pending = self.inner.buffers().input();
            seen.bytes.extend_from_slice(pending);
        }
    }
}

impl Transport for Tapped {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.start();
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.inner.transmit_output(amount, timeout)
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.start();
        let before = self.inner.buffers().input().len();
        let r = self.inner.await_input(timeout);
        let mut seen = self.tap.seen();
        if seen.armed {
            let input = self.inner.buffers().input();
            seen.bytes
                .extend_from_slice(&input[before.min(input.len())..]);
            if let Err(ureq::Error::Io(e)) = &r
                && matches!(
                    e.kind(),
                    io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
                )
            {
                seen.reset = Some(e.to_string());
            }
        }
        r
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }

    fn is_tls(&self) -> bool {
        self.inner.is_tls()
    }
}
