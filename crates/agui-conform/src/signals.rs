//! SIGINT and SIGTERM during `check --url` and `run --producer`: the first
//! asks the exchanges to stop ([`agui_live::Stop`]), so the report of what
//! was received is still printed (the stop is ours, not the producer's
//! doing: a `time` limit notice); a second exits at once with 128 + N.
//!
//! The harness's one watcher (`agui_harness::subprocess::cleanup`) takes
//! the signals and kills whatever implementation runs (a `--peer`); the
//! stop flag is its hook. [`install`] must run before any other thread
//! starts (the signals are blocked in the calling thread, which every
//! thread started after it inherits).

use agui_harness::subprocess::cleanup::{self, OnSignal};
use agui_live::Stop;
use std::sync::OnceLock;

static STOP: OnceLock<Stop> = OnceLock::new();

/// Installs the watcher (once; later calls return the same flag) and
/// returns the stop flag it sets.
pub fn install() -> Stop {
    STOP.get_or_init(|| {
        let stop = Stop::default();
        let flag = stop.clone();
        cleanup::on_signal(move |sig| flag.request(sig));
        cleanup::install(OnSignal::WindDown);
        stop
    })
    .clone()
}

/// The signal that asked for a stop, if one did (none when not installed).
pub fn received() -> Option<i32> {
    STOP.get()
        .and_then(Stop::requested)
        .or_else(cleanup::interrupted)
}
