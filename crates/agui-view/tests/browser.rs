//! The lanes page in a real browser (headless Chromium, Debian package
//! `chromium`; `.ci/run` installs it). Skipped, saying so, when
//! `/usr/bin/chromium` is absent.
//!
//! The page marks `<html data-error="…">` on any script error and
//! `<body data-ready="true" data-first-draw-ms="…">` after its first draw;
//! violation markers and lane labels are DOM elements, so `--dump-dom`
//! shows what was drawn.

mod support;

use agui_model::check_values;
use agui_view::{Options, render_lanes};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The page of `events` (violations from the reference checker), written
/// into a fresh directory.
fn page_of(events: &[Value], title: &str) -> support::Page {
    let report = check_values(events);
    let options = Options {
        title: title.to_owned(),
        ..Options::default()
    };
    let html = render_lanes(events, &report.violations, &options);
    support::Page::write("page", "lanes.html", html)
}

fn corpus_events(case: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(format!("{case}.json"));
    let text = std::fs::read_to_string(&path).expect("corpus case");
    let case: Value = serde_json::from_str(&text).expect("case is JSON");
    case["events"].as_array().expect("events").clone()
}

fn assert_drawn(dom: &str) {
    assert_eq!(support::attribute(dom, "data-error"), None, "page error");
    assert_eq!(support::attribute(dom, "data-ready"), Some("true"));
}

