//! What an SDK's model cannot express in a stream: an AG-UI 1.0 event type
//! it has no variant for, a 1.0 field its types silently drop (a
//! `subagentRunId`, a `RUN_FINISHED` outcome), or a 1.0 value its enums
//! lack (a `cancelled` run outcome) in an event the wire schema accepts.
//!
//! The SDK's answer on such a stream is no verdict on the rule the case
//! tests — it never saw what the case is about — so an adapter answers
//! `skipped` from the first such item on, naming what was lost and what the
//! SDK did. Which types and fields exist in 1.0 comes from the catalogue's
//! wire table (`agui_model`); whether the SDK keeps a field is asked of the
//! SDK itself, by a probe: a field is dropped when the SDK parses the item
//! the same with the field's value replaced by a string no field accepts.
//! A field the SDK drops is a gap whatever its value, `null` included: the
//! SDK reads a `null` there as it reads any other value, by ignoring it, so
//! its answer says nothing about a rule on that value (`attribution.null`).

use agui_model::EventType;
use agui_model::wire::{COMMON, SUBAGENT_RUN_ID};
use serde_json::Value;

/// An SDK's event model, as the probe asks it.
pub trait Model {
    /// Whether the SDK has an event variant for this wire name.
    fn knows_type(&self, name: &str) -> bool;
    /// The item read by the SDK's event type and written back (serde), or
    /// the SDK's error when it does not read it.
    fn read(&self, item: &Value) -> Result<Value, String>;
}

/// The first item the SDK cannot express, and what it loses there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub index: usize,
    pub what: String,
}

/// The value no 1.0 field takes as written (a field of the SDK's that
/// reads it either fails or reads something else).
const PROBE: &str = "\u{1}agui-conform probe";

/// The first item of `items` that `model` cannot express, if any.
pub fn first_gap(model: &dyn Model, items: &[String]) -> Option<Gap> {
    items.iter().enumerate().find_map(|(index, item)| {
        let value: Value = serde_json::from_str(item).ok()?;
        gap_in(model, &value).map(|what| Gap { index, what })
    })
}

/// What `model` cannot express in one event, if anything.
fn gap_in(model: &dyn Model, event: &Value) -> Option<String> {
    let name = event.get("type")?.as_str()?;
    let kind = EventType::from_name(name)?;
    if !model.knows_type(name) {
        return Some(format!("it has no {name} event type"));
    }
    let read = match model.read(event) {
        Ok(read) => read,
        Err(e) => return lacked_value(event, &e),
    };
    let mut lost: Vec<String> = Vec::new();
    let object = event.as_object()?;
    for key in wire_keys(kind) {
        if object.contains_key(key)
            && read.get(key).is_none()
            && ignores(model, event, &read, &[key])
        {
            lost.push(format!("`{key}`"));
        }
    }
    let mut nested = Vec::new();
    attributions(event, &mut Vec::new(), &mut nested);
    for path in nested.iter().filter(|p| p.len() > 1) {
        let at: Vec<&str> = path.iter().map(String::as_str).collect();
        if ignores(model, event, &read, &at) {
            lost.push(format!("`{}`", at.join(".")));
        }
    }
    (!lost.is_empty()).then(|| format!("it drops {} of {name}", lost.join(", ")))
}

/// A 1.0 value the SDK's enums lack: serde's "unknown variant" on an
/// event the wire schema accepts (any other refusal is the SDK's verdict).
fn lacked_value(event: &Value, error: &str) -> Option<String> {
    let name = event.get("type")?.as_str()?;
    let at = error.find("unknown variant `")?;
    let rest = &error[at + "unknown variant `".len()..];
    let value = &rest[..rest.find('`')?];
    agui_model::schema::validate(event)
        .is_empty()
        .then(|| format!("it has no `{value}` in {name} (serde: {error})"))
}

/// The 1.0 keys of an event type: its table, the common fields and, where
/// the schema declares it, `subagentRunId`.
fn wire_keys(kind: EventType) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = kind.fields().iter().map(|f| f.key).collect();
    keys.extend(COMMON.iter().map(|f| f.key));
    if kind.is_attributable() {
        keys.push(SUBAGENT_RUN_ID);
    }
    keys
}

