//! The producers page (docs/conformance/producers.md) from producer run
//! records (`run --producer URL --record FILE`): per producer, every
//! request of its scenarios (how its runs ended, our verdict, the peer's),
//! each conversation of several requests as one stream, its producer
//! suite, the findings with their rules, and what only a person knows
//! (labels, served paths, notes) from an [`Info`] file.

use super::md::{code, fence};
use crate::record::Record;
use crate::record::producer::{Found, Scenario, Version};
use agui_model::RuleId;
use agui_model::wire::key::ToolCallStart::{tool_call_id, tool_call_name};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The README markers the summary table goes between.
pub const SUMMARY_START: &str = "<!-- producers-summary:start -->";
pub const SUMMARY_END: &str = "<!-- producers-summary:end -->";

/// The suite whose records make the "Producer suite" table; the records
/// of any other suite are the scenarios.
pub const PRODUCER_SUITE: &str = "producer";

/// What a person writes about a producer (by record name).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct About {
    #[serde(default)]
    pub label: String,
    /// Each path served and what it is.
    #[serde(default)]
    pub paths: Vec<Path>,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub not_covered: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Path {
    pub path: String,
    pub what: String,
}

/// The info file: producer name → [`About`].
pub type Info = BTreeMap<String, About>;

/// One producer: its records, in the order given.
struct Producer<'a> {
    name: &'a str,
    records: Vec<&'a Record>,
}

impl Producer<'_> {
    fn scenarios(&self) -> impl Iterator<Item = (&Record, &Scenario)> {
        self.records
            .iter()
            .filter(|r| r.header.suite != PRODUCER_SUITE)
            .flat_map(|r| r.scenarios.iter().map(move |s| (*r, s)))
    }

    fn suite(&self) -> Option<&Record> {
        self.records
            .iter()
            .copied()
            .find(|r| r.header.suite == PRODUCER_SUITE)
    }

    fn versions(&self) -> String {
        versions(&self.records, |v| {
            format!("{} {}", code(&v.name), esc(&v.version))
        })
    }

    fn peer(&self) -> Option<&str> {
        self.records
            .iter()
            .find_map(|r| r.header.producer.as_ref()?.peer.as_deref())
    }
}

/// The anchor a producer's section of the producers page carries.
pub fn producer_anchor(name: &str) -> String {
    format!("producer-{}", super::md::slug(name))
}

/// A producer's pinned versions, from the first of its records that names
/// any, each written by `show`, joined by commas (empty when none does).
pub(super) fn versions(records: &[&Record], show: impl Fn(&Version) -> String) -> String {
    records
        .iter()
        .find_map(|r| {
            r.header
                .producer
                .as_ref()
                .filter(|p| !p.versions.is_empty())
        })
        .map(|p| p.versions.iter().map(show).collect::<Vec<_>>().join(", "))
        .unwrap_or_default()
}

fn group(records: &[Record]) -> Vec<Producer<'_>> {
    let mut out: Vec<Producer<'_>> = Vec::new();
    for r in records {
        let name = r.header.implementation.name.as_str();
        match out.iter_mut().find(|p| p.name == name) {
            Some(p) => p.records.push(r),
            None => out.push(Producer {
                name,
                records: vec![r],
            }),
        }
    }
    out
}

/// A record's text in a table cell or a paragraph: every string of a
/// record file (what the producer sent above all) is foreign
/// ([`super::md`]).
fn esc(text: &str) -> String {
    super::md::text(text)
}

fn cut(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// The path of a URL (`/` when it has none).
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    match rest.find('/') {
        Some(i) => &rest[i..],
        None => "/",
    }
}

/// The port of a URL, `PORT` when it names none.
fn port_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split('/').next().unwrap_or("");
    host.rsplit_once(':').map_or("PORT", |(_, p)| p)
}

/// `scenario` on `/`, `scenario@legacy` on `/legacy`.
fn tag(record: &Record, s: &Scenario) -> String {
    let path = record
        .header
        .producer
        .as_ref()
        .map_or("/", |p| url_path(&p.url));
    match path.trim_matches('/') {
        "" => s.id.clone(),
        p => format!("{}@{p}", s.id),
    }
}

