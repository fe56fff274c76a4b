//! Runs one side of the comparison as a child process and measures it the
//! same way for every side: wall time from spawn to exit, and the child's
//! own peak resident set (`ru_maxrss` from `wait4`, which reports that one
//! child — `getrusage(RUSAGE_CHILDREN)` would give the maximum over every
//! child waited for so far), and its CPU time.

use anyhow::{Context, bail};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One measured child run.
#[derive(Debug, Clone)]
pub struct Sample {
    pub wall: Duration,
    /// User plus system CPU time of the child and of the children it
    /// waited for (`wait4`'s `ru_utime + ru_stime`).
    pub cpu: Duration,
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
    let stdout = match child.stdout.take() {
        Some(out) => head_and_tail(out).context("reading the child's output")?,
        None => String::new(),
    };
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
    let tv = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    Ok(Sample {
        wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        // Linux reports kilobytes.
        max_rss: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024,
        code,
        stdout,
    })
}

/// Bytes of a child's output kept at each end.
const KEEP: usize = 4096;

/// The first and last [`KEEP`] bytes of a child's output. The rest is read
/// and dropped: a child's peak memory counts the parent's resident set at
/// spawn (it is inherited through `exec`), so the parent stays small.
fn head_and_tail(mut out: impl Read) -> std::io::Result<String> {
    let mut head = Vec::with_capacity(KEEP);
    let mut tail: Vec<u8> = Vec::with_capacity(2 * KEEP);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match out.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let mut chunk = &buf[..n];
        if head.len() < KEEP {
            let take = chunk.len().min(KEEP - head.len());
            head.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
        }
        tail.extend_from_slice(chunk);
        if tail.len() > KEEP {
            tail.drain(..tail.len() - KEEP);
        }
    }
    head.extend_from_slice(&tail);
    Ok(String::from_utf8_lossy(&head).into_owned())
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
