//! Run records (`run --record FILE`): one run, self-describing, in JSON
//! Lines — a header (who was run, on what, by which tool), one line per
//! case (expectation, answer, score and why, what the implementation said,
//! the stream of every case that did not pass), and a footer (totals, the
//! abort reason). `docs/run-record.schema.json` describes the form.
//!
//! A record carries everything `agui-conform report` needs, so a report
//! can be made later, elsewhere, from records alone: no corpus, no rerun.
//!
//! A producer run (`run --producer URL --record FILE`) writes the same
//! header with a `producer` field, `scenario` lines instead of `case`
//! lines ([`producer`]), and the same footer. A fuzz campaign (`fuzz
//! --record FILE`) writes the header with `fuzz`, `finding` lines
//! ([`fuzz`]), and the footer with `fuzz`.

pub mod fuzz;
pub mod producer;
pub mod writer;

use crate::implementation::ImplInfo;
use crate::report::{describe_expected, last_lines, message, rule_label, stderr};
use crate::runner::{CaseResult, RunResult, Tally};
use crate::score::Score;
use crate::suite::{Origin, SuiteCase};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The record format's name and version (the header's `format`). Version
/// 2 added `finding` lines and the `fuzz` fields (fuzz campaigns).
pub const FORMAT: &str = "agui-conform-run-record/2";

/// The formats a record may be read in: version 1 is version 2 without
/// fuzz campaigns.
const READABLE: [&str; 2] = [FORMAT, "agui-conform-run-record/1"];

/// The rule catalogue the scores are by.
pub const CATALOGUE: &str = "docs/rules.md revision 4";

/// Lines of an implementation's stderr kept per case.
const STDERR_LINES: usize = 20;

/// The first line.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Header {
    pub format: String,
    pub implementation: Implementation,
    pub suite: String,
    pub catalogue: String,
    /// The version of agui-conform that made the record.
    pub agui_conform: String,
    /// When the run started (the record is written as it goes), RFC 3339
    /// UTC.
    pub date: String,
    /// The number of cases the suite holds (after `--filter`).
    pub cases: usize,
    /// Present in a producer run record: the producer that was run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<producer::Producer>,
    /// Present exactly in a fuzz campaign's record: what it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<fuzz::Plan>,
}

/// What the implementation said it is in its handshake.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Implementation {
    pub name: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub language: String,
    pub capabilities: Vec<String>,
}

/// One case's line.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Case {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The sentence of the spec a corpus case tests (its `spec`), for every
    /// case that keeps its stream.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub spec: String,
    /// The per-rule row it counts in: its first violation's rule, else the
    /// `accept.*` obligation it tests, else `valid`.
    pub group: String,
    pub expected: Expected,
    /// The answer as `run --format json` writes it (`got`), less an
    /// accepted projection.
    pub answer: Value,
    /// The expected and the reported projection, when they differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<Value>,
    pub score: Score,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// `right` or `wrong`, when the answer named a rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_named: Option<String>,
    /// The implementation's own message with its answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The adapter's `explain` object (suites/PROTOCOL.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explain: Option<Value>,
    /// The end of what the implementation wrote to stderr on the case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The stream, for every case that did not pass (so a report can draw
    /// it); absent for a PASS or SKIPPED case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<Stream>,
    /// A smaller stream on which the implementation still fails
    /// (`run --save-failures`), with the reference's expectation on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrunk: Option<Shrunk>,
    /// A case from an official fixture: whether the answer agrees with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub official: Option<crate::score::Agreement>,
    pub elapsed_us: u64,
}

/// A case's expected answer.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Expected {
    pub verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For people: `reject at 3 (`text.not-open`, should-reject)`.
    pub text: String,
    /// The expected projection, kept when the adapter's `explain` shows
    /// what the implementation holds (`shown`), so a report can compare.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<Value>,
}

/// A stream as the case gives it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Stream {
    Events(Vec<Value>),
    /// Raw JSON Lines text (a duplicate key, a lone surrogate).
    Lines(Vec<String>),
}

/// A shrunk failing stream.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Shrunk {
    pub description: String,
    pub events: Vec<Value>,
    pub expected: String,
}

/// The last line.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Footer {
    pub totals: Totals,
    /// Per-rule rows, keyed as [`Case::group`].
    pub rules: BTreeMap<String, Totals>,
    pub status: String,
    pub exit_status: u8,
    /// Why the run stopped early or is incomplete, when it did or is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incomplete: Option<String>,
    #[serde(default)]
    pub incidents: Vec<String>,
    #[serde(default)]
    pub problems: Vec<String>,
    pub elapsed_ms: u64,
    /// A fuzz campaign's coverage, failures per rule and cuts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<fuzz::Summary>,
    /// Agreement with the official AG-UI corpus, when the run had cases
    /// from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub official: Option<OfficialTotals>,
}