fn label<'a>(info: &'a Info, name: &'a str) -> &'a str {
    info.get(name)
        .map(|a| a.label.as_str())
        .filter(|l| !l.is_empty())
        .unwrap_or(name)
}

/// A step's row label: the scenario, then `→ resume (status)` and so on.
fn step_label(tag: &str, s: &Scenario, k: usize) -> String {
    let Some(step) = s.steps.get(k) else {
        return tag.to_owned();
    };
    if k == 0 {
        return tag.to_owned();
    }
    match step.kind.as_str() {
        "resume" => {
            let status = step.request["resume"][0]["status"]
                .as_str()
                .unwrap_or("resolved");
            format!("{tag} → resume ({status})")
        }
        other => format!("{tag} → {other}"),
    }
}

fn kind(e: &Value) -> &str {
    e.get("type").and_then(Value::as_str).unwrap_or("?")
}

/// How a step's runs ended, with what its events show beside the
/// outcome: the tool results a later request brought, the tool calls left
/// for the client, the `CUSTOM` events.
fn ended(s: &Scenario, k: usize) -> String {
    let Some(step) = s.steps.get(k) else {
        return String::new();
    };
    let range = step.range();
    let events = s.stream.get(range.clone()).unwrap_or_default();
    let last = s.runs.iter().rfind(|r| {
        r["start"]
            .as_u64()
            .is_some_and(|i| range.contains(&(i as usize)))
    });
    let Some(run) = last else {
        return "no terminal event".into();
    };
    match run["outcome"].as_str().unwrap_or("?") {
        "errored" => {
            let mut t = format!(
                "errored: {}",
                esc(&cut(run["message"].as_str().unwrap_or(""), 80))
            );
            if let Some(c) = run["code"].as_str() {
                let _ = write!(t, " (code {})", code(c));
            }
            t
        }
        "interrupted" => {
            let n = run["interrupts"].as_array().map_or(0, Vec::len);
            format!("interrupted ({n} interrupt(s))")
        }
        "unterminated" => "no terminal event".into(),
        outcome => {
            let extra = signals(&s.stream, events, k > 0);
            if extra.is_empty() {
                esc(outcome)
            } else {
                format!("{} ({})", esc(outcome), extra.join("; "))
            }
        }
    }
}

fn signals(all: &[Value], events: &[Value], later: bool) -> Vec<String> {
    let mut extra = Vec::new();
    let custom: Vec<String> = events
        .iter()
        .filter(|e| kind(e) == "CUSTOM")
        .filter_map(|e| e.get("name").and_then(Value::as_str))
        .map(code)
        .collect();
    if !custom.is_empty() {
        extra.push(format!("`CUSTOM` {}", custom.join(", ")));
    }
    let name_of = |id: &Value| {
        all.iter()
            .find(|e| kind(e) == "TOOL_CALL_START" && e.get(tool_call_id) == Some(id))
            .and_then(|e| e.get(tool_call_name).and_then(Value::as_str))
            .unwrap_or("?")
            .to_owned()
    };
    let results: Vec<&Value> = events
        .iter()
        .filter(|e| kind(e) == "TOOL_CALL_RESULT")
        .collect();
    if later {
        for r in &results {
            let content = match r.get("content") {
                Some(Value::String(t)) => t.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            extra.push(format!(
                "result of {}: “{}”",
                code(&name_of(r.get(tool_call_id).unwrap_or(&Value::Null))),
                esc(&cut(&content, 60))
            ));
        }
    }
    let pending: Vec<String> = events
        .iter()
        .filter(|e| kind(e) == "TOOL_CALL_START")
        .filter(|e| {
            !results
                .iter()
                .any(|r| r.get(tool_call_id) == e.get(tool_call_id))
        })
        .filter_map(|e| e.get(tool_call_name).and_then(Value::as_str))
        .map(code)
        .collect();
    if !pending.is_empty() {
        extra.push(format!(
            "tool calls left for the client: {}",
            pending.join(", ")
        ));
    }
    extra
}

fn verdict<'a>(mut found: impl Iterator<Item = &'a Found>) -> &'static str {
    if found.any(|v| v.severity == "error") {
        "reject"
    } else {
        "accept"
    }
}

