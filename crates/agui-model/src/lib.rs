//! agui-model: the reference model of AG-UI 1.0 event streams with subagent
//! attribution — the executable form of the rule catalogue (`docs/rules.md`).
//!
//! Data flows one way: bytes ([`stream`]) → JSON value → wire rules
//! ([`schema`]) → stream rules ([`checker`]) → what a consumer shows
//! ([`projection`]). The rule ids live once, in [`rules`]; state and
//! activity patches are applied by [`patch`] (RFC 6902, atomic, budgeted).

// The unit tests share the integration tests' stream builders
// (`tests/support`), which name the crate by its name.
#[cfg(test)]
extern crate self as agui_model;

pub(crate) mod body;
pub mod bounded;
pub mod check;
pub mod checker;
pub mod difference;
pub mod events;
#[doc(hidden)]
pub mod fast;
pub mod json;
pub mod json_text;
pub mod levels;
pub mod limits;
pub mod patch;
mod pipeline;
pub mod projection;
pub mod rule_help;
pub mod rules;
pub mod schema;
pub mod stream;
pub mod violation;
pub mod wire;

pub use checker::{
    Checker, CopyIn, Counts, Finding, JsonStream, Report, Sink, check_values, copy_in,
};
pub use events::EventType;
pub use levels::RuleLevels;
pub use limits::{LimitKind, LimitNotice, Limits};
pub use projection::Projection;
pub use rules::{CATALOGUE, Obligation, Rule, RuleId, Severity};
pub use violation::{Verdict, Violation};
