//! The loader, the gates and the reference comparison on small corpora
//! built here, including malformed files.

use agui_corpus::case_schema;
use agui_corpus::gate;
use agui_corpus::load::{ProblemKind, load_dir};
use agui_corpus::reference::{drop_nulls, projection_diff, run_case};
use agui_corpus::{Case, check_dir};
use agui_model::{Obligation, RuleId, Severity};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = {
            // Unique per call: two tests of one binary may pick the same name.
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::env::temp_dir().join(format!("agui-corpus-{name}-{}-{n}", std::process::id()))
        };
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn write(&self, rel: &str, text: &str) {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    fn case(&self, rel: &str, v: Value) {
        self.write(rel, &serde_json::to_string_pretty(&v).unwrap());
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn rs() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"})
}
fn rf() -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"})
}

fn good(id: &str) -> Value {
    json!({"id": id, "description": "d", "spec": "s", "events": [rs(), rf()], "expect": {"verdict": "accept"}})
}

fn with(mut v: Value, key: &str, val: Value) -> Value {
    v[key] = val;
    v
}

fn problems_of<'a>(c: &'a agui_corpus::Corpus, file: &str) -> Vec<&'a agui_corpus::Problem> {
    c.malformed
        .iter()
        .filter(|p| p.path.ends_with(file))
        .collect()
}

#[test]
fn malformed_files_are_reported_with_path_and_reason_and_the_rest_load() {
    let d = TempDir::new("malformed");
    d.case("run/ok.json", good("run/ok"));
    d.write("run/bad-json.json", "{\"id\": ");
    d.case(
        "run/unknown-field.json",
        with(good("run/unknown-field"), "extra", json!(1)),
    );
    d.case(
        "run/unknown-rule.json",
        with(
            good("run/unknown-rule"),
            "expect",
            json!({"verdict": "reject", "rule": "run.nope", "index": 0}),
        ),
    );
    d.case(
        "run/index-out-of-range.json",
        with(
            good("run/index-out-of-range"),
            "expect",
            json!({"verdict": "reject", "rule": "run.unterminated", "index": 3}),
        ),
    );
    d.case("run/wrong-id.json", good("run/other-name"));
    d.case("entities/dup.json", good("run/ok"));
    d.case(
        "run/not-obligation.json",
        with(
            good("run/not-obligation"),
            "obligation",
            json!("run.unterminated"),
        ),
    );
    d.case(
        "run/reject-warning.json",
        with(
            good("run/reject-warning"),
            "expect",
            json!({"verdict": "reject", "rule": "accept.empty-id", "index": 1}),
        ),
    );
    d.case(
        "run/accept-error.json",
        with(
            good("run/accept-error"),
            "expect",
            json!({"verdict": "accept", "rule": "run.unterminated", "index": 1}),
        ),
    );
    d.case(
        "run/rule-without-index.json",
        with(
            good("run/rule-without-index"),
            "expect",
            json!({"verdict": "reject", "rule": "run.unterminated"}),
        ),
    );
    d.write("case.schema.json", "not even JSON, and not a case");

    let c = load_dir(&d.0).unwrap();
    assert_eq!(
        c.cases
            .iter()
            .map(|c| c.case.id.as_str())
            .collect::<Vec<_>>(),
        ["run/ok"]
    );
    let expect_one = |file: &str, kind: ProblemKind, words: &str| {
        let ps = problems_of(&c, file);
        assert!(
            ps.iter().any(|p| p.kind == kind
                && p.message.contains(words)
                && p.to_string().contains(file)),
            "{file}: wanted {kind:?} containing {words:?}, got {ps:?}"
        );
    };
    expect_one("bad-json.json", ProblemKind::Json, "not JSON");
    expect_one(
        "unknown-field.json",
        ProblemKind::Format,
        "unknown field `extra`",
    );
    expect_one(
        "unknown-rule.json",
        ProblemKind::Format,
        "unknown rule id `run.nope`",
    );
    expect_one(
        "index-out-of-range.json",
        ProblemKind::Expect,
        "out of range",
    );
    expect_one("wrong-id.json", ProblemKind::Id, "expected `run/wrong-id`");
    expect_one("dup.json", ProblemKind::Id, "duplicate id `run/ok`");
    expect_one(
        "not-obligation.json",
        ProblemKind::Expect,
        "not an accept.* obligation",
    );
    expect_one(
        "reject-warning.json",
        ProblemKind::Expect,
        "is an obligation",
    );
    expect_one(
        "accept-error.json",
        ProblemKind::Expect,
        "needs a warning rule",
    );
    expect_one(
        "rule-without-index.json",
        ProblemKind::Expect,
        "without `expect.index`",
    );
    // The case schema beside the cases is not a case.
    assert!(problems_of(&c, "case.schema.json").is_empty());
    // Ids: the mismatch and the duplicate.
    assert_eq!(gate::ids(&c).len(), 3); // two mismatches, one duplicate
    // The schema gate sees the files that parsed, malformed or not.
    let schema = gate::schema(&c);
    assert!(
        schema.iter().any(|p| p.contains("unknown-field.json")),
        "{schema:?}"
    );
    assert!(
        schema.iter().any(|p| p.contains("reject-warning.json")),
        "{schema:?}"
    );
    assert!(
        schema.iter().any(|p| p.contains("not-obligation.json")),
        "{schema:?}"
    );
    assert!(
        !schema.iter().any(|p| p.contains("run/ok.json")),
        "{schema:?}"
    );
}

