//! The machine form of a check (`agui-conform check --format json`): one
//! JSON object, written as the stream is read, so memory never grows with
//! the number of violations (docs/rules.md "Checker limits"):
//!
//! ```text
//! {"violations":[…as found…],"limits":[…],"counts":{…},"events":N,
//!  "verdict":"accept"|"reject"|"inconclusive","projection":{"runs":[…]}}
//! ```
//!
//! Violations are written the moment they are found; limit notices are few
//! and kept (up to a cap); each run's projection is kept aside as it ends
//! (in memory, then in an unnamed temporary file past [`SPILL_BYTES`],
//! written by a thread of its own) and copied in at the end.
//! `docs/check-report.schema.json` describes the form. [`Report::to_json`]
//! gives the same object as a `Value`.

use super::{Counts, Finding, Report};
use crate::json::Out;
use crate::limits::{LimitKind, LimitNotice};
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{self, Seek, Write};
use std::sync::mpsc;
use std::thread;

/// Projection text kept in memory before it goes to a temporary file.
/// Small on purpose: a buffer that is reused stays in cache and costs no
/// page faults; past 1 MiB, writing to the file is cheaper than growing
/// memory (measured: 8 MiB took 54 ms of system time on 1,000 runs where
/// 1 MiB takes 32 ms, docs/performance-log.md).
pub const SPILL_BYTES: usize = 1 << 20;

/// Limit notices kept for the report (the rest are counted).
const KEPT_NOTICES: usize = 10_000;

impl Report {
    /// Writes [`Report::to_json`] as compact JSON text.
    pub fn write_json(&self, w: impl Write) -> io::Result<()> {
        let mut out = JsonStream::new(w, None);
        for v in &self.violations {
            out.finding(Finding::Violation(v));
        }
        for n in &self.limits {
            out.finding(Finding::Limit(n));
        }
        if let Some(p) = &self.projection {
            for run in &p.runs {
                out.run(run);
            }
        }
        out.finish(self, self.projection.is_some()).map(drop)
    }

    /// The machine form as a `Value` (the same object [`Report::write_json`]
    /// writes).
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        let violations = self
            .violations
            .iter()
            .filter_map(|v| serde_json::to_value(v).ok())
            .collect();
        m.insert("violations".into(), Value::Array(violations));
        let limits = self
            .limits
            .iter()
            .filter_map(|n| serde_json::to_value(n).ok())
            .collect();
        m.insert("limits".into(), Value::Array(limits));
        m.insert("counts".into(), counts_value(&self.counts));
        m.insert("events".into(), Value::from(self.events));
        m.insert("verdict".into(), Value::from(self.verdict().as_str()));
        if let Some(p) = &self.projection {
            m.insert("projection".into(), p.to_json());
        }
        Value::Object(m)
    }
}

/// `{"violations", "errors", "warnings", "limits"}`.
fn counts_value(c: &Counts) -> Value {
    serde_json::json!({
        "violations": c.violations(),
        "errors": c.errors,
        "warnings": c.warnings,
        "limits": c.limits,
    })
}

/// Where finished runs' projections wait for the end of the report.
#[derive(Debug, Default)]
struct Spill {
    mem: Vec<u8>,
    file: Place,
    runs: usize,
    /// Pieces of a run's text came, not yet its last.
    mid_run: bool,
}

/// Where text past [`SPILL_BYTES`] goes.
#[derive(Debug, Default)]
enum Place {
    /// Nothing spilled yet.
    #[default]
    None,
    /// A thread writes the file, so the checking thread does not wait on
    /// the file system (docs/performance-log.md: 6 % of a many-run check).
    Thread(Writer),
    /// The thread could not start: written here.
    Here(File),
}

/// The thread that writes spilled text to the temporary file. Buffers go
/// over full and come back empty, so the same few stay in cache.
#[derive(Debug)]
struct Writer {
    full: mpsc::SyncSender<Vec<u8>>,
    empty: mpsc::Receiver<Vec<u8>>,
    thread: thread::JoinHandle<io::Result<File>>,
}

