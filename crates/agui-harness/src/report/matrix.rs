//! The ecosystem matrix, Bowtie-style: one row per implementation
//! (consumers and producers, grouped by language), one column per rule
//! family, each cell the outcome there with what to drill down to. Built
//! from records alone ([`Merged`]: suite runs, fuzz campaigns, producer
//! runs); the Markdown and HTML renderers only draw it, so both show the
//! same grid.

use super::md::slug;
use super::merged::Merged;
use super::producers::producer_anchor;
use crate::record::producer::Scenario;
use crate::record::{Record, Totals};
use crate::score::Score;
use agui_model::RuleId;

/// The columns: valid streams (must-accept), then the catalogue's rule
/// families (its areas) in catalogue order.
pub const COLUMNS: [&str; 10] = [
    "valid",
    "schema",
    "run",
    "entities",
    "lifecycle",
    "ownership",
    "interrupts",
    "chunks",
    "consistency",
    "transport",
];

/// The column of a case group or rule id: its rule's area (`accept.*`
/// obligations and valid streams are `valid`); `None` for an id this
/// catalogue does not know.
pub fn column_of(group: &str) -> Option<&'static str> {
    if group == "valid" {
        return Some("valid");
    }
    let area = RuleId::from_id(group)?.rule().area;
    let area = if area == "accept" { "valid" } else { area };
    COLUMNS.iter().copied().find(|c| *c == area)
}

/// Consumer or producer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Consumer,
    Producer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Consumer => "consumer",
            Role::Producer => "producer",
        }
    }
}

/// A cell's outcome: the worst that happened in the family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Nothing in this family was asked or checked.
    Untested,
    /// Asked, but every case was SKIPPED (a schema-only consumer).
    Skipped,
    Pass,
    Warn,
    Errored,
    Fail,
}

impl Mark {
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Untested => "—",
            Mark::Skipped => "SKIPPED",
            Mark::Pass => "PASS",
            Mark::Warn => "WARN",
            Mark::Errored => "ERRORED",
            Mark::Fail => "FAIL",
        }
    }

    /// The worst mark of a tally.
    fn of(t: &Totals) -> Mark {
        if t.total() == 0 {
            Mark::Untested
        } else if t.fail > 0 {
            Mark::Fail
        } else if t.errored > 0 {
            Mark::Errored
        } else if t.warn > 0 {
            Mark::Warn
        } else if t.pass + t.info > 0 {
            Mark::Pass
        } else {
            Mark::Skipped
        }
    }
}

/// Where a drill-down line leads; each renderer makes its own link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The rule's cases in this report, with the row's worst score there
    /// (FAIL, ERRORED or WARN: where the report lists them differs).
    Rule(String, Score),
    /// A fuzz finding of this report: its campaign's label (the page of
    /// its findings, when they have one) and its anchor.
    Finding { campaign: String, anchor: String },
    /// Another page (the producers page's section), relative.
    Page(String),
}

/// One line of a cell's drill-down: a rule and what happened under it.
#[derive(Debug, Clone)]
pub struct Item {
    pub rule: String,
    pub text: String,
    pub links: Vec<Link>,
}

/// One cell.
#[derive(Debug, Clone)]
pub struct Cell {
    pub mark: Mark,
    /// Short: `FAIL 3/40 · fuzz 12/800`.
    pub text: String,
    /// What did not pass, rule by rule (empty for a clean cell).
    pub items: Vec<Item>,
}

/// One implementation's row.
#[derive(Debug, Clone)]
pub struct Row {
    pub label: String,
    pub role: Role,
    /// As its record says (lower case), `""` when it does not.
    pub language: String,
    /// Its pinned version(s), plain text.
    pub versions: String,
    /// Unique among rows: drill-down anchors are `{anchor}-{column}`.
    pub anchor: String,
    /// Its detail elsewhere (a producer's section of the producers page).
    pub page: Option<String>,
    /// The fuzz campaign: `(cases, findings, anchor of its section)`.
    pub fuzz: Option<(u64, usize, String)>,
    pub cells: Vec<Cell>,
}

/// The grid.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// Language groups in order, each with its rows.
    pub groups: Vec<(String, Vec<Row>)>,
}