#[test]
fn check_dir_counts_cases_failures_and_malformed_files() {
    let d = TempDir::new("check");
    d.case("run/ok.json", good("run/ok"));
    // Wrong on purpose: the input ends inside the run (run.unterminated at 1).
    d.case("run/wrong.json", json!({"id": "run/wrong", "description": "d", "spec": "s", "events": [rs()], "expect": {"verdict": "accept"}}));
    d.write("run/broken.json", "[");
    let s = check_dir(&d.0).unwrap();
    assert_eq!(
        (
            s.files,
            s.cases,
            s.passed,
            s.failed.len(),
            s.malformed_files()
        ),
        (3, 2, 1, 1, 1)
    );
    assert!(!s.ok());
    assert_eq!(s.failed[0].id, "run/wrong");
    assert!(
        s.failed[0].detail.contains("run.unterminated at index 1"),
        "{}",
        s.failed[0].detail
    );
    assert!(
        s.failed[0].detail.contains("<end of input>"),
        "{}",
        s.failed[0].detail
    );
    // Two cases cannot cover the catalogue.
    let cov = s
        .gates
        .iter()
        .find(|g| g.name == "gate/every-rule-has-cases")
        .unwrap();
    assert!(
        cov.problems
            .iter()
            .any(|p| p.contains("`chunk.ambiguous` has 0 case(s)"))
    );
    assert!(
        cov.problems
            .iter()
            .any(|p| p.contains("`accept.empty-id` has no case with a projection"))
    );
}

#[test]
fn a_missing_directory_is_an_error_not_an_empty_corpus() {
    assert!(load_dir(Path::new("/nonexistent/agui-corpus")).is_err());
}

fn case_of(v: Value) -> Case {
    serde_json::from_value(v).unwrap()
}

