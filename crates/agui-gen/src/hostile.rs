//! Streams built to push a checker against its own limits: the memory
//! bench (`agui-bench memory`) and the tests that hold peak memory to a
//! multiple of the limits write them at run time, of the size they pick,
//! straight to a file (nothing is kept in memory, nothing is committed).
//!
//! Each is a valid stream, so that what it costs is the checker's own
//! doing: a limit may be hit, but no violation should be found (except
//! [`Hostile::OpenIds`], whose entities are left open at `RUN_FINISHED`).

use crate::ev::{Delta, Ev, Str};
use agui_model::EventType;
use serde_json::{Value, json};
use std::io::{self, Write};

/// One kind of hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hostile {
    /// One `STATE_DELTA` of `copies` `copy` operations from the root, each
    /// doubling the state (a 1 KB line that would build 2^copies copies).
    CopyChain { copies: usize },
    /// One assistant message of `bytes` bytes of text in 64 KiB deltas,
    /// as one JSON array (`array`) or as JSON Lines.
    OneMessage { bytes: u64, array: bool },
    /// `runs` runs, each announcing, using and finishing four invocations
    /// of ids never used before (what is remembered across runs).
    ManyRuns { runs: usize },
    /// One run in which `owners` invocations each announce themselves,
    /// stream a short message and finish.
    ManyOwners { owners: usize },
    /// One run that opens `ids` text messages and never closes them.
    OpenIds { ids: usize },
    /// One `STATE_SNAPSHOT` line of about `bytes` bytes whose snapshot is
    /// an array of small objects: the shape that holds the most memory per
    /// byte of JSON.
    WideSnapshot { bytes: usize },
}

impl Hostile {
    /// The kinds at the sizes the memory bench uses.
    pub fn bench_set() -> Vec<Hostile> {
        vec![
            Hostile::CopyChain { copies: 23 },
            Hostile::OneMessage {
                bytes: 512 << 20,
                array: true,
            },
            Hostile::ManyRuns { runs: 200_000 },
            Hostile::ManyOwners { owners: 200_000 },
            Hostile::OpenIds { ids: 1_000_000 },
            Hostile::WideSnapshot { bytes: 32 << 20 },
        ]
    }

    /// A short name for reports and file names.
    pub fn name(&self) -> String {
        match self {
            Hostile::CopyChain { copies } => format!("copy-chain-{copies}"),
            Hostile::OneMessage { bytes, array } => {
                let form = if *array { "array" } else { "lines" };
                format!("one-message-{}mb-{form}", bytes >> 20)
            }
            Hostile::ManyRuns { runs } => format!("many-runs-{runs}"),
            Hostile::ManyOwners { owners } => format!("many-owners-{owners}"),
            Hostile::OpenIds { ids } => format!("open-ids-{ids}"),
            Hostile::WideSnapshot { bytes } => format!("wide-snapshot-{}mb", bytes >> 20),
        }
    }

    /// Writes the stream to `w`; the number of bytes written.
    pub fn write(&self, w: impl Write) -> io::Result<u64> {
        let mut out = Counted { w, n: 0 };
        match *self {
            Hostile::CopyChain { copies } => copy_chain(&mut out, copies)?,
            Hostile::OneMessage { bytes, array } => one_message(&mut out, bytes, array)?,
            Hostile::ManyRuns { runs } => many_runs(&mut out, runs)?,
            Hostile::ManyOwners { owners } => many_owners(&mut out, owners)?,
            Hostile::OpenIds { ids } => open_ids(&mut out, ids)?,
            Hostile::WideSnapshot { bytes } => wide_snapshot(&mut out, bytes)?,
        }
        out.w.flush()?;
        Ok(out.n)
    }
}

/// A writer that counts what goes through it.
struct Counted<W> {
    w: W,
    n: u64,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let k = self.w.write(buf)?;
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// Writes events one after another, as JSON Lines or inside one array.
struct Events<'w, W> {
    w: &'w mut W,
    array: bool,
    first: bool,
}

