//! A larger pipe for a large report.
//!
//! `check --format json` copies each run's projection into its report at
//! the end, after the last violation: 28 MB for a thousand runs of a
//! thousand events. Through a pipe of the default 64 KiB, the reader and
//! the writer take turns 430 times; through 1 MiB, 27 times. Measured on
//! the many-run workload read through a pipe: 0.193 s -> 0.182 s
//! (docs/performance.md).

/// What a pipe is asked to hold (Linux's default ceiling for a user,
/// `/proc/sys/fs/pipe-max-size`).
#[cfg(target_os = "linux")]
const PIPE_BYTES: libc::c_int = 1 << 20;

/// Asks for a pipe of [`PIPE_BYTES`] when stdout is a pipe. Best effort:
/// a refusal (another user's limits, not a pipe) leaves it as it is.
#[cfg(target_os = "linux")]
pub(super) fn widen_stdout() {
    use std::os::fd::AsRawFd;
    let fd = std::io::stdout().as_raw_fd();
    // SAFETY: `fstat` and `fcntl(F_SETPIPE_SZ)` only read and change the
    // kernel's state of a descriptor this process holds; `st` is a plain C
    // struct, valid when all zero, written by `fstat`.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFIFO {
            libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES);
        }
    }
}

/// Elsewhere pipes keep their size.
#[cfg(not(target_os = "linux"))]
pub(super) fn widen_stdout() {}
