//! Generated cases: the slot for `agui_gen::generate_case(seed, mode)`.
//!
//! The generator knows each case's answer by construction; the harness
//! never asks the reference checker for it.

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

    /// A case id `<prefix>/valid/<number>` or `<prefix>/<rule>/<number>`:
    /// generated suite cases are `gen/…/<seed>` (as agui-gen names them),
    /// campaign cases `fuzz/…/<number>`.
    pub fn case_id(self, prefix: &str, number: u64) -> String {
        match self {
            GenMode::Valid => format!("{prefix}/valid/{number}"),
            GenMode::Invalid(r) => format!("{prefix}/{r}/{number}"),
        }
    }
}

/// The generator's mode for a harness mode.
#[cfg(feature = "gen")]
impl From<GenMode> for agui_gen::Mode {
    fn from(mode: GenMode) -> agui_gen::Mode {
        match mode {
            GenMode::Valid => agui_gen::Mode::Valid,
            GenMode::Invalid(r) => agui_gen::Mode::Invalid(r),
        }
    }
}

/// Whether this build can generate cases.
pub const AVAILABLE: bool = cfg!(feature = "gen");

/// Generates one case.
#[cfg(not(feature = "gen"))]
pub fn generate(seed: u64, mode: GenMode) -> Result<agui_corpus::Case, String> {
    let _ = (seed, mode);
    Err("no generator in this build".into())
}

/// Generates one case with the generator's default config; its expectation
/// (and its id, [`GenMode::case_id`] under `gen`) is the generator's, by
/// construction. The suite makes it a suite case
/// (`SuiteCase::generated`).
#[cfg(feature = "gen")]
pub fn generate(seed: u64, mode: GenMode) -> Result<agui_corpus::Case, String> {
    Ok(agui_gen::generate_case(seed, mode.into()))
}

#[cfg(all(test, feature = "gen"))]
mod tests {
    use super::*;

    /// A planned case is listed by the id its generated case will have.
    #[test]
    fn planned_ids_are_the_generators() {
        for mode in [GenMode::Valid, GenMode::Invalid(RuleId::TextNotOpen)] {
            assert_eq!(mode.case_id("gen", 7), agui_gen::case_id(7, mode.into()));
        }
    }
}
