//! [`Checker::push_line`]: the borrowed fast path into the same checker.
//!
//! A line the fast parser ([`crate::fast`]) accepts is schema-valid, so it
//! only needs the stream rules: its typed body goes to the one dispatcher
//! the `Value` path uses, so reports are identical. Anything unusual
//! declines and goes through [`Checker::push`].

use super::Checker;
use crate::fast;
use serde_json::Value;

impl Checker {
    /// Feeds one JSON Lines line (without its line ending): the fast path
    /// when it applies, else the line is parsed into a `Value` and
    /// [`Checker::push`]ed, or reported with [`Checker::push_unparseable`]
    /// (the reason here is serde_json's; the stream reader words its own).
    pub fn push_line(&mut self, line: &[u8]) {
        if self.try_push_line(line) {
            return;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(v) => self.push(&v),
            Err(e) => self.push_unparseable(&e.to_string()),
        }
    }

    /// Checks one line on the fast path and returns `true`, or returns
    /// `false` having changed nothing (the caller takes the `Value` path).
    pub fn try_push_line(&mut self, line: &[u8]) -> bool {
        if !self.takes_fast() {
            return false;
        }
        // A line that is not UTF-8 declines (the scanner checks it).
        let Some(ev) = fast::parse(line) else {
            return false;
        };
        self.push_event(&ev);
        true
    }

    /// Whether the fast path applies now: inside a run (an event before,
    /// between or after runs takes the `Value` path, which the caller's
    /// run log observes: a stray event opens a run there), and with
    /// nesting up to its own depth below the event (under a lower limit,
    /// every line goes where the limit is judged).
    fn takes_fast(&self) -> bool {
        self.run_open() && self.limits.nesting > crate::fast::MAX_DEPTH
    }

    /// An event parsed ahead on another thread (`crate::pipeline`): checked
    /// as [`Checker::try_push_line`] would check its line, or `false`
    /// having changed nothing.
    pub(crate) fn try_push_event(&mut self, ev: &crate::body::Typed<'_>) -> bool {
        if !self.takes_fast() {
            return false;
        }
        self.push_event(ev);
        true
    }

    #[inline(always)]
    fn push_event(&mut self, ev: &crate::body::Typed<'_>) {
        let i = self.index;
        self.index += 1;
        // The fast parser accepts only schema-valid events: a schema check.
        self.judged(super::area::SCHEMA);
        self.dispatch(i, ev);
        self.flush();
    }
}
