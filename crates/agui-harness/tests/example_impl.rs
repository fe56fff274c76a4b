//! The example implementation (the reference model behind the protocol)
//! answers every corpus case over the persistent and the one-shot protocol
//! exactly as the reference answers in process: the protocol loses nothing
//! (verdicts, indexes, rules, projections).

mod common;

use agui_harness::implementation::{Capabilities, ImplInfo, Reference};
use agui_harness::subprocess::{OneShot, Persistent};
use agui_harness::{Implementation, Suite};
use common::*;

#[test]
fn protocol_answers_equal_in_process_answers() {
    let suite = Suite::find("default").unwrap();
    let (cases, _) = suite.cases();
    assert!(!cases.is_empty());
    let mut reference = Reference::default();
    let mut persistent = Persistent::new(spawn(EXAMPLE), timeouts());
    let info = persistent.describe().unwrap();
    assert_eq!(info.name, "agui-example-impl");
    assert_eq!(info.capabilities, Capabilities::ALL);
    let caps = Capabilities::ALL;
    let mut one_shot = OneShot::new(
        spawn(&format!("{EXAMPLE} --one-shot")),
        timeouts(),
        ImplInfo {
            name: "example".into(),
            version: String::new(),
            language: String::new(),
            capabilities: caps,
        },
    );
    for (i, c) in cases.iter().enumerate() {
        let want = reference.run_case(&c.id, &c.events);
        assert_eq!(persistent.run_case(&c.id, &c.events), want, "{}", c.id);
        if i % 10 == 0 {
            assert_eq!(
                one_shot.run_case(&c.id, &c.events),
                want,
                "{} (one-shot)",
                c.id
            );
        }
    }
    assert!(persistent.shutdown().is_empty());
}