/// Whether the SDK reads `event` the same with the value at `path` (object
/// keys and array indexes) replaced by [`PROBE`].
fn ignores(model: &dyn Model, event: &Value, read: &Value, path: &[&str]) -> bool {
    let mut probed = event.clone();
    let Some(slot) = slot_at(&mut probed, path) else {
        return false;
    };
    *slot = Value::String(PROBE.to_owned());
    model.read(&probed).is_ok_and(|again| &again == read)
}

fn slot_at<'a>(v: &'a mut Value, path: &[&str]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, step| match v {
        Value::Object(m) => m.get_mut(*step),
        Value::Array(a) => a.get_mut(step.parse::<usize>().ok()?),
        _ => None,
    })
}

/// The paths of every `subagentRunId` in `v` (`null` ones too), at any depth.
fn attributions(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(k.clone());
                if k == SUBAGENT_RUN_ID {
                    out.push(path.clone());
                }
                attributions(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                attributions(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An SDK that knows text events only, keeps `messageId` and `delta`,
    /// reads `role` without writing it back, and drops everything else.
    struct Narrow;

    impl Model for Narrow {
        fn knows_type(&self, name: &str) -> bool {
            name.starts_with("TEXT_MESSAGE") || name == "RUN_STARTED"
        }
        fn read(&self, item: &Value) -> Result<Value, String> {
            if let Some(role) = item.get("role").and_then(Value::as_str)
                && !["assistant", "user"].contains(&role)
            {
                return Err(format!(
                    "unknown variant `{role}`, expected `assistant` or `user`"
                ));
            }
            let mut out = serde_json::Map::new();
            for k in ["type", "messageId", "delta"] {
                if let Some(v) = item.get(k) {
                    out.insert(k.into(), v.as_str().ok_or("not a string")?.into());
                }
            }
            Ok(Value::Object(out))
        }
    }

    fn items(events: &[Value]) -> Vec<String> {
        events.iter().map(Value::to_string).collect()
    }

    #[test]
    fn a_type_the_sdk_lacks_is_a_gap_an_unknown_one_is_not() {
        let s = items(&[
            json!({"type": "NOT_A_TYPE"}),
            json!({"type": "SUBAGENT_STARTED"}),
        ]);
        assert_eq!(
            first_gap(&Narrow, &s),
            Some(Gap {
                index: 1,
                what: "it has no SUBAGENT_STARTED event type".into()
            })
        );
    }

    #[test]
    fn a_dropped_attribution_is_a_gap_whatever_its_value_an_unknown_field_is_not() {
        let unknown =
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a", "extra": 1});
        for value in [json!(null), json!("s1")] {
            let s = items(&[
                unknown.clone(),
                json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a", "subagentRunId": value}),
            ]);
            assert_eq!(
                first_gap(&Narrow, &s),
                Some(Gap {
                    index: 1,
                    what: "it drops `subagentRunId` of TEXT_MESSAGE_CONTENT".into()
                }),
                "{value}"
            );
        }
        // Nested too (as in a snapshot's message), `null` included.
        let s = items(&[json!({"type": "TEXT_MESSAGE_START", "messageId": "m",
            "meta": [{"subagentRunId": null}]})]);
        assert_eq!(
            first_gap(&Narrow, &s).map(|g| g.what),
            Some("it drops `meta.0.subagentRunId` of TEXT_MESSAGE_START".into())
        );
    }

    #[test]
    fn a_null_the_sdk_reads_is_no_gap() {
        // `delta` is kept: a `null` there is the SDK's to judge.
        let s = items(&[json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": null})]);
        assert_eq!(first_gap(&Narrow, &s), None);
    }

    #[test]
    fn a_valid_value_the_sdk_lacks_is_a_gap_an_invalid_one_is_not() {
        let s = items(&[
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "wizard"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "system"}),
        ]);
        assert_eq!(
            first_gap(&Narrow, &s),
            Some(Gap {
                index: 1,
                what: "it has no `system` in TEXT_MESSAGE_START (serde: unknown variant `system`, expected `assistant` or `user`)".into()
            })
        );
    }

    #[test]
    fn a_field_the_sdk_reads_is_kept_even_when_it_does_not_write_it_back() {
        // `role` is read (the probe fails to parse): not dropped.
        let s = items(&[json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "user"})]);
        assert_eq!(first_gap(&Narrow, &s), None);
    }
}
