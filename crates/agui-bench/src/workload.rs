//! The many-run workload of issue 20: `runs` AG-UI runs of about
//! `per_run` events each, the shape where the projection's cost shows
//! (many runs, each rendered as it ends).
//!
//! Every run starts with a `STATE_SNAPSHOT`, announces 8 invocations (two
//! trees: `s0` and `s4` at the top, three children under each), then
//! interleaves at random the work of the parent and of every invocation:
//! text messages, tool calls followed by their `TOOL_CALL_RESULT`,
//! reasoning messages and state deltas, each owner keeping one entity open
//! at a time. Everything is closed, the invocations finish (children
//! before parents) and the run finishes. Ids are unique per run and the
//! deltas touch one key per owner, so the state stays small.
//!
//! Valid by construction; the tests check instances with the reference
//! checker.

use agui_model::wire::{SUBAGENT_RUN_ID, key};
use std::io::{self, Write};

/// Wire names inlined into the templates below, the wire table's constants
/// (`wire::key`) rather than spelled.
const THREAD_ID: &str = key::RunStarted::thread_id;
const RUN_ID: &str = key::RunStarted::run_id;
const MESSAGE_ID: &str = key::TextMessageStart::message_id;
const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;
const TOOL_CALL_NAME: &str = key::ToolCallStart::tool_call_name;
const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;

/// Invocations announced in every run.
pub const INVOCATIONS: usize = 8;

/// The shape of a many-run stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManyRuns {
    pub runs: usize,
    /// Events in each run (at least [`ManyRuns::min_per_run`]).
    pub per_run: usize,
    pub seed: u64,
}

impl ManyRuns {
    /// The fewest events a run needs: start, snapshot, the invocations'
    /// starts and finishes, and the run's end.
    pub fn min_per_run() -> usize {
        3 + 2 * INVOCATIONS
    }
}

/// The bench's one generator (deterministic: the same seed, the same stream).
use crate::synth::Rng;

/// An entity an owner has open, and what it still has to emit.
#[derive(Debug, Clone, Copy)]
enum Task {
    Text {
        id: usize,
        left: usize,
    },
    /// Arguments left; then the end, then the result.
    Tool {
        id: usize,
        left: usize,
    },
    /// The call ended; its result is next.
    ToolResult {
        id: usize,
    },
    Reasoning {
        id: usize,
        left: usize,
    },
}

impl Task {
    /// Events still to come.
    fn remaining(self) -> usize {
        match self {
            Task::Text { left, .. } | Task::Reasoning { left, .. } => left + 1,
            Task::Tool { left, .. } => left + 2,
            Task::ToolResult { .. } => 1,
        }
    }
}

/// Counts what is written.
struct Out<'w, W: Write> {
    w: &'w mut W,
    line: Vec<u8>,
    events: usize,
    bytes: u64,
}

impl<W: Write> Out<'_, W> {
    fn emit(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.line.clear();
        self.line.write_fmt(args)?;
        self.line.push(b'\n');
        self.w.write_all(&self.line)?;
        self.events += 1;
        self.bytes += self.line.len() as u64;
        Ok(())
    }
}

/// The attribution suffix of an invocation's event: a comma, then
/// [`SUBAGENT_RUN_ID`] keyed to `"r1.s2"`; nothing for the parent.
struct Tag(usize, Option<usize>);

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(k) => write!(f, r#","{SUBAGENT_RUN_ID}":"r{}.s{k}""#, self.0),
            None => Ok(()),
        }
    }
}

/// Writes the stream; returns (events, bytes). `out` should be buffered.
pub fn write(shape: &ManyRuns, out: &mut impl Write) -> io::Result<(usize, u64)> {
    if shape.per_run < ManyRuns::min_per_run() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a run needs at least {} events", ManyRuns::min_per_run()),
        ));
    }
    let mut rng = Rng(shape.seed);
    let mut o = Out {
        w: out,
        line: Vec::with_capacity(256),
        events: 0,
        bytes: 0,
    };
    for r in 0..shape.runs {
        run(&mut o, &mut rng, r, shape.per_run)?;
    }
    o.w.flush()?;
    Ok((o.events, o.bytes))
}

fn run<W: Write>(o: &mut Out<'_, W>, rng: &mut Rng, r: usize, events: usize) -> io::Result<()> {
    o.emit(format_args!(
        r#"{{"type":"RUN_STARTED","{THREAD_ID}":"many","{RUN_ID}":"r{r}"}}"#
    ))?;
    o.emit(format_args!(
        r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"run":{r},"phase":"working","notes":["a","b"]}}}}"#
    ))?;
    for k in 0..INVOCATIONS {
        if k % 4 == 0 {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"lead-{k}"}}"#
            ))?;
        } else {
            o.emit(format_args!(
                r#"{{"type":"SUBAGENT_STARTED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","name":"helper-{k}","{PARENT_SUBAGENT_RUN_ID}":"r{r}.s{}"}}"#,
                k - k % 4
            ))?;
        }
    }
    body(o, rng, r, events - ManyRuns::min_per_run())?;
    for k in (0..INVOCATIONS).rev() {
        o.emit(format_args!(
            r#"{{"type":"SUBAGENT_FINISHED","{SUBAGENT_RUN_ID}":"r{r}.s{k}","outcome":{{"type":"success"}},"result":"done {k}"}}"#
        ))?;
    }
    o.emit(format_args!(
        r#"{{"type":"RUN_FINISHED","{THREAD_ID}":"many","{RUN_ID}":"r{r}","outcome":{{"type":"success"}}}}"#
    ))
}

