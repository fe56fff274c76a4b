//! Every score of docs/rules.md "Scoring a consumer" (and SKIPPED, ERRORED), as
//! the harness reports them for a scripted implementation over the
//! protocol, in each report format. Expectations are written by hand from
//! the catalogue's obligations.

mod support;

use agui_harness::report::{json, junit, markdown, terminal};
use agui_harness::{Naming, RunResult, Score, SuiteCase};
use agui_model::{RuleId, Verdict};
use serde_json::{Value, json};
use support::*;

/// (case, fake behaviour, expected score, expected naming)
fn scenarios() -> Vec<(SuiteCase, &'static str, Score, Option<Naming>)> {
    let must = Some((RuleId::OwnershipContinuationDisagrees, 2));
    let should = &[(RuleId::OwnershipStepOwner, 2)];
    let may = &[(RuleId::RunUnterminated, 2)];
    vec![
        (valid("valid/accepted"), "accept", Score::Pass, None),
        (valid("valid/rejected"), "reject:0", Score::Fail, None),
        (
            case("must/accepted", Verdict::Reject, must),
            "accept",
            Score::Fail,
            None,
        ),
        (
            case("must/at-m", Verdict::Reject, must),
            "reject:2:ownership.continuation-disagrees",
            Score::Pass,
            Some(Naming::Right),
        ),
        (
            case("must/early", Verdict::Reject, must),
            "reject:1",
            Score::Fail,
            None,
        ),
        (
            case("must/late", Verdict::Reject, must),
            "reject:3",
            Score::Fail,
            None,
        ),
        (
            stated("should/accepted", Verdict::Reject, should),
            "accept",
            Score::Warn,
            None,
        ),
        (
            stated("should/later", Verdict::Reject, should),
            "reject:3",
            Score::Pass,
            None,
        ),
        (
            stated("should/wrong-rule", Verdict::Reject, should),
            "reject:2:tool.not-open",
            Score::Fail,
            Some(Naming::Wrong),
        ),
        (
            case("must/unknown-rule", Verdict::Reject, must),
            "reject:2:no.such-rule",
            Score::Fail,
            Some(Naming::Wrong),
        ),
        (
            case("must/past-the-end", Verdict::Reject, must),
            "reject:5",
            Score::Errored,
            None,
        ),
        (
            stated("may/accepted", Verdict::Reject, may),
            "accept",
            Score::Info,
            None,
        ),
        (
            stated("may/rejected", Verdict::Reject, may),
            "reject-end",
            Score::Pass,
            None,
        ),
        (
            valid("say/rejected"),
            "'say:[ag-ui][enforce] Removed m1'",
            Score::Fail,
            None,
        ),
        (valid("skip/me"), "skip", Score::Skipped, None),
        (valid("err/me"), "crash", Score::Errored, None),
    ]
}

fn run_all() -> (RunResult, Vec<SuiteCase>) {
    // One scripted process per scenario; results merged into one run.
    let mut all: Option<RunResult> = None;
    let mut cases = Vec::new();
    for (c, behaviour, _, _) in scenarios() {
        let mut r = run(&mut fake(behaviour), std::slice::from_ref(&c));
        r.results[0].case = cases.len();
        cases.push(c);
        match &mut all {
            None => all = Some(r),
            Some(a) => a.results.extend(r.results),
        }
    }
    (all.unwrap(), cases)
}

#[test]
fn each_outcome_is_scored_as_the_rules_say() {
    let (run, _) = run_all();
    for ((c, behaviour, score, naming), r) in scenarios().into_iter().zip(&run.results) {
        assert_eq!(
            (r.scored.score, r.scored.naming),
            (score, naming),
            "{} with {behaviour}: {:?}",
            c.id,
            r.scored
        );
    }
}

