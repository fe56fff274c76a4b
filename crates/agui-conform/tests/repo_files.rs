//! The repository's own files are whole: every JSON file parses and no file
//! carries a merge's conflict markers. A conflict once landed inside
//! `adapters/producers/notes.json`, and only the producers' report (not run
//! by `cargo test`) found it.

use agui_model::json::{self, ParseOptions};
use std::path::{Path, PathBuf};

/// Directories that hold installed or built things, not the repository's files.
const SKIPPED: &[&str] = &[
    ".git",
    "target",
    "node_modules",
    ".venv",
    "__pycache__",
    "artifacts",
    "coverage",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every regular file under `dir`, skipping [`SKIPPED`] directories and the
/// fuzzers' inputs (`fuzz/corpus`, `fuzz/seeds`: bytes, not documents).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let fuzz_inputs = (name == "corpus" || name == "seeds") && dir.ends_with("fuzz");
            if !SKIPPED.contains(&name.as_str()) && !fuzz_inputs {
                files(&path, out);
            }
        } else if kind.is_file() {
            out.push(path);
        }
    }
}

fn all_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    files(&repo_root(), &mut out);
    out.sort();
    out
}

#[test]
fn every_json_file_parses() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for path in all_files() {
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        // The checker's own parser: corpus cases nest deeper than serde_json's
        // default recursion limit on purpose.
        if let Err(e) = json::parse(&text, &ParseOptions::default()) {
            bad.push(format!("{}: {e}", path.display()));
        }
    }
    // The corpus alone holds hundreds of cases: a walk that found none is broken.
    assert!(seen > 200, "only {seen} JSON files found");
    assert!(
        bad.is_empty(),
        "JSON files that do not parse:\n{}",
        bad.join("\n")
    );
}

#[test]
fn no_file_carries_conflict_markers() {
    let mut bad = Vec::new();
    for path in all_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // not UTF-8 text
        };
        for (n, line) in text.lines().enumerate() {
            if line.starts_with("<<<<<<< ") || line.starts_with(">>>>>>> ") {
                bad.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(bad.is_empty(), "conflict markers:\n{}", bad.join("\n"));
}
