//! The `RunAgentInput` a producer is sent (a nested shape of the AG-UI 1.0 schema, as `agui_model::schema` states it).
//!
//! A file may leave out `threadId` and `runId`: fresh ones are filled in,
//! so the same scenario file can be sent again without reusing a run id.
//! Everything else in the file is sent as written.

use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A fresh id, unique within this process and very likely across runs:
/// the time in nanoseconds, the process id and a counter.
pub fn fresh_id(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{prefix}-{nanos:x}-{:x}-{n}", std::process::id())
}

/// The default input: fresh ids, no messages, tools or context, an empty
/// state and no forwarded properties.
pub fn default_input() -> Value {
    json!({
        "threadId": fresh_id("thread"),
        "runId": fresh_id("run"),
        "messages": [],
        "tools": [],
        "context": [],
        "state": {},
        "forwardedProps": {},
    })
}

/// Fills in a missing `threadId` and `runId` with fresh ids.
pub fn complete(mut input: Map<String, Value>) -> Map<String, Value> {
    for (key, prefix) in [("threadId", "thread"), ("runId", "run")] {
        if !input.contains_key(key) {
            input.insert(key.to_owned(), Value::from(fresh_id(prefix)));
        }
    }
    input
}

/// Reads an input file: one JSON object, completed by [`complete`].
pub fn load(path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Parses an input: one JSON object, completed by [`complete`].
pub fn parse(text: &str) -> anyhow::Result<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(Value::Object(complete(m))),
        Ok(_) => anyhow::bail!("a RunAgentInput must be a JSON object"),
        Err(e) => anyhow::bail!("not JSON: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_fresh() {
        let a = default_input();
        let b = default_input();
        assert_ne!(a["threadId"], b["threadId"]);
        assert_ne!(a["runId"], b["runId"]);
        assert_eq!(a["messages"], json!([]));
        assert_eq!(a["state"], json!({}));
        assert_eq!(a["forwardedProps"], json!({}));
    }

    #[test]
    fn missing_ids_are_filled_in_and_given_ones_kept() {
        let v = parse(r#"{"threadId":"t1","messages":[]}"#).unwrap();
        assert_eq!(v["threadId"], "t1");
        assert!(v["runId"].as_str().unwrap().starts_with("run-"));
        assert!(parse("[1]").is_err());
        assert!(parse("{").is_err());
    }
}
