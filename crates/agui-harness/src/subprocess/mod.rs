//! Implementations that run as a separate process and speak
//! `suites/PROTOCOL.md`: persistent (one process, many cases) and one-shot
//! (one process per case). Unix only (process groups, `setrlimit`,
//! `waitid`, signals): the crate says so once, in `lib.rs`.

pub mod cleanup;
pub mod descendants;
mod groups;
pub mod oneshot;
pub mod persistent;
pub mod process;

pub use oneshot::OneShot;
pub use persistent::Persistent;
pub use process::Spawn;

use process::{Line, Proc, Wait};
use std::time::{Duration, Instant};

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
            use std::os::unix::process::ExitStatusExt;
            if let Some(sig) = s.signal() {
                return format!("killed by signal {sig}");
            }
            match s.code() {
                Some(c) => format!("exit status {c}"),
                None => "exited".into(),
            }
        }
    }
}

/// What a silent process failed to print: the persistent mode's `run`
/// answer or handshake, or the one-shot mode's result line (the reasons
/// are worded as suites/PROTOCOL.md lists them for each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Awaited {
    Answer,
    Result,
}

/// Why a line did not come (or was not a line). After stdout closed, the
/// exit status is awaited for up to the stop grace (`grace`): a process
/// that closes stdout is usually exiting.
pub(crate) fn describe_silence(
    proc: &mut Proc,
    got: Result<Line, Wait>,
    spawn: &Spawn,
    limit: Duration,
    grace: Duration,
    awaited: Awaited,
) -> String {
    match got {
        Ok(Line::Text(_)) => "unexpected line".into(),
        Ok(Line::TooLong(n)) => format!(
            "stdout line longer than {} bytes (flood; {n} bytes read)",
            spawn.max_line
        ),
        Ok(Line::Failed(e)) => format!("reading stdout failed: {e}"),
        Ok(Line::Eof) | Err(Wait::Closed) => {
            let status = describe_exit(proc.wait_until(Instant::now() + grace));
            match awaited {
                Awaited::Answer => format!("the process closed stdout ({status})"),
                Awaited::Result => format!("the process printed no result ({status})"),
            }
        }
        Err(Wait::Exited(s)) => format!(
            "the process exited ({}) without {}; a process it started kept stdout open",
            describe_exit(Some(s)),
            match awaited {
                Awaited::Answer => "answering",
                Awaited::Result => "a result",
            }
        ),
        Err(Wait::StdinClosed { unsent }) => {
            let status = describe_exit(proc.wait_until(Instant::now() + grace));
            let what = if unsent {
                "before reading the whole request"
            } else {
                "and did not answer"
            };
            format!("the process closed its stdin {what} ({status})")
        }
        Err(Wait::Timeout) => match proc.exited() {
            // Exited, but something it started holds stdout open.
            Some(s) => format!(
                "the process exited ({}) without {}; a process it started kept stdout open",
                describe_exit(Some(s)),
                match awaited {
                    Awaited::Answer => "answering",
                    Awaited::Result => "a result",
                }
            ),
            None => format!("no answer within {} ms (hang)", limit.as_millis()),
        },
    }
}