/// `Rust`, `TypeScript`, `Python`, … for a record's language.
pub fn language_name(lang: &str) -> String {
    match lang {
        "rust" => "Rust".into(),
        "typescript" => "TypeScript".into(),
        "javascript" => "JavaScript".into(),
        "python" => "Python".into(),
        "go" => "Go".into(),
        "cpp" | "c++" => "C++".into(),
        "" => "Language not stated".into(),
        other => other.to_owned(),
    }
}

/// The row of a variant run: `LABEL, suite `NAME``.
pub fn variant_label(label: &str, suite: &str) -> String {
    format!("{label}, suite {suite}")
}

/// The anchor of a consumer's fuzz campaign section.
pub fn fuzz_anchor(label: &str) -> String {
    format!("fuzz-{}", slug(label))
}

/// The anchor of one finding of a campaign.
pub fn finding_anchor(label: &str, rule: &str, score: Score) -> String {
    format!(
        "finding-{}-{}-{}",
        slug(label),
        slug(rule),
        score.as_str().to_lowercase()
    )
}

fn add(t: &mut Totals, u: &Totals) {
    t.pass += u.pass;
    t.fail += u.fail;
    t.warn += u.warn;
    t.info += u.info;
    t.skipped += u.skipped;
    t.errored += u.errored;
}

/// `3/40`: the cases of the mark's score(s) of those asked, or the asked.
fn count(t: &Totals) -> String {
    let asked = t.total() - t.skipped;
    match Mark::of(t) {
        Mark::Fail => format!("{}/{asked}", t.fail),
        Mark::Errored => format!("{}/{asked}", t.errored),
        Mark::Warn => format!("{}/{asked}", t.warn),
        Mark::Skipped => format!("{}", t.skipped),
        _ => format!("{asked}"),
    }
}

/// `3 FAIL, 1 WARN of 40` (bad and WARN scores only), or `40 PASS`.
fn tally_words(t: &Totals) -> String {
    let asked = t.total() - t.skipped;
    let bad: Vec<String> = [Score::Fail, Score::Errored, Score::Warn]
        .iter()
        .filter(|s| t.get(**s) > 0)
        .map(|s| format!("{} {}", t.get(*s), s.as_str()))
        .collect();
    if bad.is_empty() {
        format!("{asked} passed")
    } else {
        format!("{} of {asked}", bad.join(", "))
    }
}

/// A consumer's row: its suite record (if any) and its fuzz campaign's
/// record (if any); `label` and `record` are either's. `linked`: its
/// suite's FAILs are listed in this report (a variant's are not).
fn consumer(
    label: &str,
    record: &Record,
    suite: Option<&Record>,
    fuzz: Option<&Record>,
    linked: bool,
) -> Row {
    let i = &record.header.implementation;
    let cells = COLUMNS
        .iter()
        .map(|c| consumer_cell(suite, fuzz, label, c, linked))
        .collect();
    Row {
        label: label.to_owned(),
        role: Role::Consumer,
        language: i.language.to_lowercase(),
        versions: format!("{} {}", i.name, i.version).trim().to_owned(),
        anchor: slug(label),
        page: None,
        fuzz: fuzz.map(|r| (r.header.cases as u64, r.findings.len(), fuzz_anchor(label))),
        cells,
    }
}

/// Counts per score of a suite record's cases in one group.
fn tally(r: &Record, group: &str) -> Totals {
    let mut t = Totals::default();
    for c in r.cases.iter().filter(|c| c.group == group) {
        t.add(c.score);
    }
    t
}

