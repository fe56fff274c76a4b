//! The HTML page: a fixed skeleton, the inline stylesheet and script
//! (`assets/`), and the layout as one JSON block the script reads.
//!
//! The only text from outside the page's own code that lands in HTML is
//! the title (escaped here) and the JSON block, inside
//! `<script type="application/json">`, where every `<` is written `\u003c`
//! so that no string in the stream can close the script element.

use crate::layout::{BarKind, Cat, End, Layout, RunEnd, Start};
use agui_model::RuleId;
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// How the page is titled and where it links rule ids to.
#[derive(Debug, Clone)]
pub struct Options {
    /// Shown as the page's heading, e.g. the stream's file name.
    pub title: String,
    /// The rule catalogue's text; each rule id links to `{rules_href}#{id}`.
    pub rules_href: String,
    /// Indexes marked across every lane (a report's expected and answered
    /// rejection indexes).
    pub pins: Vec<Pin>,
    /// The check's verdict, shown in the summary; without it the page
    /// tells accept from reject by the violations it holds.
    pub verdict: Option<String>,
}

/// An index marked across every lane, with its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    pub index: usize,
    pub label: String,
    pub kind: PinKind,
}

/// What a pin marks; picks its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinKind {
    /// Where the expected answer rejects.
    Expected,
    /// Where an implementation rejected.
    Answered,
}

impl PinKind {
    fn as_str(self) -> &'static str {
        match self {
            PinKind::Expected => "expected",
            PinKind::Answered => "answered",
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            title: "AG-UI stream".to_owned(),
            rules_href: RULES_HREF.to_owned(),
            pins: Vec::new(),
            verdict: None,
        }
    }
}

/// The rule catalogue's page, relative to the repository root.
pub const RULES_HREF: &str = "docs/rules.md";

const CSS: &str = include_str!("../assets/lanes.css");
const JS: &str = include_str!("../assets/lanes.js");

/// `[owner, name, parent, depth, tracks]` of a lane.
type LaneRow<'a> = (Option<&'a str>, Option<&'a str>, i64, usize, usize);
/// `[lane, kind, from, to, closed, chunk, track, id]` of a bar.
type BarRow<'a> = (usize, u8, usize, usize, u8, u8, usize, &'a str);

/// The page's data block: column-wise and positional to keep a
/// 100,000-event page small and quick to parse. The codes index the
/// name tables at the top of `assets/lanes.js`.
#[derive(Serialize)]
struct Data<'a> {
    title: &'a str,
    #[serde(rename = "rulesHref")]
    rules_href: &'a str,
    /// `[owner, name, parent, depth, tracks]`; owner `null` is the parent
    /// agent, parent `-1` none.
    lanes: Vec<LaneRow<'a>>,
    /// Per event: its lane and [`Cat`] code.
    lane: Vec<usize>,
    cat: Vec<u8>,
    /// `[lane, kind, from, to, closed, chunk, track, id]`.
    bars: Vec<BarRow<'a>>,
    /// `[lane, from, to, start, end]`.
    lives: Vec<(usize, usize, usize, u8, u8)>,
    /// `[from, to, runId, end]`.
    runs: Vec<(usize, usize, Option<&'a str>, u8)>,
    /// `[index, lane, rule, message]`.
    flags: Vec<(usize, usize, &'static str, &'a str)>,
    /// The catalogue entry of each rule flagged: `[statement, severity,
    /// obligation]`.
    rules: BTreeMap<&'static str, (&'static str, &'static str, &'static str)>,
    /// `[index, label, kind]`.
    pins: Vec<(usize, &'a str, &'static str)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a str>,
    /// What the page left out at its budget, if anything.
    #[serde(rename = "leftOut", skip_serializing_if = "Option::is_none")]
    left_out: Option<&'a LeftOut>,
    events: Events<'a>,
}

/// The events a page shows: values, or JSON texts already written.
#[derive(Clone, Copy)]
pub enum Events<'a> {
    Values(&'a [Value]),
    Raw(&'a [Box<RawValue>]),
}

impl Serialize for Events<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Events::Values(v) => v.serialize(s),
            Events::Raw(r) => r.serialize(s),
        }
    }
}

/// What a page bounded by a byte budget left out, said on the page
/// ([`crate::picture`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    /// The page's budget in bytes.
    pub budget: usize,
    /// Events drawn: the first left out is this one.
    pub drawn: usize,
    /// Events in the stream.
    pub total: usize,
    /// Bytes of JSON of the events left out.
    pub bytes: u64,
    /// Events drawn but shown shortened (too large to show whole).
    pub shortened: usize,
    /// Violations not on the page (after the last event drawn, or past
    /// the page's share for violations).
    pub flags: usize,
}

