//! The generator's modules import each other without a cycle
//! (ARCHITECTURE.md "Crates"). How the graph is drawn:
//! agui-conform/tests/common/module_graph.rs.

#[path = "../../agui-conform/tests/common/module_graph.rs"]
mod module_graph;

use std::path::Path;

#[test]
fn modules_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let known = module_graph::modules(root);
    assert!(known.contains_key("mutate") && known.contains_key("render"));
    let stuck = module_graph::cycles(root);
    assert!(stuck.is_empty(), "import cycles:\n{}", stuck.join("\n"));
}
