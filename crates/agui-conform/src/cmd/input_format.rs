//! `check --input-format`: JSON (JSON Lines or one array, which the reader
//! tells apart by itself) or a saved SSE body (`curl -N` output), detected
//! from the input's first line unless forced.

use agui_model::check::check_reader_until;
use agui_model::{Checker, Report};
use std::io::{self, BufRead};

/// How `check` reads its input.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// JSON Lines: one event per line.
    Jsonl,
    /// One JSON array of events.
    Json,
    /// A saved Server-Sent Events body (`data:` lines), with the transport
    /// rules that need no clock.
    Sse,
}

/// The format to read `input` as: `forced`, or SSE when its first line
/// looks like one, else JSON. A forced JSON format over what looks like
/// SSE gets a hint on stderr (every line would be `schema.not-json`).
pub fn resolve(input: &mut dyn BufRead, forced: Option<InputFormat>) -> io::Result<InputFormat> {
    let looks_sse = agui_live::sse_file::looks_like_sse(input.fill_buf()?);
    Ok(match forced {
        Some(f @ (InputFormat::Jsonl | InputFormat::Json)) if looks_sse => {
            eprintln!(
                "agui-conform: hint: the input looks like a saved SSE body (`data:` lines); \
                 --input-format sse reads it as one"
            );
            f
        }
        Some(f) => f,
        None if looks_sse => InputFormat::Sse,
        None => InputFormat::Jsonl,
    })
}

/// Checks `input` read as `format`.
pub fn check(
    input: impl BufRead,
    format: InputFormat,
    checker: Checker,
    stop: impl FnMut() -> bool,
) -> io::Result<Report> {
    match format {
        InputFormat::Sse => agui_live::sse_file::check_sse_reader(input, checker, stop, |_, _| {}),
        InputFormat::Jsonl | InputFormat::Json => check_reader_until(input, checker, stop),
    }
}
