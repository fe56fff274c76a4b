//! What an implementation shows after an accepted stream (its adapter's
//! `explain.shown`: messages, state, interrupts in projection form) against
//! the expected projection (docs/projection.md). Informational: an
//! implementation that keeps no invocations cannot report a projection and
//! is not scored on one, but the parts it does keep can be compared.
//!
//! Compared: each expected message by id (its last run's version, against
//! the last one shown with that id) on role,
//! owner, content, tool calls and activity type; the last run's state; the
//! last run's interrupts (id, owner). A message the projection shows
//! without an id — one no event names, whose id the consumer makes up —
//! is compared by its place (docs/rules.md revision 4, as
//! `agui_model::projection::by_place` does for a reported projection): the
//! shown list is one list over every run with the input's history in it,
//! so its place is its turn among the shown messages of its role that no
//! expected id names. Not compared: invocations, message order, and
//! messages the projection does not hold (a client may keep one list across
//! runs, or add the `RUN_STARTED` input's history).

use agui_model::wire::key;
use serde_json::{Map, Value};

/// One difference: what, expected, shown (`None`: absent).
pub type Difference = (String, Option<Value>, Option<Value>);

const MESSAGE_KEYS: [&str; 5] = [
    "role",
    "owner",
    "content",
    "toolCalls",
    key::ActivitySnapshot::activity_type,
];

/// The differences between `projection` and `shown`.
pub fn differences(projection: &Value, shown: &Value) -> Vec<Difference> {
    let runs = projection
        .get("runs")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut expected: Vec<(&str, &Map<String, Value>)> = Vec::new();
    let mut placed: Vec<&Map<String, Value>> = Vec::new();
    for run in runs {
        for m in run
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(obj) = m.as_object() else { continue };
            let Some(id) = m.get("id").and_then(Value::as_str) else {
                placed.push(obj);
                continue;
            };
            match expected.iter_mut().find(|(x, _)| *x == id) {
                Some(slot) => slot.1 = obj,
                None => expected.push((id, obj)),
            }
        }
    }
    let shown_messages: Vec<&Map<String, Value>> = shown
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    let mut out = Vec::new();
    // Shown messages no expected id names, by role, in order: the places of
    // the made-up ones.
    let named = |m: &&Map<String, Value>| {
        m.get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| expected.iter().any(|(x, _)| *x == id))
    };
    let mut unnamed: Vec<&Map<String, Value>> = shown_messages
        .iter()
        .copied()
        .filter(|m| !named(m))
        .collect();
    for (n, want) in placed.into_iter().enumerate() {
        let role = present(want.get("role"));
        let at = unnamed.iter().position(|m| present(m.get("role")) == role);
        let place = format!("message {} (no id: by place)", n + 1);
        let Some(at) = at else {
            out.push((
                place,
                Some(Value::from("shown")),
                Some(Value::from("not shown")),
            ));
            continue;
        };
        let got = unnamed.remove(at);
        compare(&place, want, got, &mut out);
    }
    for (id, want) in expected {
        // The last message shown with that id (a client may list one id twice).
        let got = shown_messages
            .iter()
            .rev()
            .find(|m| m.get("id").and_then(Value::as_str) == Some(id));
        let Some(got) = got else {
            out.push((
                format!("message {}", super::md::code(id)),
                Some(Value::from("shown")),
                Some(Value::from("not shown")),
            ));
            continue;
        };
        compare(
            &format!("message {}", super::md::code(id)),
            want,
            got,
            &mut out,
        );
    }
    if let Some(last) = runs.last() {
        let (a, b) = (present(last.get("state")), present(shown.get("state")));
        if a != b {
            out.push(("state".into(), a.cloned(), b.cloned()));
        }
        let want = interrupts(last.get("interrupts"));
        let got = interrupts(shown.get("interrupts"));
        if want != got {
            out.push(("interrupts".into(), Some(want), Some(got)));
        }
    }
    out
}

