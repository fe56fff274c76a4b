//! Shrinking a failing generated case to a minimal stream (delta debugging
//! over events) and saving it in the corpus format.
//!
//! A sub-stream has no expectation by construction, so while shrinking the
//! failure is kept *differentially*: the implementation's answer on the
//! sub-stream, scored against the reference model's full report for it,
//! must still have the original score. That is only sound where the
//! reference agrees with the generator on the whole case, so shrinking is
//! done only then. The shrunk case therefore carries the reference's
//! answer and says so in its description; the unshrunk case is saved
//! beside it with its expectation by construction.

use crate::expect::Expected;
use crate::implementation::{Capabilities, Implementation};
use crate::score::{Score, score};
use crate::suite::{Origin, SuiteCase};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Classic ddmin (complements first): the smallest sub-sequence found for
/// which `fails` still holds, within `max_tests` calls.
pub fn ddmin(
    events: &[Value],
    mut fails: impl FnMut(&[Value]) -> bool,
    max_tests: usize,
) -> Vec<Value> {
    let mut cur = events.to_vec();
    let mut n = 2usize;
    let mut tests = 0usize;
    while cur.len() >= 2 {
        let chunk = cur.len().div_ceil(n);
        let mut reduced = false;
        let parts = n;
        for i in 0..parts {
            let start = i * chunk;
            if start >= cur.len() {
                break;
            }
            let end = (start + chunk).min(cur.len());
            let complement: Vec<Value> = cur[..start].iter().chain(&cur[end..]).cloned().collect();
            if tests >= max_tests {
                return cur;
            }
            tests += 1;
            if fails(&complement) {
                cur = complement;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
        }
        if !reduced {
            if n >= cur.len() {
                break;
            }
            n = (2 * n).min(cur.len());
        }
    }
    if cur.len() == 1 && tests < max_tests && fails(&[]) {
        cur.clear();
    }
    cur
}

/// The reference model's full answer for a stream, as an expectation.
pub fn reference_expectation(events: &[Value]) -> Expected {
    let report = agui_model::check_values(events);
    let mut all: Vec<_> = report
        .violations
        .iter()
        .map(|v| (v.rule, v.index))
        .collect();
    // A rule broken several times at one index is stated once.
    all.dedup();
    Expected {
        verdict: report.verdict(),
        first: all.first().copied(),
        projection: report.projection.map(|p| p.to_json()),
        all: Some(all),
        events: events.len(),
        official: None,
        outcome_only: false,
    }
}

/// Whether the reference agrees with the case's stated expectation (its
/// verdict and first violation).
pub fn reference_agrees(case: &SuiteCase) -> bool {
    let r = reference_expectation(&case.events);
    r.verdict == case.expected.verdict && r.first == case.expected.first
}

/// What `save_failure` did.
#[derive(Debug, Clone)]
pub struct Saved {
    pub original: PathBuf,
    pub shrunk: Option<PathBuf>,
    /// Events before and after shrinking.
    pub sizes: (usize, usize),
    pub note: String,
}

/// Saves a generated case that scored `bad` under `DIR/failures/`, and its
/// shrunk form under `DIR/shrunk/` (corpus layout: `<area>/<name>.json`).
pub fn save_failure(
    imp: &mut dyn Implementation,
    caps: Capabilities,
    case: &SuiteCase,
    bad: Score,
    dir: &Path,
) -> anyhow::Result<Saved> {
    let Origin::Generated { seed, mode, .. } = case.origin else {
        anyhow::bail!("only generated cases are saved");
    };
    let name = match mode {
        crate::generated::GenMode::Valid => format!("valid-{seed}"),
        crate::generated::GenMode::Invalid(r) => format!("{}-{seed}", r.as_str().replace('.', "-")),
    };
    let mut orig = case.clone();
    orig.id = format!("failures/{name}");
    orig.description = format!(
        "Generated with seed {seed} ({}): {}",
        mode.label(),
        case.description
    );
    let original = write_case(dir, &orig)?;
    if case.lines.is_some() {
        return Ok(Saved {
            original,
            shrunk: None,
            sizes: (case.lines.as_ref().map_or(0, Vec::len), 0),
            note: "not shrunk: the case is raw lines (shrinking works on events)".into(),
        });
    }
    if !reference_agrees(case) {
        return Ok(Saved {
            original,
            shrunk: None,
            sizes: (case.events.len(), case.events.len()),
            note: "not shrunk: the reference model disagrees with the generator on this case"
                .into(),
        });
    }
    let min = ddmin(
        &case.events,
        |sub| {
            let expected = reference_expectation(sub);
            // The same fault, not another one the cut made (a stream cut
            // before its RUN_STARTED breaks `run.first-event`): the first
            // violation keeps its rule, as the campaign's minimizer keeps it.
            if expected.first.map(|(r, _)| r) != case.expected.first.map(|(r, _)| r) {
                return false;
            }
            let outcome = imp.run_case(&case.id, sub);
            score(&expected, &outcome, caps).score == bad
        },
        2000,
    );
    let mut shrunk = case.clone();
    shrunk.id = format!("shrunk/{name}");
    // The reference's full list: the shrunk case states its violations
    // (to be reviewed, like the rest of its expectation).
    shrunk.expected = reference_expectation(&min);
    if shrunk.expected.verdict != agui_model::Verdict::Accept {
        shrunk.expected.projection = None;
    }
    shrunk.description = format!(
        "Shrunk from {} (seed {seed}; {} → {} events); expected answer from the reference model: review before adding to the corpus.",
        case.id,
        case.events.len(),
        min.len()
    );
    shrunk.events = min;
    let path = write_case(dir, &shrunk)?;
    Ok(Saved {
        original,
        shrunk: Some(path),
        sizes: (case.events.len(), shrunk.events.len()),
        note: String::new(),
    })
}

/// The sentence a case tests: its first violation's quote or statement.
fn spec_of(case: &SuiteCase) -> String {
    match case.expected.first {
        Some((r, _)) => r.rule().quote.unwrap_or(r.rule().statement).to_string(),
        None => "docs/rules.md: a stream breaking no rule is accepted; docs/projection.md gives what it shows.".into(),
    }
}

/// Writes `case` as `DIR/<id>.json` in the corpus format.
pub fn write_case(dir: &Path, case: &SuiteCase) -> anyhow::Result<PathBuf> {
    let spec = spec_of(case);
    let path = dir.join(format!("{}.json", case.id));
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p)?;
    }
    let mut text = case.to_corpus(&spec).to_pretty();
    text.push('\n');
    std::fs::write(&path, text)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ddmin_finds_the_two_events_that_matter() {
        let events: Vec<Value> = (0..40).map(|i| json!({"n": i})).collect();
        let has = |s: &[Value], n: i64| s.iter().any(|e| e["n"] == n);
        let min = ddmin(&events, |s| has(s, 7) && has(s, 31), 10_000);
        assert_eq!(min, vec![json!({"n": 7}), json!({"n": 31})]);
    }

    #[test]
    fn ddmin_respects_its_budget() {
        let events: Vec<Value> = (0..64).map(|i| json!(i)).collect();
        let mut calls = 0;
        let _ = ddmin(
            &events,
            |_| {
                calls += 1;
                false
            },
            5,
        );
        assert_eq!(calls, 5);
    }
}
