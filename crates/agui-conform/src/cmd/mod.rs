//! One module per subcommand: its flags (clap) and its `run`, which turns
//! them into what the shared modules beside `cmd/` take (checking, rule
//! configuration, inputs, renderers) and returns the exit status.

pub mod check;
pub mod corpus;
pub mod fuzz;
pub mod generate;
pub mod report;
pub mod rules;
pub mod run;
pub mod suites;
