//! Implementations that run as a separate process and speak
//! `suites/PROTOCOL.md`: persistent (one process, many cases) and one-shot
//! (one process per case).

pub mod cleanup;
pub mod oneshot;
pub mod persistent;
pub mod process;

pub use oneshot::OneShot;
pub use persistent::Persistent;
pub use process::Spawn;

use std::time::Duration;

/// Time limits of a subprocess implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// For the handshake answer.
    pub start: Duration,
    /// For one case's answer.
    pub case: Duration,
    /// Grace period after `stop` (or after a one-shot answer) before a kill.
    pub stop: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            start: Duration::from_secs(10),
            case: Duration::from_secs(5),
            stop: Duration::from_secs(1),
        }
    }
}

/// Formats an exit status: `exit status 3`, `killed by signal 9`.
pub(crate) fn describe_exit(s: Option<std::process::ExitStatus>) -> String {
    match s {
        None => "still running".into(),
        Some(s) => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(sig) = s.signal() {
                    return format!("killed by signal {sig}");
                }
            }
            match s.code() {
                Some(c) => format!("exit status {c}"),
                None => "exited".into(),
            }
        }
    }
}