/// Exactly `budget` events of interleaved work, every entity closed.
fn body<W: Write>(o: &mut Out<'_, W>, rng: &mut Rng, r: usize, budget: usize) -> io::Result<()> {
    let owners = INVOCATIONS + 1;
    let mut open: [Option<Task>; INVOCATIONS + 1] = [None; INVOCATIONS + 1];
    let (mut committed, mut emitted, mut next_id) = (0usize, 0usize, 0usize);
    while emitted < budget {
        let free = budget - emitted - committed;
        let mut who = rng.below(owners);
        if free == 0 && open[who].is_none() {
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
                let len = 1 + rng.below(10);
                let task = match rng.below(100) {
                    0..40 if free >= len + 2 => Some(Task::Text { id, left: len }),
                    40..65 if free >= len + 3 => Some(Task::Tool { id, left: len }),
                    65..80 if free >= len + 2 => Some(Task::Reasoning { id, left: len }),
                    _ => None,
                };
                start(o, &tag, who, id, task)?;
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

/// The first event of new work: an opener, or a state delta.
fn start<W: Write>(
    o: &mut Out<'_, W>,
    tag: &Tag,
    who: usize,
    id: usize,
    task: Option<Task>,
) -> io::Result<()> {
    let r = tag.0;
    match task {
        Some(Task::Text { .. }) => o.emit(format_args!(
            r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"r{r}.m{id}","role":"assistant"{tag}}}"#
        )),
        Some(Task::Tool { .. } | Task::ToolResult { .. }) => o.emit(format_args!(
            r#"{{"type":"TOOL_CALL_START","{TOOL_CALL_ID}":"r{r}.t{id}","{TOOL_CALL_NAME}":"lookup"{tag}}}"#
        )),
        Some(Task::Reasoning { .. }) => o.emit(format_args!(
            r#"{{"type":"REASONING_MESSAGE_START","{MESSAGE_ID}":"r{r}.z{id}","role":"reasoning"{tag}}}"#
        )),
        None => o.emit(format_args!(
            r#"{{"type":"STATE_DELTA","delta":[{{"op":"add","path":"/owner{who}","value":{{"step":{id},"label":"at \"{id}\""}}}}]{tag}}}"#
        )),
    }
}

/// The next event of an open task; the task if it is still open.
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
                r#"a line\nwith \"quotes\" "#
            } else {
                "words of the answer, streamed "
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
            Some(Task::ToolResult { id })
        }
        Task::Tool { id, left } => {
            o.emit(format_args!(
                r#"{{"type":"TOOL_CALL_ARGS","{TOOL_CALL_ID}":"r{r}.t{id}","delta":"{{\"q\": {left}}} "{tag}}}"#
            ))?;
            Some(Task::Tool { id, left: left - 1 })
        }
        Task::ToolResult { id } => {
            o.emit(format_args!(
                r#"{{"type":"TOOL_CALL_RESULT","{MESSAGE_ID}":"r{r}.tr{id}","{TOOL_CALL_ID}":"r{r}.t{id}","content":"result {id}","role":"tool"{tag}}}"#
            ))?;
            None
        }
        Task::Reasoning { id, left: 0 } => {
            o.emit(format_args!(
                r#"{{"type":"REASONING_MESSAGE_END","{MESSAGE_ID}":"r{r}.z{id}"{tag}}}"#
            ))?;
            None
        }
        Task::Reasoning { id, left } => {
            o.emit(format_args!(
                r#"{{"type":"REASONING_MESSAGE_CONTENT","{MESSAGE_ID}":"r{r}.z{id}","delta":"considering "{tag}}}"#
            ))?;
            Some(Task::Reasoning { id, left: left - 1 })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::Checker;
    use agui_model::check::check_bytes;

    fn stream(shape: &ManyRuns) -> (Vec<u8>, usize) {
        let mut buf = Vec::new();
        let (events, bytes) = write(shape, &mut buf).expect("writes");
        assert_eq!(bytes, buf.len() as u64);
        (buf, events)
    }

    #[test]
    fn runs_of_the_asked_length_that_the_checker_accepts() {
        let shape = ManyRuns {
            runs: 12,
            per_run: 300,
            seed: 7,
        };
        let (buf, events) = stream(&shape);
        assert_eq!(events, 12 * 300);
        let text = String::from_utf8(buf.clone()).expect("utf-8");
        let count = |ty: &str| text.lines().filter(|l| l.contains(ty)).count();
        assert_eq!(count("\"RUN_STARTED\""), 12);
        assert_eq!(count("\"STATE_SNAPSHOT\""), 12);
        assert_eq!(count("\"SUBAGENT_STARTED\""), 12 * INVOCATIONS);
        assert_eq!(count("\"parentSubagentRunId\""), 12 * 6);
        // Every tool call that ends has its result.
        assert_eq!(count("\"TOOL_CALL_END\""), count("\"TOOL_CALL_RESULT\""));
        assert!(count("\"TOOL_CALL_RESULT\"") > 0 && count("\"REASONING_MESSAGE_START\"") > 0);
        let report = check_bytes(&buf, Checker::new());
        assert_eq!(report.events, events);
        assert!(
            report.violations.is_empty(),
            "{:?}",
            report.violations.first()
        );
        let projection = report.projection.expect("projection on");
        assert_eq!(projection.runs.len(), 12);
    }

    #[test]
    fn the_shortest_run_is_valid_and_a_shorter_one_refused() {
        let shape = ManyRuns {
            runs: 2,
            per_run: ManyRuns::min_per_run(),
            seed: 1,
        };
        let (buf, events) = stream(&shape);
        assert_eq!(events, 2 * ManyRuns::min_per_run());
        assert!(check_bytes(&buf, Checker::new()).violations.is_empty());
        let short = ManyRuns {
            per_run: ManyRuns::min_per_run() - 1,
            ..shape
        };
        assert!(write(&short, &mut Vec::new()).is_err());
    }
}