fn listed<'a>(found: impl Iterator<Item = &'a Found>, base: usize) -> String {
    let v: Vec<String> = found
        .map(|f| format!("{} at {}", code(&f.rule), f.index.saturating_sub(base)))
        .collect();
    if v.is_empty() {
        "—".into()
    } else {
        v.join(", ")
    }
}

/// The peer's answer in a cell: `accept`, or where and why it rejects.
fn peer_cell(answer: Option<&Value>, events: &[Value]) -> String {
    let Some(a) = answer else {
        return "not run".into();
    };
    match a.get("verdict").and_then(Value::as_str) {
        Some("reject") => {
            let index = a.get("index").and_then(Value::as_u64);
            let shown = index
                .and_then(|i| events.get(i as usize))
                .map(|e| format!(" ({})", code(kind(e))))
                .unwrap_or_default();
            let at = index.map_or("?".into(), |i| i.to_string());
            let why = cut(a.get("message").and_then(Value::as_str).unwrap_or(""), 140);
            format!("reject at {at}{shown}: {}", esc(&why))
        }
        Some(v) => esc(v),
        None => esc(&cut(&a.to_string(), 140)),
    }
}

/// Summary counts of one producer: requests, accepted, rejected,
/// violations (each conversation's counted once).
fn counts(p: &Producer<'_>) -> (usize, usize, usize, usize) {
    let (mut n, mut acc, mut rej, mut viol) = (0, 0, 0, 0);
    for (_, s) in p.scenarios() {
        for k in 0..s.steps.len() {
            n += 1;
            if verdict(s.found_in(k)) == "reject" {
                rej += 1;
            } else {
                acc += 1;
            }
        }
        viol += s.violations.len();
    }
    (n, acc, rej, viol)
}

