//! One module per subcommand.

pub mod case_input;
pub mod check;
pub mod check_many;
pub mod config;
pub mod corpus;
pub mod fuzz;
pub mod generate;
pub mod html;
pub mod input_format;
pub mod junit;
mod live_progress;
pub mod no_events;
mod pipe;
pub mod producer;
pub mod producer_record;
pub mod report;
pub mod report_producers;
pub mod rules;
pub mod rules_md;
pub mod run;
pub mod sarif;
mod signals;
pub mod suites;
