//! agui-view: draws an AG-UI event stream as **lanes**, one per owner (the
//! parent agent, then each subagent invocation under its parent), in one
//! self-contained HTML page (inline CSS and JavaScript, nothing loaded from
//! the network).
//!
//! The page is built in two steps: [`Layout::of`] works out what to draw
//! from the events (lanes, marks, entity bars, lifecycles, runs) and
//! [`Layout::flag`] places the checker's violations; [`page::render`] then
//! writes that data as one inline JSON block beside a small script that
//! draws only the visible window on a canvas, so a stream of 100,000
//! events stays usable. [`Picture`] draws a stream as it is read, within a
//! byte budget, and says on the page what it left out.

pub mod layout;
mod matrix;
pub mod page;
pub mod picture;
pub mod report;

pub use layout::Layout;
pub use page::Options;
pub use picture::{DEFAULT_PAGE_BYTES, Picture};

use agui_model::Violation;
use agui_model::stream::{self, Item, ReadOptions};
use serde_json::Value;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The lanes page of `events` with the checker's `violations`.
pub fn render_lanes(events: &[Value], violations: &[Violation], options: &Options) -> String {
    let mut layout = Layout::of(events);
    layout.flag(violations);
    page::render(&layout, events, options)
}

/// Reads a stream (JSON Lines or one JSON array) into one value per item,
/// as the checker numbers them: an item that is not JSON at all becomes a
/// string saying why (drawn as an invalid mark).
pub fn read_items(input: impl BufRead, opts: &ReadOptions) -> io::Result<Vec<Value>> {
    let mut items = Vec::new();
    stream::read_stream(input, opts, |item| {
        items.push(match item {
            Item::Value { value, .. } => value,
            Item::Unparseable { line, reason } => {
                Value::String(format!("line {line}: not JSON: {reason}"))
            }
            Item::OverLimit {
                line, kind, reason, ..
            } => Value::String(format!(
                "line {line}: skipped at the {kind} limit: {reason}"
            )),
        });
        ControlFlow::Continue(())
    })?;
    Ok(items)
}
