//! The harness's modules import each other without a cycle: the runner
//! produces results and the report reads them, never the other way
//! (ARCHITECTURE.md "Crates"). How the graph is drawn:
//! agui-conform/tests/support/module_graph.rs.

#[path = "../../agui-conform/tests/support/module_graph.rs"]
mod module_graph;

use std::path::Path;

#[test]
fn modules_form_no_cycle() {
    module_graph::assert_no_cycle(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["runner", "report::matrix"],
    );
}

/// The report reads the runner's results; the runner never names the
/// report (not even through a name the crate root re-exports).
#[test]
fn the_runner_does_not_use_the_report() {
    let known = module_graph::modules(Path::new(env!("CARGO_MANIFEST_DIR")));
    let edges = module_graph::edges(&known);
    let wrong: Vec<String> = edges
        .iter()
        .filter(|(m, _)| m.starts_with("runner"))
        .filter(|(_, to)| to.iter().any(|t| t.starts_with("report")))
        .map(|(m, to)| format!("{m} -> {to:?}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "runner using report/:\n{}",
        wrong.join("\n")
    );
}
