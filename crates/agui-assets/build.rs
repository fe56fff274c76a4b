//! Lists every file under `corpus/` and `suites/` (links to the
//! repository's top-level folders, or their copies in a packaged crate) as
//! `include_bytes!` entries of `$OUT_DIR/files.rs`, sorted by path.
//!
//! A build script rather than a hand-kept list: a case added to the corpus
//! is embedded by the next build (`rerun-if-changed` on a folder watches
//! every file under it).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const ROOTS: [&str; 2] = ["corpus", "suites"];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for root in ROOTS {
        println!("cargo:rerun-if-changed={root}");
        let before = files.len();
        collect(&manifest, Path::new(root), &mut files);
        // A package whose `include` left a root's data out still builds
        // (only its READMEs are left): fail instead of shipping a binary
        // without its corpus or suites.
        let data = files[before..]
            .iter()
            .any(|f| f.extension().is_some_and(|e| e == "json" || e == "toml"));
        if !data {
            panic!("no .json or .toml file under {root}/: the package left its data out");
        }
    }
    files.sort();
    let mut out = String::from("&[\n");
    for rel in &files {
        let abs = manifest.join(rel);
        let rel = rel.to_string_lossy().replace('\\', "/");
        // `{:?}` writes a Rust string literal (quotes and escapes).
        let _ = writeln!(
            out,
            "    File {{ path: {rel:?}, bytes: include_bytes!({:?}) }},",
            abs.to_string_lossy()
        );
    }
    out.push(']');
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("files.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        panic!("cannot write {}: {e}", dest.display());
    }
}

/// Every file under `manifest/rel`, as paths relative to `manifest`.
/// Links are followed (the roots are links in the repository).
fn collect(manifest: &Path, rel: &Path, files: &mut Vec<PathBuf>) {
    let dir = manifest.join(rel);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot list {}: {e}", dir.display()),
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue; // editor and OS droppings are not data
        }
        let sub = rel.join(&name);
        match std::fs::metadata(manifest.join(&sub)) {
            Ok(m) if m.is_dir() => collect(manifest, &sub, files),
            Ok(m) if m.is_file() => files.push(sub),
            _ => {}
        }
    }
}