impl Writer {
    /// Starts the thread writing `file`; `None` when no thread could start.
    fn start(mut file: File) -> Option<Writer> {
        let (full, todo) = mpsc::sync_channel::<Vec<u8>>(2);
        let (done, empty) = mpsc::channel();
        let thread = thread::Builder::new()
            .name("spill".into())
            .spawn(move || -> io::Result<File> {
                for mut buf in todo {
                    file.write_all(&buf)?;
                    buf.clear();
                    // The checking thread may be done: then none is needed.
                    let _ = done.send(buf);
                }
                Ok(file)
            })
            .ok()?;
        Some(Writer {
            full,
            empty,
            thread,
        })
    }

    /// Hands `buf` to the thread; an empty buffer to fill next comes back.
    /// `Err(buf)`: the thread has stopped (on a write error), `buf` unsent.
    fn send(&self, buf: Vec<u8>) -> Result<Vec<u8>, Vec<u8>> {
        self.full.send(buf).map_err(|mpsc::SendError(buf)| buf)?;
        Ok(self
            .empty
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(SPILL_BYTES + SPILL_BYTES / 4)))
    }

    /// Waits for everything sent to be written; the file, or the first
    /// write error.
    fn finish(self) -> io::Result<File> {
        drop(self.full);
        self.thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the spill thread panicked")))
    }
}

impl Spill {
    fn push(&mut self, run: &Value) -> io::Result<()> {
        self.sep();
        serde_json::to_writer(&mut self.mem, &Out(run))?;
        self.spill()
    }

    /// A piece of a run already written as canonical JSON text; `last`
    /// ends the run.
    fn push_text(&mut self, piece: &[u8], last: bool) -> io::Result<()> {
        if !self.mid_run {
            self.sep();
        }
        self.mid_run = !last;
        self.mem.extend_from_slice(piece);
        self.spill()
    }

    fn sep(&mut self) {
        if self.runs > 0 {
            self.mem.push(b',');
        }
        self.runs += 1;
    }

    /// Past [`SPILL_BYTES`] in memory, what is kept goes to the file.
    fn spill(&mut self) -> io::Result<()> {
        if self.mem.len() < SPILL_BYTES {
            return Ok(());
        }
        if let Place::None = self.file {
            self.file = match Writer::start(tempfile::tempfile()?) {
                Some(w) => Place::Thread(w),
                None => Place::Here(tempfile::tempfile()?),
            };
        }
        if let Place::Thread(w) = &self.file {
            let full = std::mem::take(&mut self.mem);
            match w.send(full) {
                Ok(empty) => {
                    self.mem = empty;
                    return Ok(());
                }
                // The thread stopped: its error says why; without one (it
                // cannot stop otherwise), the text is written here.
                Err(unsent) => {
                    self.mem = unsent;
                    self.file = match self.wait()? {
                        Some(f) => Place::Here(f),
                        None => Place::Here(tempfile::tempfile()?),
                    };
                }
            }
        }
        if let Place::Here(f) = &mut self.file {
            f.write_all(&self.mem)?;
            self.mem.clear();
        }
        Ok(())
    }

    /// Everything spilled, written: the file, if any.
    fn wait(&mut self) -> io::Result<Option<File>> {
        match std::mem::take(&mut self.file) {
            Place::None => Ok(None),
            Place::Here(f) => Ok(Some(f)),
            Place::Thread(w) => w.finish().map(Some),
        }
    }

    /// Copies everything kept, in order, to `out`: the file (rewound) by
    /// `copy`, then what is still in memory.
    fn copy_to<W: Write>(&mut self, out: &mut W, copy: CopyIn<W>) -> io::Result<()> {
        if let Some(mut f) = self.wait()? {
            f.rewind()?;
            copy(&mut f, out)?;
        }
        out.write_all(&self.mem)
    }
}

