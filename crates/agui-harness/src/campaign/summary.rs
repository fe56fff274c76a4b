//! A campaign's findings as corpus cases, and its summary in text, JSON
//! and JUnit.

use super::{Campaign, Finding, Signature};
use crate::report::{describe_expected, last_lines, printable};
use crate::score::Score;
use crate::suite::SuiteCase;
use agui_model::RuleId;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `valid` or the rule id.
pub(crate) fn key(sig: &Signature) -> String {
    sig.0
        .map_or_else(|| "valid".into(), |r| r.as_str().to_string())
}

/// The saved case's id: `fuzz/<rule-or-valid>-<score>`, one per signature.
pub fn saved_id(sig: &Signature) -> String {
    format!(
        "fuzz/{}-{}",
        key(sig).replace('.', "-"),
        sig.1.as_str().to_lowercase()
    )
}

/// Where the shrunk case's expectation comes from, in one phrase.
fn provenance(f: &Finding) -> &'static str {
    if f.shrunk.by_reference {
        "reference"
    } else {
        "construction"
    }
}

/// The finding's shrunk case as it is saved.
pub fn saved_case(f: &Finding) -> SuiteCase {
    let mut c = f.shrunk.case.clone();
    c.id = saved_id(&f.signature);
    let how = if f.shrunk.by_reference {
        "expected answer from the reference model (it agrees with the generator on the stream this was shrunk from): review before adding to a corpus"
    } else {
        "expected answer by construction (the generator's)"
    };
    c.description = format!(
        "Found by agui-conform fuzz (case {} = {}; case seed {}): {} {}; shrunk from {} to {} events; {how}.",
        f.number,
        f.id,
        f.shrunk.recipe.seed,
        f.signature.1,
        f.reason,
        f.original_size,
        size(&c),
    );
    c
}

fn size(c: &SuiteCase) -> usize {
    c.lines.as_ref().map_or(c.events.len(), Vec::len)
}

/// Writes the finding under `dir` (corpus layout, loadable by `corpus
/// check --vendor DIR`) and, once, `DIR/fuzz.toml`, a suite of the folder
/// for `run --suite DIR/fuzz.toml`.
pub fn save(dir: &Path, f: &Finding) -> anyhow::Result<PathBuf> {
    let path = crate::shrink::write_case(dir, &saved_case(f))?;
    let suite = dir.join("fuzz.toml");
    if !suite.exists() {
        std::fs::write(
            &suite,
            "description = \"Failures found by agui-conform fuzz\"\n\n[corpus]\ndirs = [\".\"]\n",
        )?;
    }
    Ok(path)
}

/// The summary for people.
pub fn text(c: &Campaign) -> String {
    let s = &c.stats;
    let mut out = String::new();
    let i = &c.implementation;
    let _ = writeln!(
        out,
        "agui-conform fuzz: {} {} ({})",
        printable(&i.name),
        printable(&i.version),
        printable(&i.language)
    );
    let _ = writeln!(
        out,
        "seed {} · {} cases in {:.1} s ({:.1} cases/s) · {} valid, {} invalid · {}/{} rules covered",
        c.plan.seed,
        s.cases,
        c.elapsed.as_secs_f64(),
        c.rate(),
        s.valid,
        s.cases - s.valid,
        s.covered.len(),
        RuleId::violations().count()
    );
    let scores: Vec<String> = Score::ALL
        .iter()
        .map(|x| format!("{x} {}", s.tally.get(*x)))
        .collect();
    let _ = writeln!(out, "{}", scores.join("  "));
    if !s.failures.is_empty() {
        let _ = writeln!(out, "\nfailures by rule and score:");
        for (sig, n) in &s.failures {
            let _ = writeln!(out, "  {:<8}{:<44}{n} cases", sig.1.as_str(), key(sig));
        }
    }
    for f in &c.findings {
        let sc = saved_case(f);
        let _ = writeln!(
            out,
            "\n{} {}: case {} ({}), {} → {} events (expectation by {})",
            f.signature.1,
            key(&f.signature),
            f.number,
            f.id,
            f.original_size,
            size(&sc),
            provenance(f)
        );
        let _ = writeln!(out, "  why: {}", printable(&f.reason));
        let _ = writeln!(
            out,
            "  expected (shrunk): {}",
            describe_expected(&sc.expected)
        );
        let _ = writeln!(out, "  answered (shrunk): {}", printable(&f.shrunk.outcome));
        let _ = writeln!(out, "  why (shrunk): {}", printable(&f.shrunk.reason));
        if let Some(n) = &f.shrunk.note {
            let _ = writeln!(out, "  {n}");
        }
        if let Some(t) = &f.stderr {
            // As `run` shows a case's (report::terminal).
            let _ = writeln!(out, "  stderr tail (case {} as found):", f.number);
            for l in last_lines(t, 8) {
                let _ = writeln!(out, "  | {}", printable(l));
            }
        }
        match &f.saved {
            Some(Ok(p)) => {
                let _ = writeln!(out, "  saved: {}", p.display());
            }
            Some(Err(e)) => {
                let _ = writeln!(out, "  not saved: {e}");
            }
            None => {}
        }
        let shown: Vec<String> = match &sc.lines {
            Some(l) => l.clone(),
            None => sc.events.iter().map(Value::to_string).collect(),
        };
        for (k, e) in shown.iter().enumerate().take(12) {
            let _ = writeln!(out, "  {k:3} {e}");
        }
        if shown.len() > 12 {
            let _ = writeln!(out, "      … {} more", shown.len() - 12);
        }
    }
    for inc in &c.incidents {
        let _ = writeln!(out, "incident: {}", printable(inc));
    }
    if s.unjudged > 0 {
        let _ = writeln!(
            out,
            "not judged: {} answers (the generated case states only its first violation)",
            s.unjudged
        );
        for p in &s.problems {
            let _ = writeln!(out, "  {}", printable(p));
        }
    }
    if let Some(a) = &c.aborted {
        let _ = writeln!(out, "aborted: {}", printable(a));
    }
    for what in &c.cut {
        let _ = writeln!(out, "cut short by the time limit: {}", printable(what));
    }
    let _ = writeln!(out, "\nstatus: {}", c.status().as_str());
    out
}

