//! A simple writer of large, valid AG-UI streams with many concurrent
//! subagent invocations, written straight to JSON Lines.
//!
//! Each run announces `invocations` subagents (every one not a multiple of 8
//! nests under the last multiple of 8), then interleaves, in random order,
//! work of the parent and of every invocation: text messages, tool calls,
//! reasoning messages, steps, state deltas and custom events, each owner
//! keeping at most one entity open at a time. Every entity is closed before
//! its owner finishes; the invocations finish in reverse order; the run
//! finishes with a success outcome. Ids are unique per run, so nothing is
//! reopened, and state deltas touch one key per owner, so the state
//! document stays small however long the stream.
//!
//! Valid by construction; the tests check a small instance with the
//! reference checker.

use crate::emit::{self, Args, Out, Rng, Tag, Task, Words};
use agui_model::wire::{SUBAGENT_RUN_ID, key};
use std::io::{self, Write};

/// Wire names written into the templates below, the wire table's
/// constants (`wire::key`) rather than spelled.
const THREAD_ID: &str = key::RunStarted::thread_id;
const RUN_ID: &str = key::RunStarted::run_id;
const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;

/// The shape of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Events in the whole stream (exact).
    pub events: usize,
    /// Subagent invocations announced in every run.
    pub invocations: usize,
    /// Runs in the stream; the events are shared out evenly.
    pub runs: usize,
    pub seed: u64,
}

impl Shape {
    /// The fewest events a run of this shape needs.
    pub fn min_per_run(&self) -> usize {
        2 + 2 * self.invocations
    }

    /// Why this shape cannot be written, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if self.runs == 0 {
            return Some("at least one run is needed".to_owned());
        }
        let per_run = self.events / self.runs;
        (per_run < self.min_per_run()).then(|| {
            format!(
                "{} events in {} runs leave {per_run} per run; {} invocations need at least {}",
                self.events,
                self.runs,
                self.invocations,
                self.min_per_run()
            )
        })
    }
}

/// What [`write`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Written {
    pub events: usize,
    pub bytes: u64,
}

/// Writes the stream; `out` should be buffered.
pub fn write(shape: &Shape, out: &mut impl Write) -> io::Result<Written> {
    if let Some(p) = shape.problem() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, p));
    }
    let mut rng = Rng(shape.seed);
    let mut o = Out::new(out);
    let per_run = shape.events / shape.runs;
    let extra = shape.events % shape.runs;
    for r in 0..shape.runs {
        let events = per_run + usize::from(r < extra);
        run(&mut o, &mut rng, r, shape.invocations, events)?;
    }
    let (events, bytes) = o.finish()?;
    Ok(Written { events, bytes })
}

fn run<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    r: usize,
    invocations: usize,
    events: usize,
) -> io::Result<()> {
    o.emit(format_args!(
        r#"{{"type":"RUN_STARTED","{THREAD_ID}":"bench","{RUN_ID}":"r{r}","timestamp":{}}}"#,
        1_700_000_000_000u64 + r as u64
    ))?;
    for k in 0..invocations {
        if k % 8 == 0 {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"worker-{k}","description":"a benchmark worker"}}"#
            ))?;
        } else {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"worker-{k}","{PARENT_SUBAGENT_RUN_ID}":"r{r}.s{}"}}"#,
                k - k % 8
            ))?;
        }
    }
    body(o, rng, r, invocations, events - 2 - 2 * invocations)?;
    for k in (0..invocations).rev() {
        if k % 2 == 0 {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_FINISHED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","outcome":{{"type":"success"}},"result":"done"}}"#
            ))?;
        } else {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_FINISHED","{SUBAGENT_RUN_ID}":"r{r}.s{k}"}}"#
            ))?;
        }
    }
    o.emit(format_args!(
        r#"{{"type":"RUN_FINISHED","{THREAD_ID}":"bench","{RUN_ID}":"r{r}","outcome":{{"type":"success"}}}}"#
    ))
}

/// The words inside this writer's entities.
const WORDS: Words = Words {
    text: [
        "some streamed words of the answer ",
        r#"a line\nand \"quoted\" words "#,
    ],
    tool_name: "search",
    // The plain item has no escape (as the plain text delta), the other has.
    tool_args: Args::Fixed(["[0, 1, 2, 3, 4, 5]", r#"{\"query\": \"agui\"}"#]),
    reasoning: "thinking about it ",
};

/// Exactly `budget` events of interleaved work by the parent (owner 0) and
/// the invocations (owner k+1), every entity closed at the end.
fn body<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    r: usize,
    invocations: usize,
    budget: usize,
) -> io::Result<()> {
    emit::interleave(
        o,
        rng,
        (r, invocations + 1, budget),
        &WORDS,
        |o, rng, tag, who, id, free| start(o, rng, tag, (who, id, free)),
    )
}

/// Chooses new work that fits in `free` events (its first event included):
/// a task to open, or a state delta or custom event, written here.
fn start<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    tag: &Tag,
    (who, id, free): (usize, usize, usize),
) -> io::Result<Option<Task>> {
    let body_len = 1 + rng.below(8);
    let roll = rng.below(100);
    let fits = |n: usize| n <= free;
    Ok(Some(match roll {
        0..40 if fits(body_len + 2) => Task::Text { id, left: body_len },
        40..60 if fits(body_len + 2) => Task::Tool {
            id,
            left: body_len,
            result: false,
            first: true,
        },
        60..70 if fits(body_len + 2) => Task::Reasoning { id, left: body_len },
        70..80 if fits(2) => Task::Step { id },
        80..95 => {
            o.emit(format_args!(
                r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/progress-{who}","value":{id}}}]{tag}}}"#
            ))?;
            return Ok(None);
        }
        _ => {
            o.emit(format_args!(
                r#"{{"type":"CUSTOM","name":"heartbeat","value":{{"seq":{id},"ok":true}}{tag}}}"#
            ))?;
            return Ok(None);
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(shape: &Shape) -> Vec<String> {
        let mut buf = Vec::new();
        let w = write(shape, &mut buf).expect("writes");
        let text = String::from_utf8(buf).expect("utf-8");
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), w.events);
        lines
    }

    #[test]
    fn exact_event_count_and_run_boundaries() {
        let shape = Shape {
            events: 10_007,
            invocations: 64,
            runs: 7,
            seed: 1,
        };
        let lines = lines(&shape);
        assert_eq!(lines.len(), 10_007);
        let starts = lines
            .iter()
            .filter(|l| l.contains("\"RUN_STARTED\""))
            .count();
        let ends = lines
            .iter()
            .filter(|l| l.contains("\"RUN_FINISHED\""))
            .count();
        assert_eq!((starts, ends), (7, 7));
        let announced = lines
            .iter()
            .filter(|l| l.contains("\"SUBAGENT_STARTED\""))
            .count();
        assert_eq!(announced, 7 * 64);
    }

    #[test]
    fn too_small_a_shape_is_refused() {
        let shape = Shape {
            events: 100,
            invocations: 64,
            runs: 1,
            seed: 1,
        };
        assert!(shape.problem().is_some());
        assert!(write(&shape, &mut Vec::new()).is_err());
    }
}
