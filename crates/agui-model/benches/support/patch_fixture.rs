//! The state and `STATE_DELTA` both patch benches apply, written once so the
//! criterion bench and the A/B bench measure the same work.

use json_patch::PatchOperation;
use serde_json::{Value, json};

/// An agent-like state: scalars, a nested object, a list of records.
pub fn state() -> Value {
    let items: Vec<Value> = (0..10)
        .map(|i| json!({"id": format!("item-{i}"), "done": i % 2 == 0, "score": i * 10}))
        .collect();
    json!({
        "status": "thinking",
        "step": 3,
        "user": {"name": "Ada", "locale": "en-GB", "prefs": {"units": "metric", "theme": "dark"}},
        "plan": ["search", "read", "summarise", "answer"],
        "items": items,
        "notes": "The quick brown fox jumps over the lazy dog. ".repeat(8),
    })
}

/// Three operations: a replace, an append, a remove.
pub fn delta() -> Vec<PatchOperation> {
    serde_json::from_value(json!([
        {"op": "replace", "path": "/status", "value": "answering"},
        {"op": "add", "path": "/items/-", "value": {"id": "item-10", "done": false, "score": 100}},
        {"op": "remove", "path": "/user/prefs/theme"}
    ]))
    .expect("a patch")
}
