//! Headless Chromium for the browser tests and the render-time example.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the Debian package `chromium` puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, or `None` (with a note on stderr saying the test is
/// skipped) when it is not installed.
pub fn chromium(test: &str) -> Option<&'static Path> {
    let path = Path::new(CHROMIUM);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("SKIPPED {test}: {CHROMIUM} is absent (apt-get install chromium)");
        None
    }
}

/// A headless Chromium run on `page` with `extra` arguments; its stdout.
/// Fails on an uncaught script error in the browser's console log.
fn run(browser: &Path, page: &Path, extra: &[String]) -> String {
    let profile = tempdir("profile");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,900",
            "--enable-logging=stderr",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url(page))
        .output()
        .expect("chromium runs");
    drop(profile);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        !log.contains("Uncaught"),
        "script error in the browser console:\n{log}"
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `file://` URL of `page` (with an optional `#fragment` already in it).
fn url(page: &Path) -> String {
    format!("file://{}", page.display())
}

/// The DOM after the page's scripts ran.
pub fn dump_dom(browser: &Path, page: &Path) -> String {
    run(browser, page, &["--dump-dom".to_owned()])
}

/// A 1400×900 screenshot of `page` into `png`.
pub fn screenshot(browser: &Path, page: &Path, png: &Path) {
    run(browser, page, &[format!("--screenshot={}", png.display())]);
    assert!(png.exists(), "no screenshot written");
}

/// A fresh directory under the system temp dir, removed when dropped (a
/// test that fails still removes it: its pages run to megabytes).
pub fn tempdir(what: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("agui-view-{what}-"))
        .tempdir()
        .expect("temp dir")
}

/// A page written as `name` into a scratch folder of its own, which goes
/// with it: derefs to the page's path.
pub struct Page {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Page {
    pub fn write(what: &str, name: &str, bytes: impl AsRef<[u8]>) -> Page {
        let dir = tempdir(what);
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("page written");
        Page { path, _dir: dir }
    }
}

impl std::ops::Deref for Page {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// The value of `name="…"` on the first element that has it.
pub fn attribute<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let start = dom.find(&key)? + key.len();
    let len = dom[start..].find('"')?;
    Some(&dom[start..start + len])
}

/// A 100,000-event stream of nested, interleaved invocations (agui-bench's
/// writer: 4 runs of 32 invocations) with one fault at index 50,000 (a
/// `TEXT_MESSAGE_END` of a message never opened, just after the second
/// run finished: `run.after-finished`), as JSON values.
pub fn big_stream() -> Vec<serde_json::Value> {
    let shape = agui_bench::synth::Shape {
        events: 100_000 - 1,
        invocations: 32,
        runs: 4,
        seed: 7,
    };
    let mut bytes = Vec::new();
    agui_bench::synth::write(&shape, &mut bytes).expect("synth writes");
    let mut events: Vec<serde_json::Value> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("synth writes JSON"))
        .collect();
    events.insert(
        50_000,
        serde_json::json!({"type": "TEXT_MESSAGE_END", "messageId": "never-opened"}),
    );
    events
}
