//! The ecosystem matrix ([`super::matrix`]) and the fuzz campaigns in
//! Markdown, for the conformance report: the grid (a heading row per
//! language), each cell that did not simply pass linking to its
//! drill-down, which links on to the rule's failing cases, the campaign's
//! shrunk findings or the producers page.

use super::matrix::{COLUMNS, Link, Mark, Matrix, finding_anchor, fuzz_anchor, language_name};
use super::md::{code, fence, text};
use super::merged::{Column, Merged, Notes, type_first};
use crate::record::Stream;
use crate::record::fuzz::Finding;
use crate::score::Score;
use serde_json::Value;
use std::fmt::Write as _;

/// The anchor of a consumer rule's failing cases in this report.
pub fn rule_anchor(rule: &str) -> String {
    format!("rule-{}", super::md::slug(rule))
}

/// The anchor of the WARN section.
pub const WARN_ANCHOR: &str = "warn";

/// The anchor of the per-rule table.
pub const PER_RULE_ANCHOR: &str = "per-rule";

fn cell_anchor(row: &str, column: &str) -> String {
    format!("drill-{row}-{column}")
}

/// Where a drill-down link goes from this page: a FAIL to the rule's
/// section of failing cases, a WARN to the WARN table, anything else to
/// the per-rule table.
fn href(m: &Merged, link: &Link, details: Option<&str>) -> (String, &'static str) {
    match link {
        Link::Rule(g, Score::Fail) if !m.scored(g, Score::Fail).is_empty() => {
            (format!("#{}", rule_anchor(g)), "failing cases")
        }
        Link::Rule(_, Score::Warn) => (format!("#{WARN_ANCHOR}"), "WARN table"),
        Link::Rule(..) => (format!("#{PER_RULE_ANCHOR}"), "per-rule table"),
        Link::Finding { campaign, anchor } => {
            let page = details.map(|d| fuzz_page(d, campaign));
            (
                format!("{}#{anchor}", page.unwrap_or_default()),
                "minimal stream",
            )
        }
        Link::Page(p) => (p.clone(), "producers page"),
    }
}

/// A campaign's detail page, relative to the report, when its findings
/// are written there (`details`: the detail pages' folder).
pub fn fuzz_page(details: &str, label: &str) -> String {
    format!("{details}/{}.md", fuzz_anchor(label))
}

/// The notes' key of an implementation's own page (relative to the
/// report): its name in the matrix links there, and the page list names it.
pub const PAGE: &str = "page";

/// An implementation's page from the notes (by label, then name).
fn page_of<'a>(notes: &'a Notes, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| notes.get(*k).and_then(|n| n.get(PAGE)))
        .and_then(Value::as_str)
}

/// The grid, each consumer's causes, the implementations' pages, and the
/// drill-down.
/// `details`: the folder of the detail pages, when the report has them
/// (the drill-down's finding links go there).
pub fn grid(out: &mut String, m: &Merged, x: &Matrix, notes: &Notes, details: Option<&str>) {
    out.push_str("## Matrix\n\n");
    out.push_str("Every implementation against the rule families (the catalogue's areas, docs/rules.md), from the run records only. A consumer's cell is the worst score of its suite cases in that family and of its fuzz campaign's cases (`FAIL 3/40`: 3 of the 40 cases asked; `fuzz …`: the campaign's); `valid` holds the valid streams and `accept.*` obligations a consumer must accept, and, for a producer, its producer suite (valid requests answered, runs resumed, tool results taken). A producer's cell counts the streams it sent with a violation of that family (`FAIL 1/9`: one stream of nine). `—`: nothing in that family was asked or checked. A linked cell opens its drill-down.\n\n");
    out.push_str("| implementation | role | version |");
    for c in COLUMNS {
        let _ = write!(out, " {c} |");
    }
    out.push_str(" fuzz campaign |\n|---|---|---|");
    for _ in COLUMNS {
        out.push_str("---|");
    }
    out.push_str("---|\n");
    for (lang, rows) in &x.groups {
        let _ = write!(out, "| **{}** | | |", text(&language_name(lang)));
        for _ in COLUMNS {
            out.push_str(" |");
        }
        out.push_str(" |\n");
        for r in rows {
            let page = r
                .page
                .as_deref()
                .or_else(|| page_of(notes, &[&r.label, &r.versions]));
            let name = match page {
                Some(p) => format!("[{}]({p})", text(&r.label)),
                None => text(&r.label),
            };
            let _ = write!(
                out,
                "| {name} | {} | {} |",
                r.role.as_str(),
                text(&r.versions)
            );
            for (c, cell) in COLUMNS.iter().zip(&r.cells) {
                let t = text(&cell.text);
                let t = if cell.mark == Mark::Fail || cell.mark == Mark::Errored {
                    format!("**{t}**")
                } else {
                    t
                };
                if cell.items.is_empty() {
                    let _ = write!(out, " {t} |");
                } else {
                    let _ = write!(out, " [{t}](#{}) |", cell_anchor(&r.anchor, c));
                }
            }
            match &r.fuzz {
                Some((cases, findings, a)) => {
                    let _ = writeln!(out, " [{cases} cases, {findings} findings](#{a}) |");
                }
                None => out.push_str(" — |\n"),
            }
        }
    }
    out.push('\n');
    causes(out, m, notes);
    pages(out, m, x, notes);
    drill_down(out, m, x, details);
}

