//! `agui-conform report RECORD…`: merges run records (`run --record`) into
//! the conformance report, implementations side by side, as Markdown
//! and/or one self-contained HTML page. Exit status 0; 3 when a record is
//! incomplete (no footer; maybe its last line cut, which is left out:
//! `Record::parse_bytes`), the report being written all the same; 2 on
//! errors. Producer records (`run --producer … --record`) make the
//! producers page and the README's producers summary instead.

use crate::render::{self, html, markdown, write_file as write};
use agui_harness::record::Record;
use agui_harness::report::conformance::{Notes, Page};
use agui_harness::report::merged::{Column, Merged};
use agui_harness::report::official;
use agui_harness::report::producers::Info;
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
    /// notes: [...], not_covered}`. Repeatable for consumer records (the
    /// files' implementations merged: an SDK's adapter keeps its own).
    #[arg(long, value_name = "FILE")]
    pub notes: Vec<PathBuf>,
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
    /// The longest the Markdown report may be. Past it, each rule's failing
    /// cases and each fuzz campaign's findings in full go to pages of their
    /// own in a folder beside it (`details/` for a `README.md`, else
    /// `NAME-details/`), which the report links to; pages an earlier report
    /// left there (`rule-*.md`, `fuzz-*.md`) are removed. What stays (the
    /// matrix, causes, drill-down and summaries) may still pass the limit a
    /// little; with the default, this project's pages stay under the 512 KB
    /// at which a repository's web view stops rendering Markdown.
    #[arg(long, value_name = "BYTES", default_value_t = 400_000)]
    pub max_page_bytes: usize,
}

/// The folder of a report's detail pages, beside it: `details` for a
/// `README.md` (the folder's own page), else `NAME-details`.
fn details_folder(report: &Path) -> String {
    match report.file_stem().and_then(|s| s.to_str()) {
        Some("README") | None => "details".to_owned(),
        Some(stem) => format!("{stem}-details"),
    }
}

/// Writes the detail pages of the report at `report` into its folder
/// `folder`, first removing the pages a report wrote there (`rule-*.md`,
/// `fuzz-*.md`) that this one no longer has (a rule no one fails now).
fn write_details(report: &Path, folder: &str, pages: &[(String, String)]) -> anyhow::Result<()> {
    let base = report.parent().unwrap_or(Path::new(""));
    let dir = base.join(folder);
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let path = e.path();
            // Only what a report writes there: `rule-*.md` and `fuzz-*.md`.
            let ours = path.extension().is_some_and(|x| x == "md")
                && path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("rule-") || n.starts_with("fuzz-"));
            let stale = ours && !pages.iter().any(|(p, _)| base.join(p) == path);
            if stale {
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    for (p, text) in pages {
        write(&base.join(p), text)?;
    }
    Ok(())
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
        return run_producers(&args, &records).map(|code| code.max(status));
    }
    let merged = merge(&args, records)?;
    let mut notes = Notes::new();
    for path in &args.notes {
        let more: Notes = read_notes(Some(path), "not a JSON object", |t| serde_json::from_str(t))?;
        // One implementation's notes in two files are merged key by key.
        for (k, v) in more {
            match (notes.get_mut(&k), v) {
                (Some(serde_json::Value::Object(have)), serde_json::Value::Object(add)) => {
                    have.extend(add)
                }
                (_, v) => {
                    notes.insert(k, v);
                }
            }
        }
    }
    let page = Page {
        command: args
            .command
            .clone()
            .unwrap_or_else(|| Page::default().command),
        producers_href: args.producers_href.clone(),
        max_bytes: args.max_page_bytes,
        details: args
            .markdown
            .as_deref()
            .map_or_else(|| Page::default().details, details_folder),
        name: args
            .markdown
            .as_deref()
            .and_then(|p| p.file_name())
            .map_or_else(
                || Page::default().name,
                |n| n.to_string_lossy().into_owned(),
            ),
    };
    if let Some(p) = &args.markdown {
        let report = markdown::report(&merged, &notes, &page);
        write(p, &report.page)?;
        write_details(p, &page.details, &report.details)?;
        if let Some(readme) = &args.readme {
            let text = std::fs::read_to_string(readme)
                .with_context(|| format!("reading {}", readme.display()))?;
            let link = render::relative(readme, p);
            match markdown::fill_report_summary(&text, &merged, &link) {
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
            .unwrap_or_else(|| html::rules_href_from(p));
        write(p, &html::report(&merged, &notes, &href, &page))?;
    }
    Ok(status)
}

/// The records as one report: consumer suite runs as columns (labelled by
/// `--label`, which names the records that are not producer records, in
/// order), fuzz campaigns beside the column of the same label, producer
/// runs as matrix rows, runs of the official suites as the official corpus
/// section (when another suite run is there to be the columns).
fn merge(args: &Args, records: Vec<Record>) -> anyhow::Result<Merged> {
    let labelled = records.iter().filter(|r| !r.is_producer()).count();
    if args.label.len() > labelled {
        anyhow::bail!(
            "{} labels for {labelled} records that take one (producer records take none)",
            args.label.len()
        );
    }
    // Official-suite runs make the official corpus section when the report
    // has another suite run to show; alone, they are its columns.
    let official_section = records
        .iter()
        .any(|r| !r.is_producer() && !r.is_fuzz() && !official::is_official_suite(&r.header.suite));
    // The suite the columns ran: the first suite run's that is not an
    // official one; suite runs of another suite are variants of it
    // (`suites/uuid-ids.toml`), shown beside their implementation's row.
    let main_suite = records
        .iter()
        .find(|r| !r.is_producer() && !r.is_fuzz() && !official::is_official_suite(&r.header.suite))
        .map(|r| r.header.suite.clone());
    let (mut columns, mut fuzz, mut producers) = (Vec::new(), Vec::new(), Vec::new());
    let mut variants = Vec::new();
    let mut official_runs = Vec::new();
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
        } else if official_section && official::is_official_suite(&column.record.header.suite) {
            official_runs.push(column);
        } else if main_suite
            .as_ref()
            .is_some_and(|s| *s != column.record.header.suite)
        {
            variants.push(column);
        } else {
            columns.push(column);
        }
    }
    let mut merged = Merged::new(columns);
    merged.fuzz = fuzz;
    merged.producers = producers;
    merged.official = official_runs;
    merged.variants = variants;
    merged.missing = missing(args);
    Ok(merged)
}