fn consumer_cell(
    run: Option<&Record>,
    fuzz: Option<&Record>,
    label: &str,
    column: &str,
    linked: bool,
) -> Cell {
    let mut suite = Totals::default();
    let mut fuzzed = Totals::default();
    let mut items = Vec::new();
    // The rules of the column that either record has, in catalogue order.
    let mut rules: Vec<&str> = Vec::new();
    for c in run.map(|r| r.cases.as_slice()).unwrap_or_default() {
        if column_of(&c.group) == Some(column) && !rules.contains(&c.group.as_str()) {
            rules.push(&c.group);
        }
    }
    if let Some(f) = fuzz.and_then(|r| r.footer.as_ref()) {
        for g in f.rules.keys() {
            if column_of(g) == Some(column) && !rules.contains(&g.as_str()) {
                rules.push(g);
            }
        }
    }
    rules.sort_by_key(|g| super::merged::group_order(g));
    for g in rules {
        let s = run.map(|r| tally(r, g)).unwrap_or_default();
        let z = fuzz
            .and_then(|r| r.footer.as_ref())
            .and_then(|f| f.rules.get(g).copied())
            .unwrap_or_default();
        add(&mut suite, &s);
        add(&mut fuzzed, &z);
        let findings: Vec<Link> = fuzz
            .map(|r| r.findings.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|f| f.rule == g)
            .map(|f| Link::Finding {
                campaign: label.to_owned(),
                anchor: finding_anchor(label, &f.rule, f.score),
            })
            .collect();
        let bad = |t: &Totals| t.fail + t.errored + t.warn > 0;
        if !bad(&s) && !bad(&z) && findings.is_empty() {
            continue;
        }
        let mut text = Vec::new();
        let mut links = Vec::new();
        if s.total() > 0 {
            text.push(format!("suite: {}", tally_words(&s)));
        }
        if bad(&s) && linked {
            let worst = [Score::Fail, Score::Errored, Score::Warn]
                .into_iter()
                .find(|x| s.get(*x) > 0)
                .unwrap_or(Score::Fail);
            links.push(Link::Rule(g.to_owned(), worst));
        }
        if z.total() > 0 {
            text.push(format!("fuzz: {}", tally_words(&z)));
        }
        if !findings.is_empty() {
            text.push(format!(
                "{} finding{} shrunk",
                findings.len(),
                if findings.len() == 1 { "" } else { "s" }
            ));
        }
        links.extend(findings);
        items.push(Item {
            rule: g.to_owned(),
            text: text.join("; "),
            links,
        });
    }
    let mut both = suite;
    add(&mut both, &fuzzed);
    let mark = Mark::of(&both);
    let mut text = Vec::new();
    if suite.total() > 0 {
        text.push(format!("{} {}", Mark::of(&suite).as_str(), count(&suite)));
    }
    if fuzzed.total() > 0 {
        text.push(format!(
            "fuzz {} {}",
            Mark::of(&fuzzed).as_str(),
            count(&fuzzed)
        ));
    }
    Cell {
        mark,
        text: if text.is_empty() {
            Mark::Untested.as_str().to_owned()
        } else {
            text.join(" · ")
        },
        items,
    }
}

/// A producer's row from all its records (scenarios and producer suite).
fn producer(name: &str, records: &[&Record], producers_page: &str) -> Row {
    let versions = super::producers::versions(records, |v| format!("{} {}", v.name, v.version));
    let language = records
        .iter()
        .map(|r| r.header.implementation.language.to_lowercase())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    let page = format!("{producers_page}#{}", producer_anchor(name));
    let suite_name = super::producers::PRODUCER_SUITE;
    let all: Vec<&Scenario> = records.iter().flat_map(|r| r.scenarios.iter()).collect();
    let cells = COLUMNS
        .iter()
        .map(|c| {
            if *c == "valid" {
                producer_suite_cell(records, suite_name, &page)
            } else {
                producer_cell(&all, c, &page)
            }
        })
        .collect();
    Row {
        label: name.to_owned(),
        role: Role::Producer,
        language,
        versions,
        anchor: producer_anchor(name),
        page: Some(page),
        fuzz: None,
        cells,
    }
}