/// How many official-fixture cases agree, differ or could not be compared.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct OfficialTotals {
    pub agree: u64,
    pub differ: u64,
    /// Not comparable, skipped or errored.
    pub unjudged: u64,
}

impl OfficialTotals {
    /// Over a run's results; `None` when no case came from an official fixture.
    pub fn of(run: &RunResult) -> Option<OfficialTotals> {
        let mut t = OfficialTotals::default();
        let mut any = false;
        for a in run
            .results
            .iter()
            .filter_map(|r| r.scored.official.as_ref())
        {
            any = true;
            match a.agrees {
                Some(true) => t.agree += 1,
                Some(false) => t.differ += 1,
                None => t.unjudged += 1,
            }
        }
        any.then_some(t)
    }
}

/// Counts per score.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Totals {
    #[serde(rename = "PASS")]
    pub pass: u64,
    #[serde(rename = "FAIL")]
    pub fail: u64,
    #[serde(rename = "WARN")]
    pub warn: u64,
    #[serde(rename = "INFO")]
    pub info: u64,
    #[serde(rename = "SKIPPED")]
    pub skipped: u64,
    #[serde(rename = "ERRORED")]
    pub errored: u64,
}

impl Totals {
    pub fn get(&self, s: Score) -> u64 {
        match s {
            Score::Pass => self.pass,
            Score::Fail => self.fail,
            Score::Warn => self.warn,
            Score::Info => self.info,
            Score::Skipped => self.skipped,
            Score::Errored => self.errored,
        }
    }

    pub fn add(&mut self, s: Score) {
        let n = match s {
            Score::Pass => &mut self.pass,
            Score::Fail => &mut self.fail,
            Score::Warn => &mut self.warn,
            Score::Info => &mut self.info,
            Score::Skipped => &mut self.skipped,
            Score::Errored => &mut self.errored,
        };
        *n += 1;
    }

    pub fn total(&self) -> u64 {
        Score::ALL.iter().map(|s| self.get(*s)).sum()
    }

    pub(crate) fn of(t: &Tally) -> Self {
        let mut out = Totals::default();
        for s in Score::ALL {
            for _ in 0..t.get(s) {
                out.add(s);
            }
        }
        out
    }
}

/// One line of a record, tagged by `kind`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)]
pub enum Line {
    Header(Header),
    Case(Case),
    /// A producer suite's scenario.
    Scenario(producer::Scenario),
    /// A fuzz campaign's distinct failure.
    Finding(fuzz::Finding),
    Footer(Footer),
}

/// What the tool that writes a record adds to the run.
#[derive(Debug, Clone)]
pub struct Meta {
    pub agui_conform: String,
    pub date: String,
}

impl Meta {
    /// This harness's version, dated now.
    pub fn now() -> Self {
        Meta {
            agui_conform: env!("CARGO_PKG_VERSION").to_owned(),
            date: rfc3339_now(),
        }
    }
}

/// The record of a run over `cases`; `shrunk` holds the shrunk streams
/// saved for some cases (by case index).
pub fn render(
    run: &RunResult,
    cases: &[SuiteCase],
    meta: &Meta,
    shrunk: &BTreeMap<usize, Shrunk>,
) -> String {
    let mut out = String::new();
    let mut push = |line: Line| {
        if let Ok(text) = serde_json::to_string(&line) {
            out.push_str(&text);
            out.push('\n');
        }
    };
    push(Line::Header(header(
        &run.implementation,
        &run.suite,
        cases.len(),
        meta,
    )));
    for r in &run.results {
        push(Line::Case(case_line(
            r,
            &cases[r.case],
            shrunk.get(&r.case),
        )));
    }
    push(Line::Footer(footer(run, cases)));
    out
}

/// The header of a record of `suite` (`cases` cases) run on `i`.
pub fn header(i: &ImplInfo, suite: &str, cases: usize, meta: &Meta) -> Header {
    Header {
        format: FORMAT.to_owned(),
        implementation: Implementation {
            name: i.name.clone(),
            version: i.version.clone(),
            language: i.language.clone(),
            capabilities: i
                .capabilities
                .names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        },
        suite: suite.to_owned(),
        catalogue: CATALOGUE.to_owned(),
        agui_conform: meta.agui_conform.clone(),
        date: meta.date.clone(),
        cases,
        producer: None,
        fuzz: None,
    }
}

