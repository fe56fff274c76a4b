//! agui-harness: runs an implementation of AG-UI stream checking — in this
//! process or as a subprocess speaking `suites/PROTOCOL.md` — over a suite
//! of cases, scores each answer by the consumer obligations of docs/rules.md,
//! and reports.
//!
//! Data flows one way: a [`suite::SuiteCase`] → an [`Implementation`] →
//! an [`Outcome`] → a [`score::Scored`] → a report. The harness never
//! re-implements a rule and never asks the reference model for a case's
//! expected answer (except to shrink a failure, see [`shrink`]).

// Subprocess implementations run in their own process groups, under
// `setrlimit`, watched with `waitid` and signals: Unix only, said once here
// rather than with stubs that would build but not isolate anything.
#[cfg(not(unix))]
compile_error!("agui-harness supports Unix only (process groups, rlimits, signals)");

#[cfg(feature = "gen")]
pub mod campaign;
pub mod expect;
pub mod generated;
pub mod implementation;
pub mod outcome;
pub mod protocol;
pub mod record;
pub mod report;
pub mod runner;
pub mod score;
pub mod session;
pub mod shrink;
pub mod subprocess;
pub mod suite;
pub mod variant;

pub use expect::{Expected, Facts};
pub use implementation::{Capabilities, ImplInfo, Implementation, Reference};
pub use outcome::Outcome;
pub use runner::{CaseResult, RunResult, RunStatus, finish, run_cases};
pub use score::{Naming, Score, Scored};
pub use suite::{Suite, SuiteCase};
