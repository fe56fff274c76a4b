//! Events as JSON values, built from `Unstructured` after the table of
//! the AG-UI 1.0 wire schema (`agui_model::wire`): mostly schema-valid, sometimes with one fault
//! (a required field left out, an optional one `null`, a wrong kind), and
//! with unknown extra fields. Nesting is bounded ([`MAX_DEPTH`]) so no value
//! can overflow the stack of a recursive deserializer.

use agui_gen::names::{
    ACTIVITY_TYPE, ENCRYPTED_VALUE, PARENT_RUN_ID, PROTOCOL_VERSION, RUN_ID, THREAD_ID,
    TOOL_CALL_ID,
};
use agui_model::EventType;
use agui_model::wire::{Field, Kind, MESSAGE_ROLES, SUBAGENT_RUN_ID};
use arbitrary::{Result, Unstructured};
use serde_json::{Map, Number, Value};

/// Deepest nesting of free-form JSON (`rawEvent`, `value`, `snapshot`, …).
pub const MAX_DEPTH: u32 = 4;

/// Strings that make ids collide and exercise escaping.
const STRINGS: &[&str] = &[
    "",
    "a",
    "m1",
    "s1",
    "t1",
    "r1",
    "tc1",
    "x y",
    "é",
    "日本",
    "\u{1F600}",
    "\"q\"",
    "back\\slash",
    "line\nbreak",
    "\u{0}",
    "~0/~1",
    "/a/b",
    "null",
    "0",
];

/// Unknown field names: camelCase look-alikes, wire names of other types,
/// and `subagentRunId` where the type does not declare it.
const EXTRA_KEYS: &[&str] = &[
    "x",
    "extra",
    "subagent_run_id",
    "Type",
    "_meta",
    SUBAGENT_RUN_ID,
    "messageID",
];

/// A free-form string.
pub fn string(u: &mut Unstructured) -> Result<String> {
    if u.ratio(3, 4)? {
        Ok((*u.choose(STRINGS)?).to_owned())
    } else {
        let s: String = u.arbitrary()?;
        Ok(s.chars().take(16).collect())
    }
}

/// A number: integers anywhere in i64/u64, and floats that print and parse
/// back exactly (serde_json without `float_roundtrip` may lose the last
/// bit of an arbitrary float on parsing).
fn number(u: &mut Unstructured) -> Result<Number> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => Number::from(u.int_in_range(-3i64..=3)?),
        1 => Number::from(u.arbitrary::<i64>()?),
        2 => Number::from(u.arbitrary::<u64>()?),
        _ => {
            const EXACT: &[f64] = &[
                0.5,
                -2.25,
                1.0,
                100.0,
                1e300,
                -0.0,
                9007199254740992.0,
                3.75e-3,
            ];
            Number::from_f64(*u.choose(EXACT)?).unwrap_or_else(|| Number::from(0))
        }
    })
}

/// Any JSON value, at most `depth` levels deep.
pub fn any(u: &mut Unstructured, depth: u32) -> Result<Value> {
    let top = if depth == 0 { 3 } else { 5 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => Value::Number(number(u)?),
        3 => Value::String(string(u)?),
        4 => {
            let n = u.int_in_range(0..=3)?;
            Value::Array((0..n).map(|_| any(u, depth - 1)).collect::<Result<_>>()?)
        }
        _ => Value::Object(object(u, depth - 1)?),
    })
}

fn object(u: &mut Unstructured, depth: u32) -> Result<Map<String, Value>> {
    let n = u.int_in_range(0..=3)?;
    let mut m = Map::new();
    for _ in 0..n {
        m.insert(string(u)?, any(u, depth)?);
    }
    Ok(m)
}

fn any_not_null(u: &mut Unstructured) -> Result<Value> {
    let v = any(u, MAX_DEPTH - 1)?;
    Ok(if v.is_null() { Value::Bool(true) } else { v })
}

fn pointer(u: &mut Unstructured) -> Result<String> {
    const POINTERS: &[&str] = &[
        "", "/", "/a", "/a/b", "/a/0", "/~0", "/~1x", "/-", "/items/-",
    ];
    Ok((*u.choose(POINTERS)?).to_owned())
}

fn patch(u: &mut Unstructured) -> Result<Value> {
    let n = u.int_in_range(0..=3)?;
    let mut ops = Vec::new();
    for _ in 0..n {
        let mut op = Map::new();
        let kind = *u.choose(&["add", "replace", "test", "remove", "move", "copy"])?;
        op.insert("op".into(), kind.into());
        op.insert("path".into(), pointer(u)?.into());
        match kind {
            "add" | "replace" | "test" => {
                op.insert("value".into(), any(u, 2)?);
            }
            "move" | "copy" => {
                op.insert("from".into(), pointer(u)?.into());
            }
            _ => {}
        }
        ops.push(Value::Object(op));
    }
    Ok(Value::Array(ops))
}