/// The summary as one JSON object.
pub fn json(c: &Campaign) -> Value {
    let s = &c.stats;
    let scores: serde_json::Map<String, Value> = Score::ALL
        .iter()
        .map(|x| (x.as_str().to_string(), json!(s.tally.get(*x))))
        .collect();
    let failures: Vec<Value> = s
        .failures
        .iter()
        .map(|(sig, n)| json!({"rule": key(sig), "score": sig.1.as_str(), "cases": n}))
        .collect();
    let findings: Vec<Value> = c
        .findings
        .iter()
        .map(|f| {
            let sc = saved_case(f);
            json!({
                "rule": key(&f.signature),
                "score": f.signature.1.as_str(),
                "number": f.number,
                "id": f.id,
                "reason": f.reason,
                "answered": f.outcome,
                "answered_shrunk": f.shrunk.outcome,
                "reason_shrunk": f.shrunk.reason,
                "events_before": f.original_size,
                "events_after": size(&sc),
                "expectation": provenance(f),
                "note": f.shrunk.note,
                "shrink_tests": f.shrunk.tests,
                "saved": f.saved.as_ref().map(|r| match r {
                    Ok(p) => json!(p.display().to_string()),
                    Err(e) => json!({"error": e}),
                }),
                "case": sc.to_corpus("").to_json(),
                "stderr": f.stderr,
            })
        })
        .collect();
    let i = &c.implementation;
    json!({
        "implementation": {"name": i.name, "version": i.version, "language": i.language,
                           "capabilities": i.capabilities.names()},
        "seed": c.plan.seed,
        "cases": s.cases,
        "elapsed_s": c.elapsed.as_secs_f64(),
        "cases_per_s": c.rate(),
        "scores": scores,
        "valid": s.valid,
        "declined": s.declined,
        "covered": s.covered.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
        "uncovered": RuleId::violations().filter(|r| !s.covered.contains(r)).map(|r| r.as_str()).collect::<Vec<_>>(),
        "failures": failures,
        "findings": findings,
        "unjudged": s.unjudged,
        "problems": s.problems,
        "incidents": c.incidents,
        "aborted": c.aborted,
        "cut": c.cut,
        "status": c.status().as_str(),
    })
}

/// JUnit XML: one test case per distinct failure (a failure for FAIL, an
/// error for ERRORED), or one passing `campaign` case; an incomplete
/// campaign adds an erroring `campaign` case.
pub fn junit(c: &Campaign) -> anyhow::Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("agui-conform fuzz");
    let mut suite = TestSuite::new("fuzz");
    if let Some(why) = c
        .aborted
        .clone()
        .or_else(|| (c.stats.cases == 0).then(|| "no case ran".to_string()))
        .or_else(|| {
            (c.stats.unjudged > 0).then(|| {
                format!(
                    "{} answers not judged: {}",
                    c.stats.unjudged,
                    c.stats.problems.join("; ")
                )
            })
        })
    {
        let mut st = TestCaseStatus::non_success(NonSuccessKind::Error);
        st.set_message(why);
        suite.add_test_case(TestCase::new("campaign", st));
    }
    for f in &c.findings {
        let kind = if f.signature.1 == Score::Errored {
            NonSuccessKind::Error
        } else {
            NonSuccessKind::Failure
        };
        let mut st = TestCaseStatus::non_success(kind);
        st.set_message(format!("{}: {}", f.signature.1, f.reason));
        let sc = saved_case(f);
        let stderr = f
            .stderr
            .as_deref()
            .map(|t| format!("\nstderr (end, case as found):\n{}", t.trim_end()))
            .unwrap_or_default();
        st.set_description(format!(
            "case {} ({}); shrunk to {} events\nexpected {}; answered {}\nwhy: {}\n{}{stderr}",
            f.number,
            f.id,
            size(&sc),
            describe_expected(&sc.expected),
            f.shrunk.outcome,
            f.shrunk.reason,
            sc.to_corpus("").to_pretty()
        ));
        let mut tc = TestCase::new(saved_id(&f.signature), st);
        tc.set_classname(f.signature.0.map_or("valid", |r| r.rule().area).to_string());
        suite.add_test_case(tc);
    }
    if c.findings.is_empty() && c.status() != crate::runner::RunStatus::Incomplete {
        let mut tc = TestCase::new("campaign", TestCaseStatus::success());
        tc.set_time(c.elapsed);
        suite.add_test_case(tc);
    }
    report.add_test_suite(suite);
    Ok(report.to_string()?)
}
