//! Every finding carries its rule's row of docs/rules.md (`doc` in JSON,
//! the text hint, SARIF's `helpUri` only with a docs base), `--docs-url`
//! and agui-conform.toml's `docs-url` make them absolute, and the SARIF
//! log is well formed and self-contained: each rule's description and
//! help embedded, no placeholder link anywhere.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::Dir;

fn input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/inputs")
        .join(name)
}

fn check_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(support::BIN)
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn each_violation_links_its_rule_row() {
    let dir = Dir::new("doc-links");
    let p = input("gen-invalid.jsonl").display().to_string();
    let r = json(&check_in(&dir.0, &[&p, "--format", "json", "--no-config"]));
    let violations = r["violations"].as_array().unwrap();
    assert!(!violations.is_empty());
    for v in violations {
        let rule = v["rule"].as_str().unwrap();
        assert_eq!(v["doc"], format!("docs/rules.md#{rule}"));
    }
    // The anchor exists on the page (`<a id="RULE-ID">`).
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md"))
            .unwrap();
    let rule = violations[0]["rule"].as_str().unwrap();
    assert!(page.contains(&format!("<a id=\"{rule}\"></a>")), "{rule}");

    let base = "https://d.test/agui/docs";
    let r = json(&check_in(
        &dir.0,
        &[
            &p,
            "--format",
            "json",
            "--no-config",
            "--docs-url",
            &format!("{base}/"),
        ],
    ));
    for v in r["violations"].as_array().unwrap() {
        assert_eq!(
            v["doc"],
            format!("{base}/rules.md#{}", v["rule"].as_str().unwrap())
        );
    }
    let text = check_in(&dir.0, &[&p, "--no-config", "--docs-url", base]);
    let text = String::from_utf8_lossy(&text.stdout);
    let hint = text.lines().find(|l| l.starts_with("hint: ")).unwrap();
    assert!(
        hint.ends_with(&format!("(docs: {base}/rules.md#{rule})")),
        "{hint}"
    );
}

#[test]
fn the_config_file_sets_the_docs_base_and_the_flag_wins() {
    let dir = Dir::new("doc-config");
    dir.file(
        "agui-conform.toml",
        "docs-url = \"https://file.test/docs\"\n",
    );
    let p = input("after-finished.json").display().to_string();
    let r = json(&check_in(&dir.0, &[&p, "--format", "json"]));
    assert_eq!(
        r["violations"][0]["doc"],
        "https://file.test/docs/rules.md#run.after-finished"
    );
    let r = json(&check_in(
        &dir.0,
        &[&p, "--format", "json", "--docs-url", "https://flag.test/d"],
    ));
    assert_eq!(
        r["violations"][0]["doc"],
        "https://flag.test/d/rules.md#run.after-finished"
    );
    // Not a URL: a usage error naming it.
    let out = check_in(&dir.0, &[&p, "--docs-url", "docs/"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("docs-url `docs/`"));
}

/// SARIF 2.1.0's required properties and the log's own consistency: each
/// result's `ruleIndex` names its `ruleId` in the driver's rules.
fn assert_well_formed(log: &Value) {
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "agui-conform");
    let rules = driver["rules"].as_array().expect("rules");
    for r in rules {
        assert!(r["id"].is_string());
        for k in ["shortDescription", "fullDescription", "help"] {
            assert!(
                r[k]["text"].as_str().is_some_and(|t| !t.is_empty()),
                "{k} of {}",
                r["id"]
            );
        }
        assert!(r["help"]["markdown"].is_string());
    }
    for res in runs[0]["results"].as_array().expect("results") {
        assert!(res["message"]["text"].is_string());
        let i = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[i]["id"], res["ruleId"], "{res}");
    }
    for inv in runs[0]["invocations"].as_array().expect("invocations") {
        assert!(inv["executionSuccessful"].is_boolean());
    }
}

#[test]
fn sarif_is_self_contained_without_a_docs_base() {
    let dir = Dir::new("sarif-plain");
    for name in ["gen-invalid.jsonl", "saved.sse", "empty.jsonl"] {
        let p = input(name).display().to_string();
        let out = check_in(&dir.0, &[&p, "--format", "sarif", "--no-config"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("example.invalid"), "{name}");
        assert!(!text.contains("helpUri"), "{name}");
        assert!(!text.contains("informationUri"), "{name}");
        let log: Value = serde_json::from_str(&text).unwrap();
        assert_well_formed(&log);
        // The catalogue's statement and draft sentence, embedded.
        let rules = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        let null = rules
            .iter()
            .find(|r| r["id"] == "attribution.null")
            .unwrap();
        let help = null["help"]["text"].as_str().unwrap();
        assert!(help.contains("MUST NOT be spelled as null"), "{help}");
        assert!(help.contains("How to fix"), "{help}");
    }
}

#[test]
fn sarif_links_the_docs_base_when_given() {
    let dir = Dir::new("sarif-base");
    let p = input("gen-invalid.jsonl").display().to_string();
    let out = check_in(
        &dir.0,
        &[
            &p,
            "--format",
            "sarif",
            "--no-config",
            "--docs-url",
            "https://d.test/x",
        ],
    );
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_well_formed(&log);
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["informationUri"], "https://d.test/x/check.md");
    for r in driver["rules"].as_array().unwrap() {
        assert_eq!(
            r["helpUri"],
            format!("https://d.test/x/rules.md#{}", r["id"].as_str().unwrap())
        );
    }
    // The lane page links its rule ids to the same catalogue.
    let html = dir.path("p.html");
    check_in(
        &dir.0,
        &[
            &p,
            "--no-config",
            "--docs-url",
            "https://d.test/x",
            "--html",
            &html.display().to_string(),
        ],
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(r#""rulesHref":"https://d.test/x/rules.md""#));
}

#[test]
fn no_output_names_a_placeholder_host() {
    let dir = Dir::new("no-placeholder");
    let html = dir.path("p.html").display().to_string();
    let junit = dir.path("j.xml").display().to_string();
    for name in ["gen-invalid.jsonl", "saved.sse", "after-finished.json"] {
        let p = input(name).display().to_string();
        for format in ["text", "json", "sarif"] {
            let out = check_in(
                &dir.0,
                &[
                    &p,
                    "--format",
                    format,
                    "--no-config",
                    "--html",
                    &html,
                    "--junit",
                    &junit,
                ],
            );
            assert!(
                !String::from_utf8_lossy(&out.stdout).contains("example.invalid"),
                "{name} {format}"
            );
            for f in [&html, &junit] {
                let text = std::fs::read_to_string(f).unwrap();
                assert!(!text.contains("example.invalid"), "{name} {f}");
            }
        }
    }
    // Nor the manifests the version and links come from.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(!manifest.contains("example.invalid"));
}
