//! One child process of the implementation under test, watched so that no
//! behaviour of it can hang the harness. Its stdin and stdout are
//! non-blocking and driven with `poll(2)` from the calling thread, with a
//! deadline on every wait (no thread hop per case: the persistent protocol
//! is latency-bound); stdout lines are capped in length; stderr's tail is
//! kept by a thread. The child runs in its own process group so that
//! killing it also kills whatever it spawned. Unix only.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
/// How many bytes of stderr are kept for reports.
const STDERR_TAIL: usize = 2048;

/// What to start and under which limits.
#[derive(Debug, Clone)]
pub struct Spawn {
    pub program: String,
    pub args: Vec<String>,
    /// Longest stdout line accepted, in bytes (a longer one is a flood).
    pub max_line: usize,
    /// Address-space limit in bytes (Linux `RLIMIT_AS`), if any.
    pub memory_limit: Option<u64>,
}

impl Spawn {
    /// Splits `'CMD ARGS'` like a POSIX shell would, without running one.
    pub fn parse(command: &str) -> anyhow::Result<Spawn> {
        let mut words = shell_words::split(command)?.into_iter();
        let program = words
            .next()
            .ok_or_else(|| anyhow::anyhow!("empty implementation command"))?;
        Ok(Spawn {
            program,
            args: words.collect(),
            max_line: 64 << 20,
            memory_limit: None,
        })
    }
}

/// One line event from the child's stdout.
#[derive(Debug)]
pub enum Line {
    Text(Vec<u8>),
    /// A line longer than the cap (its length so far).
    TooLong(usize),
    Eof,
    Failed(String),
}

/// Why no line arrived.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    Timeout,
    /// Stdout is closed and everything was read.
    Closed,
}

/// A running child.
pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Bytes queued for stdin, not yet written.
    pending: Vec<u8>,
    /// Close stdin once `pending` is written.
    close_when_flushed: bool,
    stdout: ChildStdout,
    /// Bytes read from stdout; `buf[start..]` is not yet returned.
    buf: Vec<u8>,
    start: usize,
    /// Where to resume the search for `\n` in `buf`.
    scanned: usize,
    eof: bool,
    eof_reported: bool,
    max_line: usize,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_thread: Option<thread::JoinHandle<()>>,
}

