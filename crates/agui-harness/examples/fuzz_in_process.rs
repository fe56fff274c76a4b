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
        let seen: Vec<Value> = events
            .iter()
            .cloned()
            .map(|mut e| {
                if e.get("type").and_then(Value::as_str) == Some("TOOL_CALL_RESULT")
                    && let Value::Object(m) = &mut e
                {
                    m.remove("subagentRunId");
                }
                e
            })
            .collect();
        reference_outcome(&seen, true)
    }
}

fn main() {
    let campaign = property::fuzz(&mut MyChecker);
    print!("{}", summary::text(&campaign));
}