/// The footer of a run over `cases` (whole or summaries).
pub fn footer(run: &RunResult, cases: &[SuiteCase]) -> Footer {
    Footer {
        totals: Totals::of(&run.total()),
        rules: run
            .per_rule(cases)
            .into_iter()
            .map(|(k, t)| (rule_label(k).to_owned(), Totals::of(&t)))
            .collect(),
        status: run.status().as_str().to_owned(),
        exit_status: run.status().exit_code(),
        incomplete: run.incomplete(),
        incidents: run.incidents.clone(),
        problems: run.problems.clone(),
        elapsed_ms: u64::try_from(run.elapsed.as_millis()).unwrap_or(u64::MAX),
        fuzz: None,
        official: OfficialTotals::of(run),
    }
}

/// Whether a case's line keeps its stream: unless it passed or was skipped
/// (a case that could not be judged keeps it).
fn drawn(r: &CaseResult) -> bool {
    !r.scored.quiet()
}

/// A stream as [`Stream`] writes it, borrowed.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum StreamRef<'a> {
    Events(&'a [Value]),
    Lines(&'a [String]),
}

/// The line of one settled case as text, its stream written from the case
/// without a copy of it (the same text as serialising [`case_line`]'s
/// [`Line::Case`], the stream last).
pub fn case_text(r: &CaseResult, c: &SuiteCase) -> serde_json::Result<String> {
    let mut text = serde_json::to_vec(&Line::Case(line_of(r, c, None, false)))?;
    if drawn(r) {
        // `{"kind":"case",…}` takes `"stream"` as its last key.
        text.pop();
        text.extend_from_slice(b",\"stream\":");
        match &c.lines {
            Some(lines) => serde_json::to_writer(&mut text, &StreamRef::Lines(lines))?,
            None => serde_json::to_writer(&mut text, &StreamRef::Events(&c.events))?,
        }
        text.push(b'}');
    }
    // serde_json writes UTF-8: no copy is made here.
    String::from_utf8(text).map_err(|e| serde_json::Error::io(std::io::Error::other(e)))
}

/// The line of one settled case (its stream kept unless it passed or was
/// skipped).
pub fn case_line(r: &CaseResult, c: &SuiteCase, shrunk: Option<&Shrunk>) -> Case {
    line_of(r, c, shrunk, true)
}

/// [`case_line`], its stream left out unless `with_stream`.
fn line_of(r: &CaseResult, c: &SuiteCase, shrunk: Option<&Shrunk>, with_stream: bool) -> Case {
    let e = &c.expected;
    let score = r.scored.score;
    let drawn = drawn(r);
    let stream = (drawn && with_stream).then(|| match &c.lines {
        Some(lines) => Stream::Lines(lines.clone()),
        None => Stream::Events(c.events.clone()),
    });
    let (seed, mode) = match &c.origin {
        Origin::Generated { seed, mode, .. } => (Some(*seed), Some(mode.label())),
        Origin::Corpus { .. } => (None, None),
    };
    let shown = r.explain.as_ref().is_some_and(|x| x.get("shown").is_some());
    // Raw-line cases are left out: their projection holds what a JSON value
    // cannot carry (1e400, a lone surrogate) in the model's own encoding.
    let compared = shown && e.projection.is_some() && c.lines.is_none();
    let spec = match &c.origin {
        Origin::Corpus { path } if drawn || compared => spec_of(path),
        _ => String::new(),
    };
    Case {
        id: c.id.clone(),
        description: c.description.clone(),
        spec,
        group: rule_label(c.rule_key()).to_owned(),
        expected: Expected {
            verdict: e.verdict.as_str().to_owned(),
            rule: e.first.map(|(r, _)| r.as_str().to_owned()),
            index: e.first.map(|(_, i)| i),
            text: describe_expected(e),
            projection: e.projection.clone().filter(|_| compared),
        },
        answer: answer_of(r),
        projection: r
            .scored
            .projection_mismatch
            .as_ref()
            .map(|(want, got)| serde_json::json!({"expected": want, "reported": got})),
        score,
        reason: r.scored.reason.clone(),
        rule_named: r.scored.naming.map(|n| n.as_str().to_owned()),
        message: message(r).map(str::to_owned),
        explain: r.explain.clone(),
        stderr: stderr(r).map(|t| last_lines(t, STDERR_LINES).join("\n")),
        seed,
        mode,
        stream,
        shrunk: shrunk.cloned(),
        official: r.scored.official.clone(),
        elapsed_us: u64::try_from(r.elapsed.as_micros()).unwrap_or(u64::MAX),
    }
}

/// The `spec` sentence of the corpus case file at `path` (empty when it
/// cannot be read: a suite case keeps no `spec` of its own).
fn spec_of(path: &std::path::Path) -> String {
    let Ok(text) = std::fs::read_to_string(path) else {
        return String::new();
    };
    agui_model::json::parse(&text, &agui_model::json::ParseOptions::default())
        .ok()
        .and_then(|p| {
            p.value
                .get("spec")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_default()
}

/// The answer as `run --format json` writes it, without an accepted
/// projection (the case line says when it differed from the expected one).
fn answer_of(r: &CaseResult) -> Value {
    let mut v = r.outcome.to_json();
    if let Value::Object(m) = &mut v {
        m.remove("projection");
    }
    v
}

/// A record read back.
#[derive(Debug, Clone)]
pub struct Record {
    pub header: Header,
    pub cases: Vec<Case>,
    /// The scenarios of a producer run record.
    pub scenarios: Vec<producer::Scenario>,
    /// The findings of a fuzz campaign's record.
    pub findings: Vec<fuzz::Finding>,
    /// `None` when the record was cut short (the run was killed).
    pub footer: Option<Footer>,
    /// The record's last line was cut (not ended by a line break, and not
    /// a whole record line): left out.
    pub cut: Option<Cut>,
}

/// A last line cut in the middle (a run killed while writing it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Its line number (1-based).
    pub line: usize,
    /// The bytes of it that were written.
    pub bytes: usize,
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "its last line (line {}, {} bytes) was cut mid-write and is left out",
            self.line, self.bytes
        )
    }
}

