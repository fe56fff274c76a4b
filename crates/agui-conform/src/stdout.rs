//! Writing to stdout: a reader that goes away is no error
//! ([`to_stdout`]), a larger pipe for a large report, and the spilled
//! runs moved into it by the kernel.
//!
//! `check --format json` copies each run's projection into its report at
//! the end, after the last violation: 28 MB for a thousand runs of a
//! thousand events. Through a pipe of the default 64 KiB, the reader and
//! the writer take turns 430 times; through 1 MiB, 27 times. Measured on
//! the many-run workload read through a pipe: 0.193 s -> 0.182 s
//! (docs/performance-log.md).

use std::io::{self, Write};

/// Writes to stdout through `write`. A reader that went away (`rules | head`)
/// is not an error: there is no one left to tell. Any other error says it
/// was stdout's (a full disk under `> report.txt`).
pub fn to_stdout(write: impl FnOnce(&mut io::StdoutLock) -> io::Result<()>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(stdout_error(e)),
        Ok(()) => Ok(()),
    }
}

/// Prints `text` to stdout; an error says it was stdout's, its kind kept,
/// so a reader that went away still ends the command with status 0
/// (main's `is_broken_pipe`), as it did before.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// An error of writing to stdout, saying so (its kind kept).
pub fn stdout_error(e: io::Error) -> io::Error {
    if is_stdout_error(&e) {
        return e;
    }
    io::Error::new(e.kind(), StdoutError(e))
}

/// Whether `e` is one [`stdout_error`] made.
pub fn is_stdout_error(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<StdoutError>())
}

/// A writer to stdout whose errors say so ([`stdout_error`]), for the
/// commands that write as they go (a batch of files, `gen`).
pub struct Marked<W>(pub W);

impl<W: Write> Write for Marked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(stdout_error)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(stdout_error)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(stdout_error)
    }
}

/// What [`stdout_error`] wraps.
#[derive(Debug)]
struct StdoutError(io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "writing to standard output: {}", self.0)
    }
}

impl std::error::Error for StdoutError {}

/// What a pipe is asked to hold (Linux's default ceiling for a user,
/// `/proc/sys/fs/pipe-max-size`).
#[cfg(target_os = "linux")]
const PIPE_BYTES: libc::c_int = 1 << 20;

/// Asks for a pipe of [`PIPE_BYTES`] when stdout is a pipe. Best effort:
/// a refusal (another user's limits, not a pipe) leaves it as it is.
#[cfg(target_os = "linux")]
pub fn widen_stdout() {
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
pub fn widen_stdout() {}

/// The report's writer when it is stdout.
pub type Stdout = std::io::BufWriter<std::io::StdoutLock<'static>>;

/// Copies the spilled runs' file into stdout. Into a pipe, the kernel
/// moves the file's pages (`splice`): no copy through this process, which
/// the standard library's `io::copy` declines from a file into a pipe (the
/// file might change while the pipe still holds its pages; this one is an
/// unnamed temporary file nobody else writes). Anywhere else, or when
/// `splice` is refused before anything moved, `io::copy`.
#[cfg(target_os = "linux")]
pub fn copy_to_stdout(f: &mut std::fs::File, out: &mut Stdout) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    out.flush()?;
    // The writer's own descriptor, not a second handle on stdout.
    let (from, to) = (f.as_raw_fd(), out.get_ref().as_raw_fd());
    let mut moved = 0usize;
    loop {
        // SAFETY: `splice` reads and writes through two descriptors this
        // process holds open (the file and stdout) and the kernel's own
        // pipe buffer; no memory of this process is touched. The file's
        // offset moves as it is read (null offset).
        let n = unsafe {
            libc::splice(
                from,
                std::ptr::null_mut(),
                to,
                std::ptr::null_mut(),
                1 << 20,
                libc::SPLICE_F_MOVE,
            )
        };
        match n {
            0 => return Ok(()),
            n if n > 0 => moved += n as usize,
            _ => {
                let e = std::io::Error::last_os_error();
                match e.kind() {
                    std::io::ErrorKind::Interrupted => {}
                    // Not a pipe, or no `splice` here: the file is still
                    // where it was.
                    _ if moved == 0 && e.raw_os_error() == Some(libc::EINVAL) => {
                        return agui_model::copy_in(f, out);
                    }
                    _ => return Err(e),
                }
            }
        }
    }
}

/// Elsewhere: `io::copy`.
#[cfg(not(target_os = "linux"))]
pub fn copy_to_stdout(f: &mut std::fs::File, out: &mut Stdout) -> std::io::Result<()> {
    agui_model::copy_in(f, out)
}