#[test]
fn json_report_has_a_line_per_case_and_a_summary() {
    let (run, cases) = run_all();
    let text = json::render(&run, &cases);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len() + 1);
    assert_eq!(
        lines[2],
        json!({"id": "must/accepted", "score": "FAIL",
               "expected": {"verdict": "reject", "rule": "ownership.continuation-disagrees", "index": 2},
               "got": {"verdict": "accept"},
               "reason": "accepted a stream with a must-reject violation (`ownership.continuation-disagrees` at 2)",
               "elapsed_us": lines[2]["elapsed_us"], "seed": 7, "mode": "valid"})
    );
    assert_eq!(lines[3]["rule_named"], "right");
    let s = &lines[cases.len()]["summary"];
    assert_eq!(s["cases"], 16);
    assert_eq!(
        s["scores"],
        json!({"PASS": 4, "FAIL": 7, "WARN": 1, "INFO": 1, "SKIPPED": 1, "ERRORED": 2, "named_right": 1, "named_wrong": 2})
    );
    assert_eq!(s["rules"]["ownership.step-owner"]["WARN"], 1);
    assert_eq!(s["rules"]["valid"]["PASS"], 1);
    assert_eq!(s["ok"], false);
}

#[test]
fn terminal_report_lists_failures_and_the_rule_table() {
    let (run, cases) = run_all();
    let text = terminal::render(&run, &cases, false);
    assert!(
        text.contains(
            "FAIL    must/late: rejected at 3, after letting through the must-reject violation at 2"
        ),
        "{text}"
    );
    assert!(
        text.contains("FAIL    valid/rejected: rejected a valid stream"),
        "{text}"
    );
    assert!(
        text.contains("ERRORED err/me: the process closed stdout (killed by signal 6)"),
        "{text}"
    );
    assert!(text.contains("| fake: about to crash"), "{text}");
    assert!(
        text.contains(
            "WARN    should/accepted: accepted a should-reject violation (`ownership.step-owner` at 2)"
        ),
        "WARN is listed: {text}"
    );
    assert!(!text.contains("may/accepted"), "INFO only with -v");
    // The implementation's message and its stderr (issue point 9).
    assert!(
        text.contains("implementation says: [ag-ui][enforce] Removed m1"),
        "{text}"
    );
    assert!(text.contains("| [ag-ui][enforce] Removed m1"), "{text}");
    let row = text
        .lines()
        .find(|l| l.starts_with("ownership.continuation-disagrees"))
        .unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cols,
        [
            "ownership.continuation-disagrees",
            "1",
            "4",
            "0",
            "0",
            "0",
            "1",
            "1/1"
        ]
    );
    assert!(text.contains("16 cases: 4 PASS, 7 FAIL, 1 WARN, 1 INFO, 1 SKIPPED, 2 ERRORED; rules named right 1 / wrong 2"));
}

