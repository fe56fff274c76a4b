//! The example implementation (the reference model behind the protocol)
//! answers every corpus case over the persistent and the one-shot protocol
//! exactly as the reference answers in process: the protocol loses nothing
//! (verdicts, indexes, rules, projections).

mod support;

use agui_harness::implementation::{Capabilities, ImplInfo, Reference};
use agui_harness::subprocess::{OneShot, Persistent};
use agui_harness::{Implementation, Suite};
use support::*;

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
    let mut raw = 0;
    for (i, c) in cases.iter().enumerate() {
        // A case of raw lines (duplicate keys, lone surrogates, 1e400)
        // crosses the protocol as its text.
        let answer = |imp: &mut dyn Implementation| match &c.lines {
            Some(lines) => imp.run_lines(&c.id, lines),
            None => imp.run_case(&c.id, &c.events),
        };
        let want = answer(&mut reference);
        assert_eq!(answer(&mut persistent), want, "{}", c.id);
        if i % 10 == 0 || c.lines.is_some() {
            assert_eq!(answer(&mut one_shot), want, "{} (one-shot)", c.id);
        }
        raw += usize::from(c.lines.is_some());
    }
    assert!(raw >= 5, "only {raw} raw-lines cases");
    assert!(persistent.shutdown().is_empty());
}
