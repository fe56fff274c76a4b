//! The fast path's scanner against serde_json (`fuzz/fuzz_targets/fast_scan.rs`):
//! the block string search ([`agui_model::fast`]'s stage that finds each
//! string's end, 16 bytes at a time on x86-64) must agree with serde_json
//! on every line.
//!
//! The input is used twice: as a whole line, and as the text between the
//! quotes of a `TEXT_MESSAGE_CONTENT` delta (where every byte goes through
//! the string search). Invariants:
//! - a line the fast path accepts is one JSON object to serde_json;
//! - bytes that are one JSON string's body to serde_json (so the line is
//!   the three-member event with them as its delta) are accepted by the
//!   fast path, unless they hold a `\u` escape (the fast path declines
//!   those in the surrogate range, which the `Value` path judges). Bytes
//!   that close the string change the line's shape (a repeated key, say):
//!   the fast path may decline those for the `Value` path to judge.
//! - bytes that are one JSON string's body, streamed as a message's text
//!   and a tool call's arguments, are written by the projection's text
//!   writer (sixteen bytes at a time) exactly as serde_json prints the
//!   run's `Value` form, and that form holds the string serde_json reads.

use agui_model::EventType;
use serde_json::Value;

/// The delta line around `text`.
fn delta_line(text: &[u8]) -> Vec<u8> {
    // Its first field, the message id, keyed as the wire table spells it.
    let id = EventType::TextMessageContent.fields()[0].key;
    let mut line = format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{id}":"m","delta":""#).into_bytes();
    line.extend_from_slice(text);
    line.extend_from_slice(br#""}"#);
    line
}

/// Panics when the fast path and serde_json disagree on `data`.
pub fn run(data: &[u8]) {
    if agui_model::fast::parses(data) {
        let v: Result<Value, _> = serde_json::from_slice(data);
        assert!(
            matches!(v, Ok(Value::Object(_))),
            "the fast path accepted a line serde_json does not read as an object: {:?}",
            String::from_utf8_lossy(data)
        );
    }
    let line = delta_line(data);
    let fast = agui_model::fast::parses(&line);
    let serde = serde_json::from_slice::<Value>(&line).is_ok();
    if fast {
        assert!(
            serde,
            "the fast path accepted a delta serde_json rejects: {:?}",
            String::from_utf8_lossy(&line)
        );
    }
    projection_writes(data);
    if string_of(data).is_some() && !data.windows(2).any(|w| w == b"\\u") {
        assert!(
            fast,
            "the fast path declined a delta that is one JSON string: {:?}",
            String::from_utf8_lossy(&line)
        );
    }
}

/// `data` between two quotes, read by serde_json as one JSON string.
fn string_of(data: &[u8]) -> Option<String> {
    let mut quoted = Vec::with_capacity(data.len() + 2);
    quoted.push(b'"');
    quoted.extend_from_slice(data);
    quoted.push(b'"');
    serde_json::from_slice::<String>(&quoted).ok()
}

/// A run streaming `data` (one JSON string's body) as a message's text
/// and as a tool call's arguments: the projection's text is what printing
/// its `Value` form writes, and holds the string serde_json reads.
fn projection_writes(data: &[u8]) {
    let Some(text) = string_of(data) else {
        return;
    };
    // An empty delta is a schema violation: not streamed. A text read as
    // the other form by design (docs/decisions.md, "Keeping what a `Value`
    // cannot hold": a kept number's U+FDD0 mark, a kept surrogate's plane-16
    // character) is neither the string serde_json reads nor printed alike
    // by the two forms (the text keeps a kept number's spelling).
    if text.is_empty()
        || text.starts_with(agui_model::json::BIG_NUMBER)
        || text.chars().any(|c| c >= '\u{10F800}')
    {
        return;
    }
    let body = String::from_utf8_lossy(data);
    // The wire names from the table (`agui_model::wire::key`).
    use agui_model::wire::key::{
        RunStarted as Run, TextMessageStart as Text, ToolCallStart as Call,
    };
    let (thread, run) = (Run::thread_id, Run::run_id);
    let (message, call, name, parent) = (
        Text::message_id,
        Call::tool_call_id,
        Call::tool_call_name,
        Call::parent_message_id,
    );
    let stream = [
        format!(r#"{{"type":"RUN_STARTED","{thread}":"t","{run}":"r"}}"#),
        format!(r#"{{"type":"TEXT_MESSAGE_START","{message}":"m","role":"assistant"}}"#),
        format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{message}":"m","delta":"{body}"}}"#),
        format!(r#"{{"type":"TEXT_MESSAGE_END","{message}":"m"}}"#),
        format!(r#"{{"type":"TOOL_CALL_START","{call}":"c","{name}":"f","{parent}":"m"}}"#),
        format!(r#"{{"type":"TOOL_CALL_ARGS","{call}":"c","delta":"{body}"}}"#),
        format!(r#"{{"type":"TOOL_CALL_END","{call}":"c"}}"#),
        format!(r#"{{"type":"RUN_FINISHED","{thread}":"t","{run}":"r"}}"#),
    ]
    .join("\n");
    let written = std::rc::Rc::new(std::cell::RefCell::new(Vec::<u8>::new()));
    let sink = std::rc::Rc::clone(&written);
    let checker = agui_model::Checker::with_projection_text_sink(move |piece, _last| {
        sink.borrow_mut().extend_from_slice(piece);
    });
    agui_model::check::check_bytes(stream.as_bytes(), checker);
    let kept = agui_model::check::check_bytes(stream.as_bytes(), agui_model::Checker::new());
    let Some(run) = kept.projection.and_then(|p| p.runs.into_iter().next()) else {
        panic!("no projection of the run streaming {body:?}");
    };
    let printed = serde_json::to_vec(&agui_model::json::Out(&run)).unwrap_or_default();
    let written = written.borrow();
    assert!(
        *written == printed,
        "the projection's text writer and serde_json differ on {body:?}:\n{}\n{}",
        String::from_utf8_lossy(&written),
        String::from_utf8_lossy(&printed)
    );
    let message = &run["messages"][0];
    assert_eq!(message["content"], Value::String(text.clone()), "{body:?}");
    assert_eq!(
        message["toolCalls"][0]["args"],
        Value::String(text),
        "{body:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn agreeing_lines_pass() {
        for data in [
            &b""[..],
            b"plain text across more than sixteen bytes",
            b"escaped \\n \\\" \\\\ and \\u00e9",
            b"controls past a block: 0123456789abcdef \\u001f \\u0000 \\t \\\" \\\\ end",
            "non-ASCII \u{e9}\u{65e5} \u{1f389} well past one block".as_bytes(),
            b"bad \xff byte",
            b"a control \x01 byte",
            b"an unescaped \" quote",
            br#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#,
        ] {
            run(data);
        }
    }
}
