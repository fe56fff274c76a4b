//! The repository's own files are whole: every JSON file parses, no file
//! carries a merge's conflict markers, and the generated conformance pages
//! render and link where they say. A conflict once landed inside
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

/// GitHub's anchor of a heading: lower case, spaces as `-`, punctuation
/// other than `-` and `_` dropped.
fn heading_slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Whether `page` has the anchor `frag`: an `<a id>` or a heading's slug.
fn has_anchor(page: &str, frag: &str) -> bool {
    page.contains(&format!("<a id=\"{frag}\""))
        || page.contains(&format!("id=\"{frag}\""))
        || page
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|l| l.trim_start_matches('#'))
            .any(|h| heading_slug(h) == frag)
}

/// The generated conformance pages (docs/conformance: the report, the
/// per-implementation pages and their detail pages) stay under the
/// 512 KB at which a repository's web view stops rendering Markdown, and
/// every link from one of them to a file of the repository, and to an
/// anchor of a Markdown page, lands. A report once grew to 2.1 MB, and
/// splitting it moved anchors to other pages.
#[test]
fn the_conformance_pages_render_and_their_links_land() {
    let root = repo_root().join("docs/conformance");
    let mut pages = Vec::new();
    files(&root, &mut pages);
    pages.retain(|p| p.extension().is_some_and(|x| x == "md"));
    assert!(pages.len() > 10, "{} pages", pages.len());
    let link = |s: &str| -> Vec<String> {
        // `](target)`: Markdown links (the pages write no reference links).
        s.match_indices("](")
            .filter_map(|(at, _)| {
                let rest = &s[at + 2..];
                rest.find(')').map(|end| rest[..end].to_owned())
            })
            .collect()
    };
    let mut checked = 0;
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        assert!(
            text.len() <= 512_000,
            "{}: {} bytes, more than a web view renders",
            page.display(),
            text.len()
        );
        for target in link(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, frag) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(path)
            };
            checked += 1;
            if !file.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if !frag.is_empty() && file.extension().is_some_and(|x| x == "md") {
                let other = std::fs::read_to_string(&file).unwrap();
                if !has_anchor(&other, frag) {
                    broken.push(format!("{}: {target} (no such anchor)", page.display()));
                }
            }
        }
    }
    assert!(checked > 1000, "{checked} links");
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken.join("\n")
    );
}