impl<'w, W: Write> Events<'w, W> {
    fn lines(w: &'w mut W) -> Self {
        Events {
            w,
            array: false,
            first: true,
        }
    }

    fn array(w: &'w mut W) -> io::Result<Self> {
        w.write_all(b"[")?;
        Ok(Events {
            w,
            array: true,
            first: true,
        })
    }

    fn put(&mut self, e: &Ev) -> io::Result<()> {
        if self.array && !self.first {
            self.w.write_all(b",\n")?;
        }
        self.first = false;
        serde_json::to_writer(&mut *self.w, &e.to_event())?;
        if !self.array {
            self.w.write_all(b"\n")?;
        }
        Ok(())
    }

    fn end(self) -> io::Result<()> {
        if self.array {
            self.w.write_all(b"]\n")?;
        }
        Ok(())
    }
}

fn str(s: &str) -> Option<Str> {
    Some(Str::from(s))
}

fn run_started(run: &str) -> Ev {
    Ev {
        thread_id: str("t"),
        run_id: str(run),
        ..Ev::new(EventType::RunStarted)
    }
}

fn run_finished(run: &str) -> Ev {
    Ev {
        thread_id: str("t"),
        run_id: str(run),
        ..Ev::new(EventType::RunFinished)
    }
}

/// An invocation's whole life: announced, one short message, finished.
fn invocation(out: &mut Events<'_, impl Write>, s: &str) -> io::Result<()> {
    let tag = str(s);
    let m = str(&format!("{s}-m"));
    out.put(&Ev {
        name: str("worker"),
        ..Ev::new(EventType::SubagentStarted).tagged(tag.as_ref())
    })?;
    out.put(&Ev {
        message_id: m.clone(),
        role: Some("assistant"),
        ..Ev::new(EventType::TextMessageStart).tagged(tag.as_ref())
    })?;
    out.put(&Ev {
        message_id: m.clone(),
        delta: Some(Delta::Static("a few words")),
        ..Ev::new(EventType::TextMessageContent).tagged(tag.as_ref())
    })?;
    out.put(&Ev {
        message_id: m,
        ..Ev::new(EventType::TextMessageEnd).tagged(tag.as_ref())
    })?;
    out.put(&Ev::new(EventType::SubagentFinished).tagged(tag.as_ref()))
}

fn copy_chain(w: &mut impl Write, copies: usize) -> io::Result<()> {
    let mut out = Events::lines(w);
    out.put(&run_started("r"))?;
    out.put(&Ev {
        snapshot: Some(Box::new(json!({"a": [1, 2, 3, 4, 5, 6, 7, 8]}))),
        ..Ev::new(EventType::StateSnapshot)
    })?;
    let ops: Vec<Value> = (0..copies)
        .map(|k| json!({"op": "copy", "from": "", "path": format!("/k{k}")}))
        .collect();
    out.put(&Ev {
        delta: Some(Delta::Patch(Box::new(Value::Array(ops)))),
        ..Ev::new(EventType::StateDelta)
    })?;
    out.put(&run_finished("r"))
}

fn one_message(w: &mut impl Write, bytes: u64, array: bool) -> io::Result<()> {
    let mut out = if array {
        Events::array(w)?
    } else {
        Events::lines(w)
    };
    let delta: Str = Str::from("x".repeat(64 << 10));
    out.put(&run_started("r"))?;
    out.put(&Ev {
        message_id: str("m"),
        role: Some("assistant"),
        ..Ev::new(EventType::TextMessageStart)
    })?;
    let mut left = bytes;
    while left > 0 {
        let n = left.min(delta.len() as u64) as usize;
        let piece = if n == delta.len() {
            delta.clone()
        } else {
            Str::from(&delta[..n])
        };
        out.put(&Ev {
            message_id: str("m"),
            delta: Some(Delta::Text(piece)),
            ..Ev::new(EventType::TextMessageContent)
        })?;
        left -= n as u64;
    }
    out.put(&Ev {
        message_id: str("m"),
        ..Ev::new(EventType::TextMessageEnd)
    })?;
    out.put(&run_finished("r"))?;
    out.end()
}