/// The owners of the lane labels drawn, top to bottom.
fn owner_labels(dom: &str) -> Vec<&str> {
    dom.match_indices(r#"<span class="owner">"#)
        .map(|(at, m)| {
            let rest = &dom[at + m.len()..];
            &rest[..rest.find('<').unwrap_or(0)]
        })
        .collect()
}

/// (distinct colours, share of pixels that are not the most common one).
fn colour_spread(png_path: &Path) -> (usize, f64) {
    let decoder = png::Decoder::new(std::fs::File::open(png_path).expect("png"));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let px = info.color_type.samples();
    let mut counts = std::collections::HashMap::new();
    for p in buf[..info.buffer_size()].chunks(px) {
        *counts.entry(p[..3].to_vec()).or_insert(0usize) += 1;
    }
    let total: usize = counts.values().sum();
    let top = counts.values().copied().max().unwrap_or(0);
    (counts.len(), 1.0 - top as f64 / total as f64)
}

#[test]
fn interleaved_stream_with_a_violation_is_drawn_as_lanes() {
    let Some(browser) = support::chromium("interleaved_stream_with_a_violation_is_drawn_as_lanes")
    else {
        return;
    };
    let events = corpus_events("ownership/continuation-disagrees-interleaved");
    let page = page_of(&events, "continuation-disagrees-interleaved");
    let dom = support::dump_dom(browser, &page);
    assert_drawn(&dom);
    // One lane per owner, in tree order, with the invocations' names.
    assert_eq!(owner_labels(&dom), ["parent", "s1", "s2", "s3"]);
    for name in ["researcher", "searcher", "writer"] {
        assert!(dom.contains(&format!(r#"<span class="name">{name}</span>"#)));
    }
    // Every event has a mark (23 events, each in its own pixel column).
    assert_eq!(support::attribute(&dom, "data-drawn-marks"), Some("23"));
    // The violation: a red marker at index 11, listed with a link to the
    // rule's text and its catalogue statement; the page opens on it.
    assert!(
        dom.contains(
            r#"class="flag" data-rule="ownership.continuation-disagrees" data-index="11""#
        )
    );
    assert!(dom.contains(r#"href="docs/rules.md#ownership.continuation-disagrees""#));
    let statement = agui_model::RuleId::OwnershipContinuationDisagrees
        .rule()
        .statement;
    let as_text = statement
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    assert!(dom.contains(&format!(r#"<div class="statement">{as_text}</div>"#)));
    assert!(dom.contains(r#"<div class="head">#11 TEXT_MESSAGE_CONTENT"#));
    assert!(dom.contains(r#""subagentRunId": "s3""#));

    let png = page.with_extension("png");
    support::screenshot(browser, &page, &png);
    let (colours, ink) = colour_spread(&png);
    assert!(colours > 20, "{colours} colours");
    assert!(
        ink > 0.05,
        "only {ink:.3} of the screenshot is not background"
    );
}

#[test]
fn a_fragment_selects_an_event() {
    let Some(browser) = support::chromium("a_fragment_selects_an_event") else {
        return;
    };
    let events = corpus_events("ownership/continuation-disagrees-interleaved");
    let page = page_of(&events, "select");
    let url = PathBuf::from(format!("{}#event=5", page.display()));
    let dom = support::dump_dom(browser, &url);
    assert_drawn(&dom);
    assert!(
        dom.contains(r#"<div class="head">#5 TEXT_MESSAGE_CONTENT <code>in lane parent</code>"#)
    );
    assert!(dom.contains(r#""delta": "Let me ""#));
}

#[test]
fn owners_can_be_filtered() {
    let Some(browser) = support::chromium("owners_can_be_filtered") else {
        return;
    };
    let events = corpus_events("ownership/continuation-disagrees-interleaved");
    let page = page_of(&events, "filter");
    let url = PathBuf::from(format!("{}#owners=parent,s3", page.display()));
    let dom = support::dump_dom(browser, &url);
    assert_drawn(&dom);
    assert_eq!(owner_labels(&dom), ["parent", "s3"]);
    // The parent's 6 events (0, 2, 5, 20, 21, 22) and s3's 6 (6, 9, 11,
    // 12, 16, 17: index 11 is tagged s3).
    assert_eq!(support::attribute(&dom, "data-drawn-marks"), Some("12"));
    assert!(dom.contains(r#"data-rule="ownership.continuation-disagrees" data-index="11""#));
}

#[test]
fn strings_that_look_like_markup_stay_data() {
    let Some(browser) = support::chromium("strings_that_look_like_markup_stay_data") else {
        return;
    };
    let events: Vec<Value> = vec![
        serde_json::json!({"type": "RUN_STARTED", "threadId": "t", "runId": "</script><script>document.title='x'</script>"}),
        serde_json::json!({"type": "CUSTOM", "name": "<img src=x onerror=alert(1)>", "value": "<!--"}),
        serde_json::json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ];
    let page = page_of(&events, "<b>markup</b>");
    let dom = support::dump_dom(browser, &page);
    assert_drawn(&dom);
    assert!(dom.contains("<h1>&lt;b&gt;markup&lt;/b&gt;</h1>"));
    assert!(!dom.contains("<img src=\"x\""));
    assert!(dom.contains("3 events"));
}

#[test]
fn a_100000_event_stream_renders() {
    let Some(browser) = support::chromium("a_100000_event_stream_renders") else {
        return;
    };
    let events = support::big_stream();
    let page = page_of(&events, "100k");
    let dom = support::dump_dom(browser, &page);
    assert_drawn(&dom);
    assert!(dom.contains("100,000 events · 4 runs · 129 lanes · 1 violation"));
    assert!(dom.contains(r#"data-rule="run.after-finished" data-index="50000""#));
    let marks: usize = support::attribute(&dom, "data-drawn-marks")
        .and_then(|v| v.parse().ok())
        .expect("marks drawn");
    assert!(marks > 1000, "{marks} marks");
    // Measured, not asserted (no timed tests): see examples/render_time.rs.
    eprintln!(
        "first draw of 100,000 events: {} ms",
        support::attribute(&dom, "data-first-draw-ms").unwrap_or("?")
    );
}

#[test]
fn pins_mark_the_expected_and_the_answered_index() {
    let Some(browser) = support::chromium("pins_mark_the_expected_and_the_answered_index") else {
        return;
    };
    let events = corpus_events("ownership/continuation-disagrees-interleaved");
    let report = check_values(&events);
    let options = Options {
        title: "pins".to_owned(),
        pins: vec![
            agui_view::page::Pin {
                index: 11,
                label: "expected: reject at 11".to_owned(),
                kind: agui_view::page::PinKind::Expected,
            },
            agui_view::page::Pin {
                index: 16,
                label: "peer: reject at 16 (FAIL)".to_owned(),
                kind: agui_view::page::PinKind::Answered,
            },
        ],
        ..Options::default()
    };
    let page = support::Page::write(
        "pins",
        "lanes.html",
        render_lanes(&events, &report.violations, &options),
    );
    let dom = support::dump_dom(browser, &page);
    assert_drawn(&dom);
    assert!(
        dom.contains(r#"data-pin="expected" data-index="11""#),
        "{dom}"
    );
    assert!(dom.contains(r#"data-pin="answered" data-index="16""#));
    assert!(dom.contains("peer: reject at 16 (FAIL)"));
}

/// The report page of the hand-written fixture records of agui-conform's
/// record → report test: one FAIL, one WARN, one SKIPPED.
fn fixture_report() -> support::Page {
    use agui_harness::record::Record;
    use agui_harness::report::merged::{Column, Merged};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agui-conform/tests/fixtures/records");
    let columns = ["impl-a", "impl-b"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).expect("fixture");
            let record = Record::parse(&text).expect("a record");
            Column::new(name.to_uppercase(), record)
        })
        .collect();
    let html = agui_view::report::render(
        &Merged::new(columns),
        &Default::default(),
        "docs/rules.md",
        &Default::default(),
    );
    support::Page::write("report", "report.html", html)
}

#[test]
fn the_report_matrix_is_drawn_and_a_case_opens_into_lanes() {
    let Some(browser) = support::chromium("the_report_matrix_is_drawn_and_a_case_opens_into_lanes")
    else {
        return;
    };
    let page = fixture_report();
    let url = PathBuf::from(format!("{}#open=schema%2Funknown-type", page.display()));
    let dom = support::dump_dom(browser, &url);
    assert_eq!(support::attribute(&dom, "data-error"), None, "page error");
    assert_eq!(support::attribute(&dom, "data-ready"), Some("true"));
    // Both non-passing cases can open; the rule rows and cells are there.
    assert_eq!(support::attribute(&dom, "data-openable"), Some("2"));
    for rule in ["schema.unknown-type", "text.not-open", "valid"] {
        assert!(
            dom.contains(&format!(r#"<tr data-rule="{rule}">"#)),
            "{rule}"
        );
    }
    assert!(dom.contains(r#"<td class="cell s-fail" data-impl="0">1 FAIL</td>"#));
    assert!(dom.contains(r#"<td class="cell s-skip" data-impl="1">1 SKIPPED</td>"#));
    // #open= opened that case: its row is shown, its lanes page loaded
    // into the frame (with the expected pin in its data), the other not.
    assert!(dom.contains(r#"aria-expanded="true""#));
    assert_eq!(dom.matches("data-filled=").count(), 1, "one frame filled");
    assert_eq!(
        support::attribute(&dom, "data-lanes-error"),
        None,
        "lanes error"
    );
    assert!(
        support::attribute(&dom, "data-lanes-first-draw-ms").is_some(),
        "the lanes view drew"
    );
    // The expected index is pinned across the lanes (report.js copies the
    // frame's pins up).
    let pins = support::attribute(&dom, "data-lanes-pins").unwrap_or_default();
    assert!(
        pins.contains("expected: reject at 1 (schema.unknown-type)"),
        "pins: {pins:?}"
    );
    assert!(dom.contains("stage <code>enforceEvents</code>"));

    // The page as loaded, not scrolled to the opened case: headless
    // Chromium's --screenshot draws a scrolled document shifted by its
    // scroll offset (the part above the case came out blank), and with the
    // ecosystem matrix on top the case lies a whole window down.
    let png = page.with_extension("png");
    support::screenshot(browser, &page, &png);
    let (colours, ink) = colour_spread(&png);
    assert!(colours > 20, "{colours} colours");
    assert!(
        ink > 0.05,
        "only {ink:.3} of the screenshot is not background"
    );
}

/// The fixture records with case `schema/unknown-type`'s stream replaced
/// by the 100,000-event stream of `support::big_stream` (and its
/// expectation by that stream's fault), as a report page.
fn big_report() -> support::Page {
    use agui_harness::record::Record;
    use agui_harness::report::merged::{Column, Merged};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agui-conform/tests/fixtures/records");
    let events = Value::Array(support::big_stream());
    let columns = ["impl-a", "impl-b"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).expect("fixture");
            let lines: Vec<String> = text
                .lines()
                .map(|line| {
                    let mut v: Value = serde_json::from_str(line).expect("record line");
                    if v["id"] == "schema/unknown-type" {
                        v["stream"] = serde_json::json!({ "events": events });
                        v["expected"] = serde_json::json!({
                            "verdict": "reject", "rule": "run.after-finished", "index": 50000,
                            "text": "reject at 50000 (`run.after-finished`, should-reject)"
                        });
                    }
                    v.to_string()
                })
                .collect();
            let record = Record::parse(&(lines.join("\n") + "\n")).expect("a record");
            Column::new(name.to_uppercase(), record)
        })
        .collect();
    let html = agui_view::report::render(
        &Merged::new(columns),
        &Default::default(),
        "docs/rules.md",
        &Default::default(),
    );
    support::Page::write("big-report", "report.html", html)
}

#[test]
fn the_report_opens_a_100000_event_case_into_lanes() {
    let Some(browser) = support::chromium("the_report_opens_a_100000_event_case_into_lanes") else {
        return;
    };
    let page = big_report();
    let url = PathBuf::from(format!("{}#open=schema%2Funknown-type", page.display()));
    // `dump_dom` fails on any uncaught script error in the console log,
    // the report's or the frame's.
    let dom = support::dump_dom(browser, &url);
    assert_eq!(support::attribute(&dom, "data-error"), None, "report error");
    assert_eq!(support::attribute(&dom, "data-ready"), Some("true"));
    assert_eq!(dom.matches("data-filled=").count(), 1, "one frame filled");
    // The frame's lanes page ran without an error and drew (report.js
    // copies its marks up: --dump-dom shows no frame's DOM).
    assert_eq!(
        support::attribute(&dom, "data-lanes-error"),
        None,
        "lanes error"
    );
    let drawn: f64 = support::attribute(&dom, "data-lanes-first-draw-ms")
        .and_then(|v| v.parse().ok())
        .expect("the lanes view drew");
    // Measured, not asserted (no timed tests): see scripts/report-100k.sh.
    eprintln!("report → lanes first draw of 100,000 events: {drawn} ms");
}

#[test]
fn a_page_over_its_budget_says_what_it_left_out() {
    let Some(browser) = support::chromium("a_page_over_its_budget_says_what_it_left_out") else {
        return;
    };
    let mut events =
        vec![serde_json::json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})];
    for i in 0..2000 {
        events.push(serde_json::json!({"type": "CUSTOM", "name": "n", "value": i}));
    }
    let report = check_values(&events);
    let mut picture = agui_view::Picture::new(20_000);
    for e in &events {
        picture.push(e);
    }
    let drawn = picture.drawn();
    let mut out = Vec::new();
    let options = Options {
        verdict: Some("inconclusive".to_owned()),
        ..Options::default()
    };
    picture
        .write(&mut out, &report.violations, &options)
        .expect("page");
    let path = support::Page::write("budget", "lanes.html", out);
    let dom = support::dump_dom(browser, &path);
    assert_drawn(&dom);
    assert!(
        dom.contains(&format!("events #{drawn}–#2,000 of 2,001")),
        "{dom}"
    );
    assert!(dom.contains(r#"class="verdict-inconclusive""#));
}