/// The suite's scores, `6 PASS, 1 SKIPPED`.
fn suite_scores(r: &Record) -> String {
    let t = r.totals();
    use crate::score::Score::*;
    [Pass, Warn, Info, Skipped, Fail, Errored]
        .into_iter()
        .filter(|s| t.get(*s) > 0)
        .map(|s| format!("{} {}", t.get(s), s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The summary table's lines (the page's and the README's).
pub fn summary_table(records: &[Record], info: &Info, missing: &[(String, String)]) -> Vec<String> {
    let mut w = vec![
        "| producer | versions | scenarios checked | accepted | rejected | violations | producer suite |".to_owned(),
        "|---|---|---:|---:|---:|---:|---|".to_owned(),
    ];
    for p in group(records) {
        let (n, acc, rej, viol) = counts(&p);
        let suite = p.suite().map_or("did not run".into(), suite_scores);
        w.push(format!(
            "| {} | {} | {n} | {acc} | {rej} | {viol} | {suite} |",
            esc(label(info, p.name)),
            p.versions()
        ));
    }
    for (name, why) in missing {
        w.push(format!(
            "| {} | — | not run: {} | | | | |",
            esc(label(info, name)),
            esc(why)
        ));
    }
    w
}

const INTRO: &str = "Generated by `scripts/producers-report.sh` (`agui-conform report` on the run records of `agui-conform run --producer … --record`) — do not edit by hand; rerun it. Each producer is a small server in `adapters/producers/NAME/` (`server.py`, or `server.mjs` for a Node package) around a real framework adapter, every package pinned (`NAME/requirements.txt`, or the Node package's `package-lock.json`), driven by a scripted model (no network, no model weights): the same conversation on every run. Scenarios are chosen by the user message (`adapters/producers/common/script.py`; the Node server carries the same script) and written as producer-suite scenarios in `adapters/producers/scenarios/`. Rules and their wording: `docs/rules.md` (`agui-conform rules`).";

/// The whole page.
pub fn render(records: &[Record], info: &Info, missing: &[(String, String)]) -> String {
    let mut w: Vec<String> = Vec::new();
    w.push("# Real producers: conformance of AG-UI framework adapters\n".into());
    w.push(format!("{INTRO}\n"));
    w.push("## Summary\n".into());
    w.extend(summary_table(records, info, missing));
    w.push(String::new());
    let producers = group(records);
    let peer = producers.iter().find_map(|p| p.peer()).map(str::to_owned);
    let mut about = "A scenario's requests are sent in turn, each later one built from the answer before (a resume names the interrupts the producer raised); each request's verdict is that of its own stream, and a conversation of several requests is also checked as one stream, for the rules across runs. The producer suite is `agui-conform run --producer URL` with the `producer` suite of the binary that ran.".to_owned();
    if let Some(peer) = &peer {
        let _ = write!(
            about,
            " Each stream is also given to {peer} (`--peer`, its adapter in `adapters/validate/`; its first error is its rejection): where it rejects a stream this catalogue accepts, the scenario tables say at which event and why ([why it departs](ag-ui-validate.md))."
        );
    }
    w.push(format!("{about}\n"));
    for r in records.iter().filter(|r| r.footer.is_none()) {
        let cut = r.cut.map(|c| format!(" and {c}")).unwrap_or_default();
        w.push(format!(
            "**A record of {} ends without a footer**{cut} (the run was cut short): reported from the {} scenario line(s) written whole.\n",
            esc(&r.header.implementation.name),
            r.scenarios.len()
        ));
    }
    for p in &producers {
        section(&mut w, p, info);
    }
    for (name, why) in missing {
        w.push(format!("## {}\n", esc(label(info, name))));
        w.push(format!("Not run: {}.\n", esc(why)));
    }
    let mut out = w.join("\n").trim_end().to_owned();
    out.push('\n');
    out
}

fn section(w: &mut Vec<String>, p: &Producer<'_>, info: &Info) {
    let about = info.get(p.name).cloned().unwrap_or_default();
    // The conformance report's matrix links each producer row here.
    w.push(format!(
        "<a id=\"{}\"></a>\n## {}\n",
        producer_anchor(p.name),
        esc(label(info, p.name))
    ));
    w.push(format!("Versions: {}.\n", p.versions()));
    if !about.paths.is_empty() {
        let paths: Vec<String> = about
            .paths
            .iter()
            .map(|x| format!("`{}` — {}", x.path, x.what))
            .collect();
        w.push(format!("Served paths: {}.\n", paths.join("; ")));
    }
    let peer = p.peer();
    let mut head =
        "| scenario | path | events | how the run ended | verdict | violations |".to_owned();
    let mut rule = "|---|---|---:|---|---|---|".to_owned();
    if let Some(name) = peer {
        let _ = write!(head, " {name} |");
        rule.push_str("---|");
    }
    w.push(head);
    w.push(rule);
    let mut joined = Vec::new();
    for (r, s) in p.scenarios() {
        let tag = tag(r, s);
        let path = r.header.producer.as_ref().map_or("/", |x| url_path(&x.url));
        for (k, step) in s.steps.iter().enumerate() {
            let mut row = format!(
                "| {} | {} | {} | {} | {} | {} |",
                esc(&step_label(&tag, s, k)),
                code(path),
                step.events,
                ended(s, k),
                verdict(s.found_in(k)),
                listed(s.found_in(k), step.start)
            );
            if peer.is_some() {
                let events = s.stream.get(step.range()).unwrap_or_default();
                let _ = write!(row, " {} |", peer_cell(step.peer.as_ref(), events));
            }
            w.push(row);
        }
        if s.steps.len() > 1 {
            let mut row = format!(
                "| {}: {} as one stream | | {} | | {} | {} |",
                esc(&tag),
                match s.steps.len() {
                    2 => "both requests".to_owned(),
                    n => format!("the {n} requests"),
                },
                s.events,
                verdict(s.violations.iter()),
                listed(s.violations.iter(), 0)
            );
            if peer.is_some() {
                let _ = write!(row, " {} |", peer_cell(s.peer.as_ref(), &s.stream));
            }
            joined.push(row);
        }
    }
    w.extend(joined);
    w.push(String::new());
    if let Some(suite) = p.suite() {
        w.push("Producer suite (`agui-conform run --producer`):\n".into());
        w.push("| input | score | events | HTTP | how the runs ended | violations |".into());
        w.push("|---|---|---:|---:|---|---|".into());
        for s in &suite.scenarios {
            let mut ended: Vec<String> = s
                .steps
                .iter()
                .map(|st| {
                    let o = if st.outcomes.is_empty() {
                        "not sent".to_owned()
                    } else {
                        st.outcomes.join(", ")
                    };
                    format!("{} → {}", esc(&st.kind), esc(&o))
                })
                .collect();
            for (key, why) in [
                ("refused", &s.refused),
                ("skipped", &s.skipped),
                ("failed", &s.failure),
            ] {
                if let Some(why) = why {
                    ended.push(format!("{key}: {}", esc(&cut(why, 200))));
                }
            }
            w.push(format!(
                "| {} | {} | {} | {} | {} | {} |",
                esc(&s.id),
                s.score.as_str(),
                s.events,
                s.status.map_or(String::new(), |x| x.to_string()),
                ended.join("; "),
                listed(s.violations.iter(), 0)
            ));
        }
        w.push(String::new());
    }
    findings(w, p);
    w.push(String::new());
    w.push("### Notes (behaviour outside the rules)\n".into());
    for note in &about.notes {
        w.push(format!("- {note}"));
    }
    w.push(String::new());
    w.push(format!("### Not covered\n\n{}\n", about.not_covered));
}

fn the_rule(w: &mut Vec<String>, id: &str) {
    if let Some(rule) = RuleId::from_id(id).map(RuleId::rule) {
        w.push(format!(
            "  - The rule: “{}” (docs/rules.md, source: {})",
            rule.statement,
            rule.source.as_str()
        ));
    }
}

fn findings(w: &mut Vec<String>, p: &Producer<'_>) {
    w.push("### Findings\n".into());
    let mut any = false;
    for (r, s) in p.scenarios() {
        let tag = tag(r, s);
        let url = r.header.producer.as_ref().map_or("", |x| x.url.as_str());
        for (k, step) in s.steps.iter().enumerate() {
            for v in s.found_in(k) {
                any = true;
                let at = v.index.saturating_sub(step.start);
                w.push(format!(
                    "- **{}** ({}) in scenario {} at event {at}: {}",
                    code(&v.rule),
                    esc(&v.severity),
                    code(&step_label(&tag, s, k)),
                    esc(&v.message)
                ));
                the_rule(w, &v.rule);
                if let Some(e) = s.stream.get(v.index).filter(|_| v.index < step.range().end) {
                    w.push(format!(
                        "  - The event: {}",
                        code(&cut(&e.to_string(), 300))
                    ));
                }
                let before = if k == 0 {
                    String::new()
                } else {
                    " after the scenario's earlier requests on the same thread".to_owned()
                };
                let n = p.name;
                w.push(format!(
                    "  - Reproduce: start {}, then {}{before} with request.json:",
                    code(&format!(
                        "adapters/producers/serve.sh start {n} {} /tmp/producer-{n}",
                        port_of(url)
                    )),
                    code(&format!(
                        "agui-conform check --url {url} --input request.json"
                    )),
                ));
                w.push(String::new());
                let request = step.request.to_string();
                w.push(
                    fence("json", [request.as_str()], "    ")
                        .trim_end()
                        .to_owned(),
                );
            }
        }
    }
    if let Some(suite) = p.suite() {
        let url = suite
            .header
            .producer
            .as_ref()
            .map_or("", |x| x.url.as_str());
        for s in &suite.scenarios {
            for v in &s.violations {
                any = true;
                w.push(format!(
                    "- **{}** in producer-suite input {} at event {}: {}",
                    code(&v.rule),
                    code(&s.id),
                    v.index,
                    esc(&v.message)
                ));
                the_rule(w, &v.rule);
                w.push(format!(
                    "  - Reproduce: {} against the server above (the input is {}).",
                    code(&format!(
                        "agui-conform run --producer {url} --filter {}",
                        s.id
                    )),
                    code(&format!("suites/producer/{}.json", s.id))
                ));
            }
        }
    }
    if !any {
        w.push("None: every stream checked conforms.\n".into());
    }
}

/// `text` with the summary table between the producers-summary markers;
/// `None` when it has no such markers.
pub fn fill_summary(text: &str, table: &[String]) -> Option<String> {
    let start = text.find(SUMMARY_START)?;
    let end = text.find(SUMMARY_END)?;
    if start > end {
        return None;
    }
    Some(format!(
        "{}{SUMMARY_START}\n\n{}\n\n{}",
        &text[..start],
        table.join("\n"),
        &text[end..]
    ))
}