fn strings(u: &mut Unstructured) -> Result<Value> {
    let n = u.int_in_range(0..=2)?;
    Ok(Value::Array(
        (0..n)
            .map(|_| string(u).map(Value::from))
            .collect::<Result<_>>()?,
    ))
}

fn put_opt(
    u: &mut Unstructured,
    m: &mut Map<String, Value>,
    key: &str,
    v: impl FnOnce(&mut Unstructured) -> Result<Value>,
) -> Result<()> {
    if u.arbitrary()? {
        let v = v(u)?;
        m.insert(key.into(), v);
    }
    Ok(())
}

fn str_field(u: &mut Unstructured) -> Result<Value> {
    string(u).map(Value::from)
}

fn content(u: &mut Unstructured) -> Result<Value> {
    if u.arbitrary()? {
        return str_field(u);
    }
    let n = u.int_in_range(0..=2)?;
    let mut parts = Vec::new();
    for _ in 0..n {
        let mut p = Map::new();
        let ty = *u.choose(&["text", "image", "audio", "video", "document"])?;
        p.insert("type".into(), ty.into());
        if ty == "text" {
            p.insert("text".into(), str_field(u)?);
        } else {
            let mut s = Map::new();
            let st = *u.choose(&["data", "url", "file"])?;
            s.insert("type".into(), st.into());
            s.insert("value".into(), str_field(u)?);
            match st {
                "data" => {
                    s.insert("mimeType".into(), "image/png".into());
                }
                "url" => put_opt(u, &mut s, "mimeType", str_field)?,
                _ => {
                    put_opt(u, &mut s, "provider", str_field)?;
                    put_opt(u, &mut s, "mimeType", str_field)?;
                }
            }
            p.insert("source".into(), Value::Object(s));
        }
        parts.push(Value::Object(p));
    }
    Ok(Value::Array(parts))
}

fn message(u: &mut Unstructured) -> Result<Value> {
    let mut m = Map::new();
    m.insert("id".into(), str_field(u)?);
    put_opt(u, &mut m, SUBAGENT_RUN_ID, str_field)?;
    let role = *u.choose(MESSAGE_ROLES)?;
    m.insert("role".into(), role.into());
    match role {
        "developer" | "system" => {
            m.insert("content".into(), str_field(u)?);
            put_opt(u, &mut m, "name", str_field)?;
            put_opt(u, &mut m, ENCRYPTED_VALUE, str_field)?;
        }
        "assistant" => {
            put_opt(u, &mut m, "content", str_field)?;
            put_opt(u, &mut m, "toolCalls", |u| {
                let n = u.int_in_range(0..=2)?;
                let mut calls = Vec::new();
                for _ in 0..n {
                    let mut f = Map::new();
                    f.insert("name".into(), str_field(u)?);
                    f.insert("arguments".into(), str_field(u)?);
                    let mut c = Map::new();
                    c.insert("id".into(), str_field(u)?);
                    c.insert("type".into(), "function".into());
                    c.insert("function".into(), Value::Object(f));
                    put_opt(u, &mut c, ENCRYPTED_VALUE, str_field)?;
                    put_opt(u, &mut c, "metadata", |u| object(u, 1).map(Value::Object))?;
                    calls.push(Value::Object(c));
                }
                Ok(Value::Array(calls))
            })?;
            put_opt(u, &mut m, "name", str_field)?;
            put_opt(u, &mut m, ENCRYPTED_VALUE, str_field)?;
        }
        "user" => {
            m.insert("content".into(), content(u)?);
            put_opt(u, &mut m, "name", str_field)?;
            put_opt(u, &mut m, ENCRYPTED_VALUE, str_field)?;
        }
        "tool" => {
            m.insert("content".into(), content(u)?);
            m.insert(TOOL_CALL_ID.into(), str_field(u)?);
            put_opt(u, &mut m, "error", str_field)?;
            put_opt(u, &mut m, ENCRYPTED_VALUE, str_field)?;
            put_opt(u, &mut m, "metadata", |u| object(u, 1).map(Value::Object))?;
        }
        "activity" => {
            m.insert(ACTIVITY_TYPE.into(), str_field(u)?);
            m.insert("content".into(), Value::Object(object(u, 1)?));
            put_opt(u, &mut m, "metadata", |u| object(u, 1).map(Value::Object))?;
        }
        _ => {
            m.insert("content".into(), str_field(u)?);
            put_opt(u, &mut m, ENCRYPTED_VALUE, str_field)?;
            put_opt(u, &mut m, "metadata", |u| object(u, 1).map(Value::Object))?;
        }
    }
    Ok(Value::Object(m))
}

