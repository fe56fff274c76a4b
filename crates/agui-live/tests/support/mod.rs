//! What agui-live's tests share: the test servers (`server`, `raw`),
//! the options and input a check is made with, and the violations of a
//! run as (rule, index).
#![allow(dead_code)] // each test binary uses its own share of these

pub mod events;
pub mod raw;
pub mod server;

use agui_live::{Limits, LiveRun, Options};
use agui_model::RuleId;
use serde_json::Value;
use std::time::Duration;

/// Options with limits no test server comes near (20 s in all, 10 s
/// idle): a test that hits one hangs, never passes by a timeout.
pub fn opts() -> Options {
    Options {
        limits: Limits {
            total: Duration::from_secs(20),
            idle: Duration::from_secs(10),
        },
        ..Options::default()
    }
}

/// The default `RunAgentInput`.
pub fn input() -> Value {
    agui_live::input::default_input()
}

/// A run's violations as (rule, event index).
pub fn rules(run: &LiveRun) -> Vec<(RuleId, usize)> {
    run.report
        .violations
        .iter()
        .map(|v| (v.rule, v.index))
        .collect()
}