#[test]
fn mismatch_names_both_violations_and_shows_the_events_around_them() {
    let c = case_of(json!({
        "id": "ownership/x", "description": "d", "spec": "s",
        "events": [rs(),
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "subagentRunId": "s1"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x", "subagentRunId": "s2"}],
        "expect": {"verdict": "reject", "rule": "ownership.continuation-disagrees", "index": 1}
    }));
    let m = run_case(&c).unwrap_err();
    assert_eq!(
        m.expected_first,
        Some((RuleId::OwnershipContinuationDisagrees, 1))
    );
    assert_eq!(
        m.actual_first,
        Some((RuleId::OwnershipContinuationDisagrees, 2))
    );
    let text = m.to_string();
    assert!(
        text.contains("expected ownership.continuation-disagrees at index 1"),
        "{text}"
    );
    assert!(
        text.contains("actual   ownership.continuation-disagrees at index 2"),
        "{text}"
    );
    assert!(text.contains(">   1 ") && text.contains(">   2 "), "{text}");
}

#[test]
fn projection_compares_after_dropping_nulls_and_diffs_readably() {
    let a = json!({"runs": [{"id": "x", "owner": null, "list": [{"k": null, "v": 1}]}]});
    let b = json!({"runs": [{"id": "x", "list": [{"v": 1}]}]});
    assert_eq!(drop_nulls(&a), drop_nulls(&b));
    assert!(projection_diff(&a, &b).is_none());
    let c = json!({"runs": [{"id": "y", "list": [{"v": 1}]}]});
    let d = projection_diff(&b, &c).unwrap();
    assert!(
        d.contains("-      \"id\": \"x\"") && d.contains("+      \"id\": \"y\""),
        "{d}"
    );
}

#[test]
fn a_projection_mismatch_fails_the_case() {
    let c = case_of(json!({
        "id": "accept/x", "description": "d", "spec": "s", "events": [rs(), rf()],
        "expect": {"verdict": "accept"},
        "projection": {"runs": [{"threadId": "t1", "runId": "r1", "status": "errored",
            "invocations": [], "messages": [], "state": {}, "interrupts": []}]}
    }));
    let m = run_case(&c).unwrap_err();
    let diff = m.projection_diff.clone().unwrap();
    assert!(
        diff.contains("-      \"status\": \"errored\"")
            && diff.contains("+      \"status\": \"finished\""),
        "{diff}"
    );
}

#[test]
fn interleaved_means_three_subagent_ids_and_a_parent_link() {
    let mut c = case_of(good("run/x"));
    assert!(!gate::is_interleaved(&c));
    c.events = vec![
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "a", "name": "n"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "b", "name": "n", "parentSubagentRunId": "a"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": "b"}),
    ];
    assert_eq!(gate::interleaving(&c), (2, true));
    assert!(!gate::is_interleaved(&c));
    c.events
        .push(json!({"type": "CUSTOM", "name": "x", "value": 1, "subagentRunId": ""}));
    assert!(gate::is_interleaved(&c));
}

#[test]
fn events_must_be_schema_valid_except_the_schema_faults_a_case_states() {
    let d = TempDir::new("events");
    let bad = json!({"type": "TEXT_MESSAGE_START"});
    d.case(
        "run/x.json",
        json!({"id": "run/x", "description": "d", "spec": "s", "events": [rs(), bad.clone(), rf()],
        "expect": {"verdict": "reject", "rule": "run.unterminated", "index": 3},
        "violations": [{"rule": "run.unterminated", "index": 3}]}),
    );
    d.case("schema/y.json", json!({"id": "schema/y", "description": "d", "spec": "s", "events": [rs(), bad.clone(), rf()],
        "expect": {"verdict": "reject", "rule": "schema.missing-field", "index": 1},
        "violations": [{"rule": "schema.missing-field", "index": 1}]}));
    // A schema fault the case states at another event is exempt too (an
    // unknown type at 3); one it does not state is not (the nameless
    // start at 4).
    d.case("schema/z.json", json!({"id": "schema/z", "description": "d", "spec": "s", "events": [rs(), bad.clone(), rf(), {"type": "NOPE"}, bad],
        "expect": {"verdict": "reject", "rule": "schema.missing-field", "index": 1},
        "violations": [{"rule": "schema.missing-field", "index": 1}, {"rule": "schema.unknown-type", "index": 3}]}));
    let c = load_dir(&d.0).unwrap();
    let p = gate::events_schema_valid(&c.cases);
    assert!(
        p.iter()
            .any(|p| p.contains("run/x.json") && p.contains("event 1")),
        "{p:?}"
    );
    assert!(!p.iter().any(|p| p.contains("schema/y.json")), "{p:?}");
    assert!(
        !p.iter()
            .any(|p| p.contains("schema/z.json") && p.contains("event 3")),
        "{p:?}"
    );
    assert!(
        p.iter()
            .any(|p| p.contains("schema/z.json") && p.contains("event 4")),
        "{p:?}"
    );
}

/// The schema's rule enums are the catalogue's stream rules and
/// obligations, split by severity (the `transport.*` rules judge HTTP
/// exchanges, never a case's stream).
#[test]
fn case_schema_lists_exactly_the_catalogue() {
    let s = case_schema::schema_value().unwrap();
    let list = |name: &str| -> Vec<String> {
        s["$defs"][name]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let of = |sev: Severity| -> Vec<String> {
        RuleId::violations()
            .chain(RuleId::obligations())
            .filter(|r| r.severity() == sev)
            .map(|r| r.as_str().to_string())
            .collect()
    };
    assert_eq!(list("errorRule"), of(Severity::Error));
    assert_eq!(list("warningRule"), of(Severity::Warning));
    assert_eq!(list("acceptId"), of(Severity::None));
    // The must-accept violations, on which an `accept.*` obligation may be
    // tested although the producer broke a rule (revision 4).
    let must_accept: Vec<String> = RuleId::violations()
        .filter(|r| r.obligation() == Obligation::MustAccept)
        .map(|r| r.as_str().to_string())
        .collect();
    let mut listed = list("mustAcceptRule");
    listed.sort();
    let mut want = must_accept;
    want.sort();
    assert_eq!(listed, want);
}

#[test]
fn case_schema_accepts_a_good_case_and_names_the_faults_of_a_bad_one() {
    assert_eq!(case_schema::validate(&good("run/ok")).unwrap(), vec![]);
    // One segment breaks the id rule (areas are gate/areas' business).
    assert_eq!(case_schema::validate(&good("acme/ok")).unwrap(), vec![]);
    let bad = json!({"id": "nowhere", "description": "d", "spec": "s", "events": [],
        "expect": {"verdict": "reject", "rule": "run.unterminated"}, "projection": {"runs": []}});
    let errs = case_schema::validate(&bad).unwrap();
    assert!(errs.iter().any(|e| e.instance_path == "/id"), "{errs:?}");
    assert!(
        errs.iter().any(|e| e.instance_path == "/expect"),
        "{errs:?}"
    );
}

#[test]
fn spec_quotes_match_up_to_line_wrapping_only() {
    let d = TempDir::new("quotes");
    d.case(
        "run/a.json",
        with(
            good("run/a"),
            "spec",
            json!("A run MUST NOT finish while an invocation is still active."),
        ),
    );
    d.case(
        "run/b.json",
        with(
            good("run/b"),
            "spec",
            json!("A run MUST NOT finish while an invocation is active."),
        ),
    );
    let c = load_dir(&d.0).unwrap();
    let texts = vec![
        "Termination\nA run MUST NOT finish while an\ninvocation is still active. A producer"
            .to_string(),
    ];
    let p = gate::spec_quotes(&c.cases, &texts);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains("run/b.json"), "{p:?}");
}

#[test]
fn obligations_and_projections_belong_to_accepted_streams() {
    let d = TempDir::new("obligation");
    let reject = json!({"verdict": "reject", "rule": "run.unterminated", "index": 2});
    d.case(
        "run/o.json",
        with(
            with(good("run/o"), "expect", reject.clone()),
            "obligation",
            json!("accept.empty-id"),
        ),
    );
    d.case(
        "run/p.json",
        with(
            with(good("run/p"), "expect", reject),
            "projection",
            json!({"runs": []}),
        ),
    );
    let c = load_dir(&d.0).unwrap();
    assert!(c.cases.is_empty());
    assert!(
        problems_of(&c, "o.json")
            .iter()
            .any(|p| p.message.contains("must expect `accept`"))
    );
    assert!(problems_of(&c, "p.json").iter().any(|p| {
        p.message
            .contains("an expected `projection` needs verdict `accept`")
    }));
}

/// Revision 4: an unknown event type is a producer error (verdict
/// `reject`) that a consumer must accept, dropping the event; a case whose
/// violations are all must-accept may test an `accept.*` obligation, and
/// one with any other violation may not.
#[test]
fn an_obligation_may_sit_on_must_accept_violations_only() {
    let d = TempDir::new("must-accept");
    let unknown = json!({"type": "FUTURE_EVENT"});
    let dropped = json!({"id": "accept/dropped", "description": "d", "spec": "s",
        "events": [rs(), unknown, rf()],
        "expect": {"verdict": "reject", "rule": "schema.unknown-type", "index": 1},
        "violations": [{"rule": "schema.unknown-type", "index": 1}],
        "obligation": "accept.unknown-type-dropped",
        "projection": {"runs": []}});
    d.case("accept/dropped.json", dropped.clone());
    let stray = json!({"type": "TEXT_MESSAGE_END", "messageId": "m"});
    d.case(
        "accept/not-open.json",
        json!({"id": "accept/not-open", "description": "d", "spec": "s",
            "events": [rs(), stray, rf()],
            "expect": {"verdict": "reject", "rule": "text.not-open", "index": 1},
            "violations": [{"rule": "text.not-open", "index": 1}],
            "obligation": "accept.unknown-type-dropped"}),
    );
    let c = load_dir(&d.0).unwrap();
    let ids: Vec<&str> = c.cases.iter().map(|c| c.case.id.as_str()).collect();
    assert_eq!(ids, ["accept/dropped"]);
    assert!(
        problems_of(&c, "not-open.json").iter().any(|p| p
            .message
            .contains("must expect `accept`, or state `violations` that are all must-accept")),
        "{:?}",
        c.malformed
    );
    // The published schema says the same.
    assert_eq!(case_schema::validate(&dropped).unwrap(), vec![]);
    let bad = with(
        with(
            dropped,
            "violations",
            json!([{"rule": "text.not-open", "index": 1}]),
        ),
        "expect",
        json!({"verdict": "reject", "rule": "text.not-open", "index": 1}),
    );
    assert!(!case_schema::validate(&bad).unwrap().is_empty());
}

/// docs/rules.md "Scoring a consumer": "A case states enough of its violations
/// to fix F and M". A first violation that is not must-reject needs the
/// stated list; the list must agree with `expect` and the verdict; with
/// may-reject violations only, a rejected stream may carry a projection.
#[test]
fn cases_state_enough_to_fix_f_and_m() {
    let d = TempDir::new("fm");
    let open = json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"});
    // `lifecycle.unknown-parent` (should-reject) at 1; the invocation is
    // still active at RUN_FINISHED: `lifecycle.open-at-run-finish` at 2.
    let stray =
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "parentSubagentRunId": "s9"});
    let case = |id: &str, expect: Value, violations: Option<Value>| {
        let mut v = json!({"id": id, "description": "d", "spec": "s",
            "events": [open.clone(), stray.clone(), rf()], "expect": expect});
        if let Some(l) = violations {
            v["violations"] = l;
        }
        v
    };
    let not_open = json!({"verdict": "reject", "rule": "lifecycle.unknown-parent", "index": 1});
    d.case(
        "run/unstated.json",
        case("run/unstated", not_open.clone(), None),
    );
    d.case(
        "run/stated.json",
        case(
            "run/stated",
            not_open.clone(),
            Some(json!([{"rule": "lifecycle.unknown-parent", "index": 1}, {"rule": "lifecycle.open-at-run-finish", "index": 2}])),
        ),
    );
    d.case(
        "run/other-first.json",
        case(
            "run/other-first",
            not_open.clone(),
            Some(json!([{"rule": "lifecycle.unknown-parent", "index": 2}])),
        ),
    );
    d.case(
        "run/unordered.json",
        case(
            "run/unordered",
            not_open,
            Some(json!([{"rule": "lifecycle.unknown-parent", "index": 1}, {"rule": "run.unterminated", "index": 0}])),
        ),
    );
    // Two events, the run left open: `run.unterminated` (may-reject) at 1.
    d.case(
        "run/running.json",
        json!({"id": "run/running", "description": "d", "spec": "s",
            "events": [open.clone(), {"type": "STEP_STARTED", "stepName": "a"}],
            "expect": {"verdict": "reject", "rule": "run.unterminated", "index": 2},
            "violations": [{"rule": "run.unterminated", "index": 2}],
            "projection": {"runs": []}}),
    );
    let c = load_dir(&d.0).unwrap();
    let ids: Vec<&str> = c.cases.iter().map(|c| c.case.id.as_str()).collect();
    assert_eq!(ids, ["run/running", "run/stated"]);
    assert!(
        problems_of(&c, "unstated.json")
            .iter()
            .any(|p| p.message.contains("M is not determined"))
    );
    assert!(
        problems_of(&c, "other-first.json")
            .iter()
            .any(|p| p.message.contains("but `expect` names the first violation"))
    );
    assert!(
        problems_of(&c, "unordered.json")
            .iter()
            .any(|p| p.message.contains("not in stream order"))
    );
}

