//! A case's stream as an SDK's transport receives it: one text item per
//! stream item, each framed as the `data:` of one server-sent event.
//!
//! Both SDKs read their events from an SSE body (`text/event-stream`), so
//! the adapters hand each SDK the case as such a body, item by item, and
//! the SDK's own decoder and deserializer read it: a raw line with a
//! duplicate key or a lone surrogate reaches the SDK exactly as written.

use serde_json::Value;

/// The items of a case given as JSON values, written back as compact JSON
/// (one line each, as a producer writes them).
pub fn from_events(events: &[Value]) -> Result<Vec<String>, String> {
    events
        .iter()
        .enumerate()
        .map(|(i, e)| serde_json::to_string(e).map_err(|err| format!("item {i}: {err}")))
        .collect()
}

/// The SSE frame a server writes for one item.
pub fn frame(item: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(item.len() + 8);
    out.extend_from_slice(b"data: ");
    out.extend_from_slice(item.as_bytes());
    out.extend_from_slice(b"\n\n");
    out
}

/// The `type` an item names when it is a JSON object with a string `type`:
/// the adapter's own reading, used only to find where a later run begins
/// and what an SDK cannot express, never for a verdict.
pub fn type_of(item: &str) -> Option<String> {
    let v: Value = serde_json::from_str(item).ok()?;
    v.get("type")?.as_str().map(str::to_owned)
}

/// The first item at or after `from` that is a `RUN_STARTED`: where the
/// next request's response begins when a case holds several runs.
pub fn next_run_start(items: &[String], from: usize) -> Option<usize> {
    (from..items.len()).find(|&k| type_of(&items[k]).as_deref() == Some("RUN_STARTED"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_become_one_compact_line_each_and_frames_end_with_a_blank_line() {
        let items = from_events(&[json!({"type": "RUN_STARTED", "threadId": "t"}), json!(7)]);
        assert_eq!(
            items,
            Ok(vec![
                r#"{"type":"RUN_STARTED","threadId":"t"}"#.to_owned(),
                "7".to_owned()
            ])
        );
        assert_eq!(frame("7"), b"data: 7\n\n".to_vec());
    }

    #[test]
    fn the_next_run_starts_at_the_next_run_started() {
        let items: Vec<String> = [
            r#"{"type":"RUN_FINISHED"}"#,
            "not json",
            r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#,
            r#"{"type":"RUN_STARTED"}"#,
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(next_run_start(&items, 1), Some(3));
        assert_eq!(next_run_start(&items, 4), None);
        assert_eq!(type_of("not json"), None);
    }
}
