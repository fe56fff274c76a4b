//! The generator's modules import each other without a cycle
//! (ARCHITECTURE.md "Crates"). How the graph is drawn:
//! agui-conform/tests/support/module_graph.rs.

#[path = "../../agui-conform/tests/support/module_graph.rs"]
mod module_graph;

use std::path::Path;

#[test]
fn modules_form_no_cycle() {
    module_graph::assert_no_cycle(Path::new(env!("CARGO_MANIFEST_DIR")), &["mutate", "render"]);
}