fn messages(u: &mut Unstructured) -> Result<Value> {
    let n = u.int_in_range(0..=3)?;
    Ok(Value::Array(
        (0..n).map(|_| message(u)).collect::<Result<_>>()?,
    ))
}

fn interrupt(u: &mut Unstructured) -> Result<Value> {
    let mut m = Map::new();
    m.insert("id".into(), str_field(u)?);
    m.insert("reason".into(), str_field(u)?);
    for key in ["message", TOOL_CALL_ID, "expiresAt", SUBAGENT_RUN_ID] {
        put_opt(u, &mut m, key, str_field)?;
    }
    for key in ["responseSchema", "metadata"] {
        put_opt(u, &mut m, key, |u| object(u, 1).map(Value::Object))?;
    }
    Ok(Value::Object(m))
}

fn run_outcome(u: &mut Unstructured) -> Result<Value> {
    let mut m = Map::new();
    match u.int_in_range(0..=2u8)? {
        0 => {
            m.insert("type".into(), "success".into());
            put_opt(u, &mut m, "pendingToolCallIds", strings)?;
        }
        1 => {
            m.insert("type".into(), "interrupt".into());
            let n = u.int_in_range(1..=2)?;
            let list = (0..n).map(|_| interrupt(u)).collect::<Result<_>>()?;
            m.insert("interrupts".into(), Value::Array(list));
        }
        _ => {
            m.insert("type".into(), "cancelled".into());
        }
    }
    Ok(Value::Object(m))
}

fn subagent_outcome(u: &mut Unstructured) -> Result<Value> {
    let mut m = Map::new();
    if u.arbitrary()? {
        m.insert("type".into(), "success".into());
    } else {
        m.insert("type".into(), "suspended".into());
        put_opt(u, &mut m, "interruptIds", strings)?;
    }
    Ok(Value::Object(m))
}

fn usage(u: &mut Unstructured) -> Result<Value> {
    let n = u.int_in_range(0..=2)?;
    let mut list = Vec::new();
    for _ in 0..n {
        let mut m = Map::new();
        put_opt(u, &mut m, "provider", str_field)?;
        put_opt(u, &mut m, "model", str_field)?;
        for key in [
            "inputTokens",
            "outputTokens",
            "totalTokens",
            "reasoningTokens",
            "cachedInputTokens",
            "cacheWriteInputTokens",
        ] {
            put_opt(u, &mut m, key, |u| {
                Ok(Value::from(u.int_in_range(0..=(1u64 << 53) - 1)?))
            })?;
        }
        list.push(Value::Object(m));
    }
    Ok(Value::Array(list))
}

fn run_input(u: &mut Unstructured) -> Result<Value> {
    let mut m = Map::new();
    m.insert(THREAD_ID.into(), str_field(u)?);
    m.insert(RUN_ID.into(), str_field(u)?);
    m.insert("messages".into(), messages(u)?);
    put_opt(u, &mut m, PROTOCOL_VERSION, str_field)?;
    put_opt(u, &mut m, PARENT_RUN_ID, str_field)?;
    // `state` alone tolerates `null`.
    put_opt(u, &mut m, "state", |u| any(u, 2))?;
    put_opt(u, &mut m, "tools", |u| {
        let n = u.int_in_range(0..=2)?;
        let mut list = Vec::new();
        for _ in 0..n {
            let mut t = Map::new();
            t.insert("name".into(), str_field(u)?);
            t.insert("description".into(), str_field(u)?);
            put_opt(u, &mut t, "parameters", |u| any(u, 2))?;
            list.push(Value::Object(t));
        }
        Ok(Value::Array(list))
    })?;
    put_opt(u, &mut m, "context", |u| {
        let n = u.int_in_range(0..=2)?;
        let mut list = Vec::new();
        for _ in 0..n {
            let mut c = Map::new();
            c.insert("description".into(), str_field(u)?);
            c.insert("value".into(), str_field(u)?);
            list.push(Value::Object(c));
        }
        Ok(Value::Array(list))
    })?;
    put_opt(u, &mut m, "forwardedProps", |u| any(u, 2))?;
    put_opt(u, &mut m, "resume", |u| {
        let n = u.int_in_range(0..=2)?;
        let mut list = Vec::new();
        for _ in 0..n {
            let mut r = Map::new();
            r.insert("interruptId".into(), str_field(u)?);
            r.insert(
                "status".into(),
                (*u.choose(&["resolved", "cancelled"])?).into(),
            );
            put_opt(u, &mut r, "payload", |u| any(u, 2))?;
            put_opt(u, &mut r, "metadata", |u| object(u, 1).map(Value::Object))?;
            list.push(Value::Object(r));
        }
        Ok(Value::Array(list))
    })?;
    Ok(Value::Object(m))
}

