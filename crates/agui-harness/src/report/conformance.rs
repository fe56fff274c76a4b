//! The conformance report in Markdown (`agui-conform report --markdown`):
//! the implementations of several run records side by side — a summary,
//! every rule where one of them FAILs with its failing cases (stream,
//! expected answer, each implementation's answer and what its adapter
//! explained), the WARNs, and the per-rule matrix.
//!
//! The output holds no date or timing, so regenerating from unchanged runs
//! changes nothing.

use super::md::{code, fence};
pub use super::merged::Notes;
use super::merged::{Merged, answer_text, explain_parts, type_first, untested};
use crate::record::{Case, Stream};
use crate::score::Score;
use agui_model::RuleId;
use serde_json::Value;
use std::fmt::Write;

/// Markers of the summary block in a README (`--readme`).
pub const SUMMARY_START: &str = "<!-- conformance-summary:start -->";
pub const SUMMARY_END: &str = "<!-- conformance-summary:end -->";

const SCORES: [Score; 6] = Score::ALL;

/// The notes' key for what moved in a consumer's scores under the
/// catalogue's latest revision, shown under the summary table.
pub const MOVED: &str = "moved";

const LEGEND: &str = "PASS: the answer the spec requires. FAIL: a must-reject violation accepted, a valid stream (or a valid prefix) rejected, or a rejection past a must-reject event. WARN: a should-reject violation accepted (a deviation from what the AG-UI reference clients enforce). INFO: a may-reject violation accepted (either answer conforms). SKIPPED: not asked — a schema-only implementation is scored only on cases the schema rules alone decide. ERRORED: the implementation or its adapter failed on the case.";

/// A record's text in a table cell or a paragraph: every string of a
/// record file is foreign ([`super::md`]).
fn cell(s: &str) -> String {
    super::md::text(s)
}

/// The suite's own wording (a case's description and sentence, the
/// expectation the harness wrote), Markdown as written: only kept on one
/// table row.
fn own(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The summary table (also what `--readme` puts between its markers).
pub fn summary_table(m: &Merged) -> Vec<String> {
    let mut t = vec![
        "| implementation | version | capabilities | cases | PASS | FAIL | WARN | INFO | SKIPPED | ERRORED |".to_owned(),
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|".to_owned(),
    ];
    let rows = m.columns.iter().map(|c| (c.label.clone(), &c.record));
    let variants = m.variants.iter().map(|v| {
        let label = super::matrix::variant_label(&v.label, &v.record.header.suite);
        (label, &v.record)
    });
    for (label, record) in rows.chain(variants) {
        let h = &record.header;
        let totals = record.totals();
        let mut row = format!(
            "| {} | {} {} | {} | {} |",
            cell(&label),
            code(&h.implementation.name),
            cell(&h.implementation.version),
            cell(&h.implementation.capabilities.join(", ")),
            totals.total()
        );
        for s in SCORES {
            let _ = write!(row, " {} |", totals.get(s));
        }
        t.push(row);
    }
    for (label, _) in &m.missing {
        t.push(format!("| {} | not run | | | | | | | | |", cell(label)));
    }
    t
}

/// What a page says about itself.
#[derive(Debug, Clone)]
pub struct Page {
    /// The command that regenerates it, shown at its top.
    pub command: String,
    /// The producers page, relative to this one: producer rows link there.
    pub producers_href: String,
    /// The longest the page may be: past it, each rule's failing cases and
    /// each campaign's findings in full go to pages of their own (a web
    /// view of a repository stops rendering Markdown at about 512 KB).
    pub max_bytes: usize,
    /// The folder of those pages, relative to this one.
    pub details: String,
    /// This page's file name: those pages link back to it.
    pub name: String,
}

impl Default for Page {
    fn default() -> Self {
        Page {
            command: "scripts/conformance-report.sh".to_owned(),
            producers_href: "producers.md".to_owned(),
            max_bytes: usize::MAX,
            details: "details".to_owned(),
            name: "README.md".to_owned(),
        }
    }
}

/// A report: its page, and the pages beside it that the page links to
/// (path relative to the page, text); none when the page fits
/// [`Page::max_bytes`].
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    pub page: String,
    pub details: Vec<(String, String)>,
}

