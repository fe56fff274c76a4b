//! The scenario: what happens in a stream, decided before any event is
//! written. A stream is a list of runs; a run is a parent agent's script, a
//! tree of invocations each with its own script and ending, a way the run
//! ends, and a seed for the scheduler that interleaves the scripts.
//!
//! Every choice is made here from `arbitrary::Unstructured` so that the
//! same bytes give the same scenario, and fewer bytes give a smaller one
//! (exhausted input yields lower bounds: no invocations, no ops).

use crate::config::{AttributionMode, Config};
use arbitrary::{Result, Unstructured};
use serde_json::Value;

/// A whole stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub thread_id: String,
    pub runs: Vec<RunPlan>,
    /// Whether events may carry `timestamp` and an unknown extra field.
    pub extras: bool,
}

/// One run of the stream.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPlan {
    pub run_id: String,
    /// `RUN_STARTED.input`, when echoed.
    pub input: Option<RunInput>,
    /// The parent agent's script (its events carry no `subagentRunId`).
    pub parent: Vec<Op>,
    /// Invocations in announcement order; a parent precedes its children.
    pub invocations: Vec<Invocation>,
    pub end: RunEnd,
    /// How the run's `RUN_FINISHED` outcome is spelled when it succeeds:
    /// 0 absent, 1 `success`, 2 `success` with `pendingToolCallIds`,
    /// 3 `cancelled`.
    pub outcome_style: u8,
    /// Seed of the scheduler's interleaving.
    pub sched_seed: u64,
    /// How many invocations stream at once.
    pub parallelism: u32,
}

/// What `RUN_STARTED.input` carries.
#[derive(Debug, Clone, PartialEq)]
pub struct RunInput {
    /// Replaces the stream's state.
    pub state: Option<Value>,
    /// A history message (never shown; not an attribution), with its tag.
    pub history: Option<(String, Option<String>)>,
    /// Interrupt ids of the previous run being resolved.
    pub resume: Vec<String>,
}

/// One invocation of a subagent within a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    pub id: String,
    pub name: String,
    /// Index (in this run) of the invocation that spawned it; `None` for
    /// the parent agent. Only announced invocations have one, naming an
    /// announced invocation.
    pub parent: Option<usize>,
    /// Announced with `SUBAGENT_STARTED`; otherwise attribution-only.
    pub announced: bool,
    /// Re-announces an invocation suspended in the previous run.
    pub resumed: bool,
    pub ops: Vec<Op>,
    /// How an announced invocation ends (ignored when not announced).
    pub end: InvEnd,
    /// Emit the script's final closing event after `SUBAGENT_FINISHED`
    /// (`accept.after-finish-attribution`).
    pub late_close: bool,
}

/// How an announced invocation ends.
#[derive(Debug, Clone, PartialEq)]
pub enum InvEnd {
    /// `SUBAGENT_FINISHED`; style 0 no outcome, 1 `success`, 2 `success`
    /// with an empty `interruptIds`, 3 with a `result`.
    Success(u8),
    /// `SUBAGENT_FINISHED` with a `suspended` outcome. `None`: no
    /// `interruptIds` field at all.
    Suspended(Option<Vec<String>>),
    /// `SUBAGENT_ERROR`.
    Error,
}

/// How a run ends.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnd {
    /// `RUN_FINISHED` after every script is done.
    Finished,
    /// `RUN_ERROR` after this many scheduled groups (active invocations are
    /// abandoned, open entities left open).
    Error(u32),
    /// `RUN_FINISHED` with an `interrupt` outcome listing these.
    Interrupt(Vec<Interrupt>),
}

/// One interrupt of an interrupt outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupt {
    pub id: String,
    /// Its `subagentRunId` (`None`: the parent agent).
    pub tag: Option<String>,
}

/// One piece of work in a script.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    Text(TextOp),
    /// A tool call outside any message.
    ToolCall(CallOp),
    /// `TOOL_CALL_RESULT` for the call `pick` (modulo the calls of the run
    /// that have surely ended by then: explicit calls past their
    /// `TOOL_CALL_END`, and the actor's own chunked calls); skipped when
    /// there is none.
    ToolResult {
        message_id: String,
        pick: u32,
        parts: bool,
    },
    Reasoning(ReasoningOp),
    /// `REASONING_ENCRYPTED_VALUE` on the actor's entity `pick` (modulo the
    /// entities it opened so far in the run); skipped when there is none.
    Encrypted {
        pick: u32,
        untagged: bool,
    },
    /// `STEP_STARTED`, the body, `STEP_FINISHED` (body holds no steps).
    Step {
        name: String,
        body: Vec<Op>,
    },
    /// A `STATE_SNAPSHOT` built from the seed.
    StateSnapshot {
        seed: u64,
    },
    /// A `STATE_DELTA` built from the seed against the state as it stands.
    StateDelta {
        seed: u64,
    },
    Activity(ActivityOp),
    Custom {
        name: String,
        value: u32,
    },
    Raw {
        source: bool,
        value: u32,
    },
}

