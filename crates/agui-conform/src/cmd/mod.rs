//! One module per subcommand.

pub mod check;
pub mod corpus;
pub mod gen;
pub mod rules;
pub mod run;
