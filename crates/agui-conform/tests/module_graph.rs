//! The CLI's modules import each other without a cycle, and only `cmd/`
//! (one module per subcommand) and `main.rs` name `cmd` (ARCHITECTURE.md
//! "Reporting"). A module is a file of src/; it uses another when its code
//! (its tests and comments left out) names it by a `crate::` or `super::`
//! path, or by a name a `use crate::{…}` brought in.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, at any depth.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap();
    entries
        .flat_map(|e| {
            let p = e.unwrap().path();
            match p.extension() {
                _ if p.is_dir() => rust_files(&p),
                Some(x) if x == "rs" => vec![p],
                _ => Vec::new(),
            }
        })
        .collect()
}

/// Each module's path (`cmd::check`, `render::text`, `` for main.rs) and
/// its code without tests and comments.
fn modules() -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for p in rust_files(&src) {
        let rel = p.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|l| l == "mod" || l == "main") {
            parts.pop();
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code: Vec<&str> = code
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect();
        found.insert(parts.join("::"), code.join("\n"));
    }
    found
}

/// The longest known module a `::` path starts with.
fn resolve(known: &BTreeMap<String, String>, path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    (1..=segs.len())
        .rev()
        .map(|n| segs[..n].join("::"))
        .find(|m| known.contains_key(m))
}

/// The words (`a::b::c`) that follow each `prefix` in `code`.
fn paths_after<'a>(code: &'a str, prefix: &'a str) -> impl Iterator<Item = String> + 'a {
    code.match_indices(prefix).filter_map(move |(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let rest = &code[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        Some(rest[..end].trim_end_matches(':').to_owned())
    })
}

/// Who uses whom.
fn edges(known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges = BTreeMap::new();
    for (m, code) in known {
        let mut to = BTreeSet::new();
        let parent = m.rsplit_once("::").map_or("", |(p, _)| p);
        for p in paths_after(code, "crate::") {
            to.extend(resolve(known, &p));
        }
        for p in paths_after(code, "super::") {
            let full = if parent.is_empty() {
                p
            } else {
                format!("{parent}::{p}")
            };
            to.insert(resolve(known, &full).unwrap_or_else(|| parent.to_owned()));
        }
        // `use crate::a::{b, c::d}` and `use crate::{a, b}`, and the names
        // they bring in used as `b::x`.
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let Some(open) = rest.find('{') else { continue };
            let base = &rest[..open];
            if base.contains(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')) {
                continue;
            }
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
            for item in rest[open + 1..close].split(',') {
                let item = item.trim();
                let name = item.split(" as ").next().unwrap_or("").trim();
                if name.is_empty() {
                    continue;
                }
                let full = if name == "self" {
                    base.trim_end_matches(':').to_owned()
                } else {
                    format!("{base}{name}")
                };
                let Some(target) = resolve(known, &full) else {
                    continue;
                };
                to.insert(target);
                let alias = item.rsplit(" as ").next().unwrap_or(name).trim();
                let alias = alias.rsplit("::").next().unwrap_or(alias);
                let alias = if alias == "self" {
                    full.rsplit("::").next().unwrap_or("")
                } else {
                    alias
                };
                for p in paths_after(code, &format!("{alias}::")) {
                    to.extend(resolve(known, &format!("{full}::{p}")));
                }
            }
        }
        to.remove(m);
        edges.insert(m.clone(), to);
    }
    edges
}

/// The modules on a cycle or behind one (Kahn: a module whose uses are
/// all placed is placed; what is never placed is stuck).
fn stuck(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut placed: BTreeSet<&String> = BTreeSet::new();
    loop {
        let ready: Vec<&String> = edges
            .iter()
            .filter(|(m, to)| !placed.contains(m) && to.iter().all(|t| placed.contains(t)))
            .map(|(m, _)| m)
            .collect();
        if ready.is_empty() {
            break;
        }
        placed.extend(ready);
    }
    edges
        .iter()
        .filter(|(m, _)| !placed.contains(m))
        .map(|(m, to)| format!("{m} -> {to:?}"))
        .collect()
}

#[test]
fn modules_form_no_cycle() {
    let known = modules();
    assert!(known.contains_key("cmd::check") && known.contains_key("render::sarif"));
    let stuck = stuck(&edges(&known));
    assert!(
        stuck.is_empty(),
        "import cycle among:\n{}",
        stuck.join("\n")
    );
}

#[test]
fn only_main_and_the_subcommands_use_cmd() {
    let known = modules();
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
