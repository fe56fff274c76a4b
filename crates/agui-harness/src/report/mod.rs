//! Reports of a run: for people (terminal, Markdown) and machines (JSON
//! Lines, JUnit XML).

pub mod causes;
pub mod conformance;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod matrix;
pub mod matrix_md;
pub mod md;
pub mod merged;
pub mod official;
pub mod producers;
pub mod shown;
pub mod terminal;

use crate::expect::Expected;
use crate::outcome::{Errored, Outcome};
pub use crate::runner::json_diff;
use crate::runner::{CaseResult, RunResult, Tally};
use crate::score::Score;
use crate::suite::SuiteCase;
use agui_model::{RuleId, Verdict};

/// `accept`, `reject at 3 (text.not-open, should-reject)`, ….
pub fn describe_expected(e: &Expected) -> String {
    match (e.verdict, e.first) {
        (Verdict::Accept, None) => "accept".into(),
        (Verdict::Accept, Some((r, i))) => {
            format!("accept (warning `{r}` at {i}, {})", r.obligation().as_str())
        }
        // The first violation is must-accept: a rejection at it is early.
        // Say where a rejection may start, not "reject at" that index.
        (Verdict::Reject, Some((r, i))) if r.obligation() == agui_model::Obligation::MustAccept => {
            let from = e.all.as_ref().and_then(|all| {
                all.iter()
                    .find(|(x, _)| x.obligation() != agui_model::Obligation::MustAccept)
            });
            let from = match from {
                Some((m, at)) => format!(" from {at} (`{m}`, {})", m.obligation().as_str()),
                None => format!(" after {i}"),
            };
            format!("reject{from}; not at {i}: `{r}` there is must-accept")
        }
        (Verdict::Reject, Some((r, i))) => {
            let mut d = format!("reject at {i} (`{r}`, {}", r.obligation().as_str());
            // A stated must-reject violation other than the first one
            // decides acceptance: say which.
            let must = e.all.as_ref().and_then(|all| {
                all.iter()
                    .find(|(x, _)| x.obligation() == agui_model::Obligation::MustReject)
            });
            if let Some((m, at)) = must.filter(|(m, _)| *m != r) {
                d.push_str(&format!("; must-reject `{m}` at {at}"));
            }
            d.push(')');
            d
        }
        (Verdict::Reject, None) => "reject".into(),
        (Verdict::Inconclusive, _) => "inconclusive".into(),
    }
}

/// The label of a per-rule row.
pub fn rule_label(k: Option<RuleId>) -> &'static str {
    k.map(RuleId::as_str).unwrap_or("valid")
}

/// Column headers of the per-rule table.
pub const COLUMNS: [(&str, Score); 6] = [
    ("PASS", Score::Pass),
    ("FAIL", Score::Fail),
    ("WARN", Score::Warn),
    ("INFO", Score::Info),
    ("SKIP", Score::Skipped),
    ("ERR", Score::Errored),
];

/// `123 cases: 120 PASS, 1 FAIL, …` (zero counts left out).
pub fn totals_line(t: &Tally) -> String {
    let parts: Vec<String> = Score::ALL
        .iter()
        .filter(|s| t.get(**s) > 0)
        .map(|s| format!("{} {}", t.get(*s), s.as_str()))
        .collect();
    let mut line = format!(
        "{} cases: {}",
        t.total(),
        if parts.is_empty() {
            "none run".into()
        } else {
            parts.join(", ")
        }
    );
    if t.named_right + t.named_wrong > 0 {
        line.push_str(&format!(
            "; rules named right {} / wrong {}",
            t.named_right, t.named_wrong
        ));
    }
    line
}

/// The seed and generator mode of a generated case, for reproduction.
pub fn seed_note(c: &SuiteCase) -> Option<String> {
    match &c.origin {
        crate::suite::Origin::Generated { seed, mode, .. } => {
            Some(format!("seed {seed} ({})", mode.label()))
        }
        crate::suite::Origin::Corpus { .. } => None,
    }
}

/// FAIL, ERRORED and WARN are listed case by case in every report.
pub(crate) fn is_listed(r: &RunResult, i: usize) -> bool {
    let s = r.results[i].scored.score;
    s.is_bad() || s == Score::Warn
}

/// The implementation's own message, when its answer carried one.
pub fn message(r: &CaseResult) -> Option<&str> {
    match &r.outcome {
        Outcome::Reject {
            message: Some(m), ..
        } => Some(m),
        _ => None,
    }
}

/// The implementation's stderr for a case: what it wrote while answering,
/// or the tail an ERRORED outcome kept.
pub fn stderr(r: &CaseResult) -> Option<&str> {
    match &r.outcome {
        Outcome::Errored(Errored {
            stderr_tail: Some(t),
            ..
        }) => Some(t),
        _ => r.stderr.as_deref(),
    }
}

/// Foreign text for a terminal: control characters (an escape sequence
/// that would recolour or clear the screen, a `\r` that would overwrite
/// the line) shown as `\u{1b}`, line breaks and tabs kept.
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The last `n` lines of a text.
pub fn last_lines(t: &str, n: usize) -> Vec<&str> {
    let mut v: Vec<&str> = t.trim_end().lines().rev().take(n).collect();
    v.reverse();
    v
}

/// The run's state in one line, for every report's head.
pub fn status_line(run: &RunResult) -> String {
    let st = run.status();
    match run.incomplete() {
        Some(why) => format!(
            "{} (exit status {}): {why}",
            st.as_str().to_uppercase(),
            st.exit_code()
        ),
        None => format!(
            "{} (exit status {}){}",
            st.as_str().to_uppercase(),
            st.exit_code(),
            if run.strict {
                "; --strict: WARN fails"
            } else {
                ""
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reject(all: Option<Vec<(RuleId, usize)>>) -> Expected {
        Expected {
            verdict: Verdict::Reject,
            first: Some((RuleId::SchemaUnknownType, 3)),
            projection: None,
            all,
            events: 8,
            official: None,
            outcome_only: false,
        }
    }

    /// docs/rules.md: a consumer must not reject at a must-accept
    /// violation, so the expectation never reads "reject at" its index.
    #[test]
    fn a_must_accept_first_violation_is_not_where_to_reject() {
        let all = vec![
            (RuleId::SchemaUnknownType, 3),
            (RuleId::RunThreadChanged, 5),
        ];
        assert_eq!(
            describe_expected(&reject(Some(all))),
            "reject from 5 (`run.thread-changed`, must-reject); not at 3: `schema.unknown-type` there is must-accept"
        );
        assert_eq!(
            describe_expected(&reject(None)),
            "reject after 3; not at 3: `schema.unknown-type` there is must-accept"
        );
        let mut must = reject(None);
        must.first = Some((RuleId::RunThreadChanged, 2));
        assert_eq!(
            describe_expected(&must),
            "reject at 2 (`run.thread-changed`, must-reject)"
        );
    }
}
