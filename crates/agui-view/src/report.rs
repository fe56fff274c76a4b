//! The conformance report page (`agui-conform report --html`): the
//! implementations of several run records side by side, in the manner of
//! Bowtie — a summary, a matrix per rule, and a matrix per case in which
//! every case that did not pass everywhere opens into the lanes view of its
//! stream, with the expected and each answered rejection index pinned.
//!
//! One page, nothing loaded from the network: the lanes page's shell
//! (stylesheet and script) is held once, each case's drawing data once, and
//! `assets/report.js` writes them joined into an `<iframe>`'s document when
//! a case is opened, so a report of hundreds of failing cases stays small.

use crate::layout::Layout;
use crate::page::{self, Options, Pin, PinKind, escape_html, script_json};
use agui_harness::Score;
use agui_harness::record::Stream;
use agui_harness::report::merged::{Merged, answer_text, answered_index, explain_parts};
use agui_model::RuleId;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

const CSS: &str = include_str!("../assets/report.css");
const JS: &str = include_str!("../assets/report.js");

/// Stands for the case id in the lanes shell's title (replaced by the
/// script, escaped).
const TITLE_SLOT: &str = "@@CASE@@";

/// The report page of `m`; rule ids link to `{rules_href}#{id}`.
pub fn render(m: &Merged, rules_href: &str) -> String {
    let labels: Vec<&str> = m.columns.iter().map(|c| c.label.as_str()).collect();
    let title = format!("Conformance report: {}", labels.join(" · "));
    let mut out = String::with_capacity(1 << 16);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{CSS}</style>\n</head>\n<body>\n<header><h1>{}</h1>",
        escape_html(&title),
        escape_html(&title)
    );
    if let Some(c) = m.columns.first() {
        let h = &c.record.header;
        let _ = write!(
            out,
            "<p class=\"meta\">Suite <code>{}</code> ({} cases) · catalogue {} · agui-conform {}</p>",
            escape_html(&h.suite),
            h.cases,
            escape_html(&h.catalogue),
            escape_html(&h.agui_conform)
        );
    }
    for p in m.mismatches() {
        let _ = write!(out, "<p class=\"warn\">{}</p>", escape_html(&p));
    }
    out.push_str("</header>\n");
    summary(&mut out, m);
    rule_matrix(&mut out, m, rules_href);
    let data = case_matrix(&mut out, m, rules_href);
    let (head, tail) = page::shell(TITLE_SLOT);
    let _ = write!(
        out,
        "<script id=\"lanes-shell\" type=\"application/json\">{}</script>\n<script id=\"lanes-data\" type=\"application/json\">{}</script>\n<script>\n{JS}</script>\n</body>\n</html>\n",
        script_json(&serde_json::json!({"head": head, "tail": tail, "slot": TITLE_SLOT})),
        script_json(&data)
    );
    out
}

/// Text written for Markdown (`code` in backticks) shown as plain text.
fn plain(s: &str) -> String {
    s.replace('`', "")
}

/// The CSS class of a score's cell.
fn score_class(s: Score) -> &'static str {
    match s {
        Score::Pass => "s-pass",
        Score::Fail => "s-fail",
        Score::Warn => "s-warn",
        Score::Info => "s-info",
        Score::Skipped => "s-skip",
        Score::Errored => "s-err",
    }
}

/// The worst score in a tally (FAIL, ERRORED, WARN, INFO, PASS, SKIPPED).
fn worst(t: &agui_harness::record::Totals) -> Option<Score> {
    [
        Score::Fail,
        Score::Errored,
        Score::Warn,
        Score::Info,
        Score::Pass,
        Score::Skipped,
    ]
    .into_iter()
    .find(|s| t.get(*s) > 0)
}

fn summary(out: &mut String, m: &Merged) {
    out.push_str("<section id=\"summary\"><h2>Summary</h2><table class=\"summary\"><thead><tr><th>implementation</th><th>version</th><th>capabilities</th><th>cases</th>");
    for s in Score::ALL {
        let _ = write!(out, "<th class=\"{}\">{}</th>", score_class(s), s.as_str());
    }
    out.push_str("<th>run</th></tr></thead><tbody>");
    for c in &m.columns {
        let h = &c.record.header;
        let t = c.record.totals();
        let _ = write!(
            out,
            "<tr><th>{}</th><td><code>{}</code> {}</td><td>{}</td><td>{}</td>",
            escape_html(&c.label),
            escape_html(&h.implementation.name),
            escape_html(&h.implementation.version),
            escape_html(&h.implementation.capabilities.join(", ")),
            t.total()
        );
        for s in Score::ALL {
            let _ = write!(out, "<td class=\"n\">{}</td>", t.get(s));
        }
        let run = match (&c.record.footer, &c.record.cut) {
            (None, Some(cut)) => format!("cut short (no footer): {cut}"),
            (None, None) => "cut short (no footer)".to_owned(),
            (Some(f), _) => match &f.incomplete {
                Some(why) => format!("{}: {why}", f.status),
                None => f.status.clone(),
            },
        };
        let _ = write!(out, "<td>{}</td></tr>", escape_html(&run));
    }
    for (label, why) in &m.missing {
        let _ = write!(
            out,
            "<tr class=\"missing\"><th>{}</th><td colspan=\"{}\">not run: {}</td></tr>",
            escape_html(label),
            Score::ALL.len() + 4,
            escape_html(why)
        );
    }
    out.push_str("</tbody></table></section>\n");
}

