//! SIGINT and SIGTERM during `check --url` and `run --producer`: the first
//! asks the exchanges to stop ([`agui_live::Stop`]), so the report of what
//! was received is still printed (the stop is ours, not the producer's
//! doing: a `time` limit notice); a second exits at once with 128 + N.
//!
//! As in the harness (`agui_harness::subprocess::cleanup`), the signals are
//! blocked in the calling thread, which every thread started after it
//! inherits, and waited for with `sigwait(2)` on a thread of their own: no
//! code runs in a signal handler. [`install`] must therefore run before
//! any other thread starts.

use agui_live::Stop;
use agui_live::stop::signal_name;
use std::sync::OnceLock;

static STOP: OnceLock<Stop> = OnceLock::new();

/// Installs the watcher (once; later calls return the same flag) and
/// returns the stop flag it sets.
pub fn install() -> Stop {
    STOP.get_or_init(|| {
        let stop = Stop::default();
        // SAFETY: signal-set manipulation on a local set, and
        // pthread_sigmask on the calling thread.
        let set = unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            set
        };
        let flag = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || watch(set, &flag));
        if spawned.is_err() {
            // No watcher: give the signals their default action back.
            // SAFETY: as above.
            unsafe {
                libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            }
        }
        stop
    })
    .clone()
}

/// The signal that asked for a stop, if one did (none when not installed).
pub fn received() -> Option<i32> {
    STOP.get().and_then(Stop::requested)
}

fn watch(set: libc::sigset_t, stop: &Stop) {
    loop {
        let mut sig: libc::c_int = 0;
        // SAFETY: `set` is a valid signal set; `sig` a valid out pointer.
        if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
            continue;
        }
        if stop.requested().is_some() {
            eprintln!("agui-conform: {}: exiting at once", signal_name(sig));
            std::process::exit(128 + sig);
        }
        stop.request(sig);
        eprintln!(
            "agui-conform: {}: stopping; the report covers what was received \
             (a second signal exits at once)",
            signal_name(sig)
        );
    }
}
