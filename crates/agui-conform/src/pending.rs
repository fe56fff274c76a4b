//! A report file `check` writes beside stdout (`--json`, `--sarif`,
//! `--junit`, `--html`): created up front as a hidden sibling, so an
//! unwritable path fails (exit 2, with the path and why) before anything
//! is checked, and renamed into place only once complete, so no
//! half-written file ever claims a result.
//!
//! A path that already is something other than a regular file — a
//! symbolic link, a named pipe, a device such as `/dev/stdout` — is
//! written through instead: a rename would put a file in its place (and,
//! as root, replace the device itself).

use std::fs::File;
use std::path::{Path, PathBuf};

/// A file being written: [`Pending::commit`] puts it in place; dropped
/// without that, it is removed.
pub struct Pending {
    path: PathBuf,
    /// The hidden sibling, or `None` when the path is written through.
    tmp: Option<PathBuf>,
    done: bool,
}

impl Pending {
    /// Creates the hidden sibling of `path`, or opens `path` itself when it
    /// is written through (`flag` names the option in errors); hands back
    /// the file to write.
    pub fn create(flag: &str, path: &Path) -> anyhow::Result<(Pending, File)> {
        let name = path
            .file_name()
            .ok_or_else(|| anyhow::anyhow!("{flag} {}: not a file path", path.display()))?;
        if path.is_dir() {
            anyhow::bail!("{flag} {}: is a directory", path.display());
        }
        let through = std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_file());
        let tmp = (!through).then(|| {
            let mut hidden = std::ffi::OsString::from(".");
            hidden.push(name);
            hidden.push(format!(".{}.partial", std::process::id()));
            path.with_file_name(hidden)
        });
        let file = File::create(tmp.as_deref().unwrap_or(path))
            .map_err(|e| anyhow::anyhow!("{flag} {}: cannot write: {e}", path.display()))?;
        let pending = Pending {
            path: path.to_path_buf(),
            tmp,
            done: false,
        };
        Ok((pending, file))
    }

    /// Where the content goes until [`Pending::commit`] (the path itself
    /// when it is written through).
    pub fn tmp(&self) -> &Path {
        self.tmp.as_deref().unwrap_or(&self.path)
    }

    /// Puts the complete file in place.
    pub fn commit(mut self) -> anyhow::Result<()> {
        if let Some(tmp) = &self.tmp {
            std::fs::rename(tmp, &self.path)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", self.path.display()))?;
        }
        self.done = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let (false, Some(tmp)) = (self.done, &self.tmp) {
            let _ = std::fs::remove_file(tmp);
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

    #[test]
    fn a_symbolic_link_is_written_through_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.html");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("report.html");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let (p, mut f) = Pending::create("--html", &link).unwrap();
        assert_eq!(p.tmp(), link);
        std::io::Write::write_all(&mut f, b"new").unwrap();
        drop(f);
        p.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_device_is_written_through_and_an_unwritten_one_left_alone() {
        let null = Path::new("/dev/null");
        let (p, _f) = Pending::create("--json", null).unwrap();
        assert_eq!(p.tmp(), null);
        drop(p);
        assert!(!std::fs::symlink_metadata(null).unwrap().is_file());
        let (p, _f) = Pending::create("--json", null).unwrap();
        p.commit().unwrap();
        assert!(!std::fs::symlink_metadata(null).unwrap().is_file());
    }
}
