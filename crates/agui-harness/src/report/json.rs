//! `--format json`: one JSON object per case, then one summary object.

use super::rule_label;
use crate::runner::{CaseResult, RunResult};
use crate::suite::{Origin, SuiteCase};
use serde_json::{Value, json};

/// The line of one case.
pub fn case_line(r: &CaseResult, c: &SuiteCase) -> Value {
    let e = &c.expected;
    let mut expected = json!({"verdict": e.verdict.as_str()});
    if let Some((rule, i)) = e.first {
        expected["rule"] = json!(rule.as_str());
        expected["index"] = json!(i);
    }
    let mut v = json!({
        "id": c.id,
        "score": r.scored.score.as_str(),
        "expected": expected,
        "got": r.outcome.to_json(),
        "elapsed_us": r.elapsed.as_micros() as u64,
    });
    if !r.scored.reason.is_empty() {
        v["reason"] = json!(r.scored.reason);
    }
    if let Some(n) = r.scored.naming {
        v["rule_named"] = json!(n.as_str());
    }
    if let Some(t) = &r.stderr {
        v["stderr"] = json!(t);
    }
    if let Some((want, got)) = &r.scored.projection_mismatch {
        v["projection"] = json!({"expected": want, "reported": got});
    }
    if let Some(a) = &r.scored.official {
        v["official"] = json!(a);
    }
    if let Origin::Generated { seed, mode, .. } = &c.origin {
        v["seed"] = json!(seed);
        v["mode"] = json!(mode.label());
    }
    v
}

/// The closing summary line: `{"summary": {...}}`.
pub fn summary_line(run: &RunResult, cases: &[SuiteCase]) -> Value {
    let tally = |t: &crate::runner::Tally| {
        let mut m = serde_json::Map::new();
        for s in crate::score::Score::ALL {
            m.insert(s.as_str().into(), json!(t.get(s)));
        }
        m.insert("named_right".into(), json!(t.named_right));
        m.insert("named_wrong".into(), json!(t.named_wrong));
        Value::Object(m)
    };
    let total = run.total();
    let mut rules = serde_json::Map::new();
    for (k, t) in run.per_rule(cases) {
        rules.insert(rule_label(k).into(), tally(&t));
    }
    let i = &run.implementation;
    let mut v = json!({"summary": {
        "suite": run.suite,
        "implementation": {"name": i.name, "version": i.version, "language": i.language, "capabilities": i.capabilities.names()},
        "cases": total.total(),
        "scores": tally(&total),
        "rules": rules,
        "incidents": run.incidents,
        "problems": run.problems,
        "aborted": run.aborted,
        "incomplete": run.incomplete(),
        "strict": run.strict,
        "status": run.status().as_str(),
        "exit_status": run.status().exit_code(),
        "elapsed_ms": run.elapsed.as_millis() as u64,
        "ok": run.ok(),
    }});
    if let Some(t) = crate::record::OfficialTotals::of(run) {
        v["summary"]["official"] = json!(t);
    }
    v
}

/// Every line, for writing after the fact.
pub fn render(run: &RunResult, cases: &[SuiteCase]) -> String {
    let mut out = String::new();
    for r in &run.results {
        out.push_str(&case_line(r, &cases[r.case]).to_string());
        out.push('\n');
    }
    out.push_str(&summary_line(run, cases).to_string());
    out.push('\n');
    out
}