/// Copies the spilled runs' file (from its start) into the report's
/// writer: [`copy_in`] unless the caller knows a faster way for its
/// writer ([`JsonStream::copy_in_with`]).
pub type CopyIn<W> = fn(&mut File, &mut W) -> io::Result<()>;

/// `io::copy` (by the kernel where the standard library can).
pub fn copy_in<W: Write>(f: &mut File, out: &mut W) -> io::Result<()> {
    io::copy(f, out).map(drop)
}

/// Writes the machine form while the stream is read: feed it every
/// [`Finding`] (from [`super::Checker::with_sink`]) and every run's
/// projection (from [`super::Checker::with_projection_sink`]), then
/// [`JsonStream::finish`]. The first write error is kept and returned by
/// `finish`; nothing is written after it.
#[derive(Debug)]
pub struct JsonStream<W: Write> {
    out: W,
    /// Violations written so far.
    written: usize,
    /// At most this many violations are written (`--max-violations`).
    cap: Option<usize>,
    /// A violation was left out at the cap: the notice, once.
    capped: Option<LimitNotice>,
    notices: Vec<LimitNotice>,
    spill: Spill,
    /// Flush after each violation (input from a pipe or a terminal).
    live: bool,
    error: Option<io::Error>,
    copy: CopyIn<W>,
}