/// `report` on producer records: the producers page
/// (agui_harness::report::producers) and the README's producers summary.
fn run_producers(args: &Args, records: &[Record]) -> anyhow::Result<u8> {
    if args.html.is_some() {
        anyhow::bail!("--html: the producers report is Markdown only (give --markdown FILE)");
    }
    if !args.label.is_empty() {
        anyhow::bail!("--label: a producer's heading comes from --notes (its `label`)");
    }
    let info: Info = read_notes(
        args.notes.first().map(PathBuf::as_path),
        "not producer notes (name → {label, paths, notes, not_covered})",
        |t| serde_json::from_str(t),
    )?;
    let missing = missing(args);
    if let Some(p) = &args.markdown {
        write(p, &markdown::producers(records, &info, &missing))?;
    }
    if let Some(readme) = &args.readme {
        let text = std::fs::read_to_string(readme)
            .with_context(|| format!("reading {}", readme.display()))?;
        match markdown::fill_producers_summary(&text, records, &info, &missing) {
            Some(new) => write(readme, &new)?,
            None => eprintln!(
                "agui-conform: {} has no producers-summary markers; left as it is",
                readme.display()
            ),
        }
    }
    Ok(0)
}

/// `--missing LABEL=WHY`: each implementation without a record, and why
/// (`no record` when not said).
fn missing(args: &Args) -> Vec<(String, String)> {
    args.missing
        .iter()
        .map(|m| match m.split_once('=') {
            Some((label, why)) => (label.to_owned(), why.to_owned()),
            None => (m.clone(), "no record".to_owned()),
        })
        .collect()
}

/// The `--notes` file as `parse` reads it (empty without one); `what`
/// says what it is not when it does not parse.
fn read_notes<T: Default>(
    path: Option<&Path>,
    what: &str,
    parse: impl FnOnce(&str) -> serde_json::Result<T>,
) -> anyhow::Result<T> {
    let Some(p) = path else {
        return Ok(T::default());
    };
    let text = agui_model::bounded::read_to_string(p, agui_model::bounded::CONFIG_BYTES)
        .with_context(|| format!("reading {}", p.display()))?;
    parse(&text).with_context(|| format!("{}: {what}", p.display()))
}
