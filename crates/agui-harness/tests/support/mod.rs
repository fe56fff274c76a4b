//! Helpers shared by the harness's integration tests: the fake
//! implementation's command, short timeouts, and cases whose expectations
//! are written out by hand (never computed).
#![allow(dead_code)]

pub mod procs;

use agui_harness::expect::Expected;
use agui_harness::generated::GenMode;
use agui_harness::subprocess::{Persistent, Spawn, Timeouts};
use agui_harness::suite::{Origin, SuiteCase};
use agui_harness::{RunResult, finish, run_cases};
use agui_model::{RuleId, Verdict};
use serde_json::{Value, json};
use std::time::Duration;

pub const FAKE: &str = env!("CARGO_BIN_EXE_agui-fake-impl");
pub const EXAMPLE: &str = env!("CARGO_BIN_EXE_agui-example-impl");

/// Short limits so misbehaviour tests stay fast.
pub fn timeouts() -> Timeouts {
    Timeouts {
        start: Duration::from_millis(2000),
        case: Duration::from_millis(300),
        stop: Duration::from_millis(300),
    }
}

pub const MAX_LINE: usize = 1 << 16;

pub fn spawn(cmd: &str) -> Spawn {
    let mut s = Spawn::parse(cmd).unwrap();
    s.max_line = MAX_LINE;
    s
}

pub fn fake(args: &str) -> Persistent {
    Persistent::new(spawn(&format!("{FAKE} {args}")), timeouts())
}

/// A small valid stream (one run).
pub fn valid_events() -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ]
}

pub fn case(id: &str, verdict: Verdict, first: Option<(RuleId, usize)>) -> SuiteCase {
    SuiteCase {
        id: id.to_string(),
        description: String::new(),
        events: valid_events(),
        lines: None,
        expected: Expected {
            verdict,
            first,
            projection: None,
            all: None,
            events: 4,
            official: None,
            outcome_only: false,
        },
        obligation: None,
        origin: Origin::Generated {
            seed: 7,
            mode: GenMode::Valid,
            variant: Default::default(),
        },
    }
}

/// A case that states every violation of its stream (`all[0]` first).
pub fn stated(id: &str, verdict: Verdict, all: &[(RuleId, usize)]) -> SuiteCase {
    let mut c = case(id, verdict, all.first().copied());
    c.expected.all = Some(all.to_vec());
    c
}

pub fn valid(id: &str) -> SuiteCase {
    case(id, Verdict::Accept, None)
}

/// Runs the cases and stops the implementation.
pub fn run(imp: &mut dyn agui_harness::Implementation, cases: &[SuiteCase]) -> RunResult {
    let mut r = run_cases("test", imp, cases, Vec::new(), |_, _| {}).unwrap();
    finish(&mut r, imp);
    r
}
