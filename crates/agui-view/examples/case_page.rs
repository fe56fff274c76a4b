//! The lanes page of a corpus case's stream: `cargo run -p agui-view
//! --example case_page CASE.json PAGE.html` (`check --html` takes a stream,
//! not a case file).

use anyhow::Context;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(case), Some(page)) = (args.next(), args.next()) else {
        anyhow::bail!("usage: case_page CASE.json PAGE.html");
    };
    let text = std::fs::read_to_string(&case).with_context(|| format!("reading {case}"))?;
    let case: serde_json::Value = serde_json::from_str(&text).context("a case is JSON")?;
    let events = case["events"].as_array().context("a case has events")?;
    let report = agui_model::check_values(events);
    let options = agui_view::Options {
        title: case["id"].as_str().unwrap_or("case").to_owned(),
        ..agui_view::Options::default()
    };
    let html = agui_view::render_lanes(events, &report.violations, &options);
    std::fs::write(&page, html).with_context(|| format!("writing {page}"))?;
    Ok(())
}
