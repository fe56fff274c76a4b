//! The campaign as a property in a Rust implementation's own `cargo test`:
//!
//! ```no_run
//! # use agui_harness::Reference as MyChecker;
//! #[test]
//! fn conforms_to_ag_ui() {
//!     agui_harness::campaign::property::assert_conforms(&mut MyChecker::default());
//! }
//! ```
//!
//! Like a proptest property, its case budget comes from the environment:
//! `AGUI_FUZZ_CASES` (default 256), `AGUI_FUZZ_SEED` (default 0, for
//! repeatable CI; `random` draws one, printed on failure),
//! `AGUI_FUZZ_SAVE` (a folder for the shrunk failures, corpus format).

use super::{Campaign, Plan, run_with, summary};
use crate::implementation::Implementation;
use crate::runner::RunStatus;

/// Default number of cases of the in-process property.
pub const DEFAULT_CASES: u64 = 256;

/// The plan the environment asks for.
pub fn plan_from_env() -> Plan {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let cases = var("AGUI_FUZZ_CASES")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(DEFAULT_CASES);
    let seed = match var("AGUI_FUZZ_SEED").as_deref().map(str::trim) {
        Some("random") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
        Some(s) => s.parse().unwrap_or(0),
        None => 0,
    };
    Plan {
        seed,
        cases: Some(cases),
        time: None,
        save: var("AGUI_FUZZ_SAVE").map(Into::into),
        ..Plan::default()
    }
}

/// Runs the environment's campaign against `imp` in this thread.
pub fn fuzz(imp: &mut dyn Implementation) -> Campaign {
    run_with(&plan_from_env(), imp, &|_, _| {})
}

/// Runs the environment's campaign and panics, with the summary (each
/// failure shrunk, and the seed to reproduce it), if any case FAILED or
/// ERRORED or none ran.
pub fn assert_conforms(imp: &mut dyn Implementation) {
    let c = fuzz(imp);
    if c.status() != RunStatus::Passed {
        panic!(
            "agui-harness fuzz property failed (AGUI_FUZZ_SEED={} AGUI_FUZZ_CASES={} reproduces it)\n{}",
            c.plan.seed,
            c.plan.cases.unwrap_or_default(),
            summary::text(&c)
        );
    }
}