#[test]
fn junit_and_markdown() {
    let (run, cases) = run_all();
    let xml = junit::render(&run, &cases).unwrap();
    assert_eq!(xml.matches("<failure").count(), 7, "{xml}");
    assert_eq!(xml.matches("<error").count(), 2);
    assert_eq!(xml.matches("<skipped").count(), 1);
    assert_eq!(xml.matches("<testcase").count(), 16);
    // The rule's area as classname; a failure body; WARN marked.
    assert!(
        xml.contains(r#"<testcase name="must/late" classname="ownership""#),
        "{xml}"
    );
    assert!(
        xml.contains("why: rejected at 3, after letting through the must-reject violation at 2"),
        "{xml}"
    );
    assert!(
        xml.contains("implementation says: [ag-ui][enforce] Removed m1"),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="score" value="WARN"/>"#),
        "{xml}"
    );
    let md = markdown::render(&run, &cases);
    assert!(
        md.contains("| `ownership.step-owner` | 1 | 1 | 1 | 0 | 0 | 0 | 0 | 1 |"),
        "{md}"
    );
    assert!(md.contains("| `must/late` | FAIL |"), "{md}");
    assert!(md.contains("| `should/accepted` | WARN |"), "{md}");
    assert!(
        md.contains(r"| \[ag-ui\]\[enforce\] Removed m1 | \[ag-ui\]\[enforce\] Removed m1 |"),
        "{md}"
    );
}

#[test]
fn projection_mismatch_fails_with_a_diff() {
    let mut c = valid("valid/projection");
    c.expected.projection = Some(json!({"runs": [{"runId": "r", "status": "finished"}]}));
    let bad = r#"--caps verdict,index,projection 'projection:{"runs":[{"runId":"r","status":"running","x":null}]}'"#;
    let run = run(&mut fake(bad), std::slice::from_ref(&c));
    assert_eq!(run.results[0].scored.score, Score::Fail);
    let text = terminal::render(&run, std::slice::from_ref(&c), false);
    assert!(text.contains("-      \"status\": \"finished\""), "{text}");
    assert!(text.contains("+      \"status\": \"running\""), "{text}");
    let good = r#"--caps verdict,index,projection 'projection:{"runs":[{"status":"finished","runId":"r","owner":null}]}'"#;
    let r = support::run(&mut fake(good), std::slice::from_ref(&c));
    assert_eq!(r.results[0].scored.score, Score::Pass);
}

#[test]
fn schema_only_implementations_skip_stream_rule_cases() {
    let cases = [
        valid("valid"),
        case(
            "schema-rule",
            Verdict::Reject,
            Some((RuleId::SchemaMissingField, 1)),
        ),
        stated(
            "stream-rule",
            Verdict::Reject,
            &[(RuleId::OwnershipStepOwner, 2)],
        ),
    ];
    // It rejects everything at 1: right for the schema case, wrong for the
    // valid one, and never asked about the stream-rule case.
    let r = run(
        &mut fake("--caps verdict,index,schema-only reject:1"),
        &cases,
    );
    let scores: Vec<Score> = r.results.iter().map(|x| x.scored.score).collect();
    assert_eq!(scores, [Score::Fail, Score::Pass, Score::Skipped]);
}

/// An implementation that names the wrong rule on every
/// rejection (at the right index) fails each of those cases as misnamed,
/// and the run fails (exit status 1), over a whole suite.
#[test]
fn a_wrong_rule_on_every_rejection_fails_the_run() {
    let suite = agui_harness::Suite::find("quick").unwrap();
    let (cases, problems) = suite.cases();
    assert!(problems.is_empty(), "{problems:?}");
    let mut run = run(&mut fake("misname"), &cases);
    run.problems = problems;
    let (mut wrong, mut unjudged) = (0, 0);
    for r in &run.results {
        let agui_harness::outcome::Outcome::Reject { rule, .. } = &r.outcome else {
            continue;
        };
        let c = &cases[r.case];
        match r.scored.naming {
            Some(Naming::Wrong) => {
                wrong += 1;
                assert_eq!(r.scored.score, Score::Fail, "{}", c.id);
                assert!(r.scored.reason.contains("misnamed"), "{}", r.scored.reason);
            }
            // Unjudged only where suites/README.md says so: the case states
            // only its first violation, and the rule named comes later in
            // catalogue order (it could break at the same event).
            Some(Naming::Unjudged) => {
                unjudged += 1;
                let named = rule.as_deref().and_then(RuleId::from_id);
                let first = c.expected.first.map(|(f, _)| f);
                assert!(c.expected.all.is_none(), "{}", c.id);
                assert!(named > first, "{}: {named:?} after {first:?}", c.id);
            }
            other => panic!("{}: naming {other:?}", c.id),
        }
    }
    // The quick suite holds the whole corpus: hundreds of rejections, and
    // the fake names, where it can, a rule the case rules out.
    assert!(wrong > 200, "{wrong} misnamed, {unjudged} unjudged");
    let t = run.total();
    assert_eq!((t.named_wrong, t.named_right), (wrong, 0));
    assert!(!run.ok());
    assert_eq!(run.status().exit_code(), 1);
}

/// docs/rules.md "Scoring a consumer", revision 3: one fake consumer per
/// change, each scored as the revision says (before it, the first two
/// scored PASS and the last one PASS with the naming "unjudged").
#[test]
fn revision_3_fake_consumers() {
    let must = Some((RuleId::OwnershipContinuationDisagrees, 2));
    let table = [
        // F counts warnings: rejecting a warnings-only stream before its
        // first (may-reject) warning rejects a valid prefix.
        (
            case(
                "warn/rejected-early",
                Verdict::Accept,
                Some((RuleId::InterruptUnknownId, 2)),
            ),
            "reject:1",
            Score::Fail,
            None,
        ),
        (
            stated(
                "warn/listed-rejected-early",
                Verdict::Accept,
                &[(RuleId::SchemaDuplicateKey, 3)],
            ),
            "reject:2",
            Score::Fail,
            None,
        ),
        // At or after F the rejection conforms.
        (
            case(
                "warn/rejected-at-f",
                Verdict::Accept,
                Some((RuleId::InterruptUnknownId, 2)),
            ),
            "reject:2",
            Score::Pass,
            None,
        ),
        // A rule the case cannot judge (it states only its first
        // violation, and `chunk.ambiguous` could break at that event too):
        // a problem of the case, not a PASS.
        (
            case("must/unstated-rule", Verdict::Reject, must),
            "reject:2:chunk.ambiguous",
            Score::Skipped,
            Some(Naming::Unjudged),
        ),
        // What a first violation alone still rules out is judged: a rule
        // named before it.
        (
            case("must/rule-before-first", Verdict::Reject, must),
            "reject:1:ownership.step-owner",
            Score::Fail,
            Some(Naming::Wrong),
        ),
    ];
    for (c, behaviour, want, naming) in table {
        let r = run(&mut fake(behaviour), std::slice::from_ref(&c));
        let got = &r.results[0].scored;
        assert_eq!((got.score, got.naming), (want, naming), "{}: {got:?}", c.id);
        if want == Score::Skipped {
            // The run lists it as a problem of the case and vouches for
            // nothing (exit status 3), in every report.
            assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
            assert!(
                r.problems[0].starts_with(
                    "case `must/unstated-rule`: `chunk.ambiguous` named at 2 cannot be judged"
                ),
                "{}",
                r.problems[0]
            );
            assert_eq!(r.status().exit_code(), 3);
            let cases = std::slice::from_ref(&c);
            let summary: Value = json::render(&r, cases)
                .lines()
                .last()
                .and_then(|l| serde_json::from_str(l).ok())
                .unwrap_or_default();
            assert_eq!(summary["summary"]["status"], "incomplete", "{summary}");
            assert_eq!(summary["summary"]["problems"][0], json!(r.problems[0]));
            let xml = junit::render(&r, cases).unwrap();
            assert!(xml.contains("cannot be judged"), "{xml}");
            let text = terminal::render(&r, cases, false);
            assert!(text.contains("cannot be judged"), "{text}");
        } else {
            assert!(r.problems.is_empty(), "{}: {:?}", c.id, r.problems);
        }
    }
}

/// Revision 3: "the projection of a may-reject stream is scored: wrong =
/// FAIL". The corpus case `schema/lone-surrogate-split-pair` (two
/// `schema.lone-surrogate` warnings, a may-reject stream) states its
/// projection "Hi 😀!"; a consumer showing the two halves as U+FFFD each
/// fails, one showing the character is INFO.
#[test]
fn a_may_reject_streams_projection_is_scored() {
    let file = agui_assets::get("corpus/schema/lone-surrogate-split-pair.json").unwrap();
    let case: agui_corpus::Case = serde_json::from_slice(file.bytes).unwrap();
    let c = SuiteCase::from_corpus(case, Default::default()).unwrap();
    let shown = |content: &str| {
        let p = json!({"runs": [{"threadId": "t1", "runId": "r1", "status": "finished",
            "invocations": [], "state": {}, "interrupts": [],
            "messages": [{"id": "m1", "role": "assistant", "content": content}]}]});
        format!("--caps verdict,index,projection,raw-lines 'projection:{p}'")
    };
    let wrong = run(
        &mut fake(&shown("Hi \u{FFFD}\u{FFFD}!")),
        std::slice::from_ref(&c),
    );
    let s = &wrong.results[0].scored;
    assert_eq!(s.score, Score::Fail, "{s:?}");
    assert!(s.projection_mismatch.is_some());
    let right = run(&mut fake(&shown("Hi 😀!")), std::slice::from_ref(&c));
    assert_eq!(right.results[0].scored.score, Score::Info);
}

/// Over the quick suite (the whole corpus): a consumer that rejects every
/// stream at its first event fails every warnings-only case whose first
/// warning is may-reject and comes later (revision 3; before, F counted
/// only errors and these were PASS).
#[test]
fn rejecting_every_stream_at_0_fails_warnings_only_cases() {
    let (cases, problems) = agui_harness::Suite::find("quick").unwrap().cases();
    assert!(problems.is_empty(), "{problems:?}");
    let warned: Vec<SuiteCase> = cases
        .into_iter()
        .filter(|c| {
            c.expected.verdict == Verdict::Accept
                && c.expected.first.is_some_and(|(r, i)| {
                    r.obligation() == agui_model::Obligation::MayReject && i > 0
                })
        })
        .collect();
    assert!(warned.len() > 15, "{}", warned.len());
    let r = run(
        &mut fake("--caps verdict,index,rule,raw-lines reject:0"),
        &warned,
    );
    for x in &r.results {
        let c = &warned[x.case];
        assert_eq!(x.scored.score, Score::Fail, "{}: {:?}", c.id, x.scored);
        assert!(
            x.scored.reason.contains("inside the valid prefix"),
            "{}",
            x.scored.reason
        );
    }
}

/// Over the quick suite: a consumer with the right verdict and index that
/// names the catalogue's last rule not broken there. Where the case lists
/// its violations that is misnamed (FAIL); where it states only its first
/// one, the harness cannot judge it: never a PASS, a problem of the case,
/// and the run is incomplete (before revision 3 these were PASS). The
/// corpus now lists every violation, so the suite is run twice: as it is,
/// and with the lists of cases whose first violation is must-reject left
/// out (what an older corpus or a case from elsewhere states).
#[test]
fn a_rule_a_case_cannot_judge_is_never_a_pass() {
    let (mut cases, problems) = agui_harness::Suite::find("quick").unwrap().cases();
    assert!(problems.is_empty(), "{problems:?}");
    let first_only: Vec<_> = cases
        .iter()
        .filter(|c| {
            c.expected
                .first
                .is_some_and(|(r, _)| r.obligation() == agui_model::Obligation::MustReject)
        })
        .cloned()
        .map(|mut c| {
            c.id = format!("{}/first-only", c.id);
            c.expected.all = None;
            c
        })
        .collect();
    cases.extend(first_only);
    let r = run(&mut fake("misname-later"), &cases);
    let (mut wrong, mut unjudged) = (0, 0);
    for x in &r.results {
        let c = &cases[x.case];
        match x.scored.naming {
            Some(Naming::Wrong) => {
                wrong += 1;
                assert_eq!(x.scored.score, Score::Fail, "{}", c.id);
            }
            Some(Naming::Unjudged) => {
                unjudged += 1;
                assert!(c.expected.all.is_none(), "{}", c.id);
                assert_ne!(x.scored.score, Score::Pass, "{}", c.id);
                let named = format!("case `{}`: ", c.id);
                assert!(r.problems.iter().any(|p| p.starts_with(&named)), "{}", c.id);
            }
            // Accepted (no error), or a raw-lines case skipped.
            None => assert!(
                !matches!(x.outcome, agui_harness::outcome::Outcome::Reject { .. }),
                "{}",
                c.id
            ),
            other => panic!("{}: naming {other:?} ({:?})", c.id, x.scored),
        }
    }
    eprintln!("{wrong} misnamed, {unjudged} not judged");
    assert!(
        wrong > 100 && unjudged > 20,
        "{wrong} wrong, {unjudged} unjudged"
    );
    assert_eq!(r.problems.len(), unjudged);
    assert_eq!(r.status().exit_code(), 3);
    assert!(r.incomplete().unwrap_or_default().contains("not judged"));
}
