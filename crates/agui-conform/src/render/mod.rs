//! Every output format in one place, one renderer per format, each
//! reading the records the commands make: a check's findings, limit
//! notices, runs and projection (streamed as found, or a finished
//! [`crate::record::Check`]); `run`'s cases and summary (the run record);
//! a fuzz campaign's findings; merged run records (`report`). Where the
//! rendering itself lives in agui-harness or agui-view, the format's
//! module here is the one place the CLI calls it from.

pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod text;

use anyhow::Context;
use std::path::Path;

/// Writes a rendered document to `path`, creating its folder.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// `to` as a relative link from the file `from` (both made absolute).
pub fn relative(from: &Path, to: &Path) -> String {
    let from = std::path::absolute(from).unwrap_or_else(|_| from.to_path_buf());
    let to = std::path::absolute(to).unwrap_or_else(|_| to.to_path_buf());
    let base: Vec<_> = from
        .parent()
        .map(|p| p.components().collect())
        .unwrap_or_default();
    let target: Vec<_> = to.components().collect();
    let common = base.iter().zip(&target).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); base.len() - common];
    parts.extend(
        target[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn links_are_relative_to_the_page() {
        assert_eq!(
            relative(
                Path::new("/r/docs/conformance/index.html"),
                Path::new("/r/docs/rules.md")
            ),
            "../rules.md"
        );
        assert_eq!(
            relative(
                Path::new("/r/README.md"),
                Path::new("/r/docs/conformance/README.md")
            ),
            "docs/conformance/README.md"
        );
    }
}
