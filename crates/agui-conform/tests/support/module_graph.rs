//! A crate's module graph drawn from its sources, shared by the
//! `module_graph` tests of agui-conform, agui-harness and agui-gen
//! (ARCHITECTURE.md "Crates"). A module is a file of src/ (src/bin/ left
//! out: each file there is a crate of its own); it uses another when its
//! code (its tests and comments left out) names it by a `crate::` or
//! `super::` path, by a name a `use crate::{…}` brought in, or by a name
//! the crate root re-exports (`pub use runner::RunResult` makes
//! `crate::RunResult` a use of `runner`).
#![allow(dead_code)] // each test binary uses its own share of these

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

/// Each module's path (`cmd::check`, `render::text`, `` for main.rs or
/// lib.rs) and its code without tests and comments, for the crate whose
/// manifest folder is `root`.
pub fn modules(root: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let src = root.join("src");
    for p in rust_files(&src) {
        if p.strip_prefix(&src).is_ok_and(|r| r.starts_with("bin")) {
            continue;
        }
        let rel = p.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts
            .last()
            .is_some_and(|l| l == "mod" || l == "main" || l == "lib")
        {
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

/// The longest known module a `::` path starts with; a path that starts
/// with a name the crate root re-exports resolves through it.
fn resolve(known: &BTreeMap<String, String>, path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    (1..=segs.len())
        .rev()
        .map(|n| segs[..n].join("::"))
        .find(|m| known.contains_key(m))
        .or_else(|| {
            let first = segs.first()?;
            root_reexports(known).remove(*first)
        })
}

/// The names the crate root brings up with `pub use a::B;` or
/// `pub use a::{B, c::D};`, each with the module it comes from.
fn root_reexports(known: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let Some(root) = known.get("") else {
        return names;
    };
    for stmt in root.split(';') {
        let Some(at) = stmt.find("pub use ") else {
            continue;
        };
        let used = stmt[at + "pub use ".len()..].trim();
        let used = used.strip_prefix("crate::").unwrap_or(used);
        let (base, items) = match used.split_once('{') {
            Some((base, items)) => (base, items.trim_end_matches('}')),
            None => ("", used),
        };
        for item in items.split(',') {
            let item = item.trim();
            let full = format!("{base}{}", item.split(" as ").next().unwrap_or("").trim());
            let segs: Vec<&str> = full.split("::").collect();
            let module = (1..segs.len())
                .rev()
                .map(|n| segs[..n].join("::"))
                .find(|m| known.contains_key(m));
            let name = item.rsplit(" as ").next().unwrap_or(item).trim();
            let name = name.rsplit("::").next().unwrap_or(name);
            if let Some(module) = module {
                names.insert(name.to_owned(), module);
            }
        }
    }
    names
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
pub fn edges(known: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
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
pub fn stuck(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
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

/// Asserts that the crate at `root` was read (it has the modules
/// `probes`) and has no import cycle.
pub fn assert_no_cycle(root: &Path, probes: &[&str]) {
    let known = modules(root);
    let missing: Vec<&&str> = probes.iter().filter(|p| !known.contains_key(**p)).collect();
    assert!(missing.is_empty(), "modules not found: {missing:?}");
    let cycles = cycles(root);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// The import cycles of the crate at `root` ([`cycles_in`]).
pub fn cycles(root: &Path) -> Vec<String> {
    cycles_in(&edges(&modules(root)))
}

/// The import cycles of a graph: each a group of modules that reach one
/// another (`a ↔ b`), so that none of them can be read alone.
pub fn cycles_in(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let reach = |from: &String| {
        let mut seen: BTreeSet<&String> = BTreeSet::new();
        let mut todo: Vec<&String> = edges[from].iter().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<&String>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut groups: BTreeSet<Vec<&String>> = BTreeSet::new();
    for (m, r) in &reached {
        let group: Vec<&String> = r
            .iter()
            .copied()
            .filter(|n| reached.get(n).is_some_and(|back| back.contains(m)))
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups
        .into_iter()
        .map(|g| g.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(" ↔ "))
        .collect()
}
