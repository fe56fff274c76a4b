//! A third-party crate runs the default suite against its own checker,
//! in process, from its own `cargo test` (README, "Run the suite from your
//! own tests"): implement [`Implementation`] and hand it to [`run_cases`].
//! The stand-in checker here rejects at the first error the reference model
//! finds; yours calls your own code. Run with
//! `cargo run -p agui-harness --example embed`.

use agui_harness::implementation::Capabilities;
use agui_harness::{ImplInfo, Implementation, Outcome, Suite, run_cases};
use agui_model::{Severity, check_values};
use serde_json::Value;

struct MyChecker;

impl Implementation for MyChecker {
    fn describe(&mut self) -> anyhow::Result<ImplInfo> {
        let capabilities = Capabilities {
            index: true,
            rule: true,
            ..Capabilities::default()
        };
        Ok(ImplInfo {
            name: "my-checker".into(),
            version: "0.1.0".into(),
            language: "rust".into(),
            capabilities,
        })
    }

    fn run_case(&mut self, _id: &str, events: &[Value]) -> Outcome {
        let report = check_values(events);
        match report
            .violations
            .iter()
            .find(|v| v.rule.severity() == Severity::Error)
        {
            Some(v) => Outcome::Reject {
                index: Some(v.index),
                rule: Some(v.rule.as_str().into()),
                message: None,
            },
            None => Outcome::Accept { projection: None },
        }
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
