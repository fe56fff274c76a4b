//! `agui-conform report RECORD…`: merges run records (`run --record`) into
//! the conformance report, implementations side by side, as Markdown
//! and/or one self-contained HTML page. Exit status 0; 3 when a record is
//! incomplete (no footer; maybe its last line cut, which is left out:
//! `Record::parse_bytes`), the report being written all the same; 2 on
//! errors.

use agui_harness::record::{Record, Shrunk};
use agui_harness::report::conformance::{self, Notes, Page};
use agui_harness::report::merged::{Column, Merged};
use anyhow::Context;
use std::path::{Path, PathBuf};

/// Arguments of `agui-conform report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Run records (`run --record FILE`), one column each, in this order.
    #[arg(required = true, value_name = "RECORD")]
    pub records: Vec<PathBuf>,
    /// A column's heading, in record order [default: the implementation's name].
    #[arg(long, value_name = "LABEL")]
    pub label: Vec<String>,
    /// An implementation that has no record, and why (`LABEL=WHY`): listed
    /// as not run.
    #[arg(long, value_name = "LABEL=WHY")]
    pub missing: Vec<String>,
    /// Write the Markdown report here.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the HTML report here (one self-contained page).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Hand-written notes (JSON: implementation label or name → rule id or
    /// `case:ID` → text), shown beside the findings they explain. With
    /// producer records: producer name → `{label, paths: [{path, what}],
    /// notes: [...], not_covered}`.
    #[arg(long, value_name = "FILE")]
    pub notes: Option<PathBuf>,
    /// Also refresh the summary between this file's
    /// `<!-- conformance-summary:start/end -->` markers (with producer
    /// records: `<!-- producers-summary:start/end -->`).
    #[arg(long, value_name = "FILE")]
    pub readme: Option<PathBuf>,
    /// Where rule ids link to, from the report's folder [default: the
    /// catalogue's page relative to where the report is written].
    #[arg(long, value_name = "HREF")]
    pub rules_href: Option<String>,
    /// The command that regenerates the report, shown at its top
    /// [default: scripts/conformance-report.sh].
    #[arg(long, value_name = "TEXT")]
    pub command: Option<String>,
    /// The producers page, relative to the report: the matrix links each
    /// producer row to its section there.
    #[arg(long, value_name = "HREF", default_value = "producers.md")]
    pub producers_href: String,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    if args.markdown.is_none() && args.html.is_none() {
        anyhow::bail!("nothing to write: give --markdown FILE and/or --html FILE");
    }
    if args.label.len() > args.records.len() {
        anyhow::bail!(
            "{} labels for {} records",
            args.label.len(),
            args.records.len()
        );
    }
    let mut records = Vec::new();
    // A record cut short (its run killed, maybe mid-line) is reported from
    // its whole lines, said here and in the report; the exit status is 3.
    let mut incomplete = false;
    for path in &args.records {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let record = Record::parse_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("{}: not a run record: {e}", path.display()))?;
        if let Some(cut) = record.cut {
            eprintln!("agui-conform: {}: {cut}", path.display());
        }
        if record.footer.is_none() {
            eprintln!(
                "agui-conform: {}: no footer: the run was cut short; reporting its {} whole lines",
                path.display(),
                record.cases.len() + record.scenarios.len() + record.findings.len()
            );
            incomplete = true;
        }
        records.push(record);
    }
    let status = if incomplete { 3 } else { 0 };
    if records.iter().all(Record::is_producer) {
        return super::report_producers::run(&args, &records).map(|code| code.max(status));
    }
    let merged = merge(&args, records)?;
    let notes: Notes = match &args.notes {
        Some(p) => {
            let text = agui_model::bounded::read_to_string(p, agui_model::bounded::CONFIG_BYTES)
                .with_context(|| format!("reading {}", p.display()))?;
            serde_json::from_str(&text)
                .with_context(|| format!("{}: not a JSON object", p.display()))?
        }
        None => Notes::new(),
    };
    let page = Page {
        command: args
            .command
            .clone()
            .unwrap_or_else(|| Page::default().command),
        producers_href: args.producers_href.clone(),
    };
    if let Some(p) = &args.markdown {
        write(p, &conformance::render(&merged, &notes, &page))?;
        if let Some(readme) = &args.readme {
            let text = std::fs::read_to_string(readme)
                .with_context(|| format!("reading {}", readme.display()))?;
            let link = relative(readme, p);
            match conformance::fill_summary(&text, &merged, &link) {
                Some(new) => write(readme, &new)?,
                None => eprintln!(
                    "agui-conform: {} has no conformance-summary markers; left as it is",
                    readme.display()
                ),
            }
        }
    }
    if let Some(p) = &args.html {
        let href = args
            .rules_href
            .clone()
            .unwrap_or_else(|| rules_href_from(p));
        write(p, &agui_view::report::render(&merged, &href, &page))?;
    }
    Ok(status)
}

