//! The ecosystem matrix ([`agui_harness::report::matrix`]) and the fuzz
//! campaigns on the report page: the grid (a heading row per language),
//! each cell that did not simply pass linking to its drill-down, which
//! links to the rule's cases, a campaign's finding or the producers page;
//! each finding's minimal stream opens into lanes like a failing case.

use crate::page::{Pin, PinKind, escape_html};
use crate::report::{lanes_of, score_class};
use agui_harness::Score;
use agui_harness::record::fuzz::Finding;
use agui_harness::report::matrix::{
    COLUMNS, Link, Mark, Matrix, finding_anchor, fuzz_anchor, language_name,
};
use agui_harness::report::matrix_md::{answer_words, finding_note};
use agui_harness::report::md::slug;
use agui_harness::report::merged::{Column, Merged, Notes};
use std::collections::BTreeMap;
use std::fmt::Write;

fn mark_class(m: Mark) -> &'static str {
    match m {
        Mark::Untested => "s-none",
        Mark::Skipped => "s-skip",
        Mark::Pass => "s-pass",
        Mark::Warn => "s-warn",
        Mark::Errored => "s-err",
        Mark::Fail => "s-fail",
    }
}

fn cell_id(row: &str, column: &str) -> String {
    format!("drill-{row}-{column}")
}

/// Where a drill-down link goes on this page.
fn href(link: &Link) -> (String, &'static str) {
    match link {
        Link::Rule(g, _) => (format!("#group-{g}"), "cases"),
        Link::Finding { anchor, .. } => (format!("#{anchor}"), "minimal stream"),
        Link::Page(p) => (p.clone(), "producers page"),
    }
}

/// The grid, then the drill-down of every linked cell.
pub(crate) fn grid(out: &mut String, x: &Matrix) {
    out.push_str("<section id=\"matrix\"><h2>Matrix</h2><p class=\"hint\">Every implementation against the rule families, from the run records only. A consumer's cell: the worst score of its suite cases and its fuzz campaign's cases in that family (<code>FAIL 3/40</code>: 3 of 40 asked); <code>valid</code>: valid streams and <code>accept.*</code> obligations, and a producer's producer suite. A producer's cell: the streams it sent with a violation of that family. A linked cell opens its drill-down.</p><table class=\"matrix grid\"><thead><tr><th>implementation</th><th>role</th><th>version</th>");
    for c in COLUMNS {
        let _ = write!(out, "<th>{c}</th>");
    }
    out.push_str("<th>fuzz campaign</th></tr></thead><tbody>");
    let width = COLUMNS.len() + 4;
    for (lang, rows) in &x.groups {
        let _ = write!(
            out,
            "<tr class=\"lang\"><th colspan=\"{width}\">{}</th></tr>",
            escape_html(&language_name(lang))
        );
        for r in rows {
            let name = match &r.page {
                Some(p) => format!(
                    "<a href=\"{}\">{}</a>",
                    escape_html(p),
                    escape_html(&r.label)
                ),
                None => escape_html(&r.label),
            };
            let _ = write!(
                out,
                "<tr data-row=\"{}\"><th>{name}</th><td>{}</td><td>{}</td>",
                escape_html(&r.anchor),
                r.role.as_str(),
                escape_html(&r.versions)
            );
            for (c, cell) in COLUMNS.iter().zip(&r.cells) {
                let t = escape_html(&cell.text);
                let body = if cell.items.is_empty() {
                    t
                } else {
                    format!("<a href=\"#{}\">{t}</a>", cell_id(&r.anchor, c))
                };
                let _ = write!(
                    out,
                    "<td class=\"cell {}\" data-family=\"{c}\">{body}</td>",
                    mark_class(cell.mark)
                );
            }
            match &r.fuzz {
                Some((cases, findings, a)) => {
                    let _ = write!(
                        out,
                        "<td><a href=\"#{a}\">{cases} cases, {findings} findings</a></td>"
                    );
                }
                None => out.push_str("<td class=\"s-none\">—</td>"),
            }
            out.push_str("</tr>");
        }
    }
    out.push_str("</tbody></table>");
    drill_down(out, x);
    out.push_str("</section>\n");
}

