//! The `RunAgentInput` a producer is sent (a nested shape of the AG-UI 1.0 schema, as `agui_model::schema` states it).
//!
//! A file may leave out `threadId` and `runId`: fresh ones are filled in,
//! so the same scenario file can be sent again without reusing a run id.
//! Everything else in the file is sent as written.
//!
//! Real producers refuse an empty conversation, so the default input
//! carries one user message. Flags ([`Flags`]) add to an input, and a base
//! input ([`merge`]) is merged into every scenario of the producer suite
//! (docs/decisions.md "Base input").

use agui_model::events::{Content, Message, RunAgentInput, UserMessage};
use agui_model::wire::key;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// `threadId` and `runId` of `RunAgentInput` and of the `RUN_*` events,
/// the wire table's constants (`wire::key`), not spelled.
pub(crate) const THREAD_ID: &str = key::RunStarted::thread_id;
pub(crate) const RUN_ID: &str = key::RunStarted::run_id;
/// `toolCallId` of a tool message (as of `TOOL_CALL_START`).
pub(crate) const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;

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

/// The user message of the default input.
pub const DEFAULT_MESSAGE: &str = "Say hello in one short sentence.";

/// A user message with a fresh id.
pub fn user_message(text: &str) -> Value {
    let m = Message::User(UserMessage {
        id: fresh_id("msg"),
        content: Content::Text(text.to_owned()),
        ..Default::default()
    });
    serde_json::to_value(m).unwrap_or(Value::Null)
}

/// The default input: fresh ids, one user message ([`DEFAULT_MESSAGE`]),
/// no tools or context, an empty state and no forwarded properties.
pub fn default_input() -> Value {
    let mut v = empty_input();
    v["messages"] = json!([user_message(DEFAULT_MESSAGE)]);
    v
}

/// [`default_input`] without its message.
pub fn empty_input() -> Value {
    let input = RunAgentInput {
        thread_id: fresh_id("thread"),
        run_id: fresh_id("run"),
        messages: Vec::new(),
        tools: Some(Vec::new()),
        context: Some(Vec::new()),
        state: Some(json!({})),
        forwarded_props: Some(json!({})),
        ..Default::default()
    };
    serde_json::to_value(input).unwrap_or(Value::Null)
}

/// What the input flags ask for (`--message`, `--state`,
/// `--forwarded-props`, `--tool`).
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// A user message, appended.
    pub message: Option<String>,
    /// The state, replacing the input's.
    pub state: Option<Value>,
    /// The forwarded properties, replacing the input's.
    pub forwarded_props: Option<Value>,
    /// Tool definitions, each replacing a tool of the same name or appended.
    pub tools: Vec<Value>,
}