/// docs/rules.md "Scoring a consumer", revision 3: "every case whose stream
/// has a violation states all of them". A case whose `expect` names a rule
/// and that states no `violations` is refused, whatever the rule's
/// obligation (must-reject first, warnings only), with a message naming the
/// case and the rule; the case schema requires the list too. A valid stream
/// states none.
#[test]
fn every_case_with_a_violation_lists_all_of_them() {
    let d = TempDir::new("unstated");
    let nameless = json!({"type": "TEXT_MESSAGE_START"});
    let must = json!({"verdict": "reject", "rule": "schema.missing-field", "index": 1});
    let missing = json!({"id": "schema/must-reject-first", "description": "d", "spec": "s",
        "events": [rs(), nameless, rf()], "expect": must});
    d.case("schema/must-reject-first.json", missing.clone());
    d.case(
        "schema/must-reject-stated.json",
        with(
            with(missing.clone(), "id", json!("schema/must-reject-stated")),
            "violations",
            json!([{"rule": "schema.missing-field", "index": 1}]),
        ),
    );
    let warn = json!({"verdict": "accept", "rule": "attribution.not-attributable", "index": 0});
    let tagged_start =
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "subagentRunId": "s1"});
    let warning = json!({"id": "schema/warning-only", "description": "d", "spec": "s",
        "events": [tagged_start, rf()], "expect": warn});
    d.case("schema/warning-only.json", warning.clone());
    d.case("run/valid.json", good("run/valid"));
    // The exception: a generated case with a must-reject first violation
    // (F = M) may leave its list out; one with a should-reject first may not.
    d.case(
        "gen/schema.missing-field/1.json",
        with(missing.clone(), "id", json!("gen/schema.missing-field/1")),
    );
    let stray =
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "parentSubagentRunId": "s9"});
    d.case(
        "gen/lifecycle.unknown-parent/1.json",
        json!({"id": "gen/lifecycle.unknown-parent/1", "description": "d", "spec": "s",
            "events": [rs(), stray, rf()],
            "expect": {"verdict": "reject", "rule": "lifecycle.unknown-parent", "index": 1}}),
    );
    let c = load_dir(&d.0).unwrap();
    let ids: Vec<&str> = c.cases.iter().map(|c| c.case.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "gen/schema.missing-field/1",
            "run/valid",
            "schema/must-reject-stated"
        ]
    );
    assert!(
        problems_of(&c, "1.json").iter().any(|p| p
            .message
            .contains("case `gen/lifecycle.unknown-parent/1` states no `violations`")
            && p.message.contains("M is not determined")),
        "{:?}",
        c.malformed
    );
    assert!(
        gate::schema(&c)
            .iter()
            .all(|p| !p.contains("gen/schema.missing-field"))
    );
    let must_p = problems_of(&c, "must-reject-first.json");
    assert_eq!(must_p.len(), 1, "{must_p:?}");
    assert_eq!(must_p[0].kind, ProblemKind::Expect);
    let m = &must_p[0].message;
    assert!(
        m.contains("case `schema/must-reject-first` states no `violations`")
            && m.contains("names `schema.missing-field` at 1")
            && m.contains("every case whose stream has a violation lists all of them"),
        "{m}"
    );
    // A must-reject first violation fixes F and M: no word about M.
    assert!(!m.contains("M is not determined"), "{m}");
    let warn_p = problems_of(&c, "warning-only.json");
    assert_eq!(warn_p.len(), 1, "{warn_p:?}");
    assert!(
        warn_p[0].message.contains("case `schema/warning-only`")
            && warn_p[0]
                .message
                .contains("names `attribution.not-attributable` at 0"),
        "{}",
        warn_p[0].message
    );
    // The published schema says the same.
    for v in [&missing, &warning] {
        let errs = case_schema::validate(v).unwrap();
        assert!(
            errs.iter()
                .any(|e| e.instance_path.is_empty() && e.message.contains("violations")),
            "{errs:?}"
        );
    }
    assert_eq!(case_schema::validate(&good("run/valid")).unwrap(), vec![]);
    // The Rust API names the same fault.
    let case: Case = serde_json::from_value(missing).unwrap();
    let why = agui_corpus::load::unstated(&case).unwrap();
    assert!(why.contains("schema.missing-field"), "{why}");
}