/// Every consumer's FAILs grouped by cause ([`super::causes::groups`]),
/// its suite run and campaign together, then each variant run's.
fn causes(out: &mut String, m: &Merged, notes: &Notes) {
    let mut blocks = Vec::new();
    for g in super::causes::groups(m, notes) {
        let found = &g.causes;
        let mut b = format!(
            "<a id=\"causes-{}\"></a>**{}**",
            super::md::slug(&g.label),
            text(&g.label)
        );
        if let Some(words) = &g.variant {
            let _ = write!(b, " ({})", text(words));
        }
        let _ = write!(
            b,
            " — {} cause{}",
            found.len(),
            if found.len() == 1 { "" } else { "s" },
        );
        if found.is_empty() {
            b.push_str(": no FAIL.\n");
        } else if g.variant.is_some() {
            b.push_str(":\n\n");
            for l in super::causes::lines(found, 8) {
                let _ = writeln!(b, "- {l}");
            }
        } else {
            let (fails, findings) = g.totals();
            let _ = writeln!(
                b,
                " of {fails} suite FAIL(s) and {findings} fuzz finding(s), most cases first:\n"
            );
            for l in super::causes::lines(found, 8) {
                let _ = writeln!(b, "- {l}");
            }
            if found.len() > 8 {
                let _ = writeln!(b, "- … and {} more", found.len() - 8);
            }
        }
        blocks.push(b);
    }
    if blocks.is_empty() {
        return;
    }
    out.push_str("### Causes\n\nEach consumer's FAILs (suite cases and fuzz findings) grouped by cause, before the rule-by-rule drill-down: a cause its notes give (matched on its answer, or a finding's shrunk reproducer's), else what it said (\"no noted cause\"). A variant run (a suite written the way the consumer needs, `suites/README.md`) shows what else fails once a known cause is out of the way.\n\n");
    out.push_str(&blocks.join("\n"));
    out.push('\n');
}

/// Each implementation's page of its own, when it has one.
fn pages(out: &mut String, _m: &Merged, x: &Matrix, notes: &Notes) {
    let mut seen: Vec<String> = Vec::new();
    let mut lines = Vec::new();
    for r in x.rows() {
        let Some(p) = r
            .page
            .clone()
            .or_else(|| page_of(notes, &[&r.label, &r.versions]).map(str::to_owned))
        else {
            continue;
        };
        let file = p.split('#').next().unwrap_or_default().to_owned();
        if seen.contains(&file) {
            let at = seen.iter().position(|f| *f == file).unwrap_or_default();
            let line: &mut String = &mut lines[at];
            let _ = write!(line, ", {}", text(&r.label));
            continue;
        }
        seen.push(file.clone());
        lines.push(format!("- [{file}]({file}): {}", text(&r.label)));
    }
    if lines.is_empty() {
        return;
    }
    out.push_str("### Pages\n\nEach implementation's own page (its runs in full: every case, what it shows, its official corpus results):\n\n");
    out.push_str(&lines.join("\n"));
    out.push_str("\n\n");
}

