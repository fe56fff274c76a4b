//! Every link into docs/rules.md that the tool writes resolves: the page
//! `check --html` draws (its script links `rulesHref#RULE-ID`), the report
//! page `report --html` writes, the `doc` of each violation in a JSON
//! report (`docs/rules.md#AREA-SECTION`) and `explain`'s `doc:` line.
//! An anchor is an explicit `<a id="…"></a>` of docs/rules.md or the
//! anchor GitHub gives one of its headings.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn agui(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_rule_links");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The anchors of docs/rules.md: explicit `<a id="X">` ones and GitHub's
/// heading anchors (lowercase, punctuation dropped, spaces as dashes).
fn anchors() -> BTreeSet<String> {
    let page = std::fs::read_to_string(repo().join("docs/rules.md")).unwrap();
    let mut out = BTreeSet::new();
    for part in page.split("<a id=\"").skip(1) {
        if let Some((id, _)) = part.split_once("\"></a>") {
            out.insert(id.to_owned());
        }
    }
    for line in page.lines() {
        let Some(h) = line.trim_start_matches('#').strip_prefix(' ') else {
            continue;
        };
        if !line.starts_with('#') {
            continue;
        }
        out.insert(
            h.to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect(),
        );
    }
    out
}

/// The fragments of every `rules.md#FRAGMENT` in `text`.
fn fragments(text: &str) -> Vec<String> {
    text.split("rules.md#")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| !matches!(c, '"' | '\'' | ')' | ' ' | '\n' | '<' | '>'))
                .collect()
        })
        .collect()
}

fn catalogue_ids() -> Vec<String> {
    let out = agui(&["rules", "--format", "json"]);
    let rules: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    rules
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_rule_id_has_an_explicit_anchor() {
    let anchors = anchors();
    let ids = catalogue_ids();
    assert!(ids.len() > 50, "{ids:?}");
    for id in &ids {
        assert!(anchors.contains(id), "no <a id=\"{id}\"> in docs/rules.md");
    }
}

#[test]
fn explain_links_resolve() {
    let anchors = anchors();
    for id in catalogue_ids() {
        let out = agui(&["explain", &id]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let found = fragments(&text);
        assert_eq!(found, std::slice::from_ref(&id), "{text}");
        assert!(anchors.contains(&found[0]), "{text}");
    }
}

#[test]
fn the_check_page_links_resolve() {
    // lanes.js links each flagged rule as `rulesHref + "#" + rule`, and
    // nothing else of the page points into the catalogue.
    let script = std::fs::read_to_string(repo().join("crates/agui-view/assets/lanes.js")).unwrap();
    let uses = script.matches("D.rulesHref").count();
    assert!(uses > 0);
    assert_eq!(
        script.matches("D.rulesHref + \"#\" + rule").count(),
        uses,
        "lanes.js links the catalogue some other way"
    );
    let page = scratch("check.html");
    let case = repo().join("corpus/ownership/continuation-disagrees.json");
    let out = agui(&[
        "check",
        case.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html
        .find(r#"<script id="data" type="application/json">"#)
        .unwrap();
    let body = &html[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    let data: Value = serde_json::from_str(body).unwrap();
    assert_eq!(data["rulesHref"], "docs/rules.md");
    let anchors = anchors();
    let flagged: Vec<&str> = data["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[2].as_str().unwrap())
        .collect();
    assert!(flagged.contains(&"ownership.continuation-disagrees"));
    for rule in flagged {
        assert!(anchors.contains(rule), "{rule}");
    }
}

#[test]
fn the_report_page_links_resolve() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let page = scratch("report.html");
    let out = agui(&[
        "report",
        fixtures.join("impl-a.jsonl").to_str().unwrap(),
        fixtures.join("impl-b.jsonl").to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    let found = fragments(&html);
    assert!(
        found.iter().any(|f| f == "schema.unknown-type"),
        "{found:?}"
    );
    let anchors = anchors();
    for f in &found {
        assert!(anchors.contains(f), "report.html links rules.md#{f}");
    }
}

#[test]
fn json_report_docs_resolve() {
    // Every corpus case's violations, one `doc` each.
    let out = Command::new(BIN)
        .current_dir(repo())
        .args(["check", "-r", "corpus", "--format", "json", "-j", "2"])
        .output()
        .unwrap();
    // (Read as text: a lone surrogate of a corpus case, echoed in a
    // message, is no `String` for serde_json.)
    let text = String::from_utf8_lossy(&out.stdout);
    let anchors = anchors();
    let docs: BTreeSet<String> = text
        .split("\"doc\":\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap_or_default().to_owned())
        .collect();
    // The corpus breaks rules of every area but `transport` (live only).
    assert!(docs.len() >= 8, "{docs:?}");
    for d in &docs {
        let frag = d.strip_prefix("docs/rules.md#").unwrap();
        assert!(anchors.contains(frag), "{d}");
    }
    // And every area's, the live-only ones included.
    for id in catalogue_ids() {
        let Some(rule) = agui_model::RuleId::from_id(&id) else {
            continue;
        };
        let doc = agui_model::Violation::new(rule, 0, "").doc();
        let frag = doc.strip_prefix("docs/rules.md#").unwrap();
        assert!(anchors.contains(frag), "{id}: {doc}");
    }
}