/// One line of a record file, read.
fn read_line(line: &str, n: usize) -> Result<Line, String> {
    // The workspace's parser: a stream may nest deeper than serde_json's
    // recursion limit, and keep numbers like 1e400.
    let value = agui_model::json::parse(line, &agui_model::json::ParseOptions::default())
        .map_err(|e| format!("line {n}: {e}"))?
        .value;
    serde_json::from_value(value).map_err(|e| format!("line {n}: {e}"))
}

impl Record {
    /// Reads a record from its bytes, as [`Record::parse`] does, except
    /// that a last line that is not ended by a line break and is not a
    /// whole record line (cut mid-write, maybe inside a UTF-8 character)
    /// is left out and said in [`Record::cut`]. Every other line must be
    /// whole: a bad line before the last is an error naming it.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Record, String> {
        let (whole, tail) = match bytes.iter().rposition(|b| *b == b'\n') {
            Some(i) => bytes.split_at(i + 1),
            None => (&[][..], bytes),
        };
        let text = std::str::from_utf8(whole).map_err(|e| {
            let line = whole[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count()
                + 1;
            format!("line {line}: not UTF-8")
        })?;
        let line_no = text.lines().count() + 1;
        let last = std::str::from_utf8(tail)
            .ok()
            .filter(|t| !t.trim().is_empty())
            .map(|t| read_line(t, line_no));
        match last {
            // A last line written whole, only without its line break.
            Some(Ok(_)) => {
                let all = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
                Record::parse(all)
            }
            None if tail.iter().all(u8::is_ascii_whitespace) => Record::parse(text),
            // Cut: the whole lines are the record.
            _ => {
                let mut r = Record::parse(text)?;
                r.cut = Some(Cut {
                    line: line_no,
                    bytes: tail.len(),
                });
                Ok(r)
            }
        }
    }

    /// Reads a record from its text. Blank lines are ignored; anything
    /// else that is not a record line is an error naming its line.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut header = None;
        let mut cases = Vec::new();
        let mut scenarios = Vec::new();
        let mut findings = Vec::new();
        let mut footer = None;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let parsed = read_line(line, n + 1)?;
            match (parsed, &header) {
                (Line::Header(h), None) => header = Some(h),
                (Line::Header(_), Some(_)) => {
                    return Err(format!("line {}: a second header", n + 1));
                }
                (_, None) => {
                    return Err(format!("line {}: a record starts with its header", n + 1));
                }
                (Line::Case(c), Some(_)) => cases.push(c),
                (Line::Scenario(s), Some(_)) => scenarios.push(s),
                (Line::Finding(f), Some(_)) => findings.push(f),
                (Line::Footer(f), Some(_)) => footer = Some(f),
            }
        }
        let header = header.ok_or("an empty record (no header)")?;
        if !READABLE.contains(&header.format.as_str()) {
            return Err(format!(
                "record format `{}`, expected `{FORMAT}` (or `{}`)",
                header.format, READABLE[1]
            ));
        }
        Ok(Record {
            header,
            cases,
            scenarios,
            findings,
            footer,
            cut: None,
        })
    }

    /// Whether this is a producer run record.
    pub fn is_producer(&self) -> bool {
        self.header.producer.is_some()
    }

    /// Whether this is a fuzz campaign's record.
    pub fn is_fuzz(&self) -> bool {
        self.header.fuzz.is_some()
    }

    /// The totals: the footer's, else counted from the case lines.
    pub fn totals(&self) -> Totals {
        match &self.footer {
            Some(f) => f.totals,
            None => {
                let mut t = Totals::default();
                for c in &self.cases {
                    t.add(c.score);
                }
                for s in &self.scenarios {
                    t.add(s.score);
                }
                t
            }
        }
    }
}