/// The differences of one message on [`MESSAGE_KEYS`], each named `what key`.
fn compare(
    what: &str,
    want: &Map<String, Value>,
    got: &Map<String, Value>,
    out: &mut Vec<Difference>,
) {
    for key in MESSAGE_KEYS {
        let (a, b) = (present(want.get(key)), present(got.get(key)));
        if a != b {
            out.push((format!("{what} {key}"), a.cloned(), b.cloned()));
        }
    }
}

/// A value, with `null` counted as absent (the projection's convention).
fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// Interrupts as `[{id, owner?}]`.
fn interrupts(v: Option<&Value>) -> Value {
    let list = v
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|i| {
            let mut m = Map::new();
            m.insert("id".into(), i.get("id").cloned().unwrap_or(Value::Null));
            if let Some(o) = present(i.get("owner")) {
                m.insert("owner".into(), o.clone());
            }
            Value::Object(m)
        })
        .collect();
    Value::Array(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_owner_shown_wrong_and_a_state_not_taken_are_found() {
        // Run 2 reopens m1 under s2; the client continued run 1's m1 (s1).
        let projection = json!({"runs": [
            {"messages": [{"id": "m1", "role": "assistant", "owner": "s1", "content": "a"}], "state": {}, "interrupts": []},
            {"messages": [{"id": "m1", "role": "assistant", "owner": "s2", "content": "b"}], "state": {"a": 1},
             "interrupts": [{"id": "i1", "owner": "s2"}]}
        ]});
        let shown = json!({
            "messages": [{"id": "m1", "role": "assistant", "owner": "s2", "content": "stale"},
                         {"id": "m1", "role": "assistant", "owner": "s1", "content": "b"},
                         {"id": "h0", "role": "user", "content": "history"}],
            "state": {},
            "interrupts": [{"id": "i1", "owner": "s2"}]
        });
        assert_eq!(
            differences(&projection, &shown),
            vec![
                (
                    "message `m1` owner".into(),
                    Some(json!("s2")),
                    Some(json!("s1"))
                ),
                ("state".into(), Some(json!({"a": 1})), Some(json!({}))),
            ]
        );
    }

    #[test]
    fn a_message_no_event_names_is_compared_by_its_place_whatever_its_id() {
        // tc1's call has no parent message: the projection shows its
        // assistant message without id; the client made up `tc1-message`.
        let call = json!([{"id": "tc1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]);
        let projection = json!({"runs": [{"messages": [
            {"id": "m1", "role": "assistant", "content": "a"},
            {"role": "assistant", "toolCalls": call},
            {"role": "assistant", "toolCalls": call}
        ], "state": {}, "interrupts": []}]});
        let shown = json!({"messages": [
            {"id": "h0", "role": "user", "content": "history"},
            {"id": "m1", "role": "assistant", "content": "a"},
            {"id": "tc1-message", "role": "assistant", "toolCalls": call}
        ], "state": {}, "interrupts": []});
        assert_eq!(
            differences(&projection, &shown),
            vec![(
                "message 2 (no id: by place)".into(),
                Some(json!("shown")),
                Some(json!("not shown"))
            )]
        );
        // The same place with other content differs on it.
        let shown = json!({"messages": [
            {"id": "m1", "role": "assistant", "content": "a"},
            {"id": "x", "role": "assistant", "toolCalls": []},
            {"id": "y", "role": "assistant", "toolCalls": call}
        ], "state": {}, "interrupts": []});
        assert_eq!(
            differences(&projection, &shown),
            vec![(
                "message 1 (no id: by place) toolCalls".into(),
                Some(call.clone()),
                Some(json!([]))
            )]
        );
    }

    #[test]
    fn nulls_are_absent_and_a_missing_message_is_said() {
        let projection = json!({"runs": [{"messages": [
            {"id": "m1", "role": "assistant", "owner": null, "content": ""},
            {"id": "m2", "role": "assistant", "content": ""}
        ], "state": {}, "interrupts": []}]});
        let shown = json!({"messages": [{"id": "m1", "role": "assistant", "content": ""}], "state": {}, "interrupts": []});
        assert_eq!(
            differences(&projection, &shown),
            vec![(
                "message `m2`".into(),
                Some(json!("shown")),
                Some(json!("not shown"))
            )]
        );
    }
}