fn drill_down(out: &mut String, m: &Merged, x: &Matrix, details: Option<&str>) {
    let cells: Vec<_> = x
        .rows()
        .flat_map(|r| {
            COLUMNS
                .iter()
                .zip(&r.cells)
                .map(move |(c, cell)| (r, *c, cell))
        })
        .filter(|(_, _, cell)| !cell.items.is_empty())
        .collect();
    if cells.is_empty() {
        return;
    }
    out.push_str("### Drill-down\n\n");
    for (r, c, cell) in cells {
        let _ = writeln!(
            out,
            "<a id=\"{}\"></a>**{} — {c}** ({}):\n",
            cell_anchor(&r.anchor, c),
            text(&r.label),
            text(&cell.text)
        );
        for item in &cell.items {
            let links: Vec<String> = item
                .links
                .iter()
                .map(|l| {
                    let (h, what) = href(m, l, details);
                    format!("[{what}]({h})")
                })
                .collect();
            let _ = writeln!(
                out,
                "- {}: {}{}",
                code(&item.rule),
                text(&item.text),
                if links.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", links.join(", "))
                }
            );
        }
        out.push('\n');
    }
}

/// An answer as `run --format json` writes it, in a few words.
pub fn answer_words(a: &Value) -> String {
    match a.get("verdict").and_then(Value::as_str) {
        Some(v) => {
            let mut t = v.to_owned();
            if let Some(i) = a.get("index").and_then(Value::as_u64) {
                let _ = write!(t, " at {i}");
            }
            if let Some(r) = a.get("rule").and_then(Value::as_str) {
                let _ = write!(t, " ({r})");
            }
            t
        }
        None => match a.get("errored").or_else(|| a.get("skipped")) {
            Some(e) => format!(
                "errored: {}",
                e.get("reason").and_then(Value::as_str).unwrap_or("")
            ),
            None => a.to_string(),
        },
    }
}

/// The campaigns: for each, what ran and its findings, each with its
/// minimal stream. With `details` (the detail pages' folder and the way
/// back to the report), each campaign's findings in full go to a page of
/// their own, added to `pages` (path relative to the report, text), and
/// the report keeps their table.
pub fn campaigns(
    out: &mut String,
    m: &Merged,
    notes: &Notes,
    details: Option<(&str, &str)>,
    pages: &mut Vec<(String, String)>,
) {
    if m.fuzz.is_empty() {
        return;
    }
    out.push_str("## Fuzz campaigns\n\n");
    out.push_str("`agui-conform fuzz --record` against each consumer (for the Rust SDKs, the same campaign in process: `agui-rust-sdks fuzz --record`, adapters/rust): generated streams, each with its answer known by construction, scored as the suite scores a case. Each distinct failure (the rule the stream breaks, or `valid`, and the score) is kept once, from the lowest-numbered case, and shrunk to a minimal stream on which the consumer still fails alike; the expectation on it is the generator's (`construction`) or, once events were deleted, the reference model's (`reference`).\n\n");
    for col in &m.fuzz {
        campaign(out, col, notes, details, pages);
    }
}

