//! A third-party crate runs the default suite against its own checker,
//! in process, from its own `cargo test` (README, "Run the suite from your
//! own tests"): implement the two required methods of [`Implementation`]
//! and hand it to [`run_cases`]. The stand-in checker here answers as the
//! reference model does, without a projection; yours calls your own code.
//! Run with `cargo run -p agui-harness --example embed`.

use agui_harness::implementation::{Capabilities, reference_outcome};
use agui_harness::{ImplInfo, Implementation, Outcome, Suite, run_cases};
use serde_json::Value;

struct MyChecker;

impl Implementation for MyChecker {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let capabilities = Capabilities {
            index: true,
            rule: true,
            ..Capabilities::default()
        };
        Ok(ImplInfo::new("my-checker", "0.1.0", "rust", capabilities))
    }

    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        reference_outcome(events, false)
    }
}

fn main() -> anyhow::Result<()> {
    let suite = Suite::find("default")?;
    let (cases, problems) = suite.cases();
    let run = run_cases("default", &mut MyChecker, &cases, problems, |_, _| {})?;
    assert!(run.ok(), "{:?}: {:?}", run.status(), run.total());
    println!("{} cases: {:?}", cases.len(), run.status());
    Ok(())
}