fn set_nonblocking(fd: std::os::fd::RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Proc {
    pub fn start(spec: &Spawn) -> std::io::Result<Proc> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        unix_setup(&mut cmd, spec.memory_limit);
        let mut child = cmd.spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin pipe"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout pipe"))?;
        let stderr_pipe = child
            .stderr
            .take()
            .ok_or_else(|| std::io::Error::other("no stderr pipe"))?;
        set_nonblocking(stdin.as_raw_fd())?;
        set_nonblocking(stdout.as_raw_fd())?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr.clone();
        let stderr_thread = thread::spawn(move || keep_tail(stderr_pipe, tail));
        Ok(Proc {
            child,
            stdin: Some(stdin),
            pending: Vec::new(),
            close_when_flushed: false,
            stdout,
            buf: Vec::new(),
            start: 0,
            scanned: 0,
            eof: false,
            eof_reported: false,
            max_line: spec.max_line,
            stderr,
            stderr_thread: Some(stderr_thread),
        })
    }

    /// Queues bytes for stdin and writes what the pipe takes now (never
    /// blocks; the rest is written while waiting for the answer).
    pub fn send(&mut self, bytes: &[u8]) {
        if self.stdin.is_none() {
            return;
        }
        self.pending.extend_from_slice(bytes);
        self.flush_some();
    }

    /// Closes stdin once the queued bytes are written.
    pub fn close_stdin(&mut self) {
        self.close_when_flushed = true;
        self.flush_some();
    }

    /// Writes queued bytes until the pipe is full. A closed pipe drops them.
    fn flush_some(&mut self) {
        let Some(stdin) = self.stdin.as_mut() else {
            self.pending.clear();
            return;
        };
        let mut written = 0;
        while written < self.pending.len() {
            match stdin.write(&self.pending[written..]) {
                Ok(0) => break,
                Ok(n) => written += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    // The child closed its stdin (or died): nothing more to say.
                    self.stdin = None;
                    self.pending.clear();
                    return;
                }
            }
        }
        self.pending.drain(..written);
        if self.pending.is_empty() && self.close_when_flushed {
            self.stdin = None;
        }
    }

    /// A complete line already buffered, or a verdict on the buffer.
    fn buffered_line(&mut self) -> Option<Line> {
        if let Some(p) = self.buf[self.scanned..].iter().position(|b| *b == b'\n') {
            let end = self.scanned + p;
            let mut line = self.buf[self.start..end].to_vec();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            self.start = end + 1;
            self.scanned = self.start;
            if self.start == self.buf.len() {
                self.buf.clear();
                self.start = 0;
                self.scanned = 0;
            }
            return Some(Line::Text(line));
        }
        self.scanned = self.buf.len();
        let pending = self.buf.len() - self.start;
        if pending > self.max_line {
            return Some(Line::TooLong(pending));
        }
        if self.eof {
            if pending > 0 {
                // A last line without `\n` still counts.
                let line = self.buf[self.start..].to_vec();
                self.buf.clear();
                self.start = 0;
                self.scanned = 0;
                return Some(Line::Text(line));
            }
            return Some(Line::Eof);
        }
        None
    }

    /// Reads what stdout has now. `Err` on a read error.
    fn read_some(&mut self) -> Result<(), String> {
        if self.start > 0 && self.start * 2 >= self.buf.len() {
            self.buf.drain(..self.start);
            self.scanned -= self.start;
            self.start = 0;
        }
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match self.stdout.read(&mut chunk) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    if n < chunk.len() || self.buf.len() - self.start > self.max_line {
                        return Ok(());
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Ok(()),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    /// The next stdout line, waiting until `deadline` (writing queued stdin
    /// bytes meanwhile).
    pub fn line(&mut self, deadline: Instant) -> Result<Line, Wait> {
        loop {
            if let Some(l) = self.buffered_line() {
                if matches!(l, Line::Eof) {
                    if self.eof_reported {
                        return Err(Wait::Closed);
                    }
                    self.eof_reported = true;
                }
                return Ok(l);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Wait::Timeout);
            }
            let left = (deadline - now)
                .as_micros()
                .div_ceil(1000)
                .min(i32::MAX as u128) as i32;
            let mut fds = [
                libc::pollfd {
                    fd: self.stdout.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: -1,
                    events: libc::POLLOUT,
                    revents: 0,
                },
            ];
            if let (Some(stdin), false) = (&self.stdin, self.pending.is_empty()) {
                fds[1].fd = stdin.as_raw_fd();
            }
            // SAFETY: `fds` is a valid array of two pollfd for the call.
            let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, left) };
            if r < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Ok(Line::Failed(format!("poll: {e}")));
            }
            if fds[1].revents != 0 {
                self.flush_some();
            }
            if fds[0].revents != 0
                && let Err(e) = self.read_some()
            {
                return Ok(Line::Failed(e));
            }
        }
    }

    /// Waits for the child to exit, until `deadline` (writing queued stdin
    /// bytes meanwhile).
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            self.flush_some();
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) => {}
                Err(_) => return None,
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            thread::sleep((deadline - now).min(Duration::from_millis(2)));
        }
    }

    /// Kills the child and its process group, and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.pending.clear();
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last bytes the child wrote to stderr. After the child is gone,
    /// waits briefly for the stderr reader to drain the pipe.
    pub fn stderr_tail(&mut self) -> Option<String> {
        if let (Ok(Some(_)), Some(h)) = (self.child.try_wait(), self.stderr_thread.take()) {
            let until = Instant::now() + Duration::from_millis(100);
            while !h.is_finished() && Instant::now() < until {
                thread::sleep(Duration::from_millis(1));
            }
        }
        let buf = self.stderr.lock().ok()?;
        if buf.is_empty() {
            return None;
        }
        let bytes: Vec<u8> = buf.iter().copied().collect();
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

fn keep_tail(mut stderr: std::process::ChildStderr, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut buf = [0u8; 4096];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if let Ok(mut t) = tail.lock() {
                    t.extend(&buf[..n]);
                    let excess = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..excess);
                }
            }
        }
    }
}

#[cfg(unix)]
fn unix_setup(cmd: &mut Command, memory_limit: Option<u64>) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    if let Some(limit) = memory_limit {
        // SAFETY: setrlimit is async-signal-safe and touches no memory of
        // the parent; it runs in the child between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(unix))]
fn unix_setup(_cmd: &mut Command, _memory_limit: Option<u64>) {}

#[cfg(unix)]
fn kill_group(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: plain syscall; the group id is the child's own pid (it
        // was started with process_group(0)).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_child: &Child) {}
