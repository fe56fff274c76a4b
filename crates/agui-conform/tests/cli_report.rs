//! `run --record` and `report RECORD…`: records match their published
//! schema (docs/run-record.schema.json), and a report made from fixed,
//! hand-written records (tests/fixtures/records/) says what they hold.

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::suite_server;

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records")
}

fn dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_report")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn agui(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/run-record.schema.json"
    ))
    .unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// Every line of a record file, checked against the schema.
fn valid_lines(path: &Path) -> Vec<Value> {
    let v = validator();
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (n, line) in lines.iter().enumerate() {
        let errors: Vec<String> = v.iter_errors(line).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{} line {}: {errors:?}",
            path.display(),
            n + 1
        );
    }
    lines
}

/// Score counts of the case lines, for comparing with the footer.
fn counted(lines: &[Value]) -> Value {
    let mut t = serde_json::Map::new();
    for s in ["PASS", "FAIL", "WARN", "INFO", "SKIPPED", "ERRORED"] {
        let n = lines
            .iter()
            .filter(|l| l["kind"] == "case" && l["score"] == s)
            .count();
        t.insert(s.into(), n.into());
    }
    Value::Object(t)
}

#[test]
fn a_record_of_the_reference_matches_its_schema() {
    let d = dir("reference");
    let record = d.join("ref.jsonl");
    let out = agui(&[
        "run",
        "--suite",
        "quick",
        "--no-progress",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = valid_lines(&record);
    let (first, last) = (&lines[0], &lines[lines.len() - 1]);
    assert_eq!(first["kind"], "header");
    assert_eq!(first["suite"], "quick");
    assert_eq!(first["catalogue"], "docs/rules.md revision 4");
    assert_eq!(
        first["implementation"]["name"],
        "agui-conform reference model"
    );
    assert_eq!(last["kind"], "footer");
    let cases = lines.len() - 2;
    assert_eq!(first["cases"], cases);
    assert_eq!(last["totals"], counted(&lines));
    // A PASS keeps no stream; every other scored case does.
    for l in &lines[1..lines.len() - 1] {
        let drawn = l["score"] != "PASS" && l["score"] != "SKIPPED";
        assert_eq!(l.get("stream").is_some(), drawn, "{}", l["id"]);
    }
}

/// A one-shot implementation that accepts everything, explaining itself:
/// every must-reject case FAILs, and its record holds the streams, the
/// adapter's `explain` and its stderr.
#[test]
fn a_record_keeps_what_a_failing_implementation_said() {
    let d = dir("accept-all");
    let record = d.join("accept.jsonl");
    let html = d.join("run.html");
    let script = r#"cat >/dev/null; echo "looked at it" >&2; echo '{"verdict":"accept","explain":{"stage":"acceptor","warnings":["w1"]}}'"#;
    let imp = format!("sh -c '{}'", script.replace('\'', r"'\''"));
    let out = agui(&[
        "run",
        "--suite",
        "quick",
        "--filter",
        "schema/",
        "--no-progress",
        "--one-shot",
        "--name",
        "accept-all",
        "--impl",
        &imp,
        "--record",
        record.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let lines = valid_lines(&record);
    assert_eq!(lines[0]["implementation"]["name"], "accept-all");
    let failed: Vec<&Value> = lines
        .iter()
        .filter(|l| l["kind"] == "case" && l["score"] == "FAIL")
        .collect();
    assert!(!failed.is_empty());
    for l in failed {
        assert_eq!(l["answer"], serde_json::json!({"verdict": "accept"}));
        assert_eq!(
            l["explain"],
            serde_json::json!({"stage": "acceptor", "warnings": ["w1"]})
        );
        assert!(l["stderr"].as_str().unwrap().contains("looked at it"));
        assert!(l["stream"].is_object(), "{}", l["id"]);
    }
    // run --html: the one-record report page.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<th>accept-all</th>"));
    assert!(page.contains(r#"<button class="open""#));
}

#[test]
fn the_fixture_records_match_the_schema() {
    for f in ["impl-a.jsonl", "impl-b.jsonl"] {
        valid_lines(&fixtures().join(f));
    }
}

/// `report` over the two fixture records, labelled, with a missing third
/// implementation and the fixture notes; `outputs` are the files to write.
/// `report` over fixture records (their file names) with more flags.
fn report_records(records: &[&str], flags: &[&str]) -> Output {
    let f = fixtures();
    let paths: Vec<String> = records
        .iter()
        .map(|r| f.join(r).display().to_string())
        .collect();
    let mut args = vec!["report"];
    args.extend(paths.iter().map(String::as_str));
    args.extend_from_slice(flags);
    agui(&args)
}

fn report_fixtures(outputs: &[&str]) -> Output {
    let f = fixtures();
    let (a, b, notes) = (
        f.join("impl-a.jsonl"),
        f.join("impl-b.jsonl"),
        f.join("notes.json"),
    );
    let mut args = vec![
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--label",
        "Impl A",
        "--label",
        "Impl B",
        "--missing",
        "Impl C=not installed",
        "--notes",
        notes.to_str().unwrap(),
    ];
    args.extend_from_slice(outputs);
    agui(&args)
}

/// Record → report on the hand-written fixtures; every expected line is
/// written from what the fixtures hold (see their README).
#[test]
fn a_report_merges_fixed_records() {
    let d = dir("fixed");
    let md = d.join("report.md");
    let html = d.join("report.html");
    let readme = d.join("README.md");
    std::fs::write(
        &readme,
        "# x\n\n<!-- conformance-summary:start -->\nold\n<!-- conformance-summary:end -->\n\nrest\n",
    )
    .unwrap();
    let out = report_fixtures(&[
        "--readme",
        readme.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    let expected = [
        "# Conformance report: Impl A and Impl B\n",
        "Suite `fixture` (3 cases), catalogue RULES.md revision 2, agui-conform 0.1.0.",
        "| Impl A | `impl-a` 1.0 | verdict, index | 3 | 1 | 1 | 1 | 0 | 0 | 0 |",
        "| Impl B | `impl-b` 2.0 | verdict, index, schema-only | 3 | 2 | 0 | 0 | 0 | 1 | 0 |",
        "| Impl C | not run |",
        "**Impl C did not run:** not installed",
        "### `schema.unknown-type`",
        "In 1 of 1 case(s) it accepts a stream that a consumer must reject (1). Why: impl-a drops events of unknown type.",
        "#### `schema/unknown-type`",
        "The sentence the case tests: “`type` absent or not one of the 31 event types”",
        "{\"type\":\"NOPE\"}\n",
        "Expected: reject at 1 (`schema.unknown-type`, must-reject).",
        "| Impl A | accept | FAIL | must-reject violation accepted | stage `enforceEvents`; warned “Dropping unrecognised event 'NOPE'” |",
        "| Impl B | reject at 1 — “type: 'NOPE' is none of the union's tags” | PASS |  |  |",
        "| `text.not-open` | `entities/text-not-open` | reject at 1 (`text.not-open`, should-reject) | accept (WARN) | skipped: schema-only (SKIPPED) |",
        "- **Impl A, `text.not-open`:** Why: impl-a's reducer ignores content for unknown messages.",
        // The `moved` note, under the summary table.
        "- **Impl A, what moved:** Revision 4 made unknown types must-accept.",
        // The obligation column is the catalogue's today (revision 4),
        // whatever the records' revision said.
        "| `schema.unknown-type` | must-accept | **1 FAIL** | 1 PASS |",
        "| `text.not-open` | must-reject | 1 WARN | 1 SKIPPED |",
        "| `valid` | must-accept | 1 PASS | 1 PASS |",
        // impl-a's adapter shows m1 without the owner the projection states.
        "## What Impl A shows (informational)",
        "1 case(s) compared; 0 agree.",
        "| `valid/simple` | message `m1` owner | `\"s1\"` | absent | an untagged opener belongs to the parent |",
        "- **`valid/simple`:** Why: impl-a drops owners of messages.",
    ];
    for e in expected {
        assert!(text.contains(e), "missing {e:?} in:\n{text}");
    }
    // Only one rule has a FAIL; a note on a passing row is not shown.
    assert_eq!(text.matches("\n### `").count(), 1, "{text}");
    assert!(!text.contains("Never shown"));
    assert!(!text.contains("What Impl B shows"), "impl-b shows nothing");
    // Per rule: catalogue order (schema before entity rules), valid last.
    let at = |s: &str| text.find(s).unwrap();
    assert!(at("| `schema.unknown-type` | must") < at("| `text.not-open` | must"));
    assert!(at("| `text.not-open` | must") < at("| `valid` |"));

    let readme_text = std::fs::read_to_string(&readme).unwrap();
    assert!(readme_text.contains("([full report](report.md)"));
    assert!(readme_text.contains("| Impl A | `impl-a` 1.0 |"));
    assert!(!readme_text.contains("old"));
    assert!(readme_text.ends_with("<!-- conformance-summary:end -->\n\nrest\n"));

    // Causes: impl-a's one FAIL (it accepted the unknown type) has no
    // `causes` note, so it is named by what it did; impl-b has no FAIL.
    let causes_md = "<a id=\"causes-impl-a\"></a>**Impl A** — 1 cause of 1 suite FAIL(s) and 0 \
         fuzz finding(s), most cases first:\n\n- no noted cause: accepted a stream it must \
         reject — 1 suite case; rules: `schema.unknown-type`\n";
    assert!(text.contains(causes_md), "{text}");
    assert!(text.contains("**Impl B** — 0 causes: no FAIL."), "{text}");

    let page = std::fs::read_to_string(&html).unwrap();
    // The page lists the same causes.
    let causes_html = "<div class=\"drill\" id=\"causes-impl-a\"><b>Impl A</b> — 1 cause of 1 \
         suite FAIL(s) and 0 fuzz finding(s), most cases first<ul><li>no noted cause: accepted \
         a stream it must reject — 1 suite case; rules: <code>schema.unknown-type</code></li>\
         </ul></div>";
    assert!(page.contains(causes_html), "{page}");
    assert!(page.contains("<b>Impl B</b> — 0 causes: no FAIL.</div>"));
    // Two cases did not pass everywhere and have a stream: both open.
    assert_eq!(page.matches(r#"<button class="open""#).count(), 2);
    assert!(page.contains(r#"<tr data-rule="schema.unknown-type">"#));
    assert!(page.contains(r#"<td class="cell s-fail" data-impl="0">1 FAIL</td>"#));
    assert!(page.contains(r#"<td class="cell s-pass" data-impl="1">1 PASS</td>"#));
    // Regenerating from the same records changes nothing.
    let again = report_fixtures(&["--markdown", d.join("again.md").to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(d.join("again.md")).unwrap(), text);
}

#[test]
fn a_file_that_is_not_a_record_is_refused() {
    let d = dir("bad");
    let bad = d.join("bad.jsonl");
    std::fs::write(&bad, "{\"summary\": {}}\n").unwrap();
    let out = agui(&[
        "report",
        bad.to_str().unwrap(),
        "--markdown",
        d.join("r.md").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a run record"), "{err}");
    let none = agui(&["report", bad.to_str().unwrap()]);
    assert_eq!(none.status.code(), Some(2));
}

/// A peer failing many cases of one rule: its three shortest streams are
/// drawn in full, the others only named (the report stays readable).
#[test]
fn a_rule_with_many_failures_draws_the_shortest_and_names_the_rest() {
    let d = dir("many");
    let record = d.join("many.jsonl");
    let mut lines = vec![
        r#"{"kind":"header","format":"agui-conform-run-record/1","implementation":{"name":"many","version":"1","language":"rust","capabilities":["verdict","index"]},"suite":"fixture","catalogue":"RULES.md revision 2","agui_conform":"0.1.0","date":"2026-12-03T10:00:00Z","cases":5}"#.to_owned(),
    ];
    // Case k has k unknown events after RUN_STARTED: stream length k + 1.
    for k in [5, 1, 4, 2, 3] {
        let events: Vec<String> =
            std::iter::once(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#.to_owned())
                .chain((0..k).map(|_| r#"{"type":"NOPE"}"#.to_owned()))
                .collect();
        lines.push(format!(
            r#"{{"kind":"case","id":"schema/u{k}","description":"d","group":"schema.unknown-type","expected":{{"verdict":"reject","rule":"schema.unknown-type","index":1,"text":"reject at 1"}},"answer":{{"verdict":"accept"}},"score":"FAIL","reason":"must-reject violation accepted","stream":{{"events":[{}]}},"elapsed_us":1}}"#,
            events.join(",")
        ));
    }
    lines.push(r#"{"kind":"footer","totals":{"PASS":0,"FAIL":5,"WARN":0,"INFO":0,"SKIPPED":0,"ERRORED":0},"rules":{"schema.unknown-type":{"PASS":0,"FAIL":5,"WARN":0,"INFO":0,"SKIPPED":0,"ERRORED":0}},"status":"failed","exit_status":1,"incidents":[],"problems":[],"elapsed_ms":1}"#.to_owned());
    std::fs::write(&record, lines.join("\n") + "\n").unwrap();
    let md = d.join("report.md");
    let out = agui(&[
        "report",
        record.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    for shown in ["schema/u1", "schema/u2", "schema/u3"] {
        assert!(
            text.contains(&format!("#### `{shown}`")),
            "{shown} drawn:\n{text}"
        );
    }
    for named in ["schema/u4", "schema/u5"] {
        assert!(
            !text.contains(&format!("#### `{named}`")),
            "{named} not drawn"
        );
    }
    assert!(
        text.contains("Further failing cases of `schema.unknown-type` (2, shortest stream first")
            && text.contains("`schema/u4`, `schema/u5`."),
        "{text}"
    );
}

#[test]
fn the_producer_fixture_records_match_the_schema() {
    for f in [
        "producer-alpha-interrupt.jsonl",
        "producer-alpha-legacy.jsonl",
        "producer-alpha-suite.jsonl",
    ] {
        valid_lines(&fixtures().join(f));
    }
}

/// Producer records → the producers page, on the hand-written
/// `producer-alpha-*` fixtures; every expected line is written from what
/// they hold (their README).
#[test]
fn a_producers_page_is_made_from_fixed_records() {
    let d = dir("producers");
    let f = fixtures();
    let md = d.join("producers.md");
    let readme = d.join("README.md");
    std::fs::write(
        &readme,
        "before\n<!-- producers-summary:start -->\nold\n<!-- producers-summary:end -->\nafter\n",
    )
    .unwrap();
    let out = agui(&[
        "report",
        f.join("producer-alpha-interrupt.jsonl").to_str().unwrap(),
        f.join("producer-alpha-legacy.jsonl").to_str().unwrap(),
        f.join("producer-alpha-suite.jsonl").to_str().unwrap(),
        "--notes",
        f.join("producer-notes.json").to_str().unwrap(),
        "--missing",
        "beta=not installed",
        "--readme",
        readme.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    // 3 requests (interrupt's two, bad's one), bad's rejected; 1 violation;
    // the suite: 1 PASS, 1 SKIPPED.
    let summary = "| Alpha (scripted) | `alpha-sdk` 1.2.3, `ag-ui-protocol` 1.0.0 | 3 | 2 | 1 | 1 | 1 PASS, 1 SKIPPED |";
    let expected = [
        summary,
        "| beta | — | not run: not installed | | | | |",
        "## Alpha (scripted)\n",
        "Served paths: `/` — the default; `/legacy` — the old API.",
        "| scenario | path | events | how the run ended | verdict | violations | other-validator 0.1 |",
        "| interrupt | `/` | 4 | interrupted (1 interrupt(s)) | accept | — | accept |",
        "| interrupt → resume (resolved) | `/` | 3 | finished (result of `pay`: “Paid 9 EUR.”) | accept | — | reject at 1 (`TOOL_CALL_RESULT`): V207: result of a call never started |",
        "| bad@legacy | `/legacy` | 0 | no terminal event | reject | `transport.status` at 0 | accept |",
        "| interrupt: both requests as one stream | | 7 | | accept | — | reject at 5 (`TOOL_CALL_RESULT`): V207: result of a call never started |",
        "| plain | PASS | 2 | 200 | input → finished | — |",
        "| tool-results | SKIPPED | 2 | 200 | input → finished; skipped: step 2 (toolResults) not sent: the producer made no tool call left without a result | — |",
        "- **`transport.status`** (error) in scenario `bad@legacy` at event 0: the producer answered HTTP 500, not 2xx",
        "  - The rule: “The response status is not 2xx.” (docs/rules.md, source: transport)",
        "`adapters/producers/serve.sh start alpha 9001 /tmp/producer-alpha`, then `agui-conform check --url http://127.0.0.1:9001/legacy --input request.json`",
        "\"state\":{\"todos\":\"not a list\"}",
        "- Alpha echoes its input.",
        "### Not covered\n\nsubagents.",
        "## beta\n\nNot run: not installed.",
    ];
    for e in expected {
        assert!(text.contains(e), "missing {e:?} in:\n{text}");
    }
    let readme = std::fs::read_to_string(&readme).unwrap();
    assert!(
        readme.starts_with("before\n<!-- producers-summary:start -->\n\n| producer |"),
        "{readme}"
    );
    assert!(readme.contains(summary), "{readme}");
    assert!(
        readme.ends_with("\n\n<!-- producers-summary:end -->\nafter\n"),
        "{readme}"
    );
    assert!(!readme.contains("old"), "{readme}");

    // With consumer records, producer records make rows of the
    // conformance report's matrix instead (tests/cli_matrix.rs).
    let out = report_records(
        &["producer-alpha-suite.jsonl", "impl-a.jsonl"],
        &["--markdown", md.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mixed = std::fs::read_to_string(&md).unwrap();
    assert!(
        mixed.contains("| [alpha](producers.md#producer-alpha) | producer |"),
        "{mixed}"
    );
}

/// `run --producer URL --record`: a record of the producer suite against
/// the test server, which answers every request with one valid run, and
/// breaks `attribution.null` (a `CUSTOM` event with `subagentRunId: null`,
/// at index 1) when the input carries a state.
#[test]
fn a_producer_run_record_matches_its_schema() {
    let server = suite_server();
    let d = dir("producer-record");
    let record = d.join("p.jsonl");
    let versions = d.join("versions.json");
    std::fs::write(&versions, r#"{"zeta": "2.0", "alpha": "1.0"}"#).unwrap();
    let out = agui(&[
        "run",
        "--producer",
        &server.url(),
        "--name",
        "test-server",
        "--versions",
        versions.to_str().unwrap(),
        "--record",
        record.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let lines = valid_lines(&record);
    let (first, last) = (&lines[0], &lines[lines.len() - 1]);
    assert_eq!(first["implementation"]["name"], "test-server");
    assert_eq!(first["suite"], "producer");
    assert_eq!(first["producer"]["url"], server.url());
    // In the file's order, not sorted.
    assert_eq!(
        first["producer"]["versions"],
        json!([{"name": "zeta", "version": "2.0"}, {"name": "alpha", "version": "1.0"}])
    );
    let scenarios: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "scenario").collect();
    assert_eq!(scenarios.len(), 7);
    assert_eq!(first["cases"], 7);
    let state = scenarios
        .iter()
        .find(|s| s["id"] == "state-carrying")
        .unwrap();
    assert_eq!(state["score"], "FAIL");
    assert_eq!(state["violations"][0]["rule"], "attribution.null");
    assert_eq!(state["violations"][0]["index"], 1);
    assert_eq!(state["stream"].as_array().unwrap().len(), 3);
    // continue-thread: two requests of two events each, the second starting
    // where the first ended.
    let cont = scenarios
        .iter()
        .find(|s| s["id"] == "continue-thread")
        .unwrap();
    assert_eq!(cont["steps"][1]["kind"], "continue");
    assert_eq!(cont["steps"][1]["start"], 2);
    assert_eq!(cont["steps"][1]["events"], 2);
    assert_eq!(cont["stream"].as_array().unwrap().len(), 4);
    assert_eq!(last["totals"]["FAIL"], 1);
    assert_eq!(last["rules"]["attribution.null"]["FAIL"], 1);
}

/// A record whose run was killed mid-write (its last line cut, here inside
/// a case line) is reported from its whole lines: the report is written,
/// says what was cut (and so does stderr), and the exit status is 3.
#[test]
fn a_cut_record_is_reported_from_its_whole_lines() {
    let d = dir("cut");
    let text = std::fs::read_to_string(fixtures().join("impl-a.jsonl")).unwrap();
    let third = text.match_indices('\n').nth(1).unwrap().0 + 1;
    let cut = d.join("cut.jsonl");
    std::fs::write(&cut, &text.as_bytes()[..third + 40]).unwrap();
    let md = d.join("report.md");
    let html = d.join("report.html");
    let out = agui(&[
        "report",
        cut.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("its last line (line 3, 40 bytes) was cut mid-write and is left out"),
        "{stderr}"
    );
    let md = std::fs::read_to_string(md).unwrap();
    assert!(
        md.contains("the record ends without a footer** and its last line (line 3, 40 bytes) was cut mid-write and is left out (the run was cut short): reported from the 1 case line(s) written whole"),
        "{md}"
    );
    let html = std::fs::read_to_string(html).unwrap();
    assert!(
        html.contains("cut short (no footer): its last line (line 3, 40 bytes) was cut"),
        "the page says which line was cut"
    );
    // A whole record still exits 0.
    let out = agui(&[
        "report",
        fixtures().join("impl-a.jsonl").to_str().unwrap(),
        "--markdown",
        d.join("whole.md").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
}

/// A consumer fuzzed with no suite run beside it (an SDK fuzzed in process)
/// is named in the title of both pages, after the suite runs.
#[test]
fn a_campaign_without_a_suite_run_is_named_in_the_title() {
    let d = dir("fuzz-only-title");
    let (md, html) = (d.join("report.md"), d.join("report.html"));
    let out = report_records(
        &["impl-b.jsonl", "fuzz-impl-a.jsonl"],
        &[
            "--markdown",
            md.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.starts_with("# Conformance report: impl-b and impl-a\n"),
        "{}",
        text.lines().next().unwrap_or_default()
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h1>Conformance report: impl-b · impl-a</h1>"));
}

/// A run of an official suite beside another suite run makes the official
/// corpus section, not a column; alone, it is a column as any run is.
#[test]
fn an_official_suite_record_makes_the_official_section() {
    let d = dir("official");
    let text = std::fs::read_to_string(fixtures().join("impl-a.jsonl")).unwrap();
    // impl-a's record as a run of `official-1.1`, its first case from the
    // fixture `x-fatal`, which pins `failed` and which impl-a accepted.
    let mut lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[0]["suite"] = json!("official-1.1");
    lines[1]["official"] = json!({"name": "x-fatal", "version": "1.1", "outcome": "failed",
        "answered": "completed", "agrees": false});
    let official = d.join("official.jsonl");
    let body: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&official, body.join("\n") + "\n").unwrap();
    let a = fixtures().join("impl-a.jsonl");
    let md = d.join("r.md");
    let args = [
        "report",
        a.to_str().unwrap(),
        official.to_str().unwrap(),
        "--label",
        "A",
        "--label",
        "A",
        "--markdown",
        md.to_str().unwrap(),
    ];
    let out = agui(&args);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("## Official corpus"), "{text}");
    assert!(text.contains("| A | **agree 0/1** |"), "{text}");
    assert!(text.contains("- `x-fatal` (`"), "{text}");
    // One summary row for A: the official record is no column.
    assert_eq!(text.matches("\n| A | `impl-a`").count(), 1, "{text}");
    assert!(!text.contains("the records differ in suite"), "{text}");

    // Alone, the official record is the report's one column.
    let alone = [
        "report",
        official.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ];
    let out = agui(&alone);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("Suite `official-1.1`"), "{text}");
    assert!(!text.contains("## Official corpus"), "{text}");
}

/// A report longer than `--max-page-bytes` keeps its summaries and moves
/// each rule's failing cases and each campaign's findings in full to pages
/// of their own, beside it in `NAME-details/`, which it links to; pages an
/// earlier report left there go, other files stay. Under the limit (the
/// default, for these small records) it is one page, as before.
#[test]
fn a_long_report_moves_its_cases_and_findings_to_pages_of_their_own() {
    let d = dir("split");
    let md = d.join("report.md");
    let folder = d.join("report-details");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("rule-stale.md"), "old\n").unwrap();
    std::fs::write(folder.join("notes.md"), "mine\n").unwrap();
    let records = ["impl-a.jsonl", "impl-b.jsonl", "fuzz-impl-a.jsonl"];
    let out = report_records(
        &records,
        &["--markdown", md.to_str().unwrap(), "--max-page-bytes", "1"],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = std::fs::read_to_string(&md).unwrap();
    let rule_page = "report-details/rule-schema-unknown-type.md";
    let fuzz_page = "report-details/fuzz-impl-a.md";
    let finding = "finding-impl-a-ownership-continuation-disagrees-fail";
    for e in [
        // The rule's summary stays, its cases are linked.
        "### `schema.unknown-type`",
        "In 1 of 1 case(s) it accepts a stream that a consumer must reject (1).",
        &format!(
            "The failing cases of `schema.unknown-type` in full (1 drawn, with their streams and each answer): [{rule_page}]({rule_page})."
        ),
        // The campaign's table stays, its rows and the drill-down link
        // into the findings' page.
        &format!("| [`ownership.continuation-disagrees`]({fuzz_page}#{finding}) | FAIL |"),
        &format!("[minimal stream]({fuzz_page}#{finding})"),
        &format!(
            "Each finding in full, with its minimal stream and the answers: [{fuzz_page}]({fuzz_page})."
        ),
    ] {
        assert!(text.contains(e), "missing {e:?} in:\n{text}");
    }
    for gone in [
        "#### `schema/unknown-type`",
        "{\"type\":\"NOPE\"}",
        &format!("<a id=\"{finding}\">"),
    ] {
        assert!(!text.contains(gone), "{gone:?} still in:\n{text}");
    }
    let cases = std::fs::read_to_string(d.join(rule_page)).unwrap();
    for e in [
        "# `schema.unknown-type`: failing cases\n\nPart of [the conformance report](../report.md#rule-schema-unknown-type), generated with it",
        "#### `schema/unknown-type`",
        "{\"type\":\"NOPE\"}\n",
        "Expected: reject at 1 (`schema.unknown-type`, must-reject).",
    ] {
        assert!(cases.contains(e), "missing {e:?} in:\n{cases}");
    }
    let findings = std::fs::read_to_string(d.join(fuzz_page)).unwrap();
    assert!(
        findings.starts_with("# Fuzz findings: impl-a\n"),
        "{findings}"
    );
    assert!(
        findings.contains(&format!("<a id=\"{finding}\"></a>")),
        "{findings}"
    );
    assert!(findings.contains("\"delta\":\"x\""), "{findings}");
    assert!(
        !folder.join("rule-stale.md").exists(),
        "a page no report writes now"
    );
    assert_eq!(
        std::fs::read_to_string(folder.join("notes.md")).unwrap(),
        "mine\n"
    );

    // Under the limit: one page with everything, and the folder's pages go.
    let out = report_records(&records, &["--markdown", md.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let whole = std::fs::read_to_string(&md).unwrap();
    assert!(whole.contains("#### `schema/unknown-type`"), "{whole}");
    assert!(
        whole.contains(&format!("[minimal stream](#{finding})")),
        "{whole}"
    );
    assert!(!whole.contains("report-details/"), "{whole}");
    assert!(!d.join(rule_page).exists() && !d.join(fuzz_page).exists());
    assert!(folder.join("notes.md").exists());
}
