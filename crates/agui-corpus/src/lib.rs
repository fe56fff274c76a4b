//! The golden corpus of agui-conform (`corpus/README.md`): one JSON file per
//! case, loaded, linted, gated and run against the reference model.
//!
//! The test harness (`tests/corpus.rs`) and `agui-conform corpus check` are
//! both thin front ends over these functions.

pub mod case;
pub mod case_schema;
pub mod check;
pub mod gate;
pub mod load;
pub mod official;
pub mod reference;

pub use case::{Case, Expect, Stated};
pub use check::{CheckSummary, check_dir, check_dir_with_spec};
pub use load::{Corpus, LoadedCase, Problem, ProblemKind, load_builtin, load_dir, load_embedded};
pub use official::{Official, OfficialOutcome};
pub use reference::{Mismatch, run_case};