/// A producer's `valid` cell: its producer suite (valid requests answered
/// without refusal, runs resumed, tool results taken).
fn producer_suite_cell(records: &[&Record], suite_name: &str, page: &str) -> Cell {
    let mut t = Totals::default();
    let mut items = Vec::new();
    for r in records.iter().filter(|r| r.header.suite == suite_name) {
        for s in &r.scenarios {
            t.add(s.score);
            if matches!(s.score, Score::Fail | Score::Errored | Score::Warn) {
                let why = s
                    .refused
                    .as_deref()
                    .or(s.failure.as_deref())
                    .unwrap_or("see the producers page");
                items.push(Item {
                    rule: format!("producer suite `{}`", s.id),
                    text: format!("{}: {why}", s.score.as_str()),
                    links: vec![Link::Page(page.to_owned())],
                });
            }
        }
    }
    Cell {
        mark: Mark::of(&t),
        text: if t.total() == 0 {
            Mark::Untested.as_str().to_owned()
        } else {
            format!("suite {} {}", Mark::of(&t).as_str(), count(&t))
        },
        items,
    }
}

/// Whether the catalogue has a rule of this family (else no stream can
/// break one, and the cell says nothing was checked).
fn has_rules(column: &str) -> bool {
    RuleId::ALL.iter().any(|r| r.rule().area == column)
}

/// A producer's cell of a rule family: its violations there, over every
/// stream it sent (each scenario's conversation, the producer suite's too).
fn producer_cell(all: &[&Scenario], column: &str, page: &str) -> Cell {
    let in_column = |s: &Scenario| -> Vec<(String, bool)> {
        s.violations
            .iter()
            .filter(|v| column_of(&v.rule) == Some(column))
            .map(|v| (v.rule.clone(), v.severity == "error"))
            .collect()
    };
    let found: Vec<Vec<(String, bool)>> = all.iter().map(|s| in_column(s)).collect();
    let streams = if has_rules(column) { all.len() } else { 0 };
    let hit = found.iter().filter(|f| !f.is_empty()).count();
    let error = found.iter().flatten().any(|(_, e)| *e);
    let mark = match (streams, hit, error) {
        (0, _, _) => Mark::Untested,
        (_, 0, _) => Mark::Pass,
        (_, _, true) => Mark::Fail,
        _ => Mark::Warn,
    };
    let mut rules: Vec<(&str, bool)> = Vec::new();
    for (r, e) in found.iter().flatten() {
        if !rules.iter().any(|x| x.0 == r) {
            rules.push((r, *e));
        }
    }
    rules.sort_by_key(|r| super::merged::group_order(r.0));
    let items = rules
        .into_iter()
        .map(|(rule, is_error)| {
            let n = found.iter().flatten().filter(|x| x.0 == rule).count();
            let k = found
                .iter()
                .filter(|f| f.iter().any(|x| x.0 == rule))
                .count();
            Item {
                text: format!(
                    "{n} {} in {k} of {streams} streams",
                    if is_error {
                        "violation(s)"
                    } else {
                        "warning(s)"
                    }
                ),
                rule: rule.to_owned(),
                links: vec![Link::Page(page.to_owned())],
            }
        })
        .collect();
    Cell {
        mark,
        text: match mark {
            Mark::Untested => mark.as_str().to_owned(),
            Mark::Pass => format!("PASS {streams}"),
            _ => format!("{} {hit}/{streams}", mark.as_str()),
        },
        items,
    }
}

