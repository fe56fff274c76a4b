//! The corpus case files, for the tests of any crate that reads the
//! corpus (agui-bench's include this file by path).

use std::path::{Path, PathBuf};

/// Every corpus case file (`corpus/**/*.json`, the schema left out), in
/// directory order; `manifest_dir` is the including crate's
/// `CARGO_MANIFEST_DIR` (a crate under `crates/`).
pub fn files(manifest_dir: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("corpus directory") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json")
                && path.file_name().is_some_and(|n| n != "case.schema.json")
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(manifest_dir).join("../../corpus"), &mut files);
    files
}