#[test]
fn recorded_quotes_parse_by_source_and_blockquote() {
    let text = "# Title\n\nCommentary > not a quote.\n\n## draft\n\n> A producer MUST\n> do it.\n\n> Second.\n## catalogue\n>Third.\n";
    let q = gate::parse_quotes(text).unwrap();
    let got: Vec<(&str, &str, usize)> = q
        .iter()
        .map(|q| (q.source.as_str(), q.text.as_str(), q.line))
        .collect();
    assert_eq!(
        got,
        [
            ("draft", "A producer MUST do it.", 7),
            ("draft", "Second.", 10),
            ("catalogue", "Third.", 12)
        ]
    );
    assert!(
        gate::parse_quotes("## rumours\n> x\n")
            .unwrap_err()
            .contains("rumours")
    );
    assert!(gate::parse_quotes("> x\n").unwrap_err().contains("line 1"));
}

#[test]
fn quote_gates_check_cases_against_the_record_and_the_record_against_the_spec() {
    let d = TempDir::new("quotes");
    d.case(
        "run/quoted.json",
        with(good("run/quoted"), "spec", json!("A run MUST finish.")),
    );
    d.case(
        "run/made-up.json",
        with(good("run/made-up"), "spec", json!("A run SHOULD dance.")),
    );
    d.write(
        gate::QUOTES_FILE,
        "## catalogue\n\n> A run MUST\n> finish.\n\n## draft\n\n> Never said.\n",
    );
    let corpus = load_dir(&d.0).unwrap();
    let quotes = agui_corpus::check::read_quotes(&d.0);
    // Without the spec texts: only the cases against the record.
    let g = agui_corpus::check::quote_gates(&corpus, quotes.clone(), None);
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].name, "gate/spec-quotes");
    assert_eq!(g[0].problems.len(), 1, "{:?}", g[0].problems);
    assert!(g[0].problems[0].contains("made-up.json"));
    // With them (docs/rules.md, then the draft): the record against its sources.
    let texts = [
        "Rules.\nA run MUST\n  finish.".to_string(),
        "Draft.".to_string(),
    ];
    let g = agui_corpus::check::quote_gates(&corpus, quotes, Some(&texts));
    let verbatim = &g[1];
    assert_eq!(verbatim.name, "gate/quotes-verbatim");
    // "Never said." is in no source and no case quotes it.
    assert_eq!(verbatim.problems.len(), 2, "{:?}", verbatim.problems);
    assert!(verbatim.problems.iter().all(|p| p.contains("line 8")));
    assert!(verbatim.problems[0].contains("not in subagents-draft.txt"));
    assert!(verbatim.problems[1].contains("no case quotes it"));
    // A quote of the catalogue is looked for in docs/rules.md, not the draft.
    let swapped = [
        "Draft.".to_string(),
        "Rules.\nA run MUST finish.".to_string(),
    ];
    let q = gate::parse_quotes("## catalogue\n> A run MUST finish.\n").unwrap();
    assert_eq!(gate::quotes_verbatim(&q, &swapped, &corpus.cases).len(), 1);
}

