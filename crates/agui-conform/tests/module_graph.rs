//! The CLI's modules import each other without a cycle, and only `cmd/`
//! (one module per subcommand) and `main.rs` name `cmd` (ARCHITECTURE.md
//! "Reporting"). How the graph is drawn: common/module_graph.rs.

#[path = "support/module_graph.rs"]
mod module_graph;

use module_graph::{cycles_in, edges, modules, stuck};
use std::collections::BTreeMap;
use std::path::Path;

#[test]
fn modules_form_no_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    module_graph::assert_no_cycle(root, &["cmd::check", "render::sarif"]);
    assert!(stuck(&edges(&modules(root))).is_empty());
}

#[test]
fn only_main_and_the_subcommands_use_cmd() {
    let known = modules(Path::new(env!("CARGO_MANIFEST_DIR")));
    let edges = edges(&known);
    let wrong: Vec<String> = edges
        .iter()
        .filter(|(m, _)| !m.is_empty() && !m.starts_with("cmd"))
        .filter(|(_, to)| to.iter().any(|t| t.starts_with("cmd")))
        .map(|(m, to)| format!("{m} -> {to:?}"))
        .collect();
    assert!(
        wrong.is_empty(),
        "shared modules using cmd/:\n{}",
        wrong.join("\n")
    );
}

/// A cycle as main had one (cmd::report ↔ cmd::report_producers before
/// issue 37) is seen.
#[test]
fn a_cycle_is_seen() {
    let mut known = BTreeMap::new();
    known.insert("cmd".to_owned(), String::new());
    known.insert(
        "cmd::report".to_owned(),
        "super::report_producers::run()".to_owned(),
    );
    known.insert(
        "cmd::report_producers".to_owned(),
        "use super::report::{Args, write};".to_owned(),
    );
    let edges = edges(&known);
    assert!(edges["cmd::report"].contains("cmd::report_producers"));
    assert!(edges["cmd::report_producers"].contains("cmd::report"));
    assert_eq!(stuck(&edges).len(), 2, "{edges:?}");
}

/// A circle closed through a name the crate root re-exports is seen
/// (agui-harness's `report` named `runner::json_diff`, and `runner`
/// named `crate::report::json_diff`), and named as one group beside a
/// second circle; a module behind a circle is in no group.
#[test]
fn circles_are_named_through_root_reexports() {
    let mut known = BTreeMap::new();
    known.insert(
        String::new(),
        "pub mod report;\npub mod runner;\npub use runner::{RunResult, json_diff as diff};"
            .to_owned(),
    );
    known.insert(
        "report".to_owned(),
        "fn f(r: crate::RunResult) {}".to_owned(),
    );
    known.insert("runner".to_owned(), "use crate::report::Tally;".to_owned());
    known.insert("a".to_owned(), "use super::b::X;".to_owned());
    known.insert("b".to_owned(), "fn g() { crate::a::y() }".to_owned());
    known.insert("cmd".to_owned(), "crate::a::y()".to_owned());
    let edges = edges(&known);
    assert!(edges["report"].contains("runner"), "{edges:?}");
    assert_eq!(cycles_in(&edges), ["a ↔ b", "report ↔ runner"]);
}
