//! The emitter both stream writers share ([`crate::synth`] and
//! [`crate::workload`]): counted JSON lines, the attribution suffix, and
//! the interleaving of owners that each keep at most one entity (text
//! message, tool call, reasoning message, step) open at a time.
//!
//! The writers choose what new work to start and spell their own one-off
//! events; the words inside the entities differ per writer ([`Words`]).
//! The bench's figures were measured on these exact streams, so the order
//! in which the generator is drawn on is part of the contract.

use agui_model::wire::{SUBAGENT_RUN_ID, key};
use std::io::{self, Write};

/// Wire names written into the templates below, the wire table's
/// constants (`wire::key`) rather than spelled.
const STEP_NAME: &str = key::StepStarted::step_name;
const MESSAGE_ID: &str = key::TextMessageStart::message_id;
const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;
const TOOL_CALL_NAME: &str = key::ToolCallStart::tool_call_name;

/// SplitMix64: deterministic, seedable, no dependency; the bench's streams
/// depend on its exact sequence.
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

/// Counts what goes through to the output.
pub(crate) struct Out<'w, W: Write> {
    w: &'w mut W,
    line: Vec<u8>,
    pub(crate) events: usize,
    pub(crate) bytes: u64,
}

impl<'w, W: Write> Out<'w, W> {
    pub(crate) fn new(w: &'w mut W) -> Self {
        Out {
            w,
            line: Vec::with_capacity(256),
            events: 0,
            bytes: 0,
        }
    }

    /// Writes one event and its newline.
    pub(crate) fn emit(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.line.clear();
        self.line.write_fmt(args)?;
        self.line.push(b'\n');
        self.w.write_all(&self.line)?;
        self.events += 1;
        self.bytes += self.line.len() as u64;
        Ok(())
    }

    /// Flushes; (events, bytes) written.
    pub(crate) fn finish(self) -> io::Result<(usize, u64)> {
        self.w.flush()?;
        Ok((self.events, self.bytes))
    }
}

/// The attribution suffix of run `.0`'s event by invocation `.1`: a comma,
/// then [`SUBAGENT_RUN_ID`] keyed to `"r1.s2"`; nothing for the parent.
pub(crate) struct Tag(pub(crate) usize, pub(crate) Option<usize>);

impl std::fmt::Display for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.1 {
            Some(k) => write!(f, r#","{SUBAGENT_RUN_ID}":"r{}.s{k}""#, self.0),
            None => Ok(()),
        }
    }
}

/// An entity an owner has open: what it still has to emit.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Task {
    Text {
        id: usize,
        left: usize,
    },
    /// Arguments left; then the end, then the result if `result`.
    /// `first`: no argument delta written yet (the arguments are one JSON
    /// array, opened by the first delta and closed by the last:
    /// `tool.args-not-json` judges them when the call ends).
    Tool {
        id: usize,
        left: usize,
        result: bool,
        first: bool,
    },
    /// The call ended; its `TOOL_CALL_RESULT` is next.
    ToolResult {
        id: usize,
    },
    Reasoning {
        id: usize,
        left: usize,
    },
    Step {
        id: usize,
    },
}

impl Task {
    /// Events still to come, the closing ones included.
    fn remaining(self) -> usize {
        match self {
            Task::Text { left, .. } | Task::Reasoning { left, .. } => left + 1,
            Task::Tool { left, result, .. } => left + 1 + usize::from(result),
            Task::ToolResult { .. } | Task::Step { .. } => 1,
        }
    }
}

