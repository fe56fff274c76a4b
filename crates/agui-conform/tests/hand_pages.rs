//! A hand-written page about one implementation (the `page` of its entry
//! in docs/conformance/notes.json that the report scripts do not write)
//! states the scores the generated report shows for it: a page whose
//! analysis was done on an earlier run says the totals of that run, and
//! goes stale silently when the suite or the catalogue changes (as
//! ag-ui-validate.md did, from revision 3's 935 cases to revision 4's
//! 1,211).

mod pages;

use pages::conformance;
use serde_json::Value;

/// The header of a score table, on the report's Summary and on a page.
const SCORES: [&str; 6] = ["PASS", "FAIL", "WARN", "INFO", "SKIPPED", "ERRORED"];

/// A table row's cells, trimmed.
fn cells(row: &str) -> Vec<&str> {
    row.trim()
        .trim_matches('|')
        .split('|')
        .map(str::trim)
        .collect()
}

/// The scores of `label` on the report's Summary table.
fn summary(report: &str, label: &str) -> Option<Vec<String>> {
    let table = report.split("## Summary").nth(1)?.split("\n## ").next()?;
    let mut rows = table.lines().filter(|l| l.starts_with('|'));
    let header = cells(rows.next()?);
    let row = rows.map(cells).find(|r| r.first() == Some(&label))?;
    SCORES
        .iter()
        .map(|s| {
            let at = header.iter().position(|h| h == s)?;
            row.get(at).map(|c| c.to_string())
        })
        .collect()
}

/// The scores of the first table on `page` whose header is [`SCORES`].
fn page_scores(page: &str) -> Option<Vec<String>> {
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if cells(line) == SCORES {
            let row = lines.nth(1)?;
            return Some(cells(row).into_iter().map(str::to_string).collect());
        }
    }
    None
}

#[test]
fn a_hand_written_page_states_the_reports_scores() {
    let dir = conformance();
    let notes: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("notes.json")).expect("notes"))
            .expect("notes.json parses");
    let report = std::fs::read_to_string(dir.join("README.md")).expect("the report");
    let mut checked = 0;
    for (label, entry) in notes.as_object().expect("an object") {
        let Some(page) = entry.get("page").and_then(Value::as_str) else {
            continue;
        };
        let text = std::fs::read_to_string(dir.join(page)).expect("the page exists");
        // Pages the report scripts write carry the report's own tables.
        if text.lines().take(3).any(|l| l.contains("do not edit")) {
            continue;
        }
        let on_page = page_scores(&text)
            .unwrap_or_else(|| panic!("{page}: no | PASS | FAIL | … | table of {label}'s scores"));
        let in_report = summary(&report, label)
            .unwrap_or_else(|| panic!("README.md's Summary has no row for {label}"));
        assert_eq!(
            on_page, in_report,
            "{page} states {label}'s scores as {on_page:?}, the report as {in_report:?}: \
             redo the page on the report's run"
        );
        checked += 1;
    }
    assert!(checked >= 1, "no hand-written page was checked");
}

#[test]
fn the_scores_are_read_from_both_tables() {
    let report = "## Summary\n\n| implementation | cases | PASS | FAIL | WARN | INFO | SKIPPED | ERRORED |\n\
        |---|---:|---:|---:|---:|---:|---:|---:|\n| X | 9 | 5 | 4 | 0 | 0 | 0 | 0 |\n\n## Next\n";
    assert_eq!(
        summary(report, "X"),
        Some(["5", "4", "0", "0", "0", "0"].map(String::from).to_vec())
    );
    let page = "text\n\n| PASS | FAIL | WARN | INFO | SKIPPED | ERRORED |\n|---:|---:|---:|---:|---:|---:|\n\
        | 5 | 3 | 0 | 0 | 0 | 0 |\n";
    assert_ne!(page_scores(page), summary(report, "X"));
}