/// The whole report: on one page when it fits [`Page::max_bytes`], else
/// with the rules' failing cases and the campaigns' findings on pages of
/// their own in [`Page::details`].
pub fn render(m: &Merged, notes: &Notes, page: &Page) -> Rendered {
    let whole = render_with(m, notes, page, None);
    if whole.page.len() <= page.max_bytes {
        return whole;
    }
    render_with(m, notes, page, Some(&page.details))
}

fn render_with(m: &Merged, notes: &Notes, page: &Page, details: Option<&str>) -> Rendered {
    let mut pages = Vec::new();
    let mut out = String::new();
    let labels: Vec<String> = m.consumer_labels().into_iter().map(cell).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    let _ = writeln!(out, "# Conformance report: {}\n", join_names(&labels));
    let _ = writeln!(
        out,
        "Generated by `agui-conform report` from run records (`run --record`, `fuzz --record`, `run --producer --record`) — do not edit by hand. Regenerate with {}. Scoring follows docs/rules.md \"Scoring a consumer\".\n",
        code(&page.command)
    );
    if let Some(first) = m.columns.first() {
        let h = &first.record.header;
        let _ = writeln!(
            out,
            "Suite {} ({} cases), catalogue {}, agui-conform {}.\n",
            code(&h.suite),
            h.cases,
            cell(&h.catalogue),
            cell(&h.agui_conform)
        );
    }
    for p in m.mismatches() {
        let _ = writeln!(out, "**Note:** {}.\n", cell(&p));
    }
    let grid = super::matrix::Matrix::of(m, &page.producers_href);
    super::matrix_md::grid(&mut out, m, &grid, notes, details);
    out.push_str("## Summary\n\n");
    out.push_str(&summary_table(m).join("\n"));
    out.push_str("\n\n");
    // What moved since the catalogue's previous revision, per consumer
    // (the notes' `moved` key): scores change with the rules, not only
    // with the implementations.
    // Suite runs, then campaigns with no suite run (an SDK fuzzed in process).
    let consumers = m.columns.iter().chain(
        m.fuzz
            .iter()
            .filter(|f| !m.columns.iter().any(|c| c.label == f.label)),
    );
    let moved: Vec<String> = consumers
        .filter_map(|c| {
            c.note(notes, MOVED)
                .map(|n| format!("- **{}, what moved:** {}", cell(&c.label), own(n)))
        })
        .collect();
    if !moved.is_empty() {
        out.push_str(&moved.join("\n"));
        out.push_str("\n\n");
    }
    for c in &m.columns {
        match &c.record.footer {
            None => {
                let cut = c
                    .record
                    .cut
                    .map(|cut| format!(" and {cut}"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "**{}: the record ends without a footer**{cut} (the run was cut short): reported from the {} case line(s) written whole, totals counted from them.\n",
                    cell(&c.label),
                    c.record.cases.len()
                );
            }
            Some(f) => {
                if let Some(why) = &f.incomplete {
                    let _ = writeln!(
                        out,
                        "**{} did not finish:** {}.\n",
                        cell(&c.label),
                        cell(why)
                    );
                }
            }
        }
    }
    for (label, why) in &m.missing {
        let _ = writeln!(out, "**{} did not run:** {}\n", cell(label), cell(why));
    }
    out.push_str(LEGEND);
    out.push_str("\n\n");
    // A detail page is one folder down: its way back.
    let back = format!("../{}", page.name);
    let details = details.map(|d| (d, back.as_str()));
    failures(&mut out, m, notes, details, &mut pages);
    warnings(&mut out, m, notes);
    super::matrix_md::campaigns(&mut out, m, notes, details, &mut pages);
    super::official::section(&mut out, m, notes);
    for k in 0..m.columns.len() {
        shown_section(&mut out, m, notes, k);
    }
    per_rule(&mut out, m);
    for c in &m.columns {
        let Some(f) = &c.record.footer else { continue };
        if !f.incidents.is_empty() {
            let _ = writeln!(
                out,
                "Incidents ({}): {}\n",
                cell(&c.label),
                cell(&f.incidents.join("; "))
            );
        }
        if !f.problems.is_empty() {
            let _ = writeln!(
                out,
                "Problems ({}): {}\n",
                cell(&c.label),
                cell(&f.problems.join("; "))
            );
        }
    }
    Rendered {
        page: out.trim_end().to_owned() + "\n",
        details: pages,
    }
}

fn join_names(names: &[&str]) -> String {
    match names {
        [] => "no records".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `the draft`, `the AG-UI 1.0 wire schema` or `docs/rules.md`.
fn source_of(rule: &agui_model::Rule) -> &'static str {
    match rule.source.as_str() {
        s if s.contains("draft") => "the draft",
        "schema" => "the AG-UI 1.0 wire schema",
        _ => "docs/rules.md",
    }
}

/// A rule's statement, source and consumer obligation: one paragraph.
fn statement(out: &mut String, r: &agui_model::Rule) {
    let _ = writeln!(
        out,
        "{} (source: {}; consumer obligation: **{}**)\n",
        r.statement,
        r.source.as_str(),
        r.obligation.as_str()
    );
}

/// The rule's detail page, relative to the report.
pub fn rule_page(details: &str, rule: &str) -> String {
    format!("{details}/{}.md", super::matrix_md::rule_anchor(rule))
}

/// Every rule some implementation FAILs; with `details` (the detail pages'
/// folder) each rule's failing cases in full go to a page of their own,
/// added to `pages`, and the report keeps the rule's summary.
fn failures(
    out: &mut String,
    m: &Merged,
    notes: &Notes,
    details: Option<(&str, &str)>,
    pages: &mut Vec<(String, String)>,
) {
    out.push_str("## Where implementations depart from the draft and the schema\n\n");
    let groups: Vec<&String> = m
        .groups
        .iter()
        .filter(|g| !m.scored(g, Score::Fail).is_empty())
        .collect();
    if groups.is_empty() {
        out.push_str("No implementation failed a case.\n\n");
    }
    for g in groups {
        let _ = writeln!(
            out,
            "<a id=\"{}\"></a>\n### {}\n",
            super::matrix_md::rule_anchor(g),
            code(g)
        );
        let rule = RuleId::from_id(g).map(RuleId::rule);
        if let Some(r) = rule {
            statement(out, r);
        }
        for col in &m.columns {
            let label = cell(&col.label);
            let cases: Vec<&Case> = col.record.cases.iter().filter(|c| &c.group == g).collect();
            let failed: Vec<&&Case> = cases.iter().filter(|c| c.score == Score::Fail).collect();
            if failed.is_empty() {
                continue;
            }
            let asked = cases.iter().filter(|c| c.score != Score::Skipped).count();
            let verdict =
                |c: &Case| c.answer.get("verdict").and_then(Value::as_str) == Some("accept");
            let accepted = failed.iter().filter(|c| verdict(c)).count();
            let valid = failed
                .iter()
                .filter(|c| !verdict(c) && c.expected.rule.is_none())
                .count();
            let wrong_place = failed.len() - accepted - valid;
            let mut how = Vec::new();
            if accepted > 0 {
                how.push(format!(
                    "it accepts a stream that a consumer must reject ({accepted})"
                ));
            }
            if valid > 0 {
                how.push(format!("it rejects a valid stream ({valid})"));
            }
            if wrong_place > 0 {
                how.push(format!("it rejects at the wrong event ({wrong_place})"));
            }
            let lead = match rule {
                Some(r) if r.source.as_str().contains("draft") && r.quote.is_some() => format!(
                    "**{} departs from the draft**, which says: “{}”",
                    label,
                    r.quote.unwrap_or_default()
                ),
                Some(r) => format!(
                    "**{} departs from {}** ({}: {})",
                    label,
                    source_of(r),
                    r.obligation.as_str(),
                    r.statement
                ),
                None => format!("**{label} rejects valid streams.**"),
            };
            let _ = write!(
                out,
                "{lead} In {} of {asked} case(s) {}.",
                failed.len(),
                how.join("; ")
            );
            if let Some(n) = col.note(notes, g) {
                let _ = write!(out, " {n}");
            }
            out.push_str("\n\n");
        }
        let mut ids = m.scored(g, Score::Fail);
        ids.sort_by_key(|id| (stream_len(m, id), id.to_string()));
        // Each column's shortest failing cases are drawn; the rest listed.
        let mut drawn = std::collections::HashSet::new();
        for col in &m.columns {
            let failed = ids
                .iter()
                .filter(|id| col.case(id).is_some_and(|c| c.score == Score::Fail));
            drawn.extend(failed.take(CASES_SHOWN).copied());
        }
        let shown: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| drawn.contains(id))
            .collect();
        let page = details.map(|(d, back)| (rule_page(d, g), back));
        let mut own = String::new();
        let cases = match &page {
            Some((p, back)) => {
                let _ = writeln!(
                    out,
                    "The failing cases of {} in full ({} drawn, with their streams and each answer): [{p}]({p}).\n",
                    code(g),
                    shown.len()
                );
                let _ = writeln!(
                    own,
                    "# {}: failing cases\n\nPart of [the conformance report]({back}#{}), generated with it — do not edit by hand.\n",
                    code(g),
                    super::matrix_md::rule_anchor(g)
                );
                if let Some(r) = rule {
                    statement(&mut own, r);
                }
                &mut own
            }
            None => &mut *out,
        };
        for id in &shown {
            case_section(cases, m, notes, id);
        }
        if ids.len() > shown.len() {
            let rest: Vec<String> = ids
                .iter()
                .filter(|id| !shown.contains(id))
                .map(|id| code(id))
                .collect();
            let _ = writeln!(
                cases,
                "Further failing cases of {} ({}, shortest stream first; each in the HTML report and the run records): {}.\n",
                code(g),
                rest.len(),
                rest.join(", ")
            );
        }
        if let Some((p, _)) = page {
            pages.push((p, own.trim_end().to_owned() + "\n"));
        }
    }
}

/// Failing cases drawn in full per rule and implementation (its shortest
/// streams); the others are listed by id, so a peer that fails hundreds of
/// cases of one rule does not turn the report into a megabyte of streams.
const CASES_SHOWN: usize = 3;

fn stream_len(m: &Merged, id: &str) -> usize {
    match m.stream(id) {
        Some(Stream::Events(e)) => e.len(),
        Some(Stream::Lines(l)) => l.len(),
        None => usize::MAX,
    }
}

/// One failing case: its stream, the expected answer, every answer.
fn case_section(out: &mut String, m: &Merged, notes: &Notes, id: &str) {
    let Some(first) = m.any(id) else { return };
    let _ = writeln!(out, "#### {}\n", code(id));
    if !first.description.is_empty() {
        let _ = writeln!(out, "{}\n", own(&first.description));
    }
    if let Some(spec) = m.spec(id) {
        let _ = writeln!(out, "The sentence the case tests: “{}”\n", own(spec));
    }
    if let (Some(seed), Some(mode)) = (first.seed, &first.mode) {
        let _ = writeln!(
            out,
            "Generated case (seed {seed}, {}); the answers below are to the generated stream.\n",
            cell(mode)
        );
    }
    let shrunk = m
        .columns
        .iter()
        .any(|col| col.case(id).is_some_and(|c| c.shrunk.is_some()));
    let stream = m.stream(id).filter(|_| !shrunk);
    if shrunk {
        let _ = writeln!(
            out,
            "The generated stream ({} items) is drawn in the HTML report; below, the minimal stream shrinking kept.\n",
            stream_len(m, id)
        );
    }
    if let Some(stream) = stream {
        let lines: Vec<String> = match stream {
            Stream::Events(e) => e.iter().map(type_first).collect(),
            Stream::Lines(l) => l.clone(),
        };
        let long = lines.len() > 10;
        if long {
            let _ = writeln!(
                out,
                "<details><summary>The stream ({} items)</summary>\n",
                lines.len()
            );
        }
        out.push_str(&fence("json", lines.iter().map(String::as_str), ""));
        out.push('\n');
        if long {
            out.push_str("</details>\n\n");
        }
        out.push_str("(one item per line, index 0 first)\n\n");
    }
    for col in &m.columns {
        let Some(c) = col.case(id) else { continue };
        if let Some(s) = c.shrunk.as_ref().filter(|_| c.score == Score::Fail) {
            let _ = writeln!(
                out,
                "Minimal stream on which {} still FAILs — {}\n",
                cell(&col.label),
                own(&s.description)
            );
            let lines: Vec<String> = s.events.iter().map(type_first).collect();
            out.push_str(&fence("json", lines.iter().map(String::as_str), ""));
            let _ = writeln!(out, "\nExpected on it: {}.\n", own(&s.expected));
        }
    }
    let _ = writeln!(out, "Expected: {}.\n", own(&first.expected.text));
    out.push_str(
        "| implementation | answered | score | why | its adapter says |\n|---|---|---|---|---|\n",
    );
    for col in &m.columns {
        let Some(c) = col.case(id) else {
            let _ = writeln!(out, "| {} | (not run) | | | |", cell(&col.label));
            continue;
        };
        let mut got = answer_text(c);
        if let Some(msg) = &c.message {
            let short: String = msg.chars().take(300).collect();
            got.push_str(&format!(" — “{short}”"));
        }
        let (stage, warns, explain_note) = explain_parts(c);
        let mut says = Vec::new();
        if let Some(s) = stage {
            says.push(format!("stage {}", code(s)));
        }
        if let Some(n) = explain_note {
            says.push(cell(n));
        }
        for w in warns.iter().take(3) {
            says.push(format!("warned “{}”", cell(w)));
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            cell(&col.label),
            cell(&got),
            c.score.as_str(),
            cell(&c.reason),
            says.join("; ")
        );
    }
    out.push('\n');
    for col in &m.columns {
        let failed = col.case(id).is_some_and(|c| c.score == Score::Fail);
        if let Some(n) = col.note(notes, &format!("case:{id}")).filter(|_| failed) {
            let _ = writeln!(out, "{}: {n}\n", cell(&col.label));
        }
    }
}

fn warnings(out: &mut String, m: &Merged, notes: &Notes) {
    let _ = writeln!(
        out,
        "<a id=\"{}\"></a>\n## Deviations from the reference clients (WARN)\n",
        super::matrix_md::WARN_ANCHOR
    );
    let rows: Vec<(&String, &str)> = m
        .groups
        .iter()
        .flat_map(|g| m.scored(g, Score::Warn).into_iter().map(move |id| (g, id)))
        .collect();
    if rows.is_empty() {
        out.push_str("None.\n\n");
        return;
    }
    out.push_str("Should-reject violations an implementation accepted. docs/rules.md ranks these as producer errors that the AG-UI reference clients enforce; accepting one is not a FAIL.\n\n");
    out.push_str("| rule | case | expected |");
    for c in &m.columns {
        let _ = write!(out, " {} |", cell(&c.label));
    }
    out.push_str("\n|---|---|---|");
    for _ in &m.columns {
        out.push_str("---|");
    }
    out.push('\n');
    for (g, id) in &rows {
        let expected = m.any(id).map(|c| c.expected.text.as_str()).unwrap_or("");
        let _ = write!(out, "| {} | {} | {} |", code(g), code(id), own(expected));
        for col in &m.columns {
            let text = col
                .case(id)
                .map(|c| format!("{} ({})", answer_text(c), c.score.as_str()))
                .unwrap_or_else(|| "—".into());
            let _ = write!(out, " {} |", cell(&text));
        }
        out.push('\n');
    }
    out.push('\n');
    for col in &m.columns {
        for g in &m.groups {
            let warned = col
                .record
                .cases
                .iter()
                .any(|c| &c.group == g && c.score == Score::Warn);
            if let Some(n) = col.note(notes, g).filter(|_| warned) {
                let _ = writeln!(out, "- **{}, {}:** {n}", cell(&col.label), code(g));
            }
        }
    }
    out.push('\n');
}

/// `absent`, or the value as inline JSON.
fn show(v: &Option<Value>) -> String {
    match v {
        None => "absent".into(),
        Some(v) => code(&v.to_string()),
    }
}

/// What column `k`'s implementation shows after the accepted cases that
/// state a projection, compared with it (when its adapter says: `shown`).
fn shown_section(out: &mut String, m: &Merged, notes: &Notes, k: usize) {
    let col = &m.columns[k];
    let compared: Vec<(&Case, &Value, &Value)> = col
        .record
        .cases
        .iter()
        .filter_map(|c| {
            let shown = c.explain.as_ref()?.get("shown")?;
            Some((c, c.expected.projection.as_ref()?, shown))
        })
        .collect();
    if compared.is_empty() {
        return;
    }
    let label = cell(&col.label);
    let _ = writeln!(out, "## What {label} shows (informational)\n");
    let _ = writeln!(
        out,
        "{label} keeps no list of invocations, so it cannot report the projection (`docs/projection.md`) and is not scored on it. Its adapter reports what it does keep after an accepted stream (`explain.shown`: messages with their owners, state, pending interrupts), compared here with the expected projection: each expected message by id (its last run's version) on role, owner, content, tool calls and activity type, and a message the projection shows without id (one no event names, its id made up by the consumer) by its place, as docs/rules.md revision 4 asks: its turn among the shown messages of its role no expected id names; the last run's state; the last run's interrupts with their owners. Not compared: invocations, message order and messages the projection does not show.\n"
    );
    let differing: Vec<Differing<'_>> = compared
        .iter()
        .map(|(c, p, s)| (*c, super::shown::differences(p, s)))
        .filter(|(_, d)| !d.is_empty())
        .collect();
    let _ = writeln!(
        out,
        "{} case(s) compared; {} agree.\n",
        compared.len(),
        compared.len() - differing.len()
    );
    if differing.is_empty() {
        return;
    }
    // Corpus cases, each with its sentence; generated ones folded.
    let (generated, corpus): (Vec<&Differing<'_>>, Vec<&Differing<'_>>) =
        differing.iter().partition(|(c, _)| c.seed.is_some());
    table_of_differences(out, &corpus);
    if !generated.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>{} generated case(s) differ as well</summary>\n",
            generated.len()
        );
        table_of_differences(out, &generated);
        out.push_str("</details>\n\n");
    }
    for (c, _) in &differing {
        if let Some(n) = m.columns[k].note(notes, &format!("view:{}", c.id)) {
            let _ = writeln!(out, "- **{}:** {n}", code(&c.id));
        }
    }
    out.push('\n');
}