/// A text message, explicit or in chunks, with the tool calls it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct TextOp {
    pub id: String,
    /// `role` on the opener (`None`: left out, meaning `assistant`).
    pub role: Option<&'static str>,
    pub deltas: Vec<&'static str>,
    /// Bit i set: continuation i carries no tag (subagents only).
    pub untag: u32,
    /// Bit i set: continuation chunk i carries no id (only when tagged, or
    /// for the parent agent).
    pub noid: u32,
    pub chunk: bool,
    pub calls: Vec<CallOp>,
}

/// A tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOp {
    pub id: String,
    pub name: String,
    pub args: Vec<&'static str>,
    /// Bit 0: the opener carries no tag (only inside a message, where the
    /// call inherits the message's owner); bit i+1: continuation i.
    pub untag: u32,
    pub noid: u32,
    pub chunk: bool,
    /// A `TOOL_CALL_RESULT` (this message id) the actor sends for this
    /// explicit call while it is open, after this many argument deltas:
    /// `tool.result-before-end`, set only by its mutator.
    pub early_result: Option<(String, usize)>,
}

/// A reasoning span, possibly holding a reasoning message.
#[derive(Debug, Clone, PartialEq)]
pub struct ReasoningOp {
    pub span: String,
    pub message: Option<ReasoningMessage>,
    pub untag: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ReasoningMessage {
    /// May equal the span id (one id may name both).
    pub id: String,
    pub deltas: Vec<&'static str>,
    pub chunk: bool,
    pub noid: u32,
}

/// An activity message: a snapshot, then deltas.
#[derive(Debug, Clone, PartialEq)]
pub struct ActivityOp {
    pub id: String,
    pub activity_type: String,
    pub replace: Option<bool>,
    pub deltas: Vec<u64>,
    /// A second snapshot with `replace: false` (changes nothing).
    pub keep_snapshot: bool,
    pub untag: u32,
}

const NAMES: &[&str] = &["researcher", "writer", "critic", "planner", "coder"];
const STEPS: &[&str] = &["plan", "search", "write"];
pub(crate) const TOOLS: &[&str] = &["search", "fetch", "calc", "lookup"];
const ROLES: &[&str] = &["assistant", "user", "system", "developer"];
/// Text pieces: plain, unicode, escapes, JSON-looking.
pub(crate) const DELTAS: &[&str] = &[
    "Hello",
    " world",
    "ünïcödé ✓",
    "line\nbreak",
    "\"quoted\"",
    "tab\tstop",
    "😀",
    " ",
    "{\"k\":1}",
    "a/b~c",
    "\\back",
    ".",
];
/// Whole tool arguments, each one JSON value (`tool.args-not-json` asks
/// that of a call's deltas once it ends): split into deltas for an
/// explicit call; for a chunked call the opening chunk carries it whole.
pub(crate) const ARGS: &[&str] = &[
    "{\"q\":\"x\"}",
    "{\"n\":1}",
    "[1,2]",
    "{\"city\": \"Lisbon\", \"days\": [1, 2]}",
    " \"x\" ",
    "{\"text\":\"ünï ✓ 😀\",\"ok\":true,\"none\":null}",
];

/// Draws ids that never collide: one counter per stream.
struct Ids {
    next: u32,
    empty_used: bool,
}

impl Ids {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }
}

fn pick<'a>(u: &mut Unstructured, from: &'a [&'a str]) -> Result<&'a str> {
    Ok(from[u.choose_index(from.len())?])
}

fn deltas(
    u: &mut Unstructured,
    pool: &'static [&'static str],
    min: usize,
    max: usize,
) -> Result<Vec<&'static str>> {
    let n = u.int_in_range(min..=max)?;
    (0..n)
        .map(|_| Ok(pool[u.choose_index(pool.len())?]))
        .collect()
}

fn weighted(u: &mut Unstructured, weights: &[u32]) -> Result<usize> {
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return Ok(0);
    }
    let mut x = u.int_in_range(0..=total - 1)?;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return Ok(i);
        }
        x -= w;
    }
    Ok(0)
}

