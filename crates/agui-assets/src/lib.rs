//! The data `agui-conform` carries in its binary, so that a copied or
//! installed tool runs its suites anywhere: the golden corpus (`corpus/`),
//! the suite definitions, the producer suite and the stdio protocol's JSON
//! Schemas (`suites/`).
//!
//! The files are the repository's own, embedded at build time (see
//! `build.rs`); paths are `/`-separated and relative to the repository root
//! (`corpus/ownership/x.json`, `suites/default.toml`).
//!
//! Embedded files are addressed on disk-like paths under [`ROOT`]
//! (`<built-in>/corpus/…`), so that code which joins paths (a suite's
//! `../corpus`) works unchanged and reports show where a case came from.

use std::io;
use std::path::{Component, Path};

/// One embedded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct File {
    /// Relative to the repository root, `/`-separated.
    pub path: &'static str,
    pub bytes: &'static [u8],
}

/// Every embedded file, sorted by path.
pub static FILES: &[File] = include!(concat!(env!("OUT_DIR"), "/files.rs"));

/// The JSON Schema of a corpus case file (`corpus/case.schema.json`).
pub const CASE_SCHEMA: &str = include_str!("../corpus/case.schema.json");

/// The first component of the path of an embedded file as other code sees
/// it: `<built-in>/suites/default.toml`.
pub const ROOT: &str = "<built-in>";

/// The embedded file at `path` (`suites/quick.toml`).
pub fn get(path: &str) -> Option<&'static File> {
    FILES
        .binary_search_by(|f| f.path.cmp(path))
        .ok()
        .map(|i| &FILES[i])
}

/// The embedded files under the folder `dir` (`corpus`, `suites/producer`),
/// sorted by path.
pub fn under(dir: &str) -> impl Iterator<Item = &'static File> {
    let prefix = format!("{}/", dir.trim_end_matches('/'));
    FILES.iter().filter(move |f| f.path.starts_with(&prefix))
}

/// Whether `dir` is a folder holding embedded files.
pub fn is_dir(dir: &str) -> bool {
    under(dir).next().is_some()
}

/// What the `suites/` folders of the current folder and its ancestors
/// hold, nearest first: the suites on disk that are listed beside the
/// embedded ones (agui-harness's suite files, agui-live's producer suites).
pub fn local_suite_entries() -> Vec<std::fs::DirEntry> {
    let Ok(cwd) = std::env::current_dir() else {
        return Vec::new();
    };
    cwd.ancestors()
        .filter_map(|dir| std::fs::read_dir(dir.join("suites")).ok())
        .flat_map(|entries| entries.flatten())
        .collect()
}

/// The embedded path a path under [`ROOT`] names, with `.` and `..`
/// resolved (`<built-in>/suites/../corpus` → `corpus`); `None` for any
/// other path, or one that climbs out of the root.
pub fn resolve(path: &Path) -> Option<String> {
    let mut parts = path.components();
    if parts.next()?.as_os_str() != ROOT {
        return None;
    }
    let mut out: Vec<&str> = Vec::new();
    for c in parts {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::Normal(s) => out.push(s.to_str()?),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.join("/"))
}

/// Writes the files under `dir` into `dest`, keeping their paths below
/// `dir` (`corpus/run/x.json` → `dest/run/x.json`). Returns how many.
pub fn export(dir: &str, dest: &Path) -> io::Result<usize> {
    let prefix = format!("{}/", dir.trim_end_matches('/'));
    let mut n = 0;
    for f in under(dir) {
        let rel = &f.path[prefix.len()..];
        let target = dest.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, f.bytes)?;
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The repository folder an embedded root was built from.
    fn on_disk(root: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(root)
    }

    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy();
                out.push(rel.replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_file_of_corpus_and_suites_is_embedded_byte_for_byte() {
        let base = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut paths = Vec::new();
        for root in ["corpus", "suites"] {
            walk(&on_disk(root), base, &mut paths);
        }
        paths.sort();
        let embedded: Vec<&str> = FILES.iter().map(|f| f.path).collect();
        assert_eq!(embedded, paths);
        for f in FILES {
            assert_eq!(
                f.bytes,
                std::fs::read(base.join(f.path)).unwrap(),
                "{}",
                f.path
            );
        }
    }

    #[test]
    fn the_shipped_suites_and_schemas_are_there() {
        for p in [
            "suites/default.toml",
            "suites/quick.toml",
            "suites/PROTOCOL.md",
            "suites/protocol/result.schema.json",
            "corpus/case.schema.json",
        ] {
            assert!(get(p).is_some(), "{p}");
        }
        assert!(get("suites").is_none());
        assert!(is_dir("suites/producer") && is_dir("corpus/ownership"));
        assert!(!is_dir("corp"));
        assert!(under("corpus").all(|f| f.path.starts_with("corpus/")));
    }

    #[test]
    fn paths_under_the_root_resolve() {
        let r = |s: &str| resolve(Path::new(s));
        assert_eq!(r("<built-in>/suites/../corpus").as_deref(), Some("corpus"));
        assert_eq!(r("<built-in>/./corpus/run/").as_deref(), Some("corpus/run"));
        assert_eq!(r("<built-in>").as_deref(), Some(""));
        assert_eq!(r("<built-in>/../x"), None);
        assert_eq!(r("suites/default.toml"), None);
        assert_eq!(r("/tmp/<built-in>/corpus"), None);
    }

    #[test]
    fn export_writes_the_files_below_the_folder() {
        let dest = std::env::temp_dir().join(format!("agui-assets-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dest);
        let n = export("suites/protocol", &dest).unwrap();
        assert_eq!(n, under("suites/protocol").count());
        let text = std::fs::read(dest.join("result.schema.json")).unwrap();
        assert_eq!(
            text,
            std::fs::read(on_disk("suites/protocol/result.schema.json")).unwrap()
        );
        let _ = std::fs::remove_dir_all(&dest);
    }
}
