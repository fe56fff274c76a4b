//! What the tests of the committed conformance pages and their notes share
//! (finding_notes, hand_pages, notes_shown): where the pages are, the
//! Markdown files under a folder, and Markdown's backslash escapes undone.
#![allow(dead_code)] // each test binary uses its own share of these

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// docs/conformance: the report, its detail pages and the notes.
pub fn conformance() -> PathBuf {
    repo_root().join("docs/conformance")
}

/// Every Markdown file under `dir`, at any depth, sorted.
pub fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// `s` with Markdown's backslash escapes (a backslash before ASCII
/// punctuation) undone, as the report's text escapes them.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next)) if next.is_ascii_punctuation() => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}
