//! Fuzzing a Rust implementation in process, from its own `cargo test`.
//!
//! Implement [`Implementation`] for your checker and call
//! [`assert_conforms`] from a test; it runs `AGUI_FUZZ_CASES` generated
//! streams (default 256; `AGUI_FUZZ_SEED`, `AGUI_FUZZ_SAVE`) and panics
//! with every distinct failure shrunk:
//!
//! ```ignore
//! #[test]
//! fn conforms_to_ag_ui() {
//!     agui_harness::campaign::property::assert_conforms(&mut MyChecker::new());
//! }
//! ```
//!
//! This example wraps the reference model with a planted bug (it reads
//! `TOOL_CALL_RESULT` without its `subagentRunId`) and prints what the
//! campaign finds:
//! `AGUI_FUZZ_CASES=500 cargo run -p agui-harness --example fuzz_in_process`.

use agui_harness::campaign::{property, summary};
use agui_harness::implementation::{ImplInfo, Implementation, Reference, reference_outcome};
use agui_harness::outcome::Outcome;
use agui_model::events::Event;
use serde_json::Value;

/// The implementation under test: here the reference model, blind to the
/// owner of tool results.
struct MyChecker;

impl Implementation for MyChecker {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let mut info = Reference::info();
        info.name = "example checker (blind to tool-result owners)".into();
        Ok(info)
    }

    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        let seen: Vec<Value> = events.iter().map(owner_blind).collect();
        reference_outcome(&seen, true)
    }
}

/// The planted bug: a `TOOL_CALL_RESULT` read without its owner (any other
/// event, or one that does not parse, as it came).
fn owner_blind(e: &Value) -> Value {
    match Event::from_value(e) {
        Ok(Event::ToolCallResult(mut r)) => {
            r.subagent_run_id = None;
            Event::from(r).to_value()
        }
        _ => e.clone(),
    }
}

fn main() {
    let campaign = property::fuzz(&mut MyChecker);
    print!("{}", summary::text(&campaign));
}