fn campaign(
    out: &mut String,
    col: &Column,
    notes: &Notes,
    details: Option<(&str, &str)>,
    pages: &mut Vec<(String, String)>,
) {
    let r = &col.record;
    let label = text(&col.label);
    let _ = writeln!(
        out,
        "<a id=\"{}\"></a>\n### {label}\n",
        fuzz_anchor(&col.label)
    );
    let i = &r.header.implementation;
    let mut ran = format!(
        "{} {}: {} cases",
        code(&i.name),
        text(&i.version),
        r.header.cases
    );
    if let Some(p) = &r.header.fuzz {
        let _ = write!(ran, ", seed {}, mode {}", p.seed, text(&p.mode));
        if let Some(n) = p.max_cases {
            let _ = write!(ran, ", at most {n} cases");
        }
        if let Some(t) = p.time_limit_ms {
            let _ = write!(ran, " within {} s", t / 1000);
        }
        let _ = write!(ran, ", shrink budget {}", p.shrink_budget);
    }
    let t = r.totals();
    let scores: Vec<String> = Score::ALL
        .iter()
        .filter(|s| t.get(**s) > 0)
        .map(|s| format!("{} {}", t.get(*s), s.as_str()))
        .collect();
    let _ = writeln!(out, "{ran}. Scores: {}.", scores.join(", "));
    if let Some(f) = &r.footer {
        if let Some(z) = &f.fuzz {
            let _ = writeln!(
                out,
                "{} valid streams; {} of {} violation rules covered. Status: {}{}.",
                z.valid,
                z.covered.len(),
                agui_model::RuleId::violations().count(),
                text(&f.status),
                f.incomplete
                    .as_ref()
                    .map(|w| format!(" ({})", text(w)))
                    .unwrap_or_default()
            );
            for c in &z.cut {
                let _ = writeln!(out, "Cut short by the time limit: {}.", text(c));
            }
        }
    } else {
        out.push_str("**The record has no footer: the campaign was cut short.**\n");
    }
    out.push('\n');
    if r.findings.is_empty() {
        out.push_str("No finding.\n\n");
        return;
    }
    out.push_str("| rule | score | failing cases | minimal stream | answered on it |\n|---|---|---:|---:|---|\n");
    let page = details.map(|(d, _)| fuzz_page(d, &col.label));
    for f in &r.findings {
        let _ = writeln!(
            out,
            "| [{}]({}#{}) | {} | {} | {} → {} items | {} |",
            code(&f.rule),
            page.as_deref().unwrap_or_default(),
            finding_anchor(&col.label, &f.rule, f.score),
            f.score.as_str(),
            f.cases,
            f.events_before,
            f.events_after(),
            text(&answer_words(&f.shrunk_answer))
        );
    }
    out.push('\n');
    let Some(page) = page else {
        for f in &r.findings {
            finding(out, col, f, notes);
        }
        return;
    };
    let _ = writeln!(
        out,
        "Each finding in full, with its minimal stream and the answers: [{page}]({page}).\n"
    );
    let back = details.map(|(_, b)| b).unwrap_or_default();
    let mut text_of = format!(
        "# Fuzz findings: {label}\n\nPart of [the conformance report]({back}#{}), generated with it — do not edit by hand.\n\n",
        fuzz_anchor(&col.label)
    );
    for f in &r.findings {
        finding(&mut text_of, col, f, notes);
    }
    pages.push((page, text_of.trim_end().to_owned() + "\n"));
}

/// The note on a campaign's finding (`fuzz:<rule>` under the column's
/// label or its implementation's name): what was checked by hand on its
/// minimal stream, shown under it on the Markdown page and the HTML one.
pub fn finding_note<'a>(notes: &'a Notes, col: &Column, f: &Finding) -> Option<&'a str> {
    col.note(notes, &format!("fuzz:{}", f.rule))
}

fn finding(out: &mut String, col: &Column, f: &Finding, notes: &Notes) {
    let _ = writeln!(
        out,
        "<a id=\"{}\"></a>\n#### {}: {} {}\n",
        finding_anchor(&col.label, &f.rule, f.score),
        text(&col.label),
        f.score.as_str(),
        code(&f.rule)
    );
    if let Some(r) = agui_model::RuleId::from_id(&f.rule) {
        let r = r.rule();
        let _ = writeln!(
            out,
            "{} (consumer obligation: **{}**)\n",
            r.statement,
            r.obligation.as_str()
        );
    }
    let _ = writeln!(
        out,
        "Found at case {} ({}, case seed {}) of {} failing alike; shrunk from {} to {} items in {} questions{}.\n",
        f.number,
        code(&f.id),
        f.seed,
        f.cases,
        f.events_before,
        f.events_after(),
        f.shrink_tests,
        if f.cut_short {
            " (cut short by the time limit)"
        } else {
            ""
        }
    );
    let lines: Vec<String> = match &f.stream {
        Stream::Events(e) => e.iter().map(type_first).collect(),
        Stream::Lines(l) => l.clone(),
    };
    out.push_str(&fence("json", lines.iter().map(String::as_str), ""));
    let said = f
        .shrunk_answer
        .get("message")
        .and_then(Value::as_str)
        .map(|m| format!(" (“{}”)", text(&m.chars().take(300).collect::<String>())))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\n(one item per line, index 0 first)\n\nExpected on it: {} (by {}). Answered: {}{said} — {}.\n",
        text(&f.expected.text.replace('`', "")),
        text(&f.expectation),
        text(&answer_words(&f.shrunk_answer)),
        text(&f.shrunk_reason)
    );
    if let Some(n) = &f.note {
        let _ = writeln!(out, "{}.\n", text(n));
    }
    if let Some(n) = finding_note(notes, col, f) {
        let _ = writeln!(out, "{}: {n}\n", text(&col.label));
    }
}
