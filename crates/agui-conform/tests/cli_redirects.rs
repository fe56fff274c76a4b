//! Issue 42, "the report names every hop": a 307 or 308 is followed with
//! the POST and its body (RFC 9110 §15.4.8, §15.4.9), and each hop — its
//! status, the URL asked, its `Location` and the URL that resolves to — is
//! in the report of `check --url` and `run --producer` in every output
//! format: JSON `redirects`, a text line, a SARIF note and invocation
//! property, a JUnit `redirect` property. Expected hops are the test
//! server's construction: `/agent` answers 307 with `Location: /agent/`.

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Output;
use support::server::{Reply, Server, sse_body};

const RS: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;
const RF: &str = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#;

/// `/agent` redirects (307) to `/agent/`, which answers one finished run.
fn redirecting() -> Server {
    Server::start(|req| match req.path.as_str() {
        "/agent/" => Reply::sse(sse_body(&[
            serde_json::from_str(RS).unwrap(),
            serde_json::from_str(RF).unwrap(),
        ])),
        _ => Reply::sse("").status(307).header("Location", "/agent/"),
    })
}

/// The one hop, as the JSON report lists it.
fn hop(url: &str) -> Value {
    json!({"status": 307, "url": url, "location": "/agent/", "to": format!("{url}/")})
}

/// The one hop's text line.
fn hop_line(url: &str) -> String {
    format!("redirected: 307 {url} → {url}/ (the POST repeated with its body)")
}

fn run(args: &[&str]) -> Output {
    support::run_stdin(args, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_redirects")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn check_url_names_the_hop_in_every_format() {
    let server = redirecting();
    let url = server.url();
    let d = scratch("check");
    let junit = d.join("check.xml");
    let out = run(&[
        "check",
        "--url",
        &url,
        "--format",
        "json",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["verdict"], "accept", "{report}");
    assert_eq!(report["redirects"], json!([hop(&url)]));
    // JUnit: a property, and the line in the output.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let property = format!(r#"<property name="redirect" value="307 {url} → {url}/"/>"#);
    assert!(xml.contains(&property), "{xml}");
    assert!(xml.contains(&hop_line(&url)), "{xml}");

    let out = run(&["check", "--url", &url]);
    assert!(
        stdout(&out).lines().any(|l| l == hop_line(&url)),
        "{}",
        stdout(&out)
    );

    let out = run(&["check", "--url", &url, "--format", "sarif"]);
    let log: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(inv["properties"]["redirects"], json!([hop(&url)]));
    let notes = inv["toolExecutionNotifications"].as_array().unwrap();
    let note = notes
        .iter()
        .find(|n| n["descriptor"]["id"] == "transport.redirect")
        .unwrap_or_else(|| panic!("{inv}"));
    assert_eq!(note["level"], "note");
    assert_eq!(note["properties"]["status"], 307);
    assert_eq!(note["properties"]["location"], "/agent/");
}

#[test]
fn without_a_redirect_no_hop_is_named() {
    let server = Server::replying(Reply::sse(sse_body(&[
        serde_json::from_str(RS).unwrap(),
        serde_json::from_str(RF).unwrap(),
    ])));
    let out = run(&["check", "--url", &server.url(), "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["verdict"], "accept", "{report}");
    assert!(report.get("redirects").is_none(), "{report}");
    let out = run(&["check", "--url", &server.url()]);
    assert!(!stdout(&out).contains("redirected"), "{}", stdout(&out));
}

/// `run --producer URL --filter plain` with `args`.
fn producer(url: &str, args: &[&str]) -> Output {
    let mut all = vec![
        "run",
        "--producer",
        url,
        "--suite",
        "producer",
        "--filter",
        "plain",
    ];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn run_producer_names_the_hop_in_every_format() {
    let server = redirecting();
    let url = server.url();
    let out = producer(&url, &["--format", "json"]);
    let text = stdout(&out);
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["steps"][0]["redirects"], json!([hop(&url)]), "{text}");

    let out = producer(&url, &[]);
    let line = format!("        {}", hop_line(&url));
    assert!(stdout(&out).lines().any(|l| l == line), "{}", stdout(&out));

    let out = producer(&url, &["--format", "sarif"]);
    let log: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let inv = &log["runs"][0]["invocations"][0];
    let scenario = &inv["properties"]["scenarios"][0];
    assert_eq!(scenario["redirects"], json!([hop(&url)]), "{inv}");
    let notes = inv["toolExecutionNotifications"].as_array().unwrap();
    let note = notes
        .iter()
        .find(|n| n["descriptor"]["id"] == "transport.redirect")
        .unwrap_or_else(|| panic!("{inv}"));
    assert_eq!(note["properties"]["scenario"], scenario["id"]);
    assert_eq!(note["properties"]["to"], format!("{url}/"));

    let out = producer(&url, &["--format", "junit"]);
    let property = format!(r#"<property name="redirect" value="307 {url} → {url}/"/>"#);
    assert!(stdout(&out).contains(&property), "{}", stdout(&out));

    // The run record (`--record`, what `report` renders the producers page
    // from) keeps the hop on its step; a scenario line follows the header.
    let record = scratch("record").join("run.jsonl");
    let out = producer(&url, &["--record", record.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&record).unwrap();
    let scenario: Value = lines
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v.get("steps").is_some())
        .unwrap_or_else(|| panic!("no scenario line: {lines}"));
    assert_eq!(
        scenario["steps"][0]["redirects"],
        json!([hop(&url)]),
        "{lines}"
    );
}
