//! agui-gen: scenario → stream + expected answer, by construction.
//!
//! One core ([`Scenario::new`] over `arbitrary::Unstructured`) and three
//! front ends: a proptest strategy ([`strategy`]), `arbitrary` entry points
//! for fuzzing ([`valid_stream`], [`invalid_stream`]) and seeded generation
//! for the command line ([`generate_case`]). Valid streams come from
//! [`render`]; invalid ones from [`mutate`], one mutator per violation rule,
//! each knowing the rule and index of the first violation it creates.
//!
//! Where docs/rules.md leaves room, generated valid streams stay on ground whose
//! meaning is not in doubt:
//! - The parent agent's chunk streams are emitted without interleaving
//!   (any untagged event would close the parent's lane); a subagent's
//!   continuation chunks always carry its tag or the stream's id.
//! - A subagent id is never re-announced in a later run unless it was
//!   suspended (never after an abandoned run), and `""` is used in at most
//!   one run of a stream.
//! - `MESSAGES_SNAPSHOT` is not generated (but by the mutator of
//!   `messages.snapshot-disagrees`); text deltas are never empty.
//! - A tool call's arguments are one JSON value once it ends, and a chunked
//!   call's at every chunk (its opener carries them whole, later chunks
//!   add whitespace); a `TOOL_CALL_RESULT` names only a call that has
//!   surely ended (see [`scenario::Op::ToolResult`]).
//! - Mutators avoid the pairs of rules whose precedence the catalogue does
//!   not state (e.g. `SUBAGENT_FINISHED.outcome` without `type`,
//!   `subagentRunId: null` on `SUBAGENT_*`, `RUN_ERROR` after `RUN_FINISHED`).

pub mod config;
pub mod consistency;
pub mod continuation;
pub mod ev;
pub mod front;
pub mod hostile;
pub mod mutate;
pub mod mutated;
pub mod names;
pub mod patch;
pub mod raw;
pub mod render;
pub mod rng;
pub mod scenario;

pub use config::{AttributionMode, Config, Weights};
pub use front::{
    Generated, Mode, case_id, generate, generate_case, generate_case_with, generate_seeded,
    invalid_stream, strategy, valid_stream,
};
pub use render::{Rendered, render, render_jsonl, render_stream};
pub use scenario::Scenario;