fn drill_down(out: &mut String, x: &Matrix) {
    let mut any = false;
    for r in x.rows() {
        for (c, cell) in COLUMNS.iter().zip(&r.cells) {
            if cell.items.is_empty() {
                continue;
            }
            if !any {
                out.push_str("<h3>Drill-down</h3>");
                any = true;
            }
            let _ = write!(
                out,
                "<div class=\"drill\" id=\"{}\"><b>{} — {c}</b> ({})<ul>",
                cell_id(&r.anchor, c),
                escape_html(&r.label),
                escape_html(&cell.text)
            );
            for item in &cell.items {
                let links: Vec<String> = item
                    .links
                    .iter()
                    .map(|l| {
                        let (h, what) = href(l);
                        format!("<a href=\"{}\">{what}</a>", escape_html(&h))
                    })
                    .collect();
                let _ = write!(
                    out,
                    "<li><code>{}</code>: {}{}</li>",
                    escape_html(&item.rule),
                    escape_html(&item.text),
                    if links.is_empty() {
                        String::new()
                    } else {
                        format!(" — {}", links.join(", "))
                    }
                );
            }
            out.push_str("</ul></div>");
        }
    }
}

/// The campaigns, each finding's minimal stream openable into lanes (its
/// data added to `data` under `finding:ANCHOR`) and its note, if any, under
/// it (the Markdown page's, [`finding_note`]).
pub(crate) fn campaigns(
    out: &mut String,
    m: &Merged,
    notes: &Notes,
    rules_href: &str,
    data: &mut BTreeMap<String, String>,
) {
    if m.fuzz.is_empty() {
        return;
    }
    out.push_str("<section id=\"fuzz\"><h2>Fuzz campaigns</h2><p class=\"hint\">Generated streams with their answers known by construction, scored as the suite scores a case; each distinct failure (rule and score) kept once and shrunk to a minimal stream. Open (▸) a finding to see its minimal stream as lanes, the expected and the answered rejection index pinned.</p>");
    for col in &m.fuzz {
        campaign(out, col, notes, rules_href, data);
    }
    out.push_str("</section>\n");
}

fn campaign(
    out: &mut String,
    col: &Column,
    notes: &Notes,
    rules_href: &str,
    data: &mut BTreeMap<String, String>,
) {
    let r = &col.record;
    let i = &r.header.implementation;
    let _ = write!(
        out,
        "<details class=\"group\" id=\"{}\" open><summary><b>{}</b> — <code>{}</code> {}: {} cases, {} findings",
        fuzz_anchor(&col.label),
        escape_html(&col.label),
        escape_html(&i.name),
        escape_html(&i.version),
        r.header.cases,
        r.findings.len()
    );
    if let Some(p) = &r.header.fuzz {
        let _ = write!(out, " (seed {}, {})", p.seed, escape_html(&p.mode));
    }
    if let Some(f) = &r.footer {
        let _ = write!(out, " · {}", escape_html(&f.status));
    }
    out.push_str("</summary>");
    if r.findings.is_empty() {
        out.push_str("<p>No finding.</p></details>");
        return;
    }
    out.push_str("<table class=\"matrix cases\"><thead><tr><th>finding</th><th>failing cases</th><th>expected on the minimal stream</th><th>answered on it</th></tr></thead><tbody>");
    for f in &r.findings {
        finding_row(out, col, f, rules_href, data);
        if let Some(n) = finding_note(notes, col, f) {
            let _ = write!(
                out,
                "<tr class=\"note\"><td colspan=\"4\"><b>{}</b>: {}</td></tr>",
                escape_html(&col.label),
                escape_html(&crate::report::plain(n))
            );
        }
    }
    out.push_str("</tbody></table></details>");
}

