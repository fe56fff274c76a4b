//! `run --official-dir PATH`: a local checkout of the official AG-UI
//! repository read natively. Every `spec/<version>/conformance/streams/*.json`
//! fixture (or every `*.json` of PATH itself, when PATH is such a folder) is
//! mapped by `agui_corpus::official` and scored at the outcome level (no
//! rule names are known there): docs/decisions.md "The official corpus".

use agui_harness::expect::Expected;
use agui_harness::suite::{Origin, Planned, SuiteCase};
use agui_model::Verdict;
use std::path::{Path, PathBuf};

/// The plan of a run over the fixtures under `dir`, its problems (files
/// that are not fixtures), and the fixtures judged not comparable (name,
/// reason), which still run but agree with nothing.
pub struct OfficialPlan {
    pub plan: Vec<Planned>,
    pub problems: Vec<String>,
    pub not_comparable: Vec<(String, String)>,
}

/// Reads the fixtures under `dir`. Fails only when `dir` holds no fixture
/// folder at all.
pub fn plan(dir: &Path) -> anyhow::Result<OfficialPlan> {
    let folders = fixture_folders(dir)?;
    if folders.is_empty() {
        anyhow::bail!(
            "{}: no spec/<version>/conformance/streams folder and no *.json fixture",
            dir.display()
        );
    }
    let mut out = OfficialPlan {
        plan: Vec::new(),
        problems: Vec::new(),
        not_comparable: Vec::new(),
    };
    for (version, folder) in folders {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for path in files {
            match case(&version, &path) {
                Ok(c) => {
                    if let Some(why) = c
                        .expected
                        .official
                        .as_ref()
                        .and_then(|o| o.not_comparable.clone())
                    {
                        out.not_comparable.push((c.id.clone(), why));
                    }
                    out.plan.push(Planned::Loaded(c));
                }
                Err(e) => out.problems.push(format!("{}: {e}", path.display())),
            }
        }
    }
    Ok(out)
}

/// `(version, folder)` for each fixture folder: `dir/spec/<version>/conformance/streams`,
/// else `dir` itself (its version `local`) when it holds `*.json` files.
fn fixture_folders(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let spec = dir.join("spec");
    let mut out = Vec::new();
    if spec.is_dir() {
        for e in std::fs::read_dir(&spec)? {
            let e = e?;
            let streams = e.path().join("conformance").join("streams");
            if streams.is_dir() {
                out.push((e.file_name().to_string_lossy().into_owned(), streams));
            }
        }
        out.sort();
    } else if dir.is_dir() {
        let any = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .any(|e| e.path().extension().is_some_and(|x| x == "json"));
        if any {
            out.push(("local".to_owned(), dir.to_path_buf()));
        }
    } else {
        anyhow::bail!("{}: not a folder", dir.display());
    }
    Ok(out)
}

/// One fixture file as a suite case `official-dir/<version>/<name>`.
fn case(version: &str, path: &Path) -> Result<SuiteCase, String> {
    let text = agui_model::bounded::read_to_string(path, agui_corpus::load::CASE_BYTES)
        .map_err(|e| format!("cannot read: {e}"))?;
    let raw: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let mapped = agui_corpus::official::map_fixture(&raw)?;
    let mut official = mapped.official;
    official.version = version.to_owned();
    official.path = path.display().to_string();
    let id = format!("official-dir/{version}/{}", official.name);
    if let Some(f) = agui_corpus::load::id_fault(&id) {
        return Err(f);
    }
    let verdict = match official.outcome {
        agui_corpus::OfficialOutcome::Completed => Verdict::Accept,
        agui_corpus::OfficialOutcome::Failed => Verdict::Reject,
    };
    Ok(SuiteCase {
        id,
        description: format!("official fixture `{}` ({version})", official.name),
        expected: Expected {
            verdict,
            first: None,
            projection: None,
            all: None,
            events: mapped.events.len(),
            official: Some(official),
            outcome_only: true,
        },
        events: mapped.events,
        lines: None,
        obligation: None,
        origin: Origin::Corpus {
            path: path.to_path_buf(),
        },
    })
}