impl Scenario {
    /// The core: a scenario from a config and unstructured bytes.
    pub fn new(config: &Config, u: &mut Unstructured) -> Result<Scenario> {
        let config = config.clone().sanitized();
        let mut ids = Ids {
            next: 0,
            empty_used: !config.empty_id,
        };
        let nruns = u.int_in_range(1..=config.runs)?;
        let mut runs: Vec<RunPlan> = Vec::with_capacity(nruns as usize);
        for k in 0..nruns {
            let prev = runs.last();
            let run = gen_run(&config, u, &mut ids, k, prev)?;
            runs.push(run);
        }
        let extras = config.extras && u.ratio(1, 4)?;
        Ok(Scenario {
            thread_id: format!("thread-{}", u.int_in_range(0..=9u8)?),
            runs,
            extras,
        })
    }

    /// Number of runs.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

fn gen_run(
    config: &Config,
    u: &mut Unstructured,
    ids: &mut Ids,
    k: u32,
    prev: Option<&RunPlan>,
) -> Result<RunPlan> {
    let run_id = format!("run-{k}");
    let end_kind = if config.failures {
        weighted(u, &[14, 3, 4])?
    } else {
        0
    };
    let mut invocations: Vec<Invocation> = Vec::new();
    let mut resume = Vec::new();
    // Invocations suspended in the previous run are resumed under the same id.
    if let Some(prev) = prev
        && let RunEnd::Interrupt(list) = &prev.end
    {
        resume = list.iter().map(|i| i.id.clone()).collect();
        let mut map = vec![None; prev.invocations.len()];
        for (i, inv) in prev.invocations.iter().enumerate() {
            if inv.announced && matches!(inv.end, InvEnd::Suspended(_)) {
                map[i] = Some(invocations.len());
                let parent = inv.parent.and_then(|p| map[p]);
                invocations.push(Invocation {
                    id: inv.id.clone(),
                    name: inv.name.clone(),
                    parent,
                    announced: true,
                    resumed: true,
                    ops: Vec::new(),
                    end: InvEnd::Success(0),
                    late_close: false,
                });
            }
        }
    }
    let fresh = u.int_in_range(0..=config.invocations)?;
    let mut depth: Vec<u32> = invocations.iter().map(|_| 1).collect();
    for _ in 0..fresh {
        let announced = match config.attribution {
            AttributionMode::Announced => true,
            AttributionMode::AttributionOnly => false,
            AttributionMode::Mixed => u.ratio(2, 3)?,
        };
        let id = if !ids.empty_used && u.ratio(1, 8)? {
            ids.empty_used = true;
            String::new()
        } else {
            ids.fresh("s")
        };
        let mut parent = None;
        let mut d = 1;
        if announced && u.ratio(1, 2)? {
            let candidates: Vec<usize> = (0..invocations.len())
                .filter(|&i| invocations[i].announced && depth[i] < config.max_depth)
                .collect();
            if !candidates.is_empty() {
                let p = candidates[u.choose_index(candidates.len())?];
                parent = Some(p);
                d = depth[p] + 1;
            }
        }
        depth.push(d);
        invocations.push(Invocation {
            id,
            name: pick(u, NAMES)?.to_owned(),
            parent,
            announced,
            resumed: false,
            ops: Vec::new(),
            end: InvEnd::Success(0),
            late_close: false,
        });
    }
    // Scripts and endings.
    let parent = gen_ops(config, u, ids, false)?;
    for inv in &mut invocations {
        inv.ops = gen_ops(config, u, ids, true)?;
        inv.end = if config.failures && u.ratio(1, 8)? {
            InvEnd::Error
        } else {
            InvEnd::Success(u.int_in_range(0..=3)?)
        };
        inv.late_close = u.ratio(1, 4)?;
    }
    let end = match end_kind {
        1 => RunEnd::Error(u.int_in_range(0..=64)?),
        2 => {
            let mut list = Vec::new();
            for _ in 0..u.int_in_range(0..=2)? {
                list.push(Interrupt {
                    id: ids.fresh("int-"),
                    tag: None,
                });
            }
            for inv in invocations
                .iter_mut()
                .filter(|i| i.announced && i.end != InvEnd::Error)
            {
                if u.ratio(1, 2)? {
                    let n = u.int_in_range(0..=2)?;
                    let own: Vec<String> = (0..n).map(|_| ids.fresh("int-")).collect();
                    for id in &own {
                        list.push(Interrupt {
                            id: id.clone(),
                            tag: Some(inv.id.clone()),
                        });
                    }
                    inv.end = InvEnd::Suspended(if own.is_empty() && u.ratio(1, 2)? {
                        None
                    } else {
                        Some(own)
                    });
                }
            }
            if list.is_empty() {
                list.push(Interrupt {
                    id: ids.fresh("int-"),
                    tag: None,
                });
            }
            // The outcome lists interrupts in any order.
            let rot = u.choose_index(list.len())?;
            list.rotate_left(rot);
            RunEnd::Interrupt(list)
        }
        _ => RunEnd::Finished,
    };
    let input = if !resume.is_empty() || u.ratio(1, 4)? {
        let state = if u.ratio(1, 3)? {
            Some(serde_json::json!({ "seeded": k, "list": [] }))
        } else {
            None
        };
        let history = if u.ratio(1, 2)? {
            // Tag it with an invocation of this run when there is one: history
            // is not an attribution and must not count as one.
            let tag = if !invocations.is_empty() && u.ratio(1, 2)? {
                Some(invocations[u.choose_index(invocations.len())?].id.clone())
            } else {
                None
            };
            Some((ids.fresh("hist-"), tag))
        } else {
            None
        };
        Some(RunInput {
            state,
            history,
            resume,
        })
    } else {
        None
    };
    Ok(RunPlan {
        run_id,
        input,
        parent,
        invocations,
        end,
        outcome_style: u.int_in_range(0..=3)?,
        sched_seed: u.arbitrary()?,
        parallelism: u.int_in_range(1..=config.parallelism)?,
    })
}

fn gen_ops(config: &Config, u: &mut Unstructured, ids: &mut Ids, sub: bool) -> Result<Vec<Op>> {
    let n = u.int_in_range(0..=config.ops_per_actor)?;
    let mut ops = Vec::with_capacity(n as usize);
    for _ in 0..n {
        ops.push(gen_op(config, u, ids, sub, true)?);
    }
    Ok(ops)
}

fn gen_call(
    config: &Config,
    u: &mut Unstructured,
    ids: &mut Ids,
    in_message: bool,
) -> Result<CallOp> {
    let mut untag: u32 = u.arbitrary()?;
    if !in_message {
        untag &= !1;
    }
    let id = ids.fresh("tc-");
    let name = pick(u, TOOLS)?.to_owned();
    // Up to three draws: the value, then where to split it.
    let n = u.int_in_range(0..=3usize)?;
    let draws = (0..n)
        .map(|_| u.choose_index(ARGS.len()))
        .collect::<Result<Vec<usize>>>()?;
    let noid = u.arbitrary()?;
    let chunk = config.chunks && u.ratio(1, 4)?;
    Ok(CallOp {
        id,
        name,
        args: split_args(&draws, chunk),
        untag,
        noid,
        chunk,
        early_result: None,
    })
}

/// A call's argument deltas from its draws: none, or the value
/// `ARGS[draws[0]]` in pieces. An explicit call's are cut where the other
/// draws say; a chunked call's value comes whole in its opening chunk, the
/// other chunks adding whitespace, so that every prefix is empty or one
/// JSON value: an event that ends the lane early (an edit of a mutator)
/// still ends a call whose arguments are JSON.
pub(crate) fn split_args(draws: &[usize], chunk: bool) -> Vec<&'static str> {
    let Some((&first, cuts)) = draws.split_first() else {
        return Vec::new();
    };
    let value = ARGS[first % ARGS.len()];
    if chunk {
        let mut out = vec![value];
        out.extend(cuts.iter().map(|_| " "));
        return out;
    }
    // Cut points on character boundaries strictly inside the value.
    let inside: Vec<usize> = value
        .char_indices()
        .map(|(i, _)| i)
        .filter(|&i| i > 0)
        .collect();
    let mut at: Vec<usize> = cuts
        .iter()
        .filter_map(|&d| inside.get(d * inside.len().saturating_sub(1) / (ARGS.len() - 1)))
        .copied()
        .collect();
    at.sort_unstable();
    at.dedup();
    let mut out = Vec::with_capacity(at.len() + 1);
    let mut from = 0;
    for cut in at {
        out.push(&value[from..cut]);
        from = cut;
    }
    out.push(&value[from..]);
    out
}