#[test]
fn the_built_in_corpus_is_the_corpus_folder() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let disk = load_dir(&dir).unwrap();
    let built_in = agui_corpus::load_builtin();
    assert!(built_in.malformed.is_empty(), "{:?}", built_in.malformed);
    let ids = |c: &agui_corpus::Corpus| {
        c.cases
            .iter()
            .map(|c| c.case.id.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&built_in), ids(&disk));
    assert!(built_in.cases[0].path.starts_with("<built-in>/corpus"));
    assert_eq!(built_in.cases[0].rel, disk.cases[0].rel);
}

fn lines_case(id: &str, lines: &[&str], expect: Value) -> Value {
    json!({"id": id, "description": "d", "spec": "s", "lines": lines, "expect": expect})
}

#[test]
fn a_case_gives_its_stream_as_events_or_as_lines() {
    let d = TempDir::new("lines");
    let rs = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
    let rf = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;
    d.case(
        "run/lines.json",
        lines_case("run/lines", &[rs, rf], json!({"verdict": "accept"})),
    );
    d.case(
        "run/both.json",
        with(
            lines_case("run/both", &[rs, rf], json!({"verdict": "accept"})),
            "events",
            json!([]),
        ),
    );
    d.case(
        "run/neither.json",
        json!({"id": "run/neither", "description": "d", "spec": "s", "expect": {"verdict": "accept"}}),
    );
    d.case(
        "run/blank.json",
        lines_case("run/blank", &[rs, " ", rf], json!({"verdict": "accept"})),
    );
    d.case(
        "run/break.json",
        lines_case(
            "run/break",
            &[&format!("{rs}\n{rf}")],
            json!({"verdict": "accept"}),
        ),
    );
    // A duplicate key in the case file itself (not in a line) is refused.
    d.write(
        "run/dup-in-file.json",
        r#"{"id": "run/dup-in-file", "id": "run/dup-in-file", "description": "d", "spec": "s", "events": [], "expect": {"verdict": "accept"}}"#,
    );
    let c = load_dir(&d.0).unwrap();
    assert_eq!(
        c.cases
            .iter()
            .map(|c| c.case.id.as_str())
            .collect::<Vec<_>>(),
        ["run/lines"]
    );
    let has = |file: &str, words: &str| {
        let ps = problems_of(&c, file);
        assert!(
            ps.iter().any(|p| p.message.contains(words)),
            "{file}: wanted {words:?}, got {ps:?}"
        );
    };
    has("both.json", "not both");
    has("neither.json", "missing field `events` (or `lines`)");
    has("blank.json", "`lines[1]` is blank");
    has("break.json", "`lines[0]` holds a line break");
    has("dup-in-file.json", "key `id` twice");
    // The schema says the same of the files that parsed.
    let schema = gate::schema(&c);
    for f in ["both.json", "neither.json", "blank.json", "break.json"] {
        assert!(schema.iter().any(|p| p.contains(f)), "{f}: {schema:?}");
    }
    assert!(
        !schema.iter().any(|p| p.contains("lines.json")),
        "{schema:?}"
    );
    let case = &c.cases[0].case;
    assert_eq!((case.len(), case.values().len()), (2, 2));
    assert!(run_case(case).is_ok());
}

