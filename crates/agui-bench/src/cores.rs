//! How long one cache line takes to go from one core to the other and
//! back: two threads pass a counter back and forth.
//!
//! The two-thread figures of `check` (the parse-ahead thread, `-j 2`)
//! depend on it: on a cloud host whose two vCPUs share a cache complex in
//! some minutes and not in others, the round trip jumps between about
//! 90 ns and 390 ns and the parse-ahead check with it (0.09 s against
//! 0.13 s on the single-run stream), while one thread runs at one speed
//! (docs/performance-log.md). `scripts/perf-table.sh` prints it beside every
//! section so that a table says which kind of minute it was taken in.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Trips in one trial.
const TRIPS: u64 = 200_000;

/// One trial: the mean round trip in nanoseconds, and the trips the other
/// thread answered (all of them, or the protocol is broken).
pub fn trial(trips: u64) -> (f64, u64) {
    let flag = AtomicU64::new(0);
    let (elapsed, answered) = std::thread::scope(|s| {
        let other = s.spawn(|| {
            let mut answered = 0;
            for i in 0..trips {
                while flag.load(Ordering::Acquire) != 2 * i + 1 {
                    std::hint::spin_loop();
                }
                flag.store(2 * i + 2, Ordering::Release);
                answered += 1;
            }
            answered
        });
        let start = Instant::now();
        for i in 0..trips {
            flag.store(2 * i + 1, Ordering::Release);
            while flag.load(Ordering::Acquire) != 2 * i + 2 {
                std::hint::spin_loop();
            }
        }
        let elapsed = start.elapsed();
        (elapsed, other.join().unwrap_or(0))
    });
    (elapsed.as_nanos() as f64 / trips.max(1) as f64, answered)
}

/// The median of `trials` trials, in nanoseconds per round trip.
pub fn round_trip_ns(trials: usize) -> f64 {
    let mut t: Vec<f64> = (0..trials.max(1)).map(|_| trial(TRIPS).0).collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_trip_is_answered_and_timed() {
        let (ns, answered) = super::trial(1_000);
        assert_eq!(answered, 1_000);
        assert!(ns.is_finite() && ns > 0.0, "{ns}");
    }
}