fn many_runs(w: &mut impl Write, runs: usize) -> io::Result<()> {
    let mut out = Events::lines(w);
    for r in 0..runs {
        let run = format!("r{r}");
        out.put(&run_started(&run))?;
        for k in 0..4 {
            invocation(&mut out, &format!("run{r}-invocation{k}"))?;
        }
        out.put(&run_finished(&run))?;
    }
    Ok(())
}

fn many_owners(w: &mut impl Write, owners: usize) -> io::Result<()> {
    let mut out = Events::lines(w);
    out.put(&run_started("r"))?;
    for o in 0..owners {
        invocation(&mut out, &format!("owner-{o}"))?;
    }
    out.put(&run_finished("r"))
}

fn open_ids(w: &mut impl Write, ids: usize) -> io::Result<()> {
    let mut out = Events::lines(w);
    out.put(&run_started("r"))?;
    for i in 0..ids {
        out.put(&Ev {
            message_id: str(&format!("message-{i}")),
            role: Some("assistant"),
            ..Ev::new(EventType::TextMessageStart)
        })?;
    }
    out.put(&run_finished("r"))
}

fn wide_snapshot(w: &mut impl Write, bytes: usize) -> io::Result<()> {
    let mut out = Events::lines(w);
    out.put(&run_started("r"))?;
    // The snapshot's items are streamed into the place of a marker, so
    // the stream is never held whole.
    let marker = "hostile-items";
    let event = Ev {
        snapshot: Some(Box::new(json!([marker]))),
        ..Ev::new(EventType::StateSnapshot)
    };
    let text = serde_json::to_string(&event.to_event())?;
    let (head, tail) = text
        .split_once(&format!("\"{marker}\""))
        .ok_or_else(|| io::Error::other("the marker is not in the event"))?;
    out.w.write_all(head.as_bytes())?;
    // `{"a":1},` is 8 bytes of the line.
    for k in 0..(bytes / 8).max(1) {
        if k > 0 {
            out.w.write_all(b",")?;
        }
        out.w.write_all(br#"{"a":1}"#)?;
    }
    out.w.write_all(tail.as_bytes())?;
    out.w.write_all(b"\n")?;
    out.put(&run_finished("r"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::{Checker, RuleId, check::check_bytes};

    /// Each stream, small, is what it says: valid (or, for the open ids,
    /// exactly the open entities at RUN_FINISHED), of the events it names.
    #[test]
    fn every_kind_is_the_stream_it_names() {
        for (h, events) in [
            (Hostile::CopyChain { copies: 3 }, 4),
            (
                Hostile::OneMessage {
                    bytes: 200_000,
                    array: true,
                },
                4 + 4,
            ),
            (
                Hostile::OneMessage {
                    bytes: 200_000,
                    array: false,
                },
                4 + 4,
            ),
            (Hostile::ManyRuns { runs: 3 }, 3 * 22),
            (Hostile::ManyOwners { owners: 3 }, 2 + 3 * 5),
            (Hostile::OpenIds { ids: 3 }, 5),
            (Hostile::WideSnapshot { bytes: 1000 }, 3),
        ] {
            let mut bytes = Vec::new();
            let n = h.write(&mut bytes).unwrap();
            assert_eq!(n, bytes.len() as u64);
            let report = check_bytes(&bytes, Checker::new());
            assert_eq!(report.events, events, "{}", h.name());
            let rules: Vec<RuleId> = report.violations.iter().map(|v| v.rule).collect();
            if matches!(h, Hostile::OpenIds { .. }) {
                assert_eq!(rules, [RuleId::RunOpenEntitiesAtFinish], "{}", h.name());
            } else {
                assert!(rules.is_empty(), "{}: {rules:?}", h.name());
            }
        }
    }
}
