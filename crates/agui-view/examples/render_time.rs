//! First render time of the lanes page of a 100,000-event stream in
//! headless Chromium: `cargo run --release -p agui-view --example
//! render_time [REPEAT [PAGE]]`
//! (PAGE: also keep the page there).
//!
//! The page writes `performance.now()` after its first draw into
//! `data-first-draw-ms` on `<body>`: milliseconds from navigation start
//! (reading and parsing the HTML, parsing the JSON block, laying out and
//! drawing the first frame). Prints each measurement and the median.

#[path = "../tests/support/mod.rs"]
mod common;

fn main() {
    let Some(browser) = common::chromium("render_time") else {
        std::process::exit(2);
    };
    let repeat: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let events = common::big_stream();
    let report = agui_model::check_values(&events);
    let options = agui_view::Options {
        title: "100,000 generated events (agui-bench synth, 4 runs × 32 invocations)".to_owned(),
        ..agui_view::Options::default()
    };
    let page = agui_view::render_lanes(&events, &report.violations, &options);
    let dir = common::tempdir("render-time");
    let path = dir.path().join("big.html");
    std::fs::write(&path, &page).expect("page written");
    println!(
        "{} events, {} violations, page {:.1} MB",
        events.len(),
        report.violations.len(),
        page.len() as f64 / 1e6
    );
    let mut times: Vec<f64> = (0..repeat)
        .map(|_| {
            let dom = common::dump_dom(browser, &path);
            assert!(
                common::attribute(&dom, "data-error").is_none(),
                "page error"
            );
            let ms: f64 = common::attribute(&dom, "data-first-draw-ms")
                .and_then(|v| v.parse().ok())
                .expect("the page records its first draw");
            let part = |name| common::attribute(&dom, name).unwrap_or("?").to_owned();
            println!(
                "first draw: {ms:.0} ms (script started at {} ms; JSON.parse {} ms)",
                part("data-script-start-ms"),
                part("data-parse-ms")
            );
            ms
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!("median first draw: {:.0} ms", times[times.len() / 2]);
    if let Some(keep) = std::env::args().nth(2) {
        std::fs::copy(&path, keep).expect("page kept");
    }
    let _ = std::fs::remove_dir_all(dir);
}