/// A tool call's argument deltas: items of one JSON array, the first
/// delta opening it (`[`), the others separated by `,`, the last closing it.
pub(crate) enum Args {
    /// `[plain, escaped]` items (JSON, escaped for the wire), the escaped
    /// one drawn one time in 16.
    Fixed([&'static str; 2]),
    /// `{"q": N}`, N the deltas still to come.
    Countdown,
}

/// The words a writer puts inside its entities.
pub(crate) struct Words {
    /// Text deltas, `[plain, escaped]` (the escaped one time in 16).
    pub(crate) text: [&'static str; 2],
    pub(crate) tool_name: &'static str,
    pub(crate) tool_args: Args,
    pub(crate) reasoning: &'static str,
}

/// Exactly `budget` events of interleaved work in run `r` by the parent
/// (owner 0) and `owners - 1` invocations (owner k+1), every entity closed
/// at the end. When an owner has nothing open, `begin(o, rng, tag, who,
/// id, free)` chooses new work that fits in `free` events: a task to open
/// (its opener is written here), or `None` after writing one event itself.
pub(crate) fn interleave<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    (r, owners, budget): (usize, usize, usize),
    words: &Words,
    mut begin: impl FnMut(
        &mut Out<'_, W>,
        &mut Rng,
        &Tag,
        usize,
        usize,
        usize,
    ) -> io::Result<Option<Task>>,
) -> io::Result<()> {
    let mut open: Vec<Option<Task>> = vec![None; owners];
    let (mut committed, mut emitted, mut next_id) = (0usize, 0usize, 0usize);
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
                open[who] = advance(o, rng, &tag, words, task)?;
            }
            None => {
                let id = next_id;
                next_id += 1;
                if let Some(t) = begin(o, rng, &tag, who, id, free)? {
                    opener(o, &tag, words, t)?;
                    committed += t.remaining();
                    open[who] = Some(t);
                }
            }
        }
        emitted += 1;
    }
    Ok(())
}

/// The first event of a task.
fn opener<W: Write>(o: &mut Out<'_, W>, tag: &Tag, words: &Words, task: Task) -> io::Result<()> {
    let r = tag.0;
    match task {
        Task::Text { id, .. } => o.emit(format_args!(
            r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"r{r}.m{id}","role":"assistant"{tag}}}"#
        )),
        Task::Tool { id, .. } | Task::ToolResult { id } => o.emit(format_args!(
            r#"{{"type":"TOOL_CALL_START","{TOOL_CALL_ID}":"r{r}.t{id}","{TOOL_CALL_NAME}":"{}"{tag}}}"#,
            words.tool_name
        )),
        Task::Reasoning { id, .. } => o.emit(format_args!(
            r#"{{"type":"REASONING_MESSAGE_START","{MESSAGE_ID}":"r{r}.z{id}","role":"reasoning"{tag}}}"#
        )),
        Task::Step { id } => o.emit(format_args!(
            r#"{{"type":"STEP_STARTED","{STEP_NAME}":"step-{id}"{tag}}}"#
        )),
    }
}

/// Emits the next event of an open task; the task if it is still open.
fn advance<W: Write>(
    o: &mut Out<'_, W>,
    rng: &mut Rng,
    tag: &Tag,
    words: &Words,
    task: Task,
) -> io::Result<Option<Task>> {
    let r = tag.0;
    let escaped = usize::from(rng.below(16) == 0);
    Ok(match task {
        Task::Text { id, left: 0 } => {
            o.emit(format_args!(
                r#"{{"type":"TEXT_MESSAGE_END","{MESSAGE_ID}":"r{r}.m{id}"{tag}}}"#
            ))?;
            None
        }
        Task::Text { id, left } => {
            let delta = words.text[escaped];
            o.emit(format_args!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"r{r}.m{id}","delta":"{delta}"{tag}}}"#
            ))?;
            Some(Task::Text { id, left: left - 1 })
        }
        Task::Tool {
            id,
            left: 0,
            result,
            ..
        } => {
            o.emit(format_args!(
                r#"{{"type":"TOOL_CALL_END","{TOOL_CALL_ID}":"r{r}.t{id}"{tag}}}"#
            ))?;
            result.then_some(Task::ToolResult { id })
        }
        Task::Tool {
            id,
            left,
            result,
            first,
        } => {
            let open = if first { "[" } else { "," };
            let close = if left == 1 { "]" } else { "" };
            match words.tool_args {
                Args::Fixed(deltas) => o.emit(format_args!(
                    r#"{{"type":"TOOL_CALL_ARGS","{TOOL_CALL_ID}":"r{r}.t{id}","delta":"{open}{}{close} "{tag}}}"#,
                    deltas[escaped]
                ))?,
                Args::Countdown => o.emit(format_args!(
                    r#"{{"type":"TOOL_CALL_ARGS","{TOOL_CALL_ID}":"r{r}.t{id}","delta":"{open}{{\"q\": {left}}}{close} "{tag}}}"#
                ))?,
            }
            Some(Task::Tool {
                id,
                left: left - 1,
                result,
                first: false,
            })
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
                r#"{{"type":"REASONING_MESSAGE_CONTENT","{MESSAGE_ID}":"r{r}.z{id}","delta":"{}"{tag}}}"#,
                words.reasoning
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
