//! Target `roundtrip`: a typed event serialized and parsed again is equal.
//!
//! Input: the first byte picks the source of the event value.
//! - `0x00`: the rest of the input is one JSON text (this is how the seed
//!   corpus feeds real events: `0x00` followed by an event from `corpus/`);
//!   it is parsed with serde_json's default recursion limit, so nesting is
//!   bounded by 128 levels.
//! - anything else: an event built by [`crate::event_value::event`] from the
//!   remaining bytes (mostly schema-valid, nesting at most a few levels).
//!
//! Invariants:
//! - a schema-valid event (`schema::validate` finds nothing) parses with
//!   `Event::from_value`, and `to_value` gives back exactly the input value
//!   (the events module promises this: unknown fields are kept, numbers are
//!   kept as written);
//! - for any value that parses: `to_value` then `from_value` gives the same
//!   `Event` (idempotence), and so does the text form: `serde_json::to_string`
//!   then `serde_json::from_str::<Event>`, unless the event holds a float
//!   (serde_json's default parser may change a float's last bit);
//! - `event_type()` agrees with the value's `type`.

use crate::event_value;
use agui_model::events::Event;
use agui_model::schema;
use arbitrary::{Result, Unstructured};
use serde_json::Value;

/// The target body.
pub fn run(u: &mut Unstructured) -> Result<()> {
    let value = if u.peek_bytes(1) == Some(&[0]) {
        u.bytes(1)?;
        let rest = u.bytes(u.len())?;
        match serde_json::from_slice::<Value>(rest) {
            Ok(v) => v,
            Err(_) => return Ok(()),
        }
    } else {
        event_value::event(u)?
    };
    check_value(&value);
    Ok(())
}

/// Checks every invariant on one event value.
pub fn check_value(value: &Value) {
    let valid = schema::validate(value).is_empty();
    let parsed = Event::from_value(value);
    let event = match parsed {
        Ok(e) => e,
        Err(e) => {
            assert!(!valid, "a schema-valid event does not parse: {e}\n{value}");
            return;
        }
    };
    assert_eq!(
        Some(event.event_type().as_str()),
        value.get("type").and_then(Value::as_str),
        "the typed event's type differs from the value's `type`"
    );
    let back = event.to_value();
    if valid {
        assert_eq!(
            &back, value,
            "a schema-valid event does not round-trip unchanged"
        );
    }
    let again = Event::from_value(&back);
    assert_eq!(
        again.as_ref().ok(),
        Some(&event),
        "to_value then from_value changes the event: {again:?}\nvalue: {back}"
    );
    if !has_float(&back) {
        let text = serde_json::to_string(&event).unwrap_or_default();
        let reparsed = serde_json::from_str::<Event>(&text);
        assert_eq!(
            reparsed.as_ref().ok(),
            Some(&event),
            "to_string then from_str changes the event: {reparsed:?}\ntext: {text}"
        );
    }
}

/// Whether a value holds a number that is neither an i64 nor a u64.
fn has_float(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_f64(),
        Value::Array(a) => a.iter().any(has_float),
        Value::Object(m) => m.values().any(has_float),
        _ => false,
    }
}
