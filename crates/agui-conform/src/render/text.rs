//! The readable forms: `check`'s report (written as findings come, or
//! whole for a finished live check), the batch summary line, and the text
//! of `run`, `run --producer` and `fuzz` (made by agui-harness and
//! agui-live, called from here so each format has one place).

use crate::no_events;
use crate::record::{Groups, Summary};
use agui_harness::RunResult;
use agui_harness::campaign::{Campaign, summary as campaign};
use agui_harness::report::terminal;
use agui_harness::suite::SuiteCase;
use agui_live::RunLog;
use agui_live::redirect::Hop;
use agui_live::suite::{self, InputResult};
use agui_model::{Finding, LimitNotice, Report, Severity, Verdict, Violation};
use std::io::{self, IsTerminal, Write};

/// Violations listed by the text report unless `--all` is given.
pub const SHOWN: usize = 50;

/// Runs that did not simply finish listed by the text report.
const RUNS_SHOWN: usize = 10;

/// ANSI colours, used only when stdout is a terminal and `NO_COLOR` is unset.
#[derive(Clone, Copy)]
pub struct Colour(bool);

impl Colour {
    fn paint(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

pub fn colour() -> Colour {
    Colour(io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
}

/// The readable report, written as findings come: one line per violation
/// or limit notice (up to a cap), then a summary line, a hint, and the
/// projection when asked for. The first write error is kept; nothing is
/// written after it.
pub struct TextStream<W: Write> {
    out: W,
    cap: Option<usize>,
    printed: usize,
    /// Violations left out at the cap.
    unprinted: usize,
    first: Option<agui_model::RuleId>,
    /// The first limit notice that left part of the stream unjudged, else
    /// the first other one: what the closing hint says how to raise.
    limit: Option<LimitNotice>,
    colour: Colour,
    live: bool,
    error: Option<io::Error>,
    /// `--group`: violations counted per rule, printed at the end.
    groups: Option<Groups>,
    /// The `coverage:` line (crate::coverage), printed with the summary.
    coverage: Option<String>,
}

impl<W: Write> TextStream<W> {
    pub fn new(out: W, cap: Option<usize>, colour: Colour, live: bool) -> Self {
        TextStream {
            out,
            cap,
            printed: 0,
            unprinted: 0,
            first: None,
            limit: None,
            colour,
            live,
            error: None,
            groups: None,
            coverage: None,
        }
    }

    /// What the check could not judge, said after the runs.
    pub fn set_coverage(&mut self, coverage: &crate::coverage::Coverage) {
        self.coverage = Some(crate::coverage::line(coverage));
    }

    /// One line per rule with its count instead of one per violation.
    pub fn grouped(mut self, group: bool) -> Self {
        self.groups = group.then(Groups::default);
        self
    }

    fn keep(&mut self, r: io::Result<()>) {
        if let Err(e) = r
            && self.error.is_none()
        {
            self.error = Some(e);
        }
    }

    pub fn finding(&mut self, f: Finding<'_>) {
        if self.error.is_some() {
            return;
        }
        let r = match f {
            Finding::Violation(v) => {
                self.first.get_or_insert(v.rule);
                if let Some(g) = &mut self.groups {
                    g.push(v);
                    return;
                }
                if self.cap.is_some_and(|cap| self.printed >= cap) {
                    self.unprinted += 1;
                    return;
                }
                self.printed += 1;
                violation_line(&mut self.out, v, self.colour)
            }
            Finding::Limit(n) => {
                if hint_rank(n) > self.limit.as_ref().map_or(0, hint_rank) {
                    self.limit = Some(n.clone());
                }
                limit_line(&mut self.out, n, self.colour)
            }
        };
        self.keep(r);
        if self.live {
            let r = self.out.flush();
            self.keep(r);
        }
    }

    /// Whether a write failed (nothing more is written).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// The summary, how each run ended, the hint and the projection.
    pub fn finish(&mut self, name: &str, report: &Report, runs: &RunLog) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let out = &mut self.out;
        if let Some(g) = &self.groups {
            for group in &g.rules {
                group_line(out, group, self.colour)?;
            }
        }
        if self.unprinted > 0 {
            writeln!(
                out,
                "  … {} more (`--all` or `--max-violations N` lists them, `--format json` too)",
                self.unprinted
            )?;
        }
        summary(out, name, report, self.colour)?;
        write!(out, "{}", runs.render_text(RUNS_SHOWN))?;
        if let Some(c) = &self.coverage {
            writeln!(out, "{c}")?;
        }
        if let Some(rule) = self.first.or(report.first().map(|v| v.rule)) {
            let doc = agui_model::violation::doc_url(rule.as_str());
            writeln!(out, "hint: agui-conform explain {rule} (docs: {doc})")?;
        }
        if let Some(hint) = self.limit.as_ref().and_then(limit_hint) {
            writeln!(out, "{hint}")?;
        }
        if let Some(p) = &report.projection {
            let pretty = serde_json::to_string_pretty(&agui_model::json::Out(&p.to_json()))
                .map_err(io::Error::other)?;
            writeln!(out, "projection:\n{pretty}")?;
        }
        out.flush()
    }
}

/// Which limit notice the closing hint is about: the first of the highest
/// rank, one that left part of the stream unjudged (2) before one that did
/// not (1); the violations cap (0) has its own line.
fn hint_rank(n: &LimitNotice) -> u8 {
    u8::from(n.kind != agui_model::LimitKind::Violations) + u8::from(n.kind.leaves_unjudged())
}

/// What raises a limit the check reached (the first that left part of the
/// stream unjudged, else the first other): a user whose long recording came
/// out `inconclusive` is told which option to give. The `violations` limit
/// has its own line ("… more").
fn limit_hint(n: &LimitNotice) -> Option<String> {
    use agui_model::LimitKind;
    let raise = match n.kind {
        LimitKind::LineBytes => "`--max-line-bytes BYTES` raises it",
        LimitKind::Nesting => "`--max-depth LEVELS` raises it",
        LimitKind::StateBytes => "`--max-state-bytes BYTES` raises it",
        LimitKind::ProjectionBytes => "`--max-projection-bytes BYTES` raises it",
        LimitKind::BookkeepingBytes => "`--max-bookkeeping-bytes BYTES` raises it",
        LimitKind::Time => "`--timeout`, `--idle-timeout` and `--run-end-grace` set the times",
        LimitKind::Violations => return None,
    };
    Some(format!(
        "hint: the checker reached its own {} limit at #{}: {raise} (docs: docs/rules.md, \"Checker limits\")",
        n.kind, n.index
    ))
}

/// `  #3     error   rule: message (at path) (see #1)`: `see` names the
/// related event (the opener on record, the run's start).
fn violation_line(out: &mut impl Write, v: &Violation, c: Colour) -> io::Result<()> {
    let severity = v.severity.as_str();
    let severity = match v.severity {
        Severity::Error => c.paint("31", &format!("{severity:<7}")),
        _ => c.paint("33", &format!("{severity:<7}")),
    };
    writeln!(
        out,
        "  #{:<5} {severity} {}: {}{}",
        v.index,
        v.rule,
        v.message,
        where_(v)
    )
}

/// ` (at path) (see #1)`: where in the event, and the related event (the
/// opener on record, the run's start); what a violation's text line ends
/// with, in a report and live.
pub fn where_(v: &Violation) -> String {
    let at = v
        .path
        .as_deref()
        .map(|p| format!(" (at {})", if p.is_empty() { "the top" } else { p }))
        .unwrap_or_default();
    let related = v
        .related
        .map(|r| format!(" (see #{r})"))
        .unwrap_or_default();
    format!("{at}{related}")
}

/// `  12 × run.unterminated (error), first at #3: message` (`--group`).
fn group_line(out: &mut impl Write, g: &crate::record::Group, c: Colour) -> io::Result<()> {
    let v = &g.first;
    let severity = match v.severity {
        Severity::Error => c.paint("31", v.severity.as_str()),
        _ => c.paint("33", v.severity.as_str()),
    };
    writeln!(
        out,
        "  {:>5} × {} ({severity}), first at #{}: {}",
        g.count, v.rule, v.index, v.message
    )
}

/// `  #3     limit   nesting: message (limit 10000)`.
fn limit_line(out: &mut impl Write, n: &LimitNotice, c: Colour) -> io::Result<()> {
    writeln!(
        out,
        "  #{:<5} {} {}: {} (limit {})",
        n.index,
        c.paint("35", &format!("{:<7}", "limit")),
        n.kind,
        n.message,
        n.limit
    )
}

/// `name: reject — 2 violations (1 error, 1 warning) in 12 events`, and
/// the limit notices when there were some.
fn summary(out: &mut impl Write, name: &str, report: &Report, c: Colour) -> io::Result<()> {
    let verdict = report.verdict();
    let painted = match verdict {
        Verdict::Accept => c.paint("32;1", verdict.as_str()),
        Verdict::Reject => c.paint("31;1", verdict.as_str()),
        Verdict::Inconclusive => c.paint("35;1", verdict.as_str()),
    };
    let counts = report.counts;
    let events = plural(report.events, "event");
    let limits = if counts.limits > 0 {
        format!(", {}", plural(counts.limits, "limit notice"))
    } else {
        String::new()
    };
    if no_events::holds_none(report) {
        writeln!(out, "{name}: {painted} — {}", no_events::MESSAGE)
    } else if counts.violations() == 0 {
        writeln!(out, "{name}: {painted} — no violations in {events}{limits}")
    } else {
        writeln!(
            out,
            "{name}: {painted} — {} ({}, {}) in {events}{limits}",
            plural(counts.violations(), "violation"),
            plural(counts.errors, "error"),
            plural(counts.warnings, "warning"),
        )
    }
}

/// The whole readable report of a finished check (`check --url`).
pub fn write_text(
    out: &mut impl Write,
    name: &str,
    report: &Report,
    runs: &RunLog,
    (all, group): (bool, bool),
    c: Colour,
) -> io::Result<()> {
    let mut text = TextStream::new(&mut *out, (!all).then_some(SHOWN), c, false).grouped(group);
    let notices = crate::coverage::Notices::of(&report.limits);
    text.set_coverage(&crate::coverage::of(
        crate::coverage::Source::Live,
        report,
        &notices,
    ));
    for v in &report.violations {
        text.finding(Finding::Violation(v));
    }
    for n in &report.limits {
        text.finding(Finding::Limit(n));
    }
    text.finish(name, report, runs)
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The line after a batch's reports: `N files: … accept, … — … events,
/// … violations` (`noun`: files or cases).
pub fn batch_summary(
    out: &mut impl Write,
    summary: &Summary,
    inputs: usize,
    noun: &str,
) -> io::Result<()> {
    writeln!(
        out,
        "{inputs} {noun}: {} accept, {} reject, {} inconclusive, {} unreadable — {} events, {} violations",
        summary.accept,
        summary.reject,
        summary.inconclusive,
        summary.unreadable,
        summary.events,
        summary.violations
    )
}

/// `run`'s report: failures with a minimal diff, the per-rule table,
/// totals (`verbose`: every case).
pub fn run(run: &RunResult, cases: &[SuiteCase], verbose: bool) -> String {
    terminal::render(run, cases, verbose)
}

/// `run --producer`'s report: one line per scenario, then the totals.
pub fn producer_suite(suite: &str, url: &str, results: &[InputResult]) -> String {
    suite::render_text(suite, url, results)
}

/// `check --url`'s line for each 307/308 hop followed to the response
/// (after the report): `redirected: 307 URL → URL`.
pub fn redirects(out: &mut impl Write, hops: &[Hop]) -> io::Result<()> {
    for hop in hops {
        writeln!(out, "redirected: {hop} (the POST repeated with its body)")?;
    }
    Ok(())
}

/// `fuzz`'s summary of a campaign.
pub fn fuzz(c: &Campaign) -> String {
    campaign::text(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::{RuleId, Violation};

    fn text(report: &Report) -> String {
        let mut out = Vec::new();
        write_text(
            &mut out,
            "s.jsonl",
            report,
            &RunLog::new(),
            (false, false),
            Colour(false),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_reached_limit_ends_with_the_option_that_raises_it() {
        use agui_model::LimitKind;
        let notice = |kind, index| LimitNotice::new(kind, index, 64, "reached");
        let hint = |notices: &[LimitNotice]| {
            let mut report = Report::of(Vec::new(), 9);
            report.limits = notices.to_vec();
            text(&report)
                .lines()
                .find(|l| l.starts_with("hint: the checker reached"))
                .map(str::to_string)
        };
        // The projection's budget alone: every rule was judged, but the
        // option is still said.
        let only_projection = hint(&[notice(LimitKind::ProjectionBytes, 3)]).unwrap();
        assert!(only_projection.contains("projection-bytes limit at #3: `--max-projection-bytes"));
        // A limit that left rules unjudged is the one said, even when later.
        let both = hint(&[
            notice(LimitKind::ProjectionBytes, 3),
            notice(LimitKind::BookkeepingBytes, 7),
        ])
        .unwrap();
        assert!(
            both.contains("bookkeeping-bytes limit at #7: `--max-bookkeeping-bytes"),
            "{both}"
        );
        // The violations cap has its own line, and is passed over.
        assert_eq!(hint(&[notice(LimitKind::Violations, 1)]), None);
        let after_cap = hint(&[
            notice(LimitKind::Violations, 1),
            notice(LimitKind::ProjectionBytes, 4),
        ]);
        assert!(after_cap.is_some_and(|h| h.contains("projection-bytes limit at #4")));
        assert_eq!(hint(&[]), None);
    }

    #[test]
    fn header_counts_errors_and_warnings() {
        let report = Report::of(
            vec![
                Violation::new(RuleId::SchemaUnknownType, 0, "no type").at_path("type"),
                Violation::new(RuleId::InterruptUnknownId, 3, "interrupt `i9` unknown"),
            ],
            12,
        );
        let t = text(&report);
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].contains("#0")
                && lines[0].contains("error")
                && lines[0].contains("schema.unknown-type")
        );
        assert!(lines[0].ends_with("no type (at type)"), "{}", lines[0]);
        assert!(
            lines[1].contains("#3")
                && lines[1].contains("warning")
                && lines[1].contains("interrupt.unknown-id")
        );
        assert_eq!(
            lines[2],
            "s.jsonl: reject — 2 violations (1 error, 1 warning) in 12 events"
        );
        assert_eq!(lines[3], "runs: none");
        // A finished live check with no limit notice judged every rule.
        assert_eq!(lines[4], "coverage: every rule judged");
        assert_eq!(
            lines[5],
            "hint: agui-conform explain schema.unknown-type (docs: docs/rules.md#schema.unknown-type)"
        );
    }

    #[test]
    fn clean_stream_has_a_short_report() {
        let report = Report::of(vec![], 1);
        assert_eq!(
            text(&report),
            "s.jsonl: accept — no violations in 1 event\nruns: none\ncoverage: every rule judged\n"
        );
    }

    #[test]
    fn grouped_report_has_one_line_per_rule_with_its_count() {
        let mut violations: Vec<Violation> = (0..SHOWN + 7)
            .map(|i| Violation::new(RuleId::SchemaNotJson, i, "not an object"))
            .collect();
        violations.push(Violation::new(RuleId::InterruptUnknownId, 99, "unknown"));
        let report = Report::of(violations, 100);
        let mut out = Vec::new();
        write_text(
            &mut out,
            "s.jsonl",
            &report,
            &RunLog::new(),
            (false, true),
            Colour(false),
        )
        .unwrap();
        let t = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        // Every violation counted, none listed alone, nothing cut.
        assert_eq!(
            lines[0],
            format!(
                "     {} × schema.not-json (error), first at #0: not an object",
                SHOWN + 7
            )
        );
        assert_eq!(
            lines[1],
            "      1 × interrupt.unknown-id (warning), first at #99: unknown"
        );
        assert!(
            lines[2].starts_with("s.jsonl: reject — 58 violations"),
            "{}",
            lines[2]
        );
        assert!(!t.contains("more (`--all`"));
    }

    #[test]
    fn long_lists_are_cut_with_a_pointer() {
        let violations = (0..SHOWN + 7)
            .map(|i| Violation::new(RuleId::SchemaNotJson, i, "not an object"))
            .collect();
        let t = text(&Report::of(violations, SHOWN + 7));
        assert_eq!(t.lines().filter(|l| l.starts_with("  #")).count(), SHOWN);
        assert!(t.contains("… 7 more"));
    }
}
