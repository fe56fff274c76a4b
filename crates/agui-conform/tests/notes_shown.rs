//! Every note of the consumers' notes files (docs/conformance/notes.json,
//! adapters/rust/notes.json) is shown on a committed conformance page. A
//! note is shown only where its implementation does not PASS (for a rule,
//! a case, a finding, a fixture): one that appears on no page speaks of a
//! failure the last runs no longer have (a case that changed, a bug the
//! SDK no longer shows) and would mislead whoever reads the file. Keys
//! starting with `_` (`_about`, `_model`) are for the file's readers; `page`
//! and `causes` are structure, not text.

mod pages;

use pages::{conformance, markdown_files, repo_root, unescape};
use serde_json::Value;
use std::path::Path;

/// The first `n` characters of `s`.
fn head(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// The notes of `file` that no page shows, as `implementation / key`.
fn unshown(file: &Path, shown: &str) -> Vec<String> {
    let notes: Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("notes")).expect("notes parse");
    let mut out = Vec::new();
    for (label, entry) in notes.as_object().expect("an object") {
        let Some(entry) = entry.as_object() else {
            continue;
        };
        for (key, note) in entry {
            let Some(note) = note.as_str() else { continue };
            if key.starts_with('_') || key == "page" {
                continue;
            }
            if !shown.contains(head(&unescape(note), 60)) {
                out.push(format!("{label} / {key}"));
            }
        }
    }
    out
}

#[test]
fn every_note_is_shown_on_a_page() {
    let shown: String = markdown_files(&conformance())
        .iter()
        .map(|p| unescape(&std::fs::read_to_string(p).expect("a page")))
        .collect();
    let mut dead = Vec::new();
    for file in ["docs/conformance/notes.json", "adapters/rust/notes.json"] {
        dead.extend(unshown(&repo_root().join(file), &shown));
    }
    assert!(
        dead.is_empty(),
        "notes no committed page shows (their failure is gone: remove them, or re-render the \
         pages): {dead:#?}"
    );
}

#[test]
fn an_unshown_note_is_found() {
    let dir = std::env::temp_dir().join(format!("notes-shown-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("notes.json");
    std::fs::write(
        &file,
        r#"{"_about": "x", "Impl": {"page": "p.md", "_model": "y",
            "valid": "Why: it rejects `a_b` ids.", "case:gone": "Why: it threw once."}}"#,
    )
    .unwrap();
    let page = unescape(r"**Impl rejects valid streams.** Why: it rejects `a\_b` ids.");
    assert_eq!(unshown(&file, &page), ["Impl / case:gone"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
