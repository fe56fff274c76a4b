//! One child process of the implementation under test, watched so that no
//! behaviour of it can hang the harness: stdout is read line by line on a
//! thread (lines capped in length), stdin is written on a thread, stderr's
//! tail is kept on a third; the child runs in its own process group so that
//! killing it also kills whatever it spawned.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
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
    /// The reader thread is gone (after EOF or a flood).
    Closed,
}

/// A running child.
pub struct Proc {
    child: Child,
    stdin: Option<Sender<Vec<u8>>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_thread: Option<thread::JoinHandle<()>>,
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

        let (in_tx, in_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_loop(stdin, in_rx));
        let (line_tx, line_rx) = mpsc::channel();
        let max = spec.max_line;
        thread::spawn(move || read_lines(stdout, max, line_tx));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr.clone();
        let stderr_thread = thread::spawn(move || keep_tail(stderr_pipe, tail));
        Ok(Proc {
            child,
            stdin: Some(in_tx),
            lines: line_rx,
            stderr,
            stderr_thread: Some(stderr_thread),
        })
    }

    /// Queues bytes for stdin (never blocks; a child that does not read
    /// shows up as a timeout on its answer).
    pub fn send(&self, bytes: Vec<u8>) {
        if let Some(tx) = &self.stdin {
            let _ = tx.send(bytes);
        }
    }

    /// Closes stdin once the queued bytes are written.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next stdout line, waiting until `deadline`.
    pub fn line(&self, deadline: Instant) -> Result<Line, Wait> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Wait::Closed),
        }
    }

    /// Waits for the child to exit, until `deadline`.
    pub fn wait_until(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
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
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last bytes the child wrote to stderr. After the child is gone,
    /// waits briefly for the stderr reader to drain the pipe.
    pub fn stderr_tail(&mut self) -> Option<String> {
        if let (Ok(Some(_)), Some(h)) = (self.child.try_wait(), self.stderr_thread.take()) {
            {
                let until = Instant::now() + Duration::from_millis(100);
                while !h.is_finished() && Instant::now() < until {
                    thread::sleep(Duration::from_millis(1));
                }
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

fn write_loop(mut stdin: std::process::ChildStdin, rx: Receiver<Vec<u8>>) {
    while let Ok(bytes) = rx.recv() {
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

fn read_lines(stdout: std::process::ChildStdout, max: usize, tx: Sender<Line>) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Line::Failed(e.to_string()));
                return;
            }
        };
        if buf.is_empty() {
            // A last line without `\n` still counts.
            if !line.is_empty() {
                let _ = tx.send(Line::Text(std::mem::take(&mut line)));
            }
            let _ = tx.send(Line::Eof);
            return;
        }
        let (take, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(p) => (p + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max + 1 {
            let _ = tx.send(Line::TooLong(line.len() + take));
            return;
        }
        line.extend_from_slice(&buf[..take]);
        r.consume(take);
        if done {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if tx.send(Line::Text(std::mem::take(&mut line))).is_err() {
                return;
            }
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
