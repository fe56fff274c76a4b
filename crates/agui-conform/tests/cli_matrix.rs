//! `report` on consumer, fuzz and producer records at once: the ecosystem
//! matrix (rows grouped by language, a column per rule family, each cell
//! that did not pass linking to its drill-down), the fuzz findings with
//! their minimal streams, every in-page link resolving, and the same bytes
//! from the same records. Fixtures: tests/fixtures/records (README there).

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records")
        .join(name)
        .display()
        .to_string()
}

fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_matrix")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The report of every fixture kind in `dir`: (Markdown, HTML).
fn report(dir: &Path, extra: &[&str]) -> (String, String) {
    let md = dir.join("README.md");
    let html = dir.join("index.html");
    let records = [
        "impl-a.jsonl",
        "impl-b.jsonl",
        "fuzz-impl-a.jsonl",
        "producer-alpha-interrupt.jsonl",
        "producer-alpha-legacy.jsonl",
        "producer-alpha-suite.jsonl",
    ]
    .map(fixture);
    let out = Command::new(BIN)
        .arg("report")
        .args(records)
        .args(["--notes", &fixture("notes.json")])
        .args(["--markdown", md.to_str().unwrap()])
        .args(["--html", html.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(md).unwrap(),
        std::fs::read_to_string(html).unwrap(),
    )
}

/// The grid's rows (from its header row to the first blank line).
fn grid_rows(md: &str) -> Vec<&str> {
    let start = md.find("| implementation | role |").expect("no grid");
    md[start..]
        .lines()
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect()
}

fn cells(row: &str) -> Vec<&str> {
    row.trim_matches('|').split(" | ").map(str::trim).collect()
}

#[test]
fn the_grid_groups_rows_by_language_and_links_every_cell_that_did_not_pass() {
    let (md, _) = report(&out_dir("grid"), &[]);
    let rows = grid_rows(&md);
    let names: Vec<&str> = rows.iter().map(|r| cells(r)[0]).collect();
    assert_eq!(
        names,
        [
            "**TypeScript**",
            "impl-a",
            "**Python**",
            "impl-b",
            "**Language not stated**",
            "[alpha](producers.md#producer-alpha)"
        ],
        "{md}"
    );
    // impl-a: its suite run and its fuzz campaign in one row. Columns:
    // name, role, version, valid, schema, run, entities, lifecycle,
    // ownership, interrupts, chunks, consistency, transport, fuzz.
    let a = cells(rows[1]);
    assert_eq!(a.len(), 14, "{a:?}");
    assert_eq!(a[1], "consumer");
    assert_eq!(
        a[3], "[**PASS 1 · fuzz FAIL 1/6**](#drill-impl-a-valid)",
        "the campaign rejected a valid stream"
    );
    assert_eq!(a[4], "[**FAIL 1/1 · fuzz PASS 2**](#drill-impl-a-schema)");
    assert_eq!(a[5], "fuzz PASS 1", "INFO is no failure: no drill-down");
    assert_eq!(a[6], "[WARN 1/1](#drill-impl-a-entities)");
    assert_eq!(a[7], "—");
    assert_eq!(a[8], "[**fuzz FAIL 2/3**](#drill-impl-a-ownership)");
    assert_eq!(a[13], "[12 cases, 2 findings](#fuzz-impl-a)");
    // impl-b is schema-only: its entities case was not asked.
    let b = cells(rows[3]);
    assert_eq!(&b[3..7], ["PASS 1", "PASS 1", "—", "SKIPPED 1"]);
    assert_eq!(b[13], "—");
    // The producer: every family checked on its four streams; the legacy
    // path's HTTP 500 is a transport finding; the producer suite is `valid`.
    let p = cells(rows[5]);
    assert_eq!(p[1], "producer");
    assert_eq!(p[2], "alpha-sdk 1.2.3, ag-ui-protocol 1.0.0");
    assert_eq!(p[3], "suite PASS 1");
    assert_eq!(p[4], "PASS 4");
    assert_eq!(
        p[12], "[**FAIL 1/4**](#drill-producer-alpha-transport)",
        "{p:?}"
    );

    // The drill-down says what failed and links on.
    let drill = |id: &str| -> &str {
        let at = md
            .find(&format!("<a id=\"{id}\"></a>"))
            .unwrap_or_else(|| panic!("no anchor {id}"));
        let rest = &md[at..];
        &rest[..rest[1..].find("<a id=").map_or(rest.len(), |i| i + 1)]
    };
    let own = drill("drill-impl-a-ownership");
    assert!(
        own.contains("- `ownership.continuation-disagrees`: fuzz: 2 FAIL of 3; 1 finding shrunk — [minimal stream](#finding-impl-a-ownership-continuation-disagrees-fail)"),
        "{own}"
    );
    let schema = drill("drill-impl-a-schema");
    assert!(
        schema.contains(
            "suite: 1 FAIL of 1; fuzz: 2 passed — [failing cases](#rule-schema-unknown-type)"
        ),
        "{schema}"
    );
    assert!(drill("drill-impl-a-entities").contains("[WARN table](#warn)"));
    assert!(
        drill("drill-producer-alpha-transport")
            .contains("`transport.status`: 1 violation(s) in 1 of 4 streams — [producers page](producers.md#producer-alpha)")
    );
}

#[test]
fn fuzz_findings_show_their_minimal_streams() {
    let (md, html) = report(&out_dir("findings"), &[]);
    let at = md
        .find("<a id=\"finding-impl-a-ownership-continuation-disagrees-fail\"></a>")
        .expect("finding anchor");
    let section = &md[at..];
    assert!(section.contains("#### impl-a: FAIL `ownership.continuation-disagrees`"));
    assert!(
        section.contains(
            "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"x\",\"messageId\":\"m1\",\"subagentRunId\":\"s2\"}"
        ),
        "{section}"
    );
    assert!(section.contains("Expected on it: reject at 2 (ownership.continuation-disagrees, must-reject) (by reference). Answered: accept"));
    // The HTML page draws it as lanes: a button, its row and its data,
    // with the expected index pinned.
    let key = "finding:finding-impl-a-ownership-continuation-disagrees-fail";
    assert!(html.contains(&format!("<button class=\"open\" data-case=\"{key}\"")));
    assert!(html.contains(&format!(
        "<tr class=\"lanes-row\" data-for=\"{key}\" hidden>"
    )));
    let data_at = html.find("<script id=\"lanes-data\"").unwrap();
    assert!(html[data_at..].contains(&format!("\"{key}\":")));
    assert!(html[data_at..].contains("expected: reject at 2 (ownership.continuation-disagrees)"));
    // The grid is there too, grouped, its cells coloured and linked.
    let ts = html
        .find("<tr class=\"lang\"><th colspan=\"14\">TypeScript</th></tr>")
        .unwrap();
    let py = html
        .find("<tr class=\"lang\"><th colspan=\"14\">Python</th></tr>")
        .unwrap();
    assert!(ts < py);
    assert!(html.contains("<td class=\"cell s-fail\" data-family=\"ownership\"><a href=\"#drill-impl-a-ownership\">fuzz FAIL 2/3</a></td>"));
    assert!(html.contains("<a href=\"producers.md#producer-alpha\">alpha</a>"));
}

#[test]
fn a_findings_note_is_under_it_on_both_pages() {
    let dir = out_dir("finding-note");
    let notes = dir.join("more-notes.json");
    std::fs::write(
        &notes,
        r#"{"impl-a": {"fuzz:ownership.continuation-disagrees": "Checked by hand: `s2` continues <m1>."}}"#,
    )
    .unwrap();
    let (md, html) = report(&dir, &["--notes", notes.to_str().unwrap()]);
    let at = md
        .find("<a id=\"finding-impl-a-ownership-continuation-disagrees-fail\"></a>")
        .expect("finding anchor");
    assert!(md[at..].contains("Checked by hand: `s2` continues"), "{md}");
    // On the HTML page, the row after the finding's (and its lanes row),
    // escaped, its code marks dropped as the page's other notes are.
    let row = "<tr class=\"note\"><td colspan=\"4\"><b>impl-a</b>: Checked by hand: s2 continues &lt;m1&gt;.</td></tr>";
    assert!(html.contains(row), "{html}");
    let finding = html
        .find("<tr class=\"case\" id=\"finding-impl-a-ownership-continuation-disagrees-fail\">")
        .unwrap();
    assert!(html.find(row).unwrap() > finding);
    // Without the note, no note row.
    let (_, plain) = report(&out_dir("finding-no-note"), &[]);
    assert!(!plain.contains("<tr class=\"note\">"));
}

/// Every `#fragment` link of `page` names an `id` on it.
fn links_resolve(page: &str, what: &str) {
    let mut checked = 0;
    for (i, _) in page
        .match_indices("](#")
        .chain(page.match_indices("href=\"#"))
    {
        let rest = &page[i..];
        let start = rest.find('#').unwrap() + 1;
        let end = start + rest[start..].find([')', '"']).unwrap();
        let id = &rest[start..end];
        assert!(
            page.contains(&format!("id=\"{id}\"")),
            "{what}: #{id} names nothing"
        );
        checked += 1;
    }
    assert!(checked > 10, "{what}: only {checked} links");
}

#[test]
fn every_link_in_the_pages_resolves() {
    let (md, html) = report(&out_dir("links"), &[]);
    links_resolve(&md, "Markdown");
    links_resolve(&html, "HTML");
}

#[test]
fn the_same_records_make_the_same_bytes() {
    let first = report(&out_dir("same-1"), &[]);
    let second = report(&out_dir("same-2"), &[]);
    assert!(first.0 == second.0, "the Markdown differs");
    assert!(first.1 == second.1, "the HTML differs");
}

#[test]
fn the_page_says_how_it_is_regenerated_and_where_producers_are() {
    let (md, html) = report(
        &out_dir("command"),
        &["--command", "scripts/x.sh --y", "--producers-href", "p.md"],
    );
    assert!(md.contains("Regenerate with `scripts/x.sh --y`."), "{md}");
    assert!(html.contains("regenerate with <code>scripts/x.sh --y</code>"));
    assert!(md.contains("[alpha](p.md#producer-alpha)"));
}

#[test]
fn the_producers_page_carries_the_anchor_the_matrix_links_to() {
    let dir = out_dir("producers");
    let md = dir.join("producers.md");
    let out = Command::new(BIN)
        .arg("report")
        .args(
            [
                "producer-alpha-interrupt.jsonl",
                "producer-alpha-legacy.jsonl",
                "producer-alpha-suite.jsonl",
            ]
            .map(fixture),
        )
        .args(["--markdown", md.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(md).unwrap();
    assert!(
        text.contains("<a id=\"producer-alpha\"></a>\n## alpha"),
        "{text}"
    );
}
