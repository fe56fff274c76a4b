//! The report for people on a terminal: each failing or errored case with
//! the reason and a minimal diff, then the per-rule table and the totals.
//! What the implementation said goes through [`printable`]: no escape
//! sequence of its reaches the terminal.

use super::{
    COLUMNS, describe_expected, is_listed, json_diff, last_lines, message, printable, rule_label,
    seed_note, status_line, stderr, totals_line,
};
use crate::runner::{CaseResult, RunResult};
use crate::suite::SuiteCase;
use std::fmt::Write;

/// One case in detail (FAIL, ERRORED, WARN; all with `verbose`).
pub fn case_detail(r: &CaseResult, c: &SuiteCase) -> String {
    let mut s = format!("{:<7} {}", r.scored.score.as_str(), printable(&c.id));
    if !r.scored.reason.is_empty() {
        let _ = write!(s, ": {}", printable(&r.scored.reason));
    }
    let _ = write!(
        s,
        "\n        expected {}; got {}",
        describe_expected(&c.expected),
        printable(&r.outcome.short())
    );
    if let Some(n) = r.scored.naming {
        let _ = write!(s, "; rule named {}", n.as_str());
    }
    if let Some(seed) = seed_note(c) {
        let _ = write!(s, "\n        {seed}");
    }
    // The projections themselves, or their diff once a streamed run has
    // dropped them.
    let diff = match &r.scored.projection_mismatch {
        Some((want, got)) => Some(json_diff(want, got, 30)),
        None => r.projection_diff.clone(),
    };
    for line in diff.iter().flat_map(|d| d.lines()) {
        let _ = write!(s, "\n        {}", printable(line));
    }
    if let Some(m) = message(r) {
        let _ = write!(s, "\n        implementation says: {}", printable(m));
    }
    if let Some(t) = stderr(r) {
        s.push_str("\n        stderr tail:");
        for l in last_lines(t, 8) {
            let _ = write!(s, "\n        | {}", printable(l));
        }
    }
    s
}

/// The whole report.
pub fn render(run: &RunResult, cases: &[SuiteCase], verbose: bool) -> String {
    let mut out = String::new();
    for (i, r) in run.results.iter().enumerate() {
        if verbose || is_listed(run, i) {
            let _ = writeln!(out, "{}", case_detail(r, &cases[r.case]));
        }
    }
    let info = &run.implementation;
    let _ = writeln!(
        out,
        "\nsuite `{}` against {} {} ({}; capabilities: {})",
        printable(&run.suite),
        printable(&info.name),
        printable(&info.version),
        if info.language.is_empty() {
            "?".into()
        } else {
            printable(&info.language)
        },
        info.capabilities.names().join(", ")
    );
    let rows = run.per_rule(cases);
    let width = rows
        .keys()
        .map(|k| rule_label(*k).len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = write!(out, "{:<width$}", "rule");
    for (h, _) in COLUMNS {
        let _ = write!(out, " {h:>5}");
    }
    let _ = writeln!(out, "  named right/wrong");
    for (k, t) in &rows {
        let _ = write!(out, "{:<width$}", rule_label(*k));
        for (_, s) in COLUMNS {
            let _ = write!(out, " {:>5}", t.get(s));
        }
        let _ = writeln!(out, "  {}/{}", t.named_right, t.named_wrong);
    }
    official_lines(run, cases, &mut out);
    for p in &run.problems {
        let _ = writeln!(out, "problem: {}", printable(p));
    }
    for inc in &run.incidents {
        let _ = writeln!(out, "incident: {}", printable(inc));
    }
    let _ = writeln!(out, "{}", printable(&status_line(run)));
    let total = run.total();
    let secs = run.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        total.total() as f64 / secs
    } else {
        0.0
    };
    let _ = writeln!(
        out,
        "{} in {:.2} s ({:.0} cases/s)",
        totals_line(&total),
        secs,
        rate
    );
    out
}

/// Agreement with the official AG-UI corpus (docs/rules.md revision 4):
/// the totals, then every case that differs or could not be compared.
fn official_lines(run: &RunResult, cases: &[SuiteCase], out: &mut String) {
    let Some(t) = crate::record::OfficialTotals::of(run) else {
        return;
    };
    let _ = writeln!(
        out,
        "official corpus: {} agree, {} differ, {} not judged (not comparable, skipped or errored)",
        t.agree, t.differ, t.unjudged
    );
    for r in &run.results {
        let Some(a) = &r.scored.official else {
            continue;
        };
        let id = cases.get(r.case).map_or("?", |c| c.id.as_str());
        match (a.agrees, &a.not_comparable) {
            (Some(false), _) => {
                let _ = writeln!(
                    out,
                    "  differs: {} (fixture {}, answered {}): {}",
                    printable(id),
                    a.outcome,
                    a.answered,
                    printable(a.why.as_deref().unwrap_or(""))
                );
            }
            (None, Some(why)) => {
                let _ = writeln!(
                    out,
                    "  not comparable: {}: {}",
                    printable(id),
                    printable(why)
                );
            }
            _ => {}
        }
    }
}