impl Matrix {
    /// The grid of `m`; producers' detail links go to `producers_page`.
    pub fn of(m: &Merged, producers_page: &str) -> Matrix {
        let mut rows = Vec::new();
        let variants = |label: &str, rows: &mut Vec<Row>| {
            for v in m.variants.iter().filter(|v| v.label == label) {
                let mut row = consumer(&v.label, &v.record, Some(&v.record), None, false);
                row.label = variant_label(&v.label, &v.record.header.suite);
                row.anchor = slug(&row.label);
                rows.push(row);
            }
        };
        for c in &m.columns {
            let fuzz = m.fuzz_of(&c.label).map(|f| &f.record);
            rows.push(consumer(&c.label, &c.record, Some(&c.record), fuzz, true));
            variants(&c.label, &mut rows);
        }
        for f in &m.fuzz {
            if !m.columns.iter().any(|c| c.label == f.label) {
                rows.push(consumer(&f.label, &f.record, None, Some(&f.record), true));
                variants(&f.label, &mut rows);
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for r in &m.producers {
            let n = r.header.implementation.name.as_str();
            if !names.contains(&n) {
                names.push(n);
            }
        }
        for n in names {
            let records: Vec<&Record> = m
                .producers
                .iter()
                .filter(|r| r.header.implementation.name == n)
                .collect();
            rows.push(producer(n, &records, producers_page));
        }
        // Language groups in order of first appearance; in each, consumers
        // first, then producers, each in record order (a stable sort).
        let mut order: Vec<String> = Vec::new();
        for r in &rows {
            if !order.contains(&r.language) {
                order.push(r.language.clone());
            }
        }
        let groups = order
            .into_iter()
            .map(|lang| {
                let mut in_group: Vec<Row> = rows
                    .iter()
                    .filter(|r| r.language == lang)
                    .cloned()
                    .collect();
                in_group.sort_by_key(|r| r.role == Role::Producer);
                (lang, in_group)
            })
            .collect();
        Matrix { groups }
    }

    /// Every row, group by group.
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.groups.iter().flat_map(|(_, rows)| rows.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::producer::Found;

    /// Records state a language id (lowercased); groups show its name.
    #[test]
    fn language_groups_are_named() {
        assert_eq!(language_name("go"), "Go");
        assert_eq!(language_name("cpp"), "C++");
        assert_eq!(language_name("c++"), "C++");
        assert_eq!(language_name("python"), "Python");
        assert_eq!(language_name(""), "Language not stated");
        assert_eq!(language_name("zig"), "zig");
    }

    #[test]
    fn columns_are_the_catalogue_areas() {
        assert_eq!(column_of("valid"), Some("valid"));
        assert_eq!(column_of("accept.interleaved"), Some("valid"));
        assert_eq!(column_of("schema.null-optional"), Some("schema"));
        assert_eq!(column_of("attribution.null"), Some("schema"));
        assert_eq!(column_of("state.patch-fails"), Some("entities"));
        assert_eq!(column_of("chunk.ambiguous"), Some("chunks"));
        assert_eq!(column_of("transport.status"), Some("transport"));
        assert_eq!(column_of("no.such-rule"), None);
        // Every area of the catalogue has its column.
        for r in RuleId::ALL {
            assert!(column_of(r.as_str()).is_some(), "{r}");
        }
    }

    fn scenario(violations: &[(&str, &str)]) -> Scenario {
        Scenario {
            id: "s".into(),
            description: String::new(),
            score: Score::Pass,
            events: 0,
            status: None,
            failure: None,
            refused: None,
            skipped: None,
            steps: Vec::new(),
            runs: Vec::new(),
            violations: violations
                .iter()
                .map(|(rule, severity)| Found {
                    rule: (*rule).into(),
                    index: 0,
                    severity: (*severity).into(),
                    message: String::new(),
                    related: None,
                })
                .collect(),
            stream: Vec::new(),
            peer: None,
            elapsed_us: 0,
        }
    }

    #[test]
    fn a_producer_cell_counts_the_streams_with_a_violation_of_its_family() {
        let a = scenario(&[
            ("state.patch-fails", "error"),
            ("state.patch-fails", "error"),
        ]);
        let b = scenario(&[("transport.buffered", "warning")]);
        let c = scenario(&[]);
        let all = [&a, &b, &c];
        let e = producer_cell(&all, "entities", "p.md#x");
        assert_eq!((e.mark, e.text.as_str()), (Mark::Fail, "FAIL 1/3"));
        assert_eq!(e.items.len(), 1);
        assert_eq!(e.items[0].text, "2 violation(s) in 1 of 3 streams");
        assert_eq!(e.items[0].links, [Link::Page("p.md#x".into())]);
        let t = producer_cell(&all, "transport", "p.md#x");
        assert_eq!((t.mark, t.text.as_str()), (Mark::Warn, "WARN 1/3"));
        let r = producer_cell(&all, "run", "p.md#x");
        assert_eq!(
            (r.mark, r.text.as_str(), r.items.len()),
            (Mark::Pass, "PASS 3", 0)
        );
        // A family the catalogue has no rule of was checked on nothing.
        let none = producer_cell(&all, "no-such-family", "p.md#x");
        assert_eq!((none.mark, none.text.as_str()), (Mark::Untested, "—"));
    }
}
