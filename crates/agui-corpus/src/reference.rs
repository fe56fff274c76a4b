//! Running a case against the reference model and explaining a mismatch.

use crate::case::Case;
use agui_model::{Checker, Report, RuleId, Verdict, Violation};
use serde_json::Value;
use std::fmt::{self, Write as _};

/// How the reference's answer differs from a case's expectation.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub expected_verdict: Verdict,
    pub actual_verdict: Verdict,
    /// `(rule, index)` of the first violation, expected and actual.
    pub expected_first: Option<(RuleId, usize)>,
    pub actual_first: Option<(RuleId, usize)>,
    /// Every violation the reference reported.
    pub actual: Vec<Violation>,
    /// The case's `violations`, when it states them and they differ from
    /// the reference's.
    pub stated: Option<Vec<(RuleId, usize)>>,
    /// A unified diff of the projections (expected → actual), when they differ.
    pub projection_diff: Option<String>,
    /// The events around the index that matters, numbered.
    pub context: String,
}

/// Checks the case's stream with the reference model (`lines` through the
/// checker's reader, [`Case::check`]) and compares verdict, first violation
/// and (when the case has one) projection.
pub fn run_case(case: &Case) -> Result<(), Box<Mismatch>> {
    let report = case.check(Checker::new());
    compare(case, &report)
}

/// Compares a report with a case's expectation.
pub fn compare(case: &Case, report: &Report) -> Result<(), Box<Mismatch>> {
    let expected_first = case.expect.rule.zip(case.expect.index);
    let actual_first = report.violations.first().map(|v| (v.rule, v.index));
    let actual_verdict = report.verdict();
    let projection_diff = match &case.projection {
        Some(want) => {
            let got = report
                .projection
                .as_ref()
                .map(|p| p.to_json())
                .unwrap_or(Value::Null);
            projection_diff(want, &got)
        }
        None => None,
    };
    let stated: Option<Vec<(RuleId, usize)>> = case
        .violations
        .as_ref()
        .map(|v| v.iter().map(|s| (s.rule, s.index)).collect());
    let stated_differs = stated.as_ref().is_some_and(|want| {
        // A rule broken several times at one index is stated once.
        let mut found: Vec<(RuleId, usize)> = report
            .violations
            .iter()
            .map(|v| (v.rule, v.index))
            .collect();
        found.dedup();
        *want != found
    });
    if actual_verdict == case.expect.verdict
        && actual_first == expected_first
        && projection_diff.is_none()
        && !stated_differs
    {
        return Ok(());
    }
    let marks: Vec<usize> = expected_first
        .iter()
        .chain(actual_first.iter())
        .map(|&(_, i)| i)
        .collect();
    Err(Box::new(Mismatch {
        expected_verdict: case.expect.verdict,
        actual_verdict,
        expected_first,
        actual_first,
        actual: report.violations.clone(),
        stated: stated.filter(|_| stated_differs),
        projection_diff,
        context: lines_around(&case.shown(), &marks),
    }))
}

/// Drops `null`-valued object keys at any depth (docs/projection.md:
/// "Comparison … is JSON equality after dropping null-valued object keys");
/// the model's one copy.
pub use agui_model::projection::normalize as drop_nulls;

/// `None` when the projections are equal; else a unified diff of their
/// pretty JSON, expected first.
pub fn projection_diff(expected: &Value, actual: &Value) -> Option<String> {
    let actual = agui_model::projection::by_place(expected, actual);
    let (e, a) = (drop_nulls(expected), drop_nulls(&actual));
    (e != a).then(|| json_diff(&e, &a, ("expected projection", "actual projection"), 4))
}

/// A unified diff of two JSON values pretty-printed as the projection is
/// (big numbers as written), with `headers` and `radius` lines of context.
pub fn json_diff(expected: &Value, actual: &Value, headers: (&str, &str), radius: usize) -> String {
    let pe = serde_json::to_string_pretty(&agui_model::json::Out(expected)).unwrap_or_default();
    let pa = serde_json::to_string_pretty(&agui_model::json::Out(actual)).unwrap_or_default();
    similar::TextDiff::from_lines(&pe, &pa)
        .unified_diff()
        .context_radius(radius)
        .header(headers.0, headers.1)
        .to_string()
}

/// The events from two before the first marked index to two after the
/// last, numbered, each marked index flagged with `>`; the end of input
/// shown when an index points there. Without marks, the first five events.
pub fn events_around(events: &[Value], marks: &[usize]) -> String {
    let shown: Vec<String> = events.iter().map(show_event).collect();
    lines_around(&shown, marks)
}

/// [`events_around`] over items already shown one per line (a `lines`
/// case shows its own text).
pub fn lines_around(events: &[String], marks: &[usize]) -> String {
    let mut out = String::new();
    let (lo, hi) = match (marks.iter().min(), marks.iter().max()) {
        (Some(&a), Some(&b)) => (a.saturating_sub(2), (b + 3).min(events.len())),
        _ => (0, events.len().min(5)),
    };
    if lo > 0 {
        let _ = writeln!(out, "        …");
    }
    for (i, e) in events.iter().enumerate().take(hi).skip(lo) {
        let mark = if marks.contains(&i) { '>' } else { ' ' };
        let _ = writeln!(out, "  {mark} {i:>3} {e}");
    }
    if hi < events.len() {
        let _ = writeln!(out, "        …");
    }
    if marks.contains(&events.len()) {
        let _ = writeln!(out, "  > {:>3} <end of input>", events.len());
    }
    out
}

/// One event on one line, its `type` first (serde_json sorts keys).
fn show_event(e: &Value) -> String {
    match e {
        Value::Object(m) => match m.get("type") {
            Some(Value::String(t)) => {
                let rest: serde_json::Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| *k != "type")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                format!("{t} {}", Value::Object(rest))
            }
            _ => e.to_string(),
        },
        _ => e.to_string(),
    }
}

fn first(f: Option<(RuleId, usize)>) -> String {
    match f {
        Some((r, i)) => format!("{r} at index {i}"),
        None => "no violation".to_string(),
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "verdict:  expected {}, actual {}",
            self.expected_verdict.as_str(),
            self.actual_verdict.as_str()
        )?;
        writeln!(f, "first violation:")?;
        writeln!(f, "  expected {}", first(self.expected_first))?;
        writeln!(f, "  actual   {}", first(self.actual_first))?;
        if let Some(stated) = &self.stated {
            writeln!(
                f,
                "violations stated by the case (they differ from the reference's):"
            )?;
            for (r, i) in stated {
                writeln!(f, "  [{i}] {r}")?;
            }
        }
        if !self.actual.is_empty() {
            writeln!(f, "all violations reported:")?;
            for v in &self.actual {
                writeln!(
                    f,
                    "  [{}] {} ({}): {}",
                    v.index,
                    v.rule,
                    v.rule.severity().as_str(),
                    v.message
                )?;
            }
        }
        writeln!(f, "events (> marks the expected and actual index):")?;
        write!(f, "{}", self.context)?;
        if let Some(d) = &self.projection_diff {
            writeln!(f, "projection differs:")?;
            write!(f, "{d}")?;
        }
        Ok(())
    }
}