type Differing<'a> = (&'a Case, Vec<super::shown::Difference>);

fn table_of_differences(out: &mut String, rows: &[&Differing<'_>]) {
    if rows.is_empty() {
        return;
    }
    out.push_str(
        "| case | what | expected | shown | the sentence the case tests |\n|---|---|---|---|---|\n",
    );
    for (c, diffs) in rows {
        for (what, want, got) in diffs {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                code(&c.id),
                own(what),
                show(want),
                show(got),
                own(&c.spec)
            );
        }
    }
    out.push('\n');
}

/// `3 PASS, **1 FAIL**` (zero counts left out), `—` for none.
pub fn tally_text(t: &crate::record::Totals) -> String {
    let parts: Vec<String> = SCORES
        .iter()
        .filter(|s| t.get(**s) > 0)
        .map(|s| {
            let text = format!("{} {}", t.get(*s), s.as_str());
            if s.is_bad() {
                format!("**{text}**")
            } else {
                text
            }
        })
        .collect();
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

fn per_rule(out: &mut String, m: &Merged) {
    let _ = writeln!(out, "<a id=\"{}\"></a>", super::matrix_md::PER_RULE_ANCHOR);
    out.push_str("## Per rule\n\nCases are grouped by their first violation's rule, or by the `accept.*` obligation a valid case tests (`valid`: neither).\n\n| rule | obligation |");
    for c in &m.columns {
        let _ = write!(out, " {} |", cell(&c.label));
    }
    out.push_str("\n|---|---|");
    for _ in &m.columns {
        out.push_str("---|");
    }
    out.push('\n');
    for g in &m.groups {
        let ob = RuleId::from_id(g)
            .map(|r| r.obligation().as_str())
            .unwrap_or(if g == "valid" { "must-accept" } else { "" });
        let _ = write!(out, "| {} | {ob} |", code(g));
        for k in 0..m.columns.len() {
            let _ = write!(out, " {} |", tally_text(&m.tally(k, g)));
        }
        out.push('\n');
    }
    out.push('\n');
    let none = untested(m);
    if !none.is_empty() {
        let ids: Vec<String> = none.iter().map(|r| format!("`{r}`")).collect();
        let _ = writeln!(out, "No case in these records for: {}.\n", ids.join(", "));
    }
}

/// `text` with the block between the summary markers replaced by the
/// summary table; `None` when it has no (well-ordered) markers.
pub fn fill_summary(text: &str, m: &Merged, link: &str) -> Option<String> {
    let start = text.find(SUMMARY_START)?;
    let end = text.find(SUMMARY_END)?;
    if start > end {
        return None;
    }
    let suite = m
        .columns
        .first()
        .map(|c| c.record.header.suite.as_str())
        .unwrap_or("");
    let labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
    let block = format!(
        "{SUMMARY_START}\n\nThe `{suite}` suite against {} ([full report]({link}), regenerated by `scripts/conformance-report.sh`):\n\n{}\n\n",
        join_names(&labels),
        summary_table(m).join("\n")
    );
    Some(format!("{}{block}{}", &text[..start], &text[end..]))
}