/// `lines` go through the checker's own reader: a duplicate key is a
/// warning (the last value decides), where `events` could not hold it.
#[test]
fn lines_are_checked_as_the_producer_wrote_them() {
    let rs = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
    let rf = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;
    let c = case_of(lines_case(
        "schema/x",
        &[
            rs,
            r#"{"type":"CUSTOM","name":"a","name":"b","value":1}"#,
            rf,
        ],
        json!({"verdict": "accept", "rule": "schema.duplicate-key", "index": 1}),
    ));
    assert!(run_case(&c).is_ok(), "{}", run_case(&c).unwrap_err());
    assert_eq!(c.values()[1]["name"], json!("b"));
    // Reported against the line as written.
    let mut wrong = c.clone();
    wrong.expect = serde_json::from_value(json!({"verdict": "accept"})).unwrap();
    let m = run_case(&wrong).unwrap_err();
    assert!(
        m.context.contains(r#""name":"a","name":"b""#),
        "{}",
        m.context
    );
    // A case file with a projection number outside a double's range.
    let text = r#"{"id": "schema/y", "description": "d", "spec": "s",
        "lines": ["{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}",
                  "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":1e400}}",
                  "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}"],
        "expect": {"verdict": "accept"},
        "projection": {"runs": [{"threadId": "t1", "runId": "r1", "status": "finished",
            "invocations": [], "messages": [], "state": {"n": 1e400}, "interrupts": []}]}}"#;
    let raw = agui_corpus::load::parse_file(text).unwrap();
    let c: Case = serde_json::from_value(raw).unwrap();
    assert!(run_case(&c).is_ok(), "{}", run_case(&c).unwrap_err());
    assert!(c.to_pretty().contains("\"n\": 1e400"), "{}", c.to_pretty());
    // Written back, `lines` replaces `events`.
    assert!(c.to_json().get("events").is_none());
    // 1e401 is another number.
    let other = text.replace(
        "\"n\": 1e400}, \"interrupts\"",
        "\"n\": 1e401}, \"interrupts\"",
    );
    let c: Case = serde_json::from_value(agui_corpus::load::parse_file(&other).unwrap()).unwrap();
    assert!(run_case(&c).is_err());
}
