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

use agui_model::wire::{SUBAGENT_RUN_ID, key};
use std::io::{self, Write};

/// Wire names written into the templates below, the wire table's
/// constants (`wire::key`) rather than spelled.
const THREAD_ID: &str = key::RunStarted::thread_id;
const RUN_ID: &str = key::RunStarted::run_id;
const STEP_NAME: &str = key::StepStarted::step_name;
const MESSAGE_ID: &str = key::TextMessageStart::message_id;
const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;
const TOOL_CALL_NAME: &str = key::ToolCallStart::tool_call_name;
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

/// SplitMix64: deterministic, seedable, no dependency; the bench's streams
/// (here and [`crate::workload`]) depend on its exact sequence.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// An entity an owner has open: what it still has to emit.
#[derive(Debug, Clone)]
enum Task {
    Text { id: usize, left: usize },
    Tool { id: usize, left: usize },
    Reasoning { id: usize, left: usize },
    Step { id: usize },
}

impl Task {
    /// Events still to come, the closing one included.
    fn remaining(&self) -> usize {
        match self {
            Task::Text { left, .. } | Task::Tool { left, .. } | Task::Reasoning { left, .. } => {
                left + 1
            }
            Task::Step { .. } => 1,
        }
    }
}

/// Counts what goes through to the output.
struct Out<'w, W: Write> {
    w: &'w mut W,
    line: Vec<u8>,
    written: Written,
}

impl<W: Write> Out<'_, W> {
    fn emit(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.line.clear();
        self.line.write_fmt(args)?;
        self.line.push(b'\n');
        self.w.write_all(&self.line)?;
        self.written.events += 1;
        self.written.bytes += self.line.len() as u64;
        Ok(())
    }
}

/// The `subagentRunId` member (`r1.s2`, after a comma) for an invocation,
/// nothing for the parent.
struct Tag(usize, Option<usize>);

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(k) => write!(f, r#","{SUBAGENT_RUN_ID}":"r{}.s{k}""#, self.0),
            None => Ok(()),
        }
    }
}

/// Writes the stream; `out` should be buffered.
pub fn write(shape: &Shape, out: &mut impl Write) -> io::Result<Written> {
    if let Some(p) = shape.problem() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, p));
    }
    let mut rng = Rng(shape.seed);
    let mut o = Out {
        w: out,
        line: Vec::with_capacity(256),
        written: Written::default(),
    };
    let per_run = shape.events / shape.runs;
    let extra = shape.events % shape.runs;
    for r in 0..shape.runs {
        let events = per_run + usize::from(r < extra);
        run(&mut o, &mut rng, r, shape.invocations, events)?;
    }
    o.w.flush()?;
    Ok(o.written)
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

/// Exactly `budget` events of interleaved work by the parent (owner 0) and
/// the invocations (owner k+1), every entity closed at the end.
fn body<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    r: usize,
    invocations: usize,
    budget: usize,
) -> io::Result<()> {
    let owners = invocations + 1;
    let mut open: Vec<Option<Task>> = vec![None; owners];
    let mut committed = 0usize;
    let mut emitted = 0usize;
    let mut next_id = 0usize;
    while emitted < budget {
        let free = budget - emitted - committed;
        let mut who = rng.below(owners);
        if free == 0 && open[who].is_none() {
            // Only closing work is left: take the next owner with some.
            who = (0..owners)
                .map(|d| (who + d) % owners)
                .find(|&w| open[w].is_some())
                .unwrap_or(who);
        }
        let tag = Tag(r, who.checked_sub(1));
        match open[who].take() {
            Some(task) => {
                committed -= 1;
                open[who] = advance(o, rng, &tag, task)?;
            }
            None => {
                let id = next_id;
                next_id += 1;
                let (task, first) = start(rng, id, free);
                emit_start(o, &tag, r, who, id, &first)?;
                if let Some(t) = task {
                    committed += t.remaining();
                    open[who] = Some(t);
                }
            }
        }
        emitted += 1;
    }
    Ok(())
}

/// The first event of new work, and the task it opens (if any).
enum First {
    Text,
    Tool,
    Reasoning,
    Step,
    Delta,
    Custom,
}