impl Flags {
    /// Parses the flags' texts: JSON for `--state` and `--forwarded-props`,
    /// and for each `--tool` JSON or `@FILE` holding it.
    pub fn parse(
        message: Option<&str>,
        state: Option<&str>,
        forwarded_props: Option<&str>,
        tools: &[String],
    ) -> anyhow::Result<Flags> {
        let json_of = |flag: &str, text: &str| {
            serde_json::from_str::<Value>(text)
                .map_err(|e| anyhow::anyhow!("{flag}: not JSON: {e}"))
        };
        let tools = tools
            .iter()
            .map(|t| {
                let v = match t.strip_prefix('@') {
                    Some(path) => {
                        let text = agui_model::bounded::read_to_string(
                            std::path::Path::new(path),
                            agui_model::bounded::CONFIG_BYTES,
                        )
                        .map_err(|e| anyhow::anyhow!("--tool @{path}: {e}"))?;
                        json_of(&format!("--tool @{path}"), &text)?
                    }
                    None => json_of("--tool", t)?,
                };
                if !v.get("name").is_some_and(Value::is_string) {
                    anyhow::bail!("--tool: a tool is an object with a string `name`");
                }
                Ok(v)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Flags {
            message: message.map(str::to_owned),
            state: state.map(|s| json_of("--state", s)).transpose()?,
            forwarded_props: forwarded_props
                .map(|s| json_of("--forwarded-props", s))
                .transpose()?,
            tools,
        })
    }

    /// Applies the flags to `input` (an object; anything else is left).
    pub fn apply(&self, input: &mut Value) {
        let Some(o) = input.as_object_mut() else {
            return;
        };
        if let Some(m) = &self.message {
            with_list(o, "messages", |l| l.push(user_message(m)));
        }
        if let Some(s) = &self.state {
            o.insert("state".into(), s.clone());
        }
        if let Some(f) = &self.forwarded_props {
            o.insert("forwardedProps".into(), f.clone());
        }
        if !self.tools.is_empty() {
            with_list(o, "tools", |l| {
                for t in &self.tools {
                    add_named(l, t.clone());
                }
            });
        }
    }
}

/// Changes the array at `key` (an empty one if missing or of another type).
fn with_list(o: &mut Map<String, Value>, key: &str, f: impl FnOnce(&mut Vec<Value>)) {
    let mut items = match o.remove(key) {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    };
    f(&mut items);
    o.insert(key.to_owned(), Value::Array(items));
}

/// Puts `item` in `items` in place of the one of the same `name`, or last.
fn add_named(items: &mut Vec<Value>, item: Value) {
    add_keyed(items, item, "name");
}

/// Puts `item` in `items` in place of the one with the same `key`, or last.
fn add_keyed(items: &mut Vec<Value>, item: Value, key: &str) {
    let same = |v: &Value| item.get(key).is_some() && v.get(key) == item.get(key);
    match items.iter_mut().find(|v| same(v)) {
        Some(slot) => *slot = item,
        None => items.push(item),
    }
}

/// Merges a base input into a scenario's input; the scenario wins
/// (docs/decisions.md "Base input"): lists are joined, the base's first
/// (`messages` by `id` and `tools` by `name`, the scenario's entry
/// replacing the base's of the same key; `context` simply joined);
/// objects (`state`, `forwardedProps`, …) are merged key by key, down to
/// the leaves; any other field is the scenario's when it has one.
pub fn merge(base: &Value, scenario: &Value) -> Value {
    match (base, scenario) {
        (Value::Object(b), Value::Object(s)) => {
            let mut out = b.clone();
            for (key, value) in s {
                let merged = match (key.as_str(), out.get(key), value) {
                    ("messages", Some(Value::Array(bl)), Value::Array(sl)) => {
                        Value::Array(join(bl, sl, Some("id")))
                    }
                    ("tools", Some(Value::Array(bl)), Value::Array(sl)) => {
                        Value::Array(join(bl, sl, Some("name")))
                    }
                    ("context", Some(Value::Array(bl)), Value::Array(sl)) => {
                        Value::Array(join(bl, sl, None))
                    }
                    (_, Some(bv @ Value::Object(_)), Value::Object(_)) => merge(bv, value),
                    _ => value.clone(),
                };
                out.insert(key.clone(), merged);
            }
            Value::Object(out)
        }
        _ => scenario.clone(),
    }
}

fn join(base: &[Value], scenario: &[Value], key: Option<&str>) -> Vec<Value> {
    let mut out = base.to_vec();
    for item in scenario {
        match key {
            Some(k) => add_keyed(&mut out, item.clone(), k),
            None => out.push(item.clone()),
        }
    }
    out
}

/// Gives an input with no user message the default one ([`DEFAULT_MESSAGE`]):
/// real producers refuse an empty conversation.
pub fn ensure_user_message(input: &mut Value) {
    let Some(o) = input.as_object_mut() else {
        return;
    };
    with_list(o, "messages", |messages| {
        if !messages
            .iter()
            .any(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        {
            messages.push(user_message(DEFAULT_MESSAGE));
        }
    });
}

/// Fills in a missing `threadId` and `runId` with fresh ids.
pub fn complete(mut input: Map<String, Value>) -> Map<String, Value> {
    for (key, prefix) in [(THREAD_ID, "thread"), (RUN_ID, "run")] {
        if !input.contains_key(key) {
            input.insert(key.to_owned(), Value::from(fresh_id(prefix)));
        }
    }
    input
}

/// Reads an input file: one JSON object, completed by [`complete`].
pub fn load(path: &Path) -> anyhow::Result<Value> {
    let text = agui_model::bounded::read_to_string(path, agui_model::bounded::CONFIG_BYTES)
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
        assert_eq!(a["messages"][0]["role"], "user");
        assert_eq!(a["messages"][0]["content"], DEFAULT_MESSAGE);
        assert_eq!(a["messages"].as_array().map(Vec::len), Some(1));
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

    #[test]
    fn flags_add_to_an_input() {
        let flags = Flags::parse(
            Some("hi"),
            Some(r#"{"n":1}"#),
            Some(r#"{"model":"m"}"#),
            &[
                r#"{"name":"a","description":"first"}"#.into(),
                r#"{"name":"a","description":"second"}"#.into(),
                r#"{"name":"b"}"#.into(),
            ],
        )
        .unwrap();
        let mut v = json!({"messages": [{"id": "u0", "role": "user", "content": "x"}], "tools": [{"name": "b", "description": "old"}]});
        flags.apply(&mut v);
        assert_eq!(v["messages"][1]["content"], "hi");
        assert_eq!(v["messages"][1]["role"], "user");
        assert_eq!(v["state"], json!({"n": 1}));
        assert_eq!(v["forwardedProps"], json!({"model": "m"}));
        // `b` replaced in place, `a` appended once (the last definition).
        assert_eq!(
            v["tools"],
            json!([{"name": "b"}, {"name": "a", "description": "second"}])
        );
        assert!(Flags::parse(None, Some("{"), None, &[]).is_err());
        assert!(Flags::parse(None, None, None, &["{}".into()]).is_err());
        assert!(Flags::parse(None, None, None, &["@/nonexistent/tool.json".into()]).is_err());
    }

    #[test]
    fn the_scenario_wins_over_the_base() {
        let base = json!({
            "threadId": "base-thread",
            "messages": [{"id": "sys", "role": "system", "content": "Be brief."}],
            "tools": [{"name": "search", "description": "base"}, {"name": "clock"}],
            "context": [{"description": "tz", "value": "UTC"}],
            "state": {"user": {"name": "Ana", "plan": "free"}, "flag": true},
            "forwardedProps": {"model": "m1"},
        });
        let scenario = json!({
            "messages": [{"id": "u1", "role": "user", "content": "hi"}],
            "tools": [{"name": "search", "description": "scenario"}],
            "context": [{"description": "lang", "value": "pt"}],
            "state": {"user": {"plan": "pro"}, "todos": []},
        });
        let m = merge(&base, &scenario);
        assert_eq!(m["threadId"], "base-thread");
        assert_eq!(
            m["messages"],
            json!([{"id": "sys", "role": "system", "content": "Be brief."},
                   {"id": "u1", "role": "user", "content": "hi"}])
        );
        assert_eq!(
            m["tools"],
            json!([{"name": "search", "description": "scenario"}, {"name": "clock"}])
        );
        assert_eq!(m["context"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            m["state"],
            json!({"user": {"name": "Ana", "plan": "pro"}, "flag": true, "todos": []})
        );
        assert_eq!(m["forwardedProps"], json!({"model": "m1"}));
    }

    #[test]
    fn an_input_without_a_user_message_gets_the_default_one() {
        let mut v = json!({"messages": [{"id": "s", "role": "system", "content": "x"}]});
        ensure_user_message(&mut v);
        assert_eq!(v["messages"][1]["content"], DEFAULT_MESSAGE);
        let mut w = json!({"messages": [{"id": "u", "role": "user", "content": "x"}]});
        ensure_user_message(&mut w);
        assert_eq!(w["messages"].as_array().map(Vec::len), Some(1));
    }
}
