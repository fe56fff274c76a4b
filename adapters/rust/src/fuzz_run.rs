//! Runs the campaign `agui-conform fuzz` runs (agui_harness::campaign:
//! generated streams scored as `run` scores a case, each distinct failure
//! shrunk and kept) against one SDK in process, and writes the campaign's
//! record as `agui-conform fuzz --record` does
//! (agui_harness::record::fuzz), so that `agui-conform report` shows it
//! beside the other consumers' campaigns.

use crate::sdk::{Explains, Sdk, SdkImpl};
use agui_harness::campaign::{self, Campaign, Mix, Plan, summary};
use agui_harness::subprocess::cleanup;
use agui_harness::{ImplInfo, Implementation, Outcome};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// What to run: `agui-conform fuzz`'s flags of the same names.
#[derive(Debug, Clone)]
pub struct FuzzOptions {
    /// The campaign seed (`None`: drawn from the clock, [`draw_seed`]).
    pub seed: Option<u64>,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long. Neither bound: until interrupted.
    pub time: Option<Duration>,
    /// Most questions to the SDK while shrinking one failure.
    pub shrink_budget: usize,
    /// Where the campaign's record goes.
    pub record: Option<PathBuf>,
}

impl Default for FuzzOptions {
    /// `agui-conform fuzz`'s defaults.
    fn default() -> Self {
        FuzzOptions {
            seed: None,
            cases: None,
            time: None,
            shrink_budget: 2000,
            record: None,
        }
    }
}

/// A finished campaign: its summary, its exit status (as `agui-conform
/// fuzz` gives it) and the campaign itself.
pub struct Fuzzed {
    pub text: String,
    pub exit: u8,
    pub campaign: Campaign,
}

/// The SDK, forgetting each case's `explain` once it answered: a campaign
/// asks thousands of questions and its record keeps answers only.
struct Forgetful(SdkImpl);

impl Implementation for Forgetful {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        self.0.describe()
    }

    fn run_case(&mut self, id: &str, events: &[Value]) -> Outcome {
        let o = self.0.run_case(id, events);
        self.0.take_explain(id);
        o
    }

    fn run_lines(&mut self, id: &str, lines: &[String]) -> Outcome {
        let o = self.0.run_lines(id, lines);
        self.0.take_explain(id);
        o
    }
}

/// A campaign seed from the clock, as `agui-conform fuzz` draws one.
pub fn draw_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 & 0xFFFF_FFFF)
}

/// Runs the campaign against `sdk` in this thread, mixed streams (one
/// valid in four) over every violation rule, as `agui-conform fuzz` does
/// by default. Writes the record (when asked) even when a signal
/// interrupted the campaign, as `agui-conform fuzz` does.
pub fn fuzz(sdk: Sdk, opts: &FuzzOptions) -> anyhow::Result<Fuzzed> {
    let plan = Plan {
        seed: opts.seed.unwrap_or_else(draw_seed),
        cases: opts.cases,
        time: opts.time,
        mix: Mix::Mixed,
        rules: Vec::new(),
        save: None,
        shrink_budget: opts.shrink_budget,
    };
    let mut imp = Forgetful(SdkImpl::new(sdk, Explains::default()));
    let c = campaign::run_with(&plan, &mut imp, &|_, _| {});
    if let Some(p) = &opts.record {
        let text = agui_harness::record::fuzz::render(&c, &agui_harness::record::Meta::now());
        std::fs::write(p, text).map_err(|e| anyhow::anyhow!("writing {}: {e}", p.display()))?;
    }
    let exit = match cleanup::interrupted() {
        Some(sig) => u8::try_from(128 + sig).unwrap_or(u8::MAX),
        None => c.status().exit_code(),
    };
    Ok(Fuzzed {
        text: summary::text(&c),
        exit,
        campaign: c,
    })
}
