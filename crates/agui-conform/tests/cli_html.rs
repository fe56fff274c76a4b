//! `agui-conform check --html PATH`: the report is unchanged and the page
//! holds the stream and its violations (the page itself is tested in a
//! browser by agui-view's tests).

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};
use support::{BIN, run_stdin, scratch_dir, server};

/// `s2` sends content into `s1`'s message at index 3:
/// `ownership.continuation-disagrees`.
const STREAM: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"researcher"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","subagentRunId":"s1"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"</script>","subagentRunId":"s2"}
"#;

fn dir() -> PathBuf {
    scratch_dir("cli_html")
}

fn check_stdin(args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    run_stdin(&all, STREAM.as_bytes())
}

#[test]
fn html_page_is_written_and_the_report_is_unchanged() {
    let page = dir().join("stdin.html");
    let page_arg = page.to_str().unwrap();
    for format in ["text", "json"] {
        let plain = check_stdin(&["--format", format]);
        let with_page = check_stdin(&["--format", format, "--html", page_arg]);
        assert_eq!(with_page.status.code(), Some(1));
        assert_eq!(plain.stdout, with_page.stdout, "--format {format}");
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<h1>&lt;stdin&gt;</h1>"));
        // Both violations, the stream's events, the escaped delta.
        assert!(html.contains(r#"[3,2,"ownership.continuation-disagrees","#));
        assert!(html.contains(r#"[4,0,"run.unterminated","#));
        assert!(html.contains(r#""delta":"\u003c/script>""#));
        std::fs::remove_file(&page).unwrap();
    }
}

#[test]
fn an_unwritable_page_is_exit_2() {
    let page = dir().join("no-such-dir").join("p.html");
    let out = check_stdin(&["--html", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("p.html"));
}

/// `check --url --html`: the page draws the events received, as `--save`
/// keeps them, with the violations found; saving and drawing together
/// write the same events.
#[test]
fn html_with_url_draws_the_events_received() {
    let events = server::corpus_events("ownership/continuation-disagrees.json");
    let srv = server::Server::replying(
        server::Reply::sse(server::sse_body(&events)).pieces(&[7], std::time::Duration::ZERO),
    );
    let url = srv.url();
    let page = dir().join("live.html");
    let save = dir().join("live.jsonl");
    let out = Command::new(BIN)
        .args(["check", "--url", &url, "--html", page.to_str().unwrap()])
        .args(["--save", save.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains(&format!("<h1>{url}</h1>")));
    // The corpus case states its first violation at index 2.
    assert!(html.contains(r#"[2,"#) && html.contains(r#","ownership.continuation-disagrees","#));
    let served: String = events.iter().map(|e| format!("{e}\n")).collect();
    assert_eq!(std::fs::read_to_string(&save).unwrap(), served);
    for e in &events {
        let json = serde_json::to_string(e).unwrap().replace('<', "\\u003c");
        assert!(html.contains(&json), "{json}");
    }
}

/// A saved SSE body is drawn as the events its `data:` fields hold, as the
/// check reads it (it was drawn as lines of not-JSON text).
#[test]
fn an_sse_body_is_drawn_as_its_events() {
    let sse = dir().join("body.sse");
    std::fs::write(
        &sse,
        "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
         data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
    )
    .unwrap();
    let page = dir().join("sse.html");
    for format in ["text", "sarif"] {
        let out = Command::new(BIN)
            .args(["check", sse.to_str().unwrap(), "--format", format])
            .args(["--html", page.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains(
                r#""events":[{"runId":"r","threadId":"t","type":"RUN_STARTED"},{"runId":"r","threadId":"t","type":"RUN_FINISHED"}]"#
            ),
            "{format}"
        );
        assert!(html.contains(r#""verdict":"accept""#), "{format}");
    }
}
