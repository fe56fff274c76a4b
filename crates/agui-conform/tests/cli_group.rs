//! `check --group`: one line per rule broken with its count (text), a
//! `groups` member (JSON), every violation counted whether printed or not.

mod support;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn check(args: &[&str]) -> Output {
    Command::new(support::BIN)
        .arg("check")
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn many() -> String {
    // Over the text report's cap of 50, all `schema.not-json`.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/inputs/many.jsonl")
        .display()
        .to_string()
}

#[test]
fn text_has_one_line_per_rule_with_every_violation_counted() {
    let j: Value =
        serde_json::from_slice(&check(&[&many(), "--format", "json", "--no-config"]).stdout)
            .unwrap();
    let total = j["counts"]["violations"].as_u64().unwrap();
    assert!(total > 50, "the input is over the cap");
    let out = check(&[&many(), "--group", "--no-config"]);
    let text = String::from_utf8_lossy(&out.stdout);
    // No line per violation, no "… more" cut.
    assert!(!text.lines().any(|l| l.starts_with("  #")), "{text}");
    assert!(!text.contains("more (`--all`"), "{text}");
    // One line per distinct rule, counts adding up to the total.
    let mut rules: Vec<&str> = j["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule"].as_str().unwrap())
        .collect();
    rules.dedup();
    rules.sort();
    rules.dedup();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(" × ")).collect();
    assert_eq!(lines.len(), rules.len(), "{text}");
    let sum: u64 = lines
        .iter()
        .map(|l| {
            l.split(" × ")
                .next()
                .unwrap()
                .trim()
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    assert_eq!(sum, total);
    // The exit status is the verdict's, as without --group.
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_groups_count_per_rule_even_past_the_cap() {
    let out = check(&[
        &many(),
        "--format",
        "json",
        "--group",
        "--max-violations",
        "2",
        "--no-config",
    ]);
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["violations"].as_array().unwrap().len(), 2);
    let groups = j["groups"].as_array().unwrap();
    let sum: u64 = groups.iter().map(|g| g["count"].as_u64().unwrap()).sum();
    assert_eq!(sum, j["counts"]["violations"].as_u64().unwrap());
    for g in groups {
        let rule = g["rule"].as_str().unwrap();
        assert_eq!(g["doc"], format!("docs/rules.md#{rule}"));
        assert!(g["first"].is_u64() && g["severity"].is_string());
    }
    // Without --group there is no such member.
    let plain: Value =
        serde_json::from_slice(&check(&[&many(), "--format", "json", "--no-config"]).stdout)
            .unwrap();
    assert!(plain.get("groups").is_none());
}
