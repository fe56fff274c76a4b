//! A saved SSE body (a `curl -N` capture) checked offline: framed as a
//! client would, each event's data checked as one stream item, as in a
//! live check, with the `transport.*` rules that need no clock
//! (`transport.framing`, `transport.unterminated-event`).
//!
//! The body is read in bounded pieces split at line ends, so each event's
//! line is known (the last line of its block, 1-based; a body using lone
//! `\r` line endings counts as one line) without holding the file.

use crate::live::{self, Seen, unterminated_message};
use crate::outcome::RunLog;
use crate::sse::SseParser;
use agui_model::{Checker, Report, RuleId, Violation};
use std::io::{self, BufRead};

/// Field names a capture's first line starts with.
const FIELDS: [&[u8]; 5] = [b"data:", b"event:", b"id:", b"retry:", b":"];

/// Whether the start of an input looks like an SSE body rather than JSON:
/// its first non-blank line (after a byte order mark) starts with
/// `data:`, `event:`, `id:`, `retry:` or `:` (a comment).
pub fn looks_like_sse(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let rest = &head[start..];
    FIELDS.iter().any(|f| rest.starts_with(f))
}

/// Checks a saved SSE body through `checker`; `stop` is asked after each
/// piece (a reader of the output went away); `on_event` gets each stream
/// item's index and line and what it was; `runs` how each run ended.
pub fn check_sse_reader(
    mut input: impl BufRead,
    mut checker: Checker,
    mut stop: impl FnMut() -> bool,
    mut on_event: impl FnMut(usize, usize, &Seen<'_>),
    runs: &mut RunLog,
) -> io::Result<Report> {
    let max = checker.limits().line_bytes;
    let mut parser = SseParser::new(max);
    let mut line = 1usize;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        // Up to and including the first line end, so `line` is exact when
        // an event is dispatched (on the blank line closing it).
        let n = memchr::memchr(b'\n', buf).map_or(buf.len(), |i| i + 1);
        parser.feed(&buf[..n], &mut |d| {
            let i = checker.events();
            let at = line.saturating_sub(1).max(1);
            live::feed(&mut checker, d, max, runs, &mut |seen| {
                on_event(i, at, seen)
            });
        });
        if buf[n - 1] == b'\n' {
            line += 1;
        }
        input.consume(n);
        if stop() {
            runs.finish(checker.events());
            return Ok(checker.finish());
        }
    }
    if let Some(u) = parser.finish() {
        let i = checker.events();
        checker.report_external(Violation::new(
            RuleId::TransportUnterminatedEvent,
            i,
            unterminated_message(u),
        ));
    }
    runs.finish(checker.events());
    Ok(checker.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_are_told_from_json() {
        assert!(looks_like_sse(b"data: {}\n\n"));
        assert!(looks_like_sse(b"\xEF\xBB\xBF\n: ping\n"));
        assert!(looks_like_sse(b"event: RUN_STARTED\ndata: {}\n"));
        assert!(looks_like_sse(b"id: 1\n"));
        assert!(!looks_like_sse(b"{\"type\":\"RUN_STARTED\"}\n"));
        assert!(!looks_like_sse(b"[{}]"));
        assert!(!looks_like_sse(b""));
    }

    /// (rule, index) of each violation, and (index, line) of each event.
    type Found = (Vec<(RuleId, usize)>, Vec<(usize, usize)>);

    fn check(body: &[u8]) -> Found {
        let mut lines = Vec::new();
        let report = check_sse_reader(
            body,
            Checker::new(),
            || false,
            |i, l, _| lines.push((i, l)),
            &mut RunLog::new(),
        )
        .unwrap();
        let rules = report
            .violations
            .iter()
            .map(|v| (v.rule, v.index))
            .collect();
        (rules, lines)
    }

    #[test]
    fn a_capture_is_checked_event_by_event_with_its_lines() {
        let body = b": hello\n\
            data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
            {\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}\n\n\
            event: x\n\
            data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n";
        let (rules, lines) = check(body);
        // The line without `data:` is lost (framing) where event 1 would be.
        assert_eq!(rules, [(RuleId::TransportFraming, 1)]);
        // Each event at its data line: 2 and 7.
        assert_eq!(lines, [(0, 2), (1, 7)]);
    }

    #[test]
    fn an_event_left_open_at_the_end_is_unterminated() {
        let body = b"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n\
            data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n";
        let (rules, _) = check(body);
        // The finish is discarded, so the run never ended.
        assert_eq!(
            rules,
            [
                (RuleId::TransportUnterminatedEvent, 1),
                (RuleId::RunUnterminated, 1)
            ]
        );
    }
}