/// Chooses new work that fits in `free` events (its first event included).
fn start(rng: &mut Rng, id: usize, free: usize) -> (Option<Task>, First) {
    let body_len = 1 + rng.below(8);
    let roll = rng.below(100);
    let fits = |n: usize| n <= free;
    match roll {
        0..40 if fits(body_len + 2) => (Some(Task::Text { id, left: body_len }), First::Text),
        40..60 if fits(body_len + 2) => (Some(Task::Tool { id, left: body_len }), First::Tool),
        60..70 if fits(body_len + 2) => (
            Some(Task::Reasoning { id, left: body_len }),
            First::Reasoning,
        ),
        70..80 if fits(2) => (Some(Task::Step { id }), First::Step),
        80..95 => (None, First::Delta),
        _ => (None, First::Custom),
    }
}

fn emit_start<W: Write>(
    o: &mut Out<'_, W>,
    tag: &Tag,
    r: usize,
    who: usize,
    id: usize,
    first: &First,
) -> io::Result<()> {
    match first {
        First::Text => o.emit(format_args!(
            r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"r{r}.m{id}","role":"assistant"{tag}}}"#
        )),
        First::Tool => o.emit(format_args!(
            r#"{{"type":"TOOL_CALL_START","{TOOL_CALL_ID}":"r{r}.t{id}","{TOOL_CALL_NAME}":"search"{tag}}}"#
        )),
        First::Reasoning => o.emit(format_args!(
            r#"{{"type":"REASONING_MESSAGE_START","{MESSAGE_ID}":"r{r}.z{id}","role":"reasoning"{tag}}}"#
        )),
        First::Step => o.emit(format_args!(
            r#"{{"type":"STEP_STARTED","{STEP_NAME}":"step-{id}"{tag}}}"#
        )),
        First::Delta => o.emit(format_args!(
            r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/progress-{who}","value":{id}}}]{tag}}}"#
        )),
        First::Custom => o.emit(format_args!(
            r#"{{"type":"CUSTOM","name":"heartbeat","value":{{"seq":{id},"ok":true}}{tag}}}"#
        )),
    }
}

/// Emits the next event of an open task; the task if it is still open.
fn advance<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    tag: &Tag,
    task: Task,
) -> io::Result<Option<Task>> {
    let r = tag.0;
    let escaped = rng.below(16) == 0;
    Ok(match task {
        Task::Text { id, left: 0 } => {
            o.emit(format_args!(
                r#"{{"type":"TEXT_MESSAGE_END","{MESSAGE_ID}":"r{r}.m{id}"{tag}}}"#
            ))?;
            None
        }
        Task::Text { id, left } => {
            let delta = if escaped {
                r#"a line\nand \"quoted\" words "#
            } else {
                "some streamed words of the answer "
            };
            o.emit(format_args!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"r{r}.m{id}","delta":"{delta}"{tag}}}"#
            ))?;
            Some(Task::Text { id, left: left - 1 })
        }
        Task::Tool { id, left: 0 } => {
            o.emit(format_args!(
                r#"{{"type":"TOOL_CALL_END","{TOOL_CALL_ID}":"r{r}.t{id}"{tag}}}"#
            ))?;
            None
        }
        Task::Tool { id, left } => {
            let delta = if escaped {
                r#"{\"query\": \"agui\"} "#
            } else {
                "partial arguments "
            };
            o.emit(format_args!(
                r#"{{"type":"TOOL_CALL_ARGS","{TOOL_CALL_ID}":"r{r}.t{id}","delta":"{delta}"{tag}}}"#
            ))?;
            Some(Task::Tool { id, left: left - 1 })
        }
        Task::Reasoning { id, left: 0 } => {
            o.emit(format_args!(
                r#"{{"type":"REASONING_MESSAGE_END","{MESSAGE_ID}":"r{r}.z{id}"{tag}}}"#
            ))?;
            None
        }
        Task::Reasoning { id, left } => {
            o.emit(format_args!(
                r#"{{"type":"REASONING_MESSAGE_CONTENT","{MESSAGE_ID}":"r{r}.z{id}","delta":"thinking about it "{tag}}}"#
            ))?;
            Some(Task::Reasoning { id, left: left - 1 })
        }
        Task::Step { id } => {
            o.emit(format_args!(
                r#"{{"type":"STEP_FINISHED","{STEP_NAME}":"step-{id}"{tag}}}"#
            ))?;
            None
        }
    })
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
