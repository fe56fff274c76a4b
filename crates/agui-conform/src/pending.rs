//! A report file `check` writes beside stdout (`--json`, `--sarif`,
//! `--junit`, `--html`): created up front as a hidden sibling, so an
//! unwritable path fails (exit 2, with the path and why) before anything
//! is checked, and renamed into place only once complete, so no
//! half-written file ever claims a result.

use std::fs::File;
use std::path::{Path, PathBuf};

/// A file being written: [`Pending::commit`] puts it in place; dropped
/// without that, it is removed.
pub struct Pending {
    path: PathBuf,
    tmp: PathBuf,
    done: bool,
}

impl Pending {
    /// Creates the hidden sibling of `path` (`flag` names the option in
    /// errors); hands back the file to write.
    pub fn create(flag: &str, path: &Path) -> anyhow::Result<(Pending, File)> {
        let name = path
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("{flag} {}: not a file path", path.display()))?;
        if path.is_dir() {
            anyhow::bail!("{flag} {}: is a directory", path.display());
        }
        let mut hidden = std::ffi::OsString::from(".");
        hidden.push(name);
        hidden.push(format!(".{}.partial", std::process::id()));
        let tmp = path.with_file_name(hidden);
        let file = File::create(&tmp)
            .map_err(|e| anyhow::anyhow!("{flag} {}: cannot write: {e}", path.display()))?;
        let pending = Pending {
            path: path.to_path_buf(),
            tmp,
            done: false,
        };
        Ok((pending, file))
    }

    /// Where the content goes until [`Pending::commit`].
    pub fn tmp(&self) -> &Path {
        &self.tmp
    }

    /// Puts the complete file in place.
    pub fn commit(mut self) -> anyhow::Result<()> {
        std::fs::rename(&self.tmp, &self.path)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", self.path.display()))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        let (p, _f) = Pending::create("--json", &path).unwrap();
        assert!(!path.exists());
        drop(p);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "the partial file is gone"
        );
        let (p, f) = Pending::create("--json", &path).unwrap();
        drop(f);
        p.commit().unwrap();
        assert!(path.is_file());
    }

    #[test]
    fn an_unwritable_path_names_the_flag_and_the_path() {
        let e = Pending::create("--sarif", Path::new("/nonexistent-dir/x.sarif"))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.starts_with("--sarif /nonexistent-dir/x.sarif: cannot write"),
            "{e}"
        );
    }
}