fn finding_row(
    out: &mut String,
    col: &Column,
    f: &Finding,
    rules_href: &str,
    data: &mut BTreeMap<String, String>,
) {
    let anchor = finding_anchor(&col.label, &f.rule, f.score);
    let key = format!("finding:{anchor}");
    let ekey = escape_html(&key);
    let opened = lanes_of(&f.stream, &anchor, rules_href, pins(col, f));
    let _ = write!(out, "<tr class=\"case\" id=\"{anchor}\"><th>");
    if opened.is_some() {
        let _ = write!(
            out,
            "<button class=\"open\" data-case=\"{ekey}\" aria-expanded=\"false\" title=\"Show the minimal stream as lanes\">▸</button> "
        );
    }
    let _ = write!(
        out,
        "{} <code>{}</code></th><td class=\"n\">{}</td><td>{} ({} items, by {})</td><td class=\"cell {}\" title=\"{}\">{}</td></tr>",
        f.score.as_str(),
        escape_html(&f.rule),
        f.cases,
        escape_html(&f.expected.text.replace('`', "")),
        f.events_after(),
        escape_html(&f.expectation),
        score_class(f.score),
        escape_html(&f.shrunk_reason),
        escape_html(&answer_words(&f.shrunk_answer))
    );
    if let Some(d) = opened {
        let _ = write!(
            out,
            "<tr class=\"lanes-row\" data-for=\"{ekey}\" hidden><td colspan=\"4\"><ul class=\"answers\"><li class=\"expected\"><b>expected</b>: {}</li><li class=\"{}\"><b>{}</b>: {} <span class=\"score\">{}</span> — {}{}</li><li>{}</li></ul><iframe class=\"lanes\" title=\"lanes\"></iframe></td></tr>",
            escape_html(&f.expected.text.replace('`', "")),
            score_class(f.score),
            escape_html(&col.label),
            escape_html(&answer_words(&f.shrunk_answer)),
            f.score.as_str(),
            escape_html(&f.shrunk_reason),
            f.shrunk_answer
                .get("message")
                .and_then(serde_json::Value::as_str)
                .map(|m| format!("<div class=\"said\">“{}”</div>", escape_html(m)))
                .unwrap_or_default(),
            escape_html(&f.description)
        );
        data.insert(key, d);
    }
}

/// The expected rejection index and the answered one on the minimal
/// stream.
fn pins(col: &Column, f: &Finding) -> Vec<Pin> {
    let mut out = Vec::new();
    if let (Some(i), Some(r)) = (f.expected.index, &f.expected.rule) {
        out.push(Pin {
            index: i,
            label: format!("expected: {} at {i} ({r})", f.expected.verdict),
            kind: PinKind::Expected,
        });
    }
    if let Some(i) = f.shrunk_index().filter(|_| f.score != Score::Pass) {
        out.push(Pin {
            index: i,
            label: format!("{}: reject at {i} ({})", col.label, f.score.as_str()),
            kind: PinKind::Answered,
        });
    }
    out
}

/// Every consumer's FAILs grouped by cause, as the Markdown page lists
/// them ([`agui_harness::report::causes::groups`]): a cause its notes give,
/// else what the implementation said.
pub(crate) fn causes(out: &mut String, m: &Merged, notes: &Notes) {
    let groups = agui_harness::report::causes::groups(m, notes);
    if groups.is_empty() {
        return;
    }
    out.push_str("<section id=\"causes\"><h2>Causes</h2><p class=\"hint\">Each consumer's FAILs (suite cases and fuzz findings) grouped by cause, before the rule-by-rule drill-down: a cause its notes give (matched on its answer, or a finding's shrunk reproducer's), else what it said (\"no noted cause\"). A variant run (a suite written the way the consumer needs) shows what else fails once a known cause is out of the way.</p>");
    for g in &groups {
        let n = g.causes.len();
        let _ = write!(
            out,
            "<div class=\"drill\" id=\"causes-{}\"><b>{}</b>",
            slug(&g.label),
            escape_html(&g.label)
        );
        if let Some(words) = &g.variant {
            let _ = write!(out, " ({})", escape_html(words));
        }
        let _ = write!(out, " — {n} cause{}", if n == 1 { "" } else { "s" });
        if n == 0 {
            out.push_str(": no FAIL.</div>");
            continue;
        }
        if g.variant.is_none() {
            let (fails, findings) = g.totals();
            let _ = write!(
                out,
                " of {fails} suite FAIL(s) and {findings} fuzz finding(s), most cases first"
            );
        }
        out.push_str("<ul>");
        for c in g.causes.iter().take(8) {
            let rules: Vec<String> = c
                .rules
                .iter()
                .map(|r| format!("<code>{}</code>", escape_html(r)))
                .collect();
            let _ = write!(
                out,
                "<li>{}{} — {}; rules: {}</li>",
                if c.noted { "" } else { "no noted cause: " },
                escape_html(&c.text),
                c.counts(),
                rules.join(", ")
            );
        }
        if n > 8 {
            let _ = write!(out, "<li>… and {} more</li>", n - 8);
        }
        out.push_str("</ul></div>");
    }
    out.push_str("</section>\n");
}
