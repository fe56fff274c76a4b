//! `--markdown FILE`: the run's status, the summary and per-rule tables,
//! and every case that failed, errored or warned, with the
//! implementation's message and stderr. Whatever the implementation or
//! the suite supplied is escaped ([`super::md`]).

use super::md::{code, text};
use super::{
    COLUMNS, describe_expected, is_listed, last_lines, message, rule_label, status_line, stderr,
    totals_line,
};
use crate::runner::RunResult;
use crate::suite::SuiteCase;
use std::fmt::Write;

/// The harness's own wording in a table cell (rule ids in code spans).
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', "<br>")
}

pub fn render(run: &RunResult, cases: &[SuiteCase]) -> String {
    let i = &run.implementation;
    let mut out = format!("# Conformance: {} {}\n\n", text(&i.name), text(&i.version));
    let _ = writeln!(
        out,
        "Suite {}; capabilities: {}.\n",
        code(&run.suite),
        i.capabilities.names().join(", ")
    );
    let _ = writeln!(out, "**{}**\n", text(&status_line(run)));
    let _ = writeln!(out, "{}\n", totals_line(&run.total()));
    for p in &run.problems {
        let _ = writeln!(out, "- Problem: {}", text(p));
    }
    if !run.problems.is_empty() {
        out.push('\n');
    }
    out.push_str("| rule |");
    for (h, _) in COLUMNS {
        let _ = write!(out, " {h} |");
    }
    out.push_str(" named right | named wrong |\n|---|");
    for _ in COLUMNS {
        out.push_str("---:|");
    }
    out.push_str("---:|---:|\n");
    for (k, t) in run.per_rule(cases) {
        let _ = write!(out, "| `{}` |", rule_label(k));
        for (_, s) in COLUMNS {
            let _ = write!(out, " {} |", t.get(s));
        }
        let _ = writeln!(out, " {} | {} |", t.named_right, t.named_wrong);
    }
    let listed: Vec<_> = (0..run.results.len())
        .filter(|k| is_listed(run, *k))
        .map(|k| &run.results[k])
        .collect();
    if !listed.is_empty() {
        out.push_str("\n## Failed, errored and warned cases\n\n| case | score | expected | got | why | implementation said | stderr (end) |\n|---|---|---|---|---|---|---|\n");
        for r in listed {
            let c = &cases[r.case];
            let said = message(r).map(text).unwrap_or_default();
            let err = stderr(r)
                .map(|t| text(&last_lines(t, 4).join("\n")))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                code(&c.id),
                r.scored.score,
                cell(&describe_expected(&c.expected)),
                text(&r.outcome.short()),
                text(&r.scored.reason),
                said,
                err
            );
        }
    }
    for inc in &run.incidents {
        let _ = writeln!(out, "\nIncident: {}", text(inc));
    }
    out
}