/// The records as one report: consumer suite runs as columns (labelled by
/// `--label`, which names the records that are not producer records, in
/// order), fuzz campaigns beside the column of the same label, producer
/// runs as matrix rows.
fn merge(args: &Args, records: Vec<Record>) -> anyhow::Result<Merged> {
    let labelled = records.iter().filter(|r| !r.is_producer()).count();
    if args.label.len() > labelled {
        anyhow::bail!(
            "{} labels for {labelled} records that take one (producer records take none)",
            args.label.len()
        );
    }
    let (mut columns, mut fuzz, mut producers) = (Vec::new(), Vec::new(), Vec::new());
    let mut labels = args.label.iter();
    for record in records {
        if record.is_producer() {
            producers.push(record);
            continue;
        }
        let label = labels
            .next()
            .cloned()
            .unwrap_or_else(|| record.header.implementation.name.clone());
        let column = Column::new(label, record);
        if column.record.is_fuzz() {
            fuzz.push(column);
        } else {
            columns.push(column);
        }
    }
    let mut merged = Merged::new(columns);
    merged.fuzz = fuzz;
    merged.producers = producers;
    merged.missing = args
        .missing
        .iter()
        .map(|m| match m.split_once('=') {
            Some((label, why)) => (label.to_owned(), why.to_owned()),
            None => (m.clone(), "no record".to_owned()),
        })
        .collect();
    Ok(merged)
}

pub(super) fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// The catalogue page (`docs/rules.md` of the checkout the report is
/// written in, else its online copy's relative path) as seen from `page`.
fn rules_href_from(page: &Path) -> String {
    let abs = std::path::absolute(page).unwrap_or_else(|_| page.to_path_buf());
    for dir in abs.ancestors().skip(1) {
        let rules = dir.join("docs/rules.md");
        if rules.is_file() {
            return relative(&abs, &rules);
        }
    }
    agui_view::page::RULES_HREF.to_owned()
}

/// `to` as a relative link from the file `from` (both made absolute).
fn relative(from: &Path, to: &Path) -> String {
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

/// The one-record report page of a run (`run --html`).
pub fn write_html_of(record_text: &str, page: &Path) -> anyhow::Result<()> {
    let record = Record::parse(record_text).map_err(|e| anyhow::anyhow!("run record: {e}"))?;
    let label = record.header.implementation.name.clone();
    let merged = Merged::new(vec![Column::new(label, record)]);
    write(
        page,
        &agui_view::report::render(&merged, &rules_href_from(page), &Page::default()),
    )
}

/// A shrunk failing case saved by `run --save-failures` (corpus format),
/// for the run record.
pub fn read_shrunk(path: &Path) -> Option<Shrunk> {
    let text = std::fs::read_to_string(path).ok()?;
    let case: serde_json::Value = serde_json::from_str(&text).ok()?;
    let events = case.get("events")?.as_array()?.clone();
    let expect = case.get("expect")?;
    let verdict = expect.get("verdict")?.as_str()?;
    let expected = match (expect.get("rule"), expect.get("index")) {
        (Some(r), Some(i)) => format!(
            "{verdict}; first violation `{}` at {i}",
            r.as_str().unwrap_or("?")
        ),
        _ => format!("{verdict}; no violation"),
    };
    Some(Shrunk {
        description: case
            .get("description")
            .and_then(|d| d.as_str())
            .unwrap_or("")
            .to_owned(),
        events,
        expected,
    })
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
