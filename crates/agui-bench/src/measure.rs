//! Runs one side of the comparison as a child process and measures it the
//! same way for every side: wall time from spawn to exit, and the child's
//! own peak resident set (`ru_maxrss` from `wait4`, which reports that one
//! child — `getrusage(RUSAGE_CHILDREN)` would give the maximum over every
//! child waited for so far).

use anyhow::{Context, bail};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One measured child run.
#[derive(Debug, Clone)]
pub struct Sample {
    pub wall: Duration,
    /// Peak resident set in bytes.
    pub max_rss: u64,
    /// The child's exit code.
    pub code: i32,
    /// What it printed (for checking its verdict).
    pub stdout: String,
}

/// Spawns `cmd` (stdout captured, stderr inherited), waits for it with
/// `wait4` and returns its sample.
pub fn run(cmd: &mut Command) -> anyhow::Result<Sample> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {cmd:?}"))?;
    let mut stdout = String::new();
    if let Some(mut out) = child.stdout.take() {
        out.read_to_string(&mut stdout)
            .context("reading the child's output")?;
    }
    let pid = libc::pid_t::try_from(child.id()).context("pid out of range")?;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (`child.wait` is
    // never called); `status` and `usage` are valid for writes.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    if got != pid {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    Ok(Sample {
        wall,
        // Linux reports kilobytes.
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
        code,
        stdout,
    })
}

/// The median of a non-empty list (the lower middle of an even count).
pub fn median<T: Copy + Ord>(values: &[T]) -> Option<T> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get((v.len().max(1) - 1) / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[3, 1, 2]), Some(2));
        assert_eq!(median(&[4, 1, 3, 2]), Some(2));
        assert_eq!(median::<u32>(&[]), None);
    }

    #[test]
    fn a_child_is_measured() {
        let s = run(Command::new("true").arg("x")).expect("runs");
        assert_eq!(s.code, 0);
        assert!(s.max_rss > 0);
    }
}