/// Now as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn rfc3339_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic
/// Gregorian calendar; H. Hinnant's `civil_from_days`).
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_rfc3339_utc() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC: 11016 days after the epoch.
        assert_eq!(rfc3339(11_016 * 86_400 + 45_296), "2000-02-29T12:34:56Z");
        // 2026-12-03 00:00:00 UTC: 20790 days.
        assert_eq!(rfc3339(20_790 * 86_400), "2026-12-03T00:00:00Z");
    }

    /// A header, a case line and a footer, as `run --record` writes them.
    fn whole() -> String {
        let header = r#"{"kind":"header","format":"agui-conform-run-record/1","implementation":{"name":"é","capabilities":["verdict"]},"suite":"s","catalogue":"c","agui_conform":"0","date":"d","cases":2}"#;
        let case = r#"{"kind":"case","id":"a/b","group":"valid","expected":{"verdict":"accept","text":"accept"},"answer":{"verdict":"accept"},"score":"PASS","message":"ééé","elapsed_us":1}"#;
        let footer = r#"{"kind":"footer","totals":{"PASS":2,"FAIL":0,"WARN":0,"INFO":0,"SKIPPED":0,"ERRORED":0},"rules":{},"status":"passed","exit_status":0,"elapsed_ms":1}"#;
        format!(
            "{header}\n{case}\n{}\n{footer}\n",
            case.replace("a/b", "a/c")
        )
    }

    #[test]
    fn a_cut_last_line_is_left_out_and_said() {
        let text = whole();
        let r = Record::parse_bytes(text.as_bytes()).unwrap();
        assert_eq!((r.cases.len(), r.cut, r.footer.is_some()), (2, None, true));
        // Without its last line break, a whole line is still whole.
        let r = Record::parse_bytes(text.trim_end().as_bytes()).unwrap();
        assert_eq!((r.cases.len(), r.cut, r.footer.is_some()), (2, None, true));
        // Cut anywhere inside the third line (also inside an `é`): the
        // first case is kept, the second left out, no footer.
        let third = text.match_indices('\n').nth(1).unwrap().0 + 1;
        let end = text.match_indices('\n').nth(2).unwrap().0;
        for at in third + 1..end {
            let r = Record::parse_bytes(&text.as_bytes()[..at]).unwrap();
            assert_eq!(r.cases.len(), 1, "cut at {at}");
            assert_eq!(
                r.cut,
                Some(Cut {
                    line: 3,
                    bytes: at - third
                }),
                "cut at {at}"
            );
            assert!(r.footer.is_none());
        }
        // Cut right after a line break: nothing is cut, the footer is missing.
        let r = Record::parse_bytes(&text.as_bytes()[..third]).unwrap();
        assert_eq!((r.cases.len(), r.cut), (1, None));
    }

    #[test]
    fn only_the_last_line_may_be_cut() {
        let text = whole();
        let lines: Vec<&str> = text.lines().collect();
        let broken = format!(
            "{}\n{}\n{{\"kind\":\"ca\n{}\n",
            lines[0], lines[1], lines[3]
        );
        let err = Record::parse_bytes(broken.as_bytes()).unwrap_err();
        assert!(err.starts_with("line 3:"), "{err}");
        // Not UTF-8 before the last line: refused, naming the line.
        let mut bytes = text.clone().into_bytes();
        let at = text.find("ééé").unwrap();
        bytes[at] = 0xff;
        let err = Record::parse_bytes(&bytes).unwrap_err();
        assert_eq!(err, "line 2: not UTF-8");
    }

    #[test]
    fn a_record_starts_with_its_header() {
        let err = Record::parse(r#"{"kind":"footer"}"#).unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        assert!(Record::parse("\n").is_err());
    }
}