fn rule_matrix(out: &mut String, m: &Merged, rules_href: &str) {
    out.push_str("<section id=\"rules\"><h2>Per rule</h2><table class=\"matrix\" id=\"rule-matrix\"><thead><tr><th>rule</th><th>obligation</th>");
    for c in &m.columns {
        let _ = write!(out, "<th>{}</th>", escape_html(&c.label));
    }
    out.push_str("</tr></thead><tbody>");
    for g in &m.groups {
        let rule = RuleId::from_id(g);
        let ob = rule
            .map(|r| r.obligation().as_str())
            .unwrap_or(if g == "valid" { "must-accept" } else { "" });
        let title = rule.map(|r| r.rule().statement).unwrap_or("");
        let _ = write!(
            out,
            "<tr data-rule=\"{g}\"><th><a href=\"#group-{g}\" title=\"{}\"><code>{g}</code></a>",
            escape_html(title),
            g = escape_html(g)
        );
        if rule.is_some() {
            let _ = write!(
                out,
                " <a class=\"rule-link\" href=\"{}#{}\" title=\"the rule's text\">§</a>",
                escape_html(rules_href),
                escape_html(g)
            );
        }
        let _ = write!(out, "</th><td>{ob}</td>");
        for k in 0..m.columns.len() {
            let t = m.tally(k, g);
            let class = worst(&t).map_or("s-none", score_class);
            let text: Vec<String> = Score::ALL
                .iter()
                .filter(|s| t.get(**s) > 0)
                .map(|s| format!("{} {}", t.get(*s), s.as_str()))
                .collect();
            let text = if text.is_empty() {
                "—".to_owned()
            } else {
                text.join(" · ")
            };
            let _ = write!(
                out,
                "<td class=\"cell {class}\" data-impl=\"{k}\">{}</td>",
                escape_html(&text)
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></section>\n");
}

/// The per-case matrix; returns the lanes data of every openable case.
fn case_matrix(out: &mut String, m: &Merged, rules_href: &str) -> BTreeMap<String, String> {
    let mut data = BTreeMap::new();
    let cols = m.columns.len();
    out.push_str("<section id=\"cases\"><h2>Per case</h2><p class=\"hint\">Every case, grouped by rule. A case that did not pass everywhere opens (▸) into the lanes view of its stream, the expected rejection index and each answered one pinned across the lanes.</p>");
    for g in &m.groups {
        let ids: Vec<&String> = m
            .case_ids
            .iter()
            .filter(|id| m.any(id).is_some_and(|c| &c.group == g))
            .collect();
        let bad = ids.iter().filter(|id| !m.all_pass(id)).count();
        let _ = write!(
            out,
            "<details class=\"group\" id=\"group-{}\"{}><summary><code>{}</code> — {} case{}, {bad} not passed everywhere</summary><table class=\"matrix cases\"><thead><tr><th>case</th><th>expected</th>",
            escape_html(g),
            if bad > 0 { " open" } else { "" },
            escape_html(g),
            ids.len(),
            if ids.len() == 1 { "" } else { "s" }
        );
        for c in &m.columns {
            let _ = write!(out, "<th>{}</th>", escape_html(&c.label));
        }
        out.push_str("</tr></thead><tbody>");
        for id in ids {
            let Some(first) = m.any(id) else { continue };
            let openable = !m.all_pass(id) && m.stream(id).is_some();
            let eid = escape_html(id);
            let _ = write!(out, "<tr class=\"case\" data-case=\"{eid}\"><th>");
            if openable {
                let _ = write!(
                    out,
                    "<button class=\"open\" data-case=\"{eid}\" aria-expanded=\"false\" title=\"Show the stream as lanes\">▸</button> "
                );
            }
            let _ = write!(
                out,
                "<code title=\"{}\">{eid}</code></th><td>{}</td>",
                escape_html(&first.description),
                escape_html(&plain(&first.expected.text))
            );
            for (k, col) in m.columns.iter().enumerate() {
                match col.case(id) {
                    Some(c) => {
                        let tip = format!("{} — {}", answer_text(c), c.reason);
                        let _ = write!(
                            out,
                            "<td class=\"cell {}\" data-impl=\"{k}\" title=\"{}\">{}</td>",
                            score_class(c.score),
                            escape_html(&tip),
                            c.score.as_str()
                        );
                    }
                    None => {
                        let _ = write!(out, "<td class=\"cell s-none\" data-impl=\"{k}\">—</td>");
                    }
                }
            }
            out.push_str("</tr>");
            if openable {
                let _ = write!(
                    out,
                    "<tr class=\"lanes-row\" data-for=\"{eid}\" hidden><td colspan=\"{}\">",
                    cols + 2
                );
                answers(out, m, id);
                out.push_str("<iframe class=\"lanes\" title=\"lanes\"></iframe></td></tr>");
                if let Some(d) = lanes_data(m, id, rules_href) {
                    data.insert(id.clone(), d);
                }
            }
        }
        out.push_str("</tbody></table></details>");
    }
    out.push_str("</section>\n");
    data
}

/// Each implementation's answer to case `id`, with its reason and what its
/// adapter explained.
fn answers(out: &mut String, m: &Merged, id: &str) {
    out.push_str("<ul class=\"answers\">");
    if let Some(first) = m.any(id) {
        let _ = write!(
            out,
            "<li class=\"expected\"><b>expected</b>: {}</li>",
            escape_html(&plain(&first.expected.text))
        );
    }
    for col in &m.columns {
        let Some(c) = col.case(id) else { continue };
        let _ = write!(
            out,
            "<li class=\"{}\"><b>{}</b>: {} <span class=\"score\">{}</span>",
            score_class(c.score),
            escape_html(&col.label),
            escape_html(&answer_text(c)),
            c.score.as_str()
        );
        if !c.reason.is_empty() {
            let _ = write!(out, " — {}", escape_html(&c.reason));
        }
        if let Some(msg) = &c.message {
            let _ = write!(out, "<div class=\"said\">“{}”</div>", escape_html(msg));
        }
        let (stage, warns, note) = explain_parts(c);
        if let Some(s) = stage {
            let _ = write!(
                out,
                "<div class=\"said\">stage <code>{}</code></div>",
                escape_html(s)
            );
        }
        if let Some(n) = note {
            let _ = write!(out, "<div class=\"said\">{}</div>", escape_html(n));
        }
        for w in warns.iter().take(5) {
            let _ = write!(out, "<div class=\"said\">warned: {}</div>", escape_html(w));
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

/// The lanes page's data block for case `id`: its stream, the reference
/// checker's violations, and the pins.
fn lanes_data(m: &Merged, id: &str, rules_href: &str) -> Option<String> {
    let bytes = match m.stream(id)? {
        Stream::Events(e) => {
            let mut b = Vec::new();
            for v in e {
                b.extend_from_slice(v.to_string().as_bytes());
                b.push(b'\n');
            }
            b
        }
        Stream::Lines(l) => (l.join("\n") + "\n").into_bytes(),
    };
    let events: Vec<Value> = crate::read_items(&bytes[..], &Default::default()).ok()?;
    let report = agui_model::check::check_bytes(&bytes, agui_model::Checker::without_projection());
    let mut layout = Layout::of(&events);
    layout.flag(&report.violations);
    let options = Options {
        title: id.to_owned(),
        rules_href: rules_href.to_owned(),
        pins: pins(m, id),
        verdict: None,
    };
    Some(page::data_json(&layout, &events, &options))
}

/// The expected rejection index, and each non-passing answered one.
fn pins(m: &Merged, id: &str) -> Vec<Pin> {
    let mut out = Vec::new();
    if let Some((c, i, r)) = m
        .any(id)
        .and_then(|c| Some((c, c.expected.index?, c.expected.rule.as_ref()?)))
    {
        out.push(Pin {
            index: i,
            label: format!("expected: {} at {i} ({r})", c.expected.verdict),
            kind: PinKind::Expected,
        });
    }
    for col in &m.columns {
        let Some(c) = col.case(id) else { continue };
        if matches!(c.score, Score::Pass | Score::Skipped) {
            continue;
        }
        if let Some(i) = answered_index(c) {
            out.push(Pin {
                index: i,
                label: format!("{}: reject at {i} ({})", col.label, c.score.as_str()),
                kind: PinKind::Answered,
            });
        }
    }
    out
}
