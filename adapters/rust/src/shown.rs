//! What an SDK holds after it accepted a stream, in the projection's form
//! (docs/projection.md) as far as the SDK keeps it: the `explain.shown`
//! object (suites/PROTOCOL.md) that `agui-conform report` compares with the
//! expected projection, informationally.
//!
//! Messages are read from the SDK's own serde form of its messages (the
//! AG-UI wire form: `id`, `role`, `content`, `toolCalls`, `subagentRunId`,
//! `activityType`), so both SDKs share this one conversion.

use serde_json::{Map, Value, json};

/// One message of the SDK's, from its wire form to the projection's.
pub fn message(wire: &Value) -> Value {
    let mut m = Map::new();
    let role = wire.get("role").and_then(Value::as_str).unwrap_or("");
    for (from, to) in [("id", "id"), ("role", "role"), ("subagentRunId", "owner")] {
        if let Some(v) = wire.get(from).filter(|v| !v.is_null()) {
            m.insert(to.into(), v.clone());
        }
    }
    let content = wire.get("content");
    let content = if role == "activity" {
        content.cloned().unwrap_or_else(|| json!({}))
    } else {
        Value::String(text_of(content))
    };
    m.insert("content".into(), content);
    if role == "activity"
        && let Some(t) = wire.get("activityType")
    {
        m.insert("activityType".into(), t.clone());
    }
    let calls: Vec<Value> = wire
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            json!({
                "id": c.get("id").cloned().unwrap_or(Value::Null),
                "name": c.pointer("/function/name").cloned().unwrap_or(Value::Null),
                "args": c.pointer("/function/arguments").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    if role == "assistant" && !calls.is_empty() {
        m.insert("toolCalls".into(), Value::Array(calls));
    }
    Value::Object(m)
}

/// A message's text: a string as it is, content parts' `text` parts
/// joined, `""` for none.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// An interrupt of the SDK's (its serde form) as `{id, owner?}`.
pub fn interrupt(wire: &Value) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), wire.get("id").cloned().unwrap_or(Value::Null));
    if let Some(o) = wire.get("subagentRunId").filter(|v| !v.is_null()) {
        m.insert("owner".into(), o.clone());
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_messages_take_the_projection_form() {
        let assistant = json!({"id": "m1", "role": "assistant", "subagentRunId": "s1",
            "toolCalls": [{"id": "tc1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]});
        assert_eq!(
            message(&assistant),
            json!({"id": "m1", "role": "assistant", "owner": "s1", "content": "",
                   "toolCalls": [{"id": "tc1", "name": "f", "args": "{}"}]})
        );
        let user = json!({"id": "u", "role": "user", "content": [
            {"type": "text", "text": "a"}, {"type": "image", "source": {}}, {"type": "text", "text": "b"}]});
        assert_eq!(
            message(&user),
            json!({"id": "u", "role": "user", "content": "ab"})
        );
        let activity =
            json!({"id": "a", "role": "activity", "activityType": "p", "content": {"x": 1}});
        assert_eq!(
            message(&activity),
            json!({"id": "a", "role": "activity", "content": {"x": 1}, "activityType": "p"})
        );
        assert_eq!(
            interrupt(&json!({"id": "i", "reason": "r", "subagentRunId": "s"})),
            json!({"id": "i", "owner": "s"})
        );
    }
}