fn gen_op(
    config: &Config,
    u: &mut Unstructured,
    ids: &mut Ids,
    sub: bool,
    allow_step: bool,
) -> Result<Op> {
    let mut w = config.weights.as_array();
    if !allow_step {
        w[5] = 0;
    }
    if w.iter().all(|&x| x == 0) {
        w[0] = 1;
    }
    let _ = sub;
    Ok(match weighted(u, &w)? {
        0 => {
            let chunk = config.chunks && u.ratio(1, 4)?;
            let role = if u.ratio(1, 3)? {
                None
            } else {
                Some(ROLES[weighted(u, &[12, 1, 1, 1])?])
            };
            let holds_calls = matches!(role, None | Some("assistant"));
            let ncalls = if holds_calls && config.weights.tool_call > 0 {
                u.int_in_range(0..=2)?
            } else {
                0
            };
            let mut calls = Vec::new();
            for _ in 0..ncalls {
                calls.push(gen_call(config, u, ids, true)?);
            }
            Op::Text(TextOp {
                id: ids.fresh("msg-"),
                role,
                deltas: deltas(u, DELTAS, usize::from(chunk), 4)?,
                untag: u.arbitrary()?,
                noid: u.arbitrary()?,
                chunk,
                calls,
            })
        }
        1 => Op::ToolCall(gen_call(config, u, ids, false)?),
        2 => Op::ToolResult {
            message_id: ids.fresh("res-"),
            pick: u.arbitrary()?,
            parts: u.ratio(1, 3)?,
        },
        3 => {
            let message = if u.ratio(2, 3)? {
                let chunk = config.chunks && u.ratio(1, 4)?;
                Some(ReasoningMessage {
                    id: String::new(),
                    deltas: deltas(u, DELTAS, usize::from(chunk), 3)?,
                    chunk,
                    noid: u.arbitrary()?,
                })
            } else {
                None
            };
            let span = ids.fresh("rsn-");
            let message = message.map(|mut m| {
                m.id = span.clone();
                m
            });
            let mut op = ReasoningOp {
                span,
                message,
                untag: u.arbitrary()?,
            };
            // A reasoning message under its own id, or sharing the span's.
            if let Some(m) = op.message.as_mut()
                && (m.chunk || u.ratio(1, 2)?)
            {
                m.id = ids.fresh("rmsg-");
            }
            Op::Reasoning(op)
        }
        4 => Op::Encrypted {
            pick: u.arbitrary()?,
            untagged: u.arbitrary()?,
        },
        5 => {
            let name = pick(u, STEPS)?.to_owned();
            let n = u.int_in_range(0..=2)?;
            let mut body = Vec::new();
            for _ in 0..n {
                body.push(gen_op(config, u, ids, sub, false)?);
            }
            Op::Step { name, body }
        }
        6 => {
            if u.ratio(1, 3)? {
                Op::StateSnapshot {
                    seed: u.arbitrary()?,
                }
            } else {
                Op::StateDelta {
                    seed: u.arbitrary()?,
                }
            }
        }
        7 => Op::Activity(ActivityOp {
            id: ids.fresh("act-"),
            activity_type: pick(u, &["progress", "plan", "search"])?.to_owned(),
            replace: match u.int_in_range(0..=2u8)? {
                0 => None,
                1 => Some(true),
                _ => Some(false),
            },
            deltas: (0..u.int_in_range(0..=3)?)
                .map(|_| u.arbitrary())
                .collect::<Result<_>>()?,
            keep_snapshot: u.ratio(1, 4)?,
            untag: u.arbitrary()?,
        }),
        8 => Op::Custom {
            name: pick(u, &["note", "metric", "ui"])?.to_owned(),
            value: u.arbitrary()?,
        },
        _ => Op::Raw {
            source: u.arbitrary()?,
            value: u.arbitrary()?,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::{ARGS, split_args};

    fn is_json(s: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(s).is_ok()
    }

    #[test]
    fn arguments_are_one_json_value_and_a_chunked_calls_at_every_chunk() {
        assert!(split_args(&[], false).is_empty());
        for (first, value) in ARGS.iter().enumerate() {
            for a in 0..ARGS.len() {
                for b in 0..ARGS.len() {
                    let draws = [first, a, b];
                    let pieces = split_args(&draws, false);
                    assert!(!pieces.is_empty() && pieces.iter().all(|p| !p.is_empty()));
                    assert_eq!(pieces.concat(), *value);
                    assert!(is_json(&pieces.concat()), "{pieces:?}");
                    let chunks = split_args(&draws, true);
                    for n in 1..=chunks.len() {
                        assert!(is_json(&chunks[..n].concat()), "{chunks:?} to {n}");
                    }
                }
            }
        }
        // Some explicit calls are cut into several deltas.
        assert!(split_args(&[3, 2, 5], false).len() > 1);
    }
}