impl<W: Write> JsonStream<W> {
    /// Starts the object; at most `cap` violations will be written.
    pub fn new(out: W, cap: Option<usize>) -> Self {
        let mut s = JsonStream {
            out,
            written: 0,
            cap,
            capped: None,
            notices: Vec::new(),
            spill: Spill::default(),
            live: false,
            error: None,
            copy: copy_in,
        };
        let r = s.out.write_all(br#"{"violations":["#);
        s.keep(r);
        s
    }

    /// Flushes after every violation, so each reaches the reader as soon
    /// as it is found.
    pub fn live(mut self, live: bool) -> Self {
        self.live = live;
        self
    }

    /// Copies the spilled runs in with `copy` instead of [`copy_in`].
    pub fn copy_in_with(mut self, copy: CopyIn<W>) -> Self {
        self.copy = copy;
        self
    }

    fn keep(&mut self, r: io::Result<()>) {
        if let Err(e) = r
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

    /// Whether writing failed (the reader went away): the caller may stop.
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// One violation or limit notice, as found.
    pub fn finding(&mut self, f: Finding<'_>) {
        if self.error.is_some() {
            return;
        }
        match f {
            Finding::Violation(v) => {
                if self.cap.is_some_and(|cap| self.written >= cap) {
                    if self.capped.is_none() {
                        let cap = self.cap.unwrap_or(0);
                        self.capped = Some(LimitNotice::new(
                            LimitKind::Violations,
                            v.index,
                            cap as u64,
                            format!(
                                "more than {cap} violations: the rest are counted, not printed"
                            ),
                        ));
                    }
                    return;
                }
                let sep: &[u8] = if self.written == 0 { b"" } else { b"," };
                self.written += 1;
                let r = self.out.write_all(sep).and_then(|()| {
                    serde_json::to_writer(&mut self.out, v).map_err(io::Error::from)
                });
                self.keep(r);
                if self.live {
                    let r = self.out.flush();
                    self.keep(r);
                }
            }
            Finding::Limit(n) => {
                if self.notices.len() < KEPT_NOTICES {
                    self.notices.push(n.clone());
                }
            }
        }
    }

    /// One run's projection, as it ends.
    pub fn run(&mut self, run: &Value) {
        if self.error.is_some() {
            return;
        }
        let r = self.spill.push(run);
        self.keep(r);
    }

    /// A piece of one run's projection as its canonical JSON text
    /// ([`super::Checker::with_projection_text_sink`]), as it is written;
    /// `last` with the run's last piece.
    pub fn run_text(&mut self, piece: &[u8], last: bool) {
        if self.error.is_some() {
            return;
        }
        let r = self.spill.push_text(piece, last);
        self.keep(r);
    }

    /// Ends the object with the limits, counts, verdict and (when
    /// `projection`) the runs kept aside, and hands back the writer.
    /// `report` gives the counts and the number of events; its own
    /// violations and runs are not written again.
    pub fn finish(self, report: &Report, projection: bool) -> io::Result<W> {
        self.finish_with(report, projection, &[])
    }

    /// [`JsonStream::finish`] with more top-level members, written after
    /// the verdict (what a caller knows beside the checker, such as how
    /// each run ended).
    pub fn finish_with(
        mut self,
        report: &Report,
        projection: bool,
        extra: &[(&str, &Value)],
    ) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let mut counts = report.counts;
        let mut notices = std::mem::take(&mut self.notices);
        if let Some(n) = self.capped.take() {
            counts.limits += 1;
            let at = notices
                .iter()
                .position(|m| m.index > n.index)
                .unwrap_or(notices.len());
            notices.insert(at, n);
        }
        let out = &mut self.out;
        out.write_all(br#"],"limits":"#)?;
        serde_json::to_writer(&mut *out, &notices)?;
        out.write_all(br#","counts":"#)?;
        serde_json::to_writer(&mut *out, &counts_value(&counts))?;
        write!(out, r#","events":{},"verdict":"#, report.events)?;
        serde_json::to_writer(&mut *out, report.verdict().as_str())?;
        for (key, value) in extra {
            out.write_all(b",")?;
            serde_json::to_writer(&mut *out, key)?;
            out.write_all(b":")?;
            serde_json::to_writer(&mut *out, &crate::json::Out(value))?;
        }
        if projection {
            out.write_all(br#","projection":{"runs":["#)?;
            self.spill.copy_to(out, self.copy)?;
            out.write_all(b"]}")?;
        }
        out.write_all(b"}")?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::{JsonStream, Place, Report, SPILL_BYTES, Spill, Writer};

    /// The spill thread's write error comes back to the checking thread
    /// (at a later spill or at the end), not lost and not a panic.
    #[test]
    fn a_write_error_on_the_spill_thread_comes_back() {
        // Opened for reading only: every write fails.
        let file = std::fs::File::open("/dev/null").expect("/dev/null");
        let mut spill = Spill {
            file: Place::Thread(Writer::start(file).expect("a thread")),
            ..Spill::default()
        };
        let piece = vec![b'x'; SPILL_BYTES];
        let mut error = None;
        for _ in 0..8 {
            if let Err(e) = spill.push_text(&piece, true) {
                error = Some(e);
                break;
            }
        }
        let error = error
            .or_else(|| spill.wait().err())
            .expect("the write error");
        assert_ne!(error.kind(), std::io::ErrorKind::Other, "{error}");
    }

    /// Runs whose text is several times [`SPILL_BYTES`] go through the
    /// spill thread and come back whole, in order, each run's pieces
    /// joined and the runs apart by commas.
    #[test]
    fn spilled_runs_come_back_in_order() {
        let mut s = JsonStream::new(Vec::new(), None);
        let mut want = Vec::new();
        for run in 0..12 {
            let pieces: Vec<Vec<u8>> = (0..5)
                .map(|k| format!("{run}:{k}:").repeat(SPILL_BYTES / 40).into_bytes())
                .collect();
            if run > 0 {
                want.push(b',');
            }
            want.push(b'"');
            s.run_text(b"\"", false);
            for p in &pieces {
                s.run_text(p, false);
                want.extend_from_slice(p);
            }
            s.run_text(b"\"", true);
            want.push(b'"');
        }
        let out = s.finish(&Report::default(), true).expect("writes");
        let text = String::from_utf8(out).expect("UTF-8");
        let runs = text
            .split_once(r#""projection":{"runs":["#)
            .map(|(_, r)| r)
            .and_then(|r| r.strip_suffix("]}}"))
            .expect("the projection's runs");
        assert!(want.len() > 3 * SPILL_BYTES, "{}", want.len());
        assert!(runs.as_bytes() == want, "the runs differ");
    }
}
