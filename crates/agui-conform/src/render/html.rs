//! The HTML pages, all drawn by agui-view. `check --html PATH`: the stream
//! drawn as lanes, from the items as the check reads them (a file,
//! standard input or a live producer), within a byte budget
//! (`--html-max-bytes`): the page says what it left out, and the stream is
//! never held in memory for it. `report --html` and `run --html`: the
//! conformance report page of run records.

use agui_harness::record::Record;
use agui_harness::report::conformance;
use agui_harness::report::merged::{Column, Merged, Notes};
use agui_live::live::Seen;
use agui_model::stream::Item;
use agui_model::{Verdict, Violation};
use agui_view::{Options, Picture};
use anyhow::Context;
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::io::BufWriter;
use std::path::Path;
use std::rc::Rc;

/// A page being drawn while the check reads, shared with the reader.
pub type Page = Rc<RefCell<Picture>>;

/// A page of at most `budget` bytes.
pub fn page(budget: usize) -> Page {
    Rc::new(RefCell::new(Picture::new(budget)))
}

/// What the page shows of an item the stream reader made: its value, or
/// for an item that is not JSON a string saying why.
pub fn item_value(item: &Item) -> Cow<'_, Value> {
    match item {
        Item::Value { value, .. } => Cow::Borrowed(value),
        Item::Unparseable { line, reason } => {
            Cow::Owned(Value::String(format!("line {line}: not JSON: {reason}")))
        }
        Item::OverLimit {
            line, kind, reason, ..
        } => Cow::Owned(Value::String(format!(
            "line {line}: skipped at the {kind} limit: {reason}"
        ))),
    }
}

/// What the page shows of an SSE event (live or saved).
pub fn seen_value<'a>(seen: &'a Seen<'a>) -> Cow<'a, Value> {
    match seen {
        Seen::Json { value, .. } => Cow::Borrowed(*value),
        Seen::TooDeep { why, .. } | Seen::NotJson { why, .. } | Seen::OverLimit { why, .. } => {
            Cow::Owned(Value::String((*why).to_owned()))
        }
    }
}

/// Writes the page to `path`, with the check's violations and verdict.
pub fn write(
    path: &Path,
    page: Page,
    violations: &[Violation],
    verdict: Option<Verdict>,
    title: &str,
) -> anyhow::Result<()> {
    let picture = page.replace(Picture::new(0));
    let mut options = Options {
        title: title.to_owned(),
        verdict: verdict.map(|v| v.as_str().to_owned()),
        ..Options::default()
    };
    // `--docs-url`: rule ids link to the published catalogue.
    if let Some(base) = agui_model::violation::docs_base() {
        options.rules_href = format!("{base}/rules.md");
    }
    let file =
        std::fs::File::create(path).with_context(|| format!("writing {}", path.display()))?;
    picture
        .write(
            BufWriter::with_capacity(1 << 16, file),
            violations,
            &options,
        )
        .with_context(|| format!("writing {}", path.display()))
}

/// The conformance report page of merged records (`report --html`); rule
/// ids link to `rules_href`.
pub fn report(
    merged: &Merged,
    notes: &Notes,
    rules_href: &str,
    page: &conformance::Page,
) -> String {
    agui_view::report::render(merged, notes, rules_href, page)
}

/// Writes the one-record report page of a run (`run --html`) to `path`.
pub fn write_run_page(record_text: &str, path: &Path) -> anyhow::Result<()> {
    let record = Record::parse(record_text).map_err(|e| anyhow::anyhow!("run record: {e}"))?;
    let label = record.header.implementation.name.clone();
    let merged = Merged::new(vec![Column::new(label, record)]);
    let page = report(
        &merged,
        &Notes::new(),
        &rules_href_from(path),
        &conformance::Page::default(),
    );
    super::write_file(path, &page)
}

/// The catalogue page (`docs/rules.md` of the checkout the report is
/// written in, else its online copy's relative path) as seen from `page`.
pub fn rules_href_from(page: &Path) -> String {
    let abs = std::path::absolute(page).unwrap_or_else(|_| page.to_path_buf());
    for dir in abs.ancestors().skip(1) {
        let rules = dir.join("docs/rules.md");
        if rules.is_file() {
            return super::relative(&abs, &rules);
        }
    }
    agui_view::page::RULES_HREF.to_owned()
}
