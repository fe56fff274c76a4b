//! What an implementation says is shown, never obeyed: its name, version,
//! rule, message and stderr carry HTML (`<script>`), Markdown (a link, a
//! `|` that would end a table cell) and terminal escape sequences, and
//! every report of `run` and `report` keeps them as text.

mod support;
use std::process::Command;
use support::{BIN, Dir};

/// Names itself with markup, rejects every case at 0 naming a rule with
/// markup, with a message full of it, and writes more to stderr.
const EVIL: &str = r#"while read -r line; do
  case "$line" in
    *'"cmd":"start"'*) echo '{"protocol":1,"implementation":{"name":"evil<script>alert(1)</script>|x","version":"1|<b>2</b>","language":"sh"},"capabilities":["verdict","index","rule"]}' ;;
    *'"cmd":"stop"'*) exit 0 ;;
    *) printf 'err <img src=x onerror=alert(2)> | \033[31mRED\033[0m\n' >&2
       seq=$(printf '%s' "$line" | sed 's/^[^0-9]*"seq":\([0-9]*\).*/\1/')
       echo "{\"seq\":$seq,\"result\":{\"verdict\":\"reject\",\"index\":0,\"rule\":\"x|<i>y</i>\",\"message\":\"m <script>bad()</script> | [l](javascript:z) \\u001b[2J\"}}" ;;
  esac
done
"#;

/// Markup that must never appear as markup.
const RAW: [&str; 5] = ["<script>", "<img", "<i>", "<b>", "[l](javascript"];

/// The `|` that are not escaped with a backslash.
fn cell_separators(row: &str) -> usize {
    let b = row.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

/// `md` without the contents of its code spans (where markup is text).
fn outside_code(md: &str) -> String {
    let b: Vec<char> = md.chars().collect();
    let run = |i: usize| b[i..].iter().take_while(|c| **c == '`').count();
    let (mut out, mut i) = (String::new(), 0);
    while i < b.len() {
        if b[i] != '`' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let n = run(i);
        // The closing run of exactly n backticks, if any.
        let mut j = i + n;
        let close = loop {
            if j >= b.len() {
                break None;
            }
            if b[j] == '`' {
                let m = run(j);
                if m == n {
                    break Some(j);
                }
                j += m;
            } else {
                j += 1;
            }
        };
        match close {
            Some(j) => i = j + n,
            None => {
                out.extend(&b[i..i + n]);
                i += n;
            }
        }
    }
    out
}

fn assert_inert_markdown(md: &str, what: &str) {
    let prose = outside_code(md);
    for raw in RAW {
        assert!(!prose.contains(raw), "{what}: {raw} in:\n{md}");
    }
    assert!(!md.contains('\u{1b}'), "{what}: an escape character");
    // Every row of a table has as many cells as its header.
    let mut width = None;
    for line in md.lines() {
        if !line.starts_with('|') {
            width = None;
            continue;
        }
        let n = cell_separators(line);
        match width {
            None => width = Some(n),
            Some(w) => assert_eq!(n, w, "{what}: a row out of its table: {line}"),
        }
    }
}

#[test]
fn markup_from_an_implementation_stays_text_in_every_report() {
    let d = Dir::new("escaping");
    let imp = d.script("evil.sh", EVIL);
    let path = |n: &str| d.path(n).display().to_string();
    let out = Command::new(BIN)
        .args([
            "run",
            "--no-progress",
            "--suite",
            "quick",
            "--filter",
            "run/after-error",
        ])
        .args(["--impl", &imp, "--markdown", &path("run.md")])
        .args(["--junit", &path("run.xml"), "--record", &path("run.jsonl")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("implementation says: m <script>"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "an escape sequence reached the terminal"
    );
    assert!(text.contains(r"\u{1b}[31mRED"), "{text}");

    let md = std::fs::read_to_string(d.path("run.md")).unwrap();
    assert_inert_markdown(&md, "run --markdown");
    assert!(
        md.contains("m &lt;script&gt;bad()&lt;/script&gt; \\| \\[l\\]"),
        "{md}"
    );

    let xml = std::fs::read_to_string(d.path("run.xml")).unwrap();
    assert!(
        !xml.contains("<script>") && !xml.contains('\u{1b}'),
        "{xml}"
    );
    assert!(xml.contains("&lt;script&gt;"), "{xml}");

    let report = Command::new(BIN)
        .args([
            "report",
            &path("run.jsonl"),
            "--markdown",
            &path("report.md"),
        ])
        .args(["--html", &path("report.html")])
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{report:?}");
    let md = std::fs::read_to_string(d.path("report.md")).unwrap();
    assert_inert_markdown(&md, "report --markdown");
    assert!(
        md.contains("evil&lt;script&gt;alert(1)&lt;/script&gt;\\|x"),
        "{md}"
    );
    let html = std::fs::read_to_string(d.path("report.html")).unwrap();
    for raw in ["<script>alert", "<script>bad", "<img src", "<i>y"] {
        assert!(!html.contains(raw), "report --html: {raw}");
    }

    // Split into pages (`--max-page-bytes`): each page is as inert.
    let split = Command::new(BIN)
        .args([
            "report",
            &path("run.jsonl"),
            "--markdown",
            &path("split.md"),
        ])
        .args(["--max-page-bytes", "1"])
        .output()
        .unwrap();
    assert_eq!(split.status.code(), Some(0), "{split:?}");
    let md = std::fs::read_to_string(d.path("split.md")).unwrap();
    assert_inert_markdown(&md, "report --markdown, split");
    let pages: Vec<_> = std::fs::read_dir(d.path("split-details"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!pages.is_empty(), "{md}");
    for p in pages {
        let page = std::fs::read_to_string(&p).unwrap();
        assert_inert_markdown(&page, &p.display().to_string());
    }
}
