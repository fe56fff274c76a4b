//! `agui-conform rules` and `agui-conform explain`, run as the built binary.

use serde_json::Value;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The rule count docs/rules.md (revision 4) gives: 13 schema, 8 run, 9 entity,
/// 3 consistency, 7 lifecycle, 4 ownership, 4 interrupt, 4 chunk, 7
/// transport rules and 20 accept obligations.
const RULES_MD_COUNT: usize = 13 + 8 + 9 + 3 + 7 + 4 + 4 + 4 + 7 + 20;

#[test]
fn rules_json_lists_every_catalogue_id_exactly_once() {
    let out = run(&["rules", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let rules: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = rules.as_array().expect("a JSON array");
    assert_eq!(rules.len(), RULES_MD_COUNT);
    for entry in agui_model::CATALOGUE {
        let n = rules.iter().filter(|r| r["id"] == entry.id).count();
        assert_eq!(n, 1, "{} listed {n} times", entry.id);
    }
    for r in rules {
        for key in [
            "id",
            "statement",
            "source",
            "severity",
            "obligation",
            "area",
        ] {
            assert!(
                r[key].as_str().is_some_and(|s| !s.is_empty()),
                "{key} of {r}"
            );
        }
    }
}

#[test]
fn rules_json_fields_match_rules_md() {
    let out = run(&["rules", "--format", "json"]);
    let rules: Vec<Value> = serde_json::from_str(&stdout(&out)).unwrap();
    let find = |id: &str| rules.iter().find(|r| r["id"] == id).unwrap().clone();
    // From the tables of the catalogue (docs/rules.md).
    let r = find("ownership.continuation-disagrees");
    assert_eq!(
        (r["severity"].as_str(), r["obligation"].as_str()),
        (Some("error"), Some("must-reject"))
    );
    assert_eq!(r["source"], "draft");
    let r = find("lifecycle.resumed-not-suspended");
    assert_eq!(
        (r["severity"].as_str(), r["obligation"].as_str()),
        (Some("warning"), Some("may-reject"))
    );
    let r = find("accept.run-error-abandons");
    assert_eq!(
        (r["severity"].as_str(), r["obligation"].as_str()),
        (Some("none"), Some("must-accept"))
    );
    assert_eq!(r["projection"], "those invocations `abandoned`");
    // Revision 4: the official lifecycle page's sentence.
    assert_eq!(
        find("run.first-event")["quote"],
        "a consumer MUST treat a stream that opens with anything else as a protocol violation"
    );
    assert_eq!(find("run.first-event")["obligation"], "must-reject");
    assert!(find("run.after-error").get("quote").is_some());
    assert!(find("schema.not-json").get("quote").is_none());
    // Revision 3's consistency warnings.
    for id in [
        "tool.args-not-json",
        "tool.result-before-end",
        "messages.snapshot-disagrees",
    ] {
        let r = find(id);
        assert_eq!(
            (r["severity"].as_str(), r["obligation"].as_str()),
            (Some("warning"), Some("must-accept")),
            "{id}"
        );
        assert_eq!(r["area"], "consistency", "{id}");
    }
}

#[test]
fn rules_text_is_grouped_by_area() {
    let out = run(&["rules"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for entry in agui_model::CATALOGUE {
        let rows = text
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(entry.id))
            .count();
        assert_eq!(rows, 1, "{} has one row", entry.id);
    }
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' '))
        .collect();
    assert_eq!(
        &headings[..10],
        [
            "schema",
            "run",
            "entities",
            "consistency",
            "lifecycle",
            "ownership",
            "interrupts",
            "chunks",
            "transport",
            "accept"
        ]
    );
}

#[test]
fn explain_prints_one_rule_with_its_quote() {
    let out = run(&["explain", "attribution.null"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("attribution.null"));
    // The sentence of the draft the catalogue quotes for this rule.
    assert!(
        text.contains(
            "An absent subagentRunId means the parent agent, and MUST NOT be spelled as null."
        ),
        "{text}"
    );
    assert!(text.contains("severity:    error"), "{text}");
    assert!(text.contains("obligation:  must-reject"), "{text}");
    assert!(text.contains("source:      draft"), "{text}");
}

#[test]
fn explain_json_is_one_object() {
    let out = run(&["explain", "accept.empty-id", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let rule: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(rule["id"], "accept.empty-id");
    assert_eq!(rule["projection"], "`\"\"` is its own group");
}

#[test]
fn explain_unknown_id_is_exit_2_with_suggestions() {
    let out = run(&["explain", "ownership.continuation-disagree"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("unknown rule id `ownership.continuation-disagree`"),
        "{err}"
    );
    assert!(
        err.contains("did you mean: ownership.continuation-disagrees"),
        "{err}"
    );
}

#[test]
fn explain_without_an_id_is_a_usage_error() {
    assert_eq!(run(&["explain"]).status.code(), Some(2));
}

/// `docs/rules.md` is what `rules --format markdown` prints: the catalogue
/// in the repository never lags the catalogue data.
#[test]
fn docs_rules_md_is_up_to_date() {
    let out = run(&["rules", "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(0));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/rules.md");
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == stdout(&out),
        "docs/rules.md is stale (or missing): the catalogue or its prose changed. Regenerate it \
         from the repository root with\n    cargo run -p agui-conform -- rules --format markdown > docs/rules.md"
    );
}

#[test]
fn explain_markdown_is_a_one_row_table() {
    let out = run(&["explain", "run.unterminated", "--format", "markdown"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], "| id | rule | source | producer | consumer |");
    // From the catalogue: base rule, error, may-reject.
    assert!(
        lines[2].starts_with("| `run.unterminated` |")
            && lines[2].ends_with(
                "| base, spec | error | may-reject; projection: the run's status is `unterminated`, never finished |"
            )
            && lines[2].contains("Spec: \"has no outcome"),
        "{text}"
    );
}
