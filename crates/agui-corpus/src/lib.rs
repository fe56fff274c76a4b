//! The corpus case format (`corpus/README.md`): one JSON file per case.

pub mod case;

pub use case::{Case, Expect};
