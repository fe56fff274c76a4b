//! Generated cases: the slot for `agui_gen::generate_case(seed, mode)`.
//!
//! The generator knows each case's answer by construction; the harness
//! never asks the reference checker for it.

use crate::suite::SuiteCase;
use agui_model::RuleId;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenMode {
    Valid,
    /// A stream whose first violation is this rule.
    Invalid(RuleId),
}

impl GenMode {
    pub fn label(self) -> String {
        match self {
            GenMode::Valid => "valid".into(),
            GenMode::Invalid(r) => format!("invalid {r}"),
        }
    }
}

/// The stable id of a generated case: `gen/valid/<seed>`,
/// `gen/<rule>/<seed>`.
pub fn case_id(seed: u64, mode: GenMode) -> String {
    match mode {
        GenMode::Valid => format!("gen/valid/{seed}"),
        GenMode::Invalid(r) => format!("gen/{r}/{seed}"),
    }
}

/// Whether this build can generate cases.
pub const AVAILABLE: bool = cfg!(feature = "gen");

/// Generates one case.
#[cfg(not(feature = "gen"))]
pub fn generate(seed: u64, mode: GenMode) -> Result<SuiteCase, String> {
    let _ = (seed, mode);
    Err("no generator in this build".into())
}

/// Generates one case with the generator's default config; its expectation
/// is the generator's, by construction.
#[cfg(feature = "gen")]
pub fn generate(seed: u64, mode: GenMode) -> Result<SuiteCase, String> {
    let m = match mode {
        GenMode::Valid => agui_gen::Mode::Valid,
        GenMode::Invalid(r) => agui_gen::Mode::Invalid(r),
    };
    let case = agui_gen::generate_case(seed, m);
    let mut c = SuiteCase::from_corpus(case, std::path::PathBuf::new())?;
    c.id = case_id(seed, mode);
    c.origin = crate::suite::Origin::Generated { seed, mode };
    Ok(c)
}
