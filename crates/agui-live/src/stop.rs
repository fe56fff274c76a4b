//! A request to stop a live check early (the user's SIGINT or SIGTERM),
//! shared between whoever receives the signal and the exchange waiting on
//! the producer. Stopping is ours, not the producer's doing: the exchange
//! ends with a `time` limit notice where it stood, as a time limit would.

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

/// Shared stop flag: the signal number once a stop was asked for.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicI32>);

impl Stop {
    /// Asks every exchange sharing this flag to stop (the first signal
    /// number is kept).
    pub fn request(&self, signal: i32) {
        let _ = self
            .0
            .compare_exchange(0, signal.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The signal a stop was asked for with, if one was.
    pub fn requested(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

/// The usual name of a signal number, for messages.
pub fn signal_name(signal: i32) -> String {
    match signal {
        2 => "SIGINT".to_owned(),
        15 => "SIGTERM".to_owned(),
        n => format!("signal {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_signal_is_kept_and_shared() {
        let a = Stop::default();
        let b = a.clone();
        assert_eq!(b.requested(), None);
        a.request(15);
        a.request(2);
        assert_eq!(b.requested(), Some(15));
        assert_eq!(signal_name(15), "SIGTERM");
    }
}