/// A valid value of one table field: an optional "any" field is never
/// `null` (absent is its only empty spelling).
fn value_of(u: &mut Unstructured, f: &Field) -> Result<Value> {
    Ok(match f.kind {
        Kind::Str => str_field(u)?,
        Kind::OneOf(list) => Value::from(*u.choose(list)?),
        Kind::Any if f.required => any(u, MAX_DEPTH)?,
        Kind::Any => any_not_null(u)?,
        Kind::Object => Value::Object(object(u, 2)?),
        Kind::Bool => Value::Bool(u.arbitrary()?),
        Kind::Timestamp => Value::from(u.int_in_range(-(1i64 << 53) + 1..=(1i64 << 53) - 1)?),
        Kind::Patch => patch(u)?,
        Kind::Content => content(u)?,
        Kind::Messages => messages(u)?,
        Kind::RunOutcome => run_outcome(u)?,
        Kind::SubagentOutcome => subagent_outcome(u)?,
        Kind::Usage => usage(u)?,
        Kind::Input => run_input(u)?,
        // Kinds of nested shapes only; no event field has them.
        _ => any(u, 1)?,
    })
}

/// One fault to put in an otherwise valid event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// Leave out one required field (or `type` itself).
    Missing,
    /// Give one field a value of another kind (`null` included).
    WrongKind,
}

/// An event value: usually schema-valid, sometimes with one fault.
pub fn event(u: &mut Unstructured) -> Result<Value> {
    let ty = *u.choose(EventType::ALL)?;
    let fault = match u.int_in_range(0..=15u8)? {
        0 => Fault::Missing,
        1 => Fault::WrongKind,
        _ => Fault::None,
    };
    let mut m = Map::new();
    m.insert("type".into(), Value::from(ty.as_str()));
    for f in ty.fields() {
        if f.required || u.arbitrary()? {
            m.insert(f.key.into(), value_of(u, f)?);
        }
    }
    if ty.is_attributable() && (ty.is_lifecycle() || u.arbitrary()?) {
        m.insert(SUBAGENT_RUN_ID.into(), str_field(u)?);
    }
    for f in agui_model::wire::COMMON {
        put_opt(u, &mut m, f.key, |u| value_of(u, f))?;
    }
    if u.ratio(1, 4)? {
        let key = *u.choose(EXTRA_KEYS)?;
        if !m.contains_key(key) {
            m.insert(key.into(), any(u, 2)?);
        }
    }
    match fault {
        Fault::None => {}
        Fault::Missing => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let key = u.choose(&keys)?.clone();
            m.remove(&key);
        }
        Fault::WrongKind => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let key = u.choose(&keys)?.clone();
            m.insert(key, any(u, 1)?);
        }
    }
    Ok(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::Rng;
    use std::collections::BTreeSet;

    /// The generator is useful only if most of its events are schema-valid
    /// (the strict round-trip check applies only to those) and it reaches
    /// every type; the fault rate is 2 in 16 by construction.
    #[test]
    fn mostly_schema_valid_and_every_type() {
        let mut rng = Rng::new(1);
        let (mut valid, mut n) = (0, 0);
        let mut types = BTreeSet::new();
        let mut invalid_rules = BTreeSet::new();
        for _ in 0..2000 {
            let data = rng.bytes(512);
            let mut u = Unstructured::new(&data);
            let Ok(v) = event(&mut u) else { continue };
            n += 1;
            let issues = agui_model::schema::validate(&v);
            if issues.is_empty() {
                valid += 1;
                types.insert(v["type"].as_str().unwrap().to_owned());
            } else {
                invalid_rules.extend(issues.iter().map(|i| i.rule));
            }
        }
        assert!(n >= 1900, "only {n} events generated");
        assert!(
            valid * 10 >= n * 7,
            "only {valid} of {n} events are schema-valid"
        );
        assert_eq!(
            types.len(),
            EventType::ALL.len(),
            "valid events of every type: {types:?}"
        );
        assert!(
            invalid_rules.len() >= 3,
            "faults reach few rules: {invalid_rules:?}"
        );
    }
}