fn cat_code(c: Cat) -> u8 {
    match c {
        Cat::Run => 0,
        Cat::Lifecycle => 1,
        Cat::Text => 2,
        Cat::Tool => 3,
        Cat::Reasoning => 4,
        Cat::Step => 5,
        Cat::State => 6,
        Cat::Activity => 7,
        Cat::Messages => 8,
        Cat::Custom => 9,
        Cat::Invalid => 10,
    }
}

fn bar_code(k: BarKind) -> u8 {
    match k {
        BarKind::Text => 0,
        BarKind::Tool => 1,
        BarKind::ReasoningSpan => 2,
        BarKind::ReasoningMessage => 3,
        BarKind::Step => 4,
    }
}

fn start_code(s: Start) -> u8 {
    match s {
        Start::Started => 0,
        Start::Unannounced => 1,
    }
}

fn end_code(e: End) -> u8 {
    match e {
        End::Finished => 0,
        End::Suspended => 1,
        End::Errored => 2,
        End::Abandoned => 3,
        End::Open => 4,
    }
}

fn run_end_code(e: RunEnd) -> u8 {
    match e {
        RunEnd::Finished => 0,
        RunEnd::Errored => 1,
        RunEnd::Open => 2,
    }
}

fn data<'a>(
    layout: &'a Layout,
    events: Events<'a>,
    options: &'a Options,
    left_out: Option<&'a LeftOut>,
) -> Data<'a> {
    let rules = layout
        .flags
        .iter()
        .map(|f| rule_entry(f.rule))
        .collect::<BTreeMap<_, _>>();
    Data {
        title: &options.title,
        rules_href: &options.rules_href,
        lanes: layout
            .lanes
            .iter()
            .map(|l| {
                let parent = l.parent.map_or(-1, |p| p as i64);
                (
                    l.owner.as_deref(),
                    l.name.as_deref(),
                    parent,
                    l.depth,
                    l.tracks,
                )
            })
            .collect(),
        lane: layout.marks.iter().map(|m| m.lane).collect(),
        cat: layout.marks.iter().map(|m| cat_code(m.cat)).collect(),
        bars: layout
            .bars
            .iter()
            .map(|b| {
                (
                    b.lane,
                    bar_code(b.kind),
                    b.from,
                    b.to,
                    u8::from(b.closed),
                    u8::from(b.chunk),
                    b.track,
                    b.id.as_str(),
                )
            })
            .collect(),
        lives: layout
            .lives
            .iter()
            .map(|l| (l.lane, l.from, l.to, start_code(l.start), end_code(l.end)))
            .collect(),
        runs: layout
            .runs
            .iter()
            .map(|r| (r.from, r.to, r.run_id.as_deref(), run_end_code(r.end)))
            .collect(),
        flags: layout
            .flags
            .iter()
            .map(|f| (f.index, f.lane, f.rule.as_str(), f.message.as_str()))
            .collect(),
        rules,
        pins: options
            .pins
            .iter()
            .map(|p| (p.index, p.label.as_str(), p.kind.as_str()))
            .collect(),
        verdict: options.verdict.as_deref(),
        left_out,
        events,
    }
}

fn rule_entry(id: RuleId) -> (&'static str, (&'static str, &'static str, &'static str)) {
    let r = id.rule();
    (
        r.id,
        (r.statement, r.severity.as_str(), r.obligation.as_str()),
    )
}

/// JSON that is safe inside a `<script>` element: every `<` (which JSON
/// allows only inside strings) becomes the escape `\u003c`.
pub fn script_json(value: &impl Serialize) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    json.replace('<', "\\u003c")
}

/// Text made safe for HTML element content and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The whole page.
pub fn render(layout: &Layout, events: &[Value], options: &Options) -> String {
    let mut page = Vec::new();
    // Writing to memory cannot fail, and every piece is UTF-8.
    let _ = write(&mut page, layout, Events::Values(events), options, None);
    String::from_utf8(page).unwrap_or_default()
}

/// Writes the whole page to `out` as it is serialised (the page is never
/// held whole), saying what was left out when `left_out` is given.
pub fn write(
    mut out: impl Write,
    layout: &Layout,
    events: Events<'_>,
    options: &Options,
    left_out: Option<&LeftOut>,
) -> io::Result<()> {
    let (head, tail) = shell(&options.title);
    out.write_all(head.as_bytes())?;
    serde_json::to_writer(
        ScriptSafe(&mut out),
        &data(layout, events, options, left_out),
    )?;
    out.write_all(tail.as_bytes())?;
    out.flush()
}

