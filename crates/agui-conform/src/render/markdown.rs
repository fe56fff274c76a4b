//! The Markdown documents, all made by agui-harness and called from here:
//! `run --markdown` (one run's summary), `report --markdown` (the
//! conformance report of merged records, or the producers page) and the
//! summaries `report --readme` refreshes between a README's markers.

use agui_harness::RunResult;
use agui_harness::record::Record;
use agui_harness::report::conformance::{self, Notes, Page, Rendered};
use agui_harness::report::merged::Merged;
use agui_harness::report::{markdown, producers};
use agui_harness::suite::SuiteCase;

/// `run --markdown`: one run's summary.
pub fn run(run: &RunResult, cases: &[SuiteCase]) -> String {
    markdown::render(run, cases)
}

/// `report --markdown`: the conformance report of merged records (and its
/// detail pages, when it is longer than the page's limit).
pub fn report(merged: &Merged, notes: &Notes, page: &Page) -> Rendered {
    conformance::render(merged, notes, page)
}

/// `text` with its conformance summary (between the
/// `conformance-summary` markers) made from `merged`, linking to the
/// report at `link`; `None` when it has no markers.
pub fn fill_report_summary(text: &str, merged: &Merged, link: &str) -> Option<String> {
    conformance::fill_summary(text, merged, link)
}

/// `report --markdown` on producer records: the producers page.
pub fn producers(
    records: &[Record],
    info: &producers::Info,
    missing: &[(String, String)],
) -> String {
    producers::render(records, info, missing)
}

/// `text` with its producers summary (between the `producers-summary`
/// markers); `None` when it has no markers.
pub fn fill_producers_summary(
    text: &str,
    records: &[Record],
    info: &producers::Info,
    missing: &[(String, String)],
) -> Option<String> {
    let table = producers::summary_table(records, info, missing);
    producers::fill_summary(text, &table)
}
