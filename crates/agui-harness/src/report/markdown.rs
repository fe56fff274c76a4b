//! `--markdown FILE`: the summary and per-rule tables, and the cases that
//! failed or errored.

use super::{COLUMNS, describe_expected, rule_label, totals_line};
use crate::runner::RunResult;
use crate::suite::SuiteCase;
use std::fmt::Write;

pub fn render(run: &RunResult, cases: &[SuiteCase]) -> String {
    let i = &run.implementation;
    let mut out = format!("# Conformance: {} {}\n\n", i.name, i.version);
    let _ = writeln!(
        out,
        "Suite `{}`; capabilities: {}.\n",
        run.suite,
        i.capabilities.names().join(", ")
    );
    let _ = writeln!(out, "{}\n", totals_line(&run.total()));
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
    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| r.scored.score.is_bad())
        .collect();
    if !bad.is_empty() {
        out.push_str("\n## Failed and errored cases\n\n| case | score | expected | got | why |\n|---|---|---|---|---|\n");
        for r in bad {
            let c = &cases[r.case];
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} |",
                c.id,
                r.scored.score,
                describe_expected(&c.expected),
                r.outcome.short().replace('|', "\\|"),
                r.scored.reason.replace('|', "\\|")
            );
        }
    }
    for inc in &run.incidents {
        let _ = writeln!(out, "\nIncident: {inc}");
    }
    out
}