/// The page's data block (script-safe JSON), which goes between the two
/// halves of [`shell`].
pub fn data_json(layout: &Layout, events: &[Value], options: &Options) -> String {
    script_json(&data(layout, Events::Values(events), options, None))
}

/// A writer that spells every `<` as `\u003c` ([`script_json`], as the
/// text goes out).
struct ScriptSafe<W>(W);

impl<W: Write> Write for ScriptSafe<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for (k, part) in buf.split(|&b| b == b'<').enumerate() {
            if k > 0 {
                self.0.write_all(b"\\u003c")?;
            }
            self.0.write_all(part)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The page around its data block: everything before it (with `title`,
/// escaped) and everything after it. A report holds one shell and many
/// data blocks, and joins them when a case is opened.
pub fn shell(title: &str) -> (String, String) {
    let title = escape_html(title);
    let mut head = String::with_capacity(CSS.len() + 4096);
    head.push_str(&SKELETON_HEAD.replace("{title}", &title));
    head.push_str(CSS);
    head.push_str(&SKELETON_BODY.replace("{title}", &title));
    let mut tail = String::with_capacity(JS.len() + 64);
    tail.push_str("</script>\n<script>\n");
    tail.push_str(JS);
    tail.push_str("</script>\n</body>\n</html>\n");
    (head, tail)
}

const SKELETON_HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — lanes</title>
<style>
"#;

const SKELETON_BODY: &str = r#"</style>
</head>
<body>
<header id="top">
  <h1>{title}</h1>
  <div id="summary"></div>
</header>
<div id="toolbar">
  <details id="owners"><summary>Owners</summary><div id="owner-list"></div></details>
  <span class="group">
    <button id="zoom-in" title="Zoom in (+)">+</button><button id="zoom-out" title="Zoom out (−)">−</button><button id="zoom-fit" title="Whole stream (0)">Fit</button>
  </span>
  <span class="group">
    <button id="prev-flag" title="Previous violation (p)">◀ violation</button><button id="next-flag" title="Next violation (n)">violation ▶</button>
  </span>
  <span id="legend"></span>
</div>
<div id="overview"><canvas id="overview-canvas"></canvas><div id="brush"></div></div>
<div id="axis"><canvas id="axis-canvas"></canvas></div>
<div id="scroller">
  <div id="stage">
    <canvas id="lanes-canvas"></canvas>
    <div id="labels"></div>
    <div id="flag-layer"></div>
    <div id="tip" hidden></div>
  </div>
  <div id="spacer"></div>
</div>
<div id="panels">
  <section id="detail"><h2>Event</h2><div id="detail-body"><p class="hint">Hover over a mark to see its event; click to keep it here. Wheel scrolls the lanes; Ctrl+wheel or +/− zooms; drag or Shift+wheel pans.</p></div></section>
  <section id="violations"><h2>Violations</h2><div id="flag-list"></div></section>
</div>
<script id="data" type="application/json">"#;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let v = json!({"delta": "</script><script>alert(1)</script><!--"});
        let s = script_json(&v);
        assert!(!s.contains('<'), "{s}");
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn html_text_is_escaped() {
        assert_eq!(
            escape_html(r#"<a href="x">&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_page_has_one_data_block_holding_the_events_and_flagged_rules() {
        let events = vec![
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            json!({"type": "CUSTOM", "name": "</script>", "value": 1}),
        ];
        let mut layout = Layout::of(&events);
        layout.flag(&[agui_model::Violation::new(
            RuleId::RunUnterminated,
            2,
            "ends",
        )]);
        let options = Options {
            title: "<b>s.jsonl</b>".to_owned(),
            ..Options::default()
        };
        let page = render(&layout, &events, &options);
        assert_eq!(page.matches("</script>").count(), 2, "data and code only");
        assert!(page.contains("<h1>&lt;b&gt;s.jsonl&lt;/b&gt;</h1>"));
        let start = page.find(r#"type="application/json">"#).unwrap() + 24;
        let end = start + page[start..].find("</script>").unwrap();
        let data: Value = serde_json::from_str(&page[start..end]).unwrap();
        assert_eq!(data["events"], json!(events));
        assert_eq!(data["lane"], json!([0, 0]));
        assert_eq!(data["flags"], json!([[2, 0, "run.unterminated", "ends"]]));
        let rule = RuleId::RunUnterminated.rule();
        assert_eq!(
            data["rules"]["run.unterminated"],
            json!([rule.statement, "error", "may-reject"])
        );
        assert_eq!(data["rulesHref"], "docs/rules.md");
    }
}
