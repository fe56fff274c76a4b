//! Wire rules of the AG-UI 1.0 schema (<https://docs.ag-ui.com/concepts/events>), checked per
//! event on the parsed JSON value.
//!
//! [`validate`] reports every fault of one stream item with its rule id
//! (`schema.*`, `attribution.*`, `lifecycle.missing-id`,
//! `lifecycle.unknown-outcome`, `lifecycle.success-with-interrupts`), the
//! field path and a message. Every object is loose: unknown fields pass
//! silently (`accept.unknown-fields`). Where docs/rules.md names a specific rule
//! for a fault, it is reported *instead of* the generic schema rule.
//!
//! It runs on every event of long streams, so the happy path allocates
//! nothing beyond the returned (empty) `Vec`: paths live on the stack
//! (`path.rs`) and are rendered only for an issue.

mod check;
mod path;
mod strip;

use crate::events::EventType;
use crate::rules::RuleId;
use crate::wire::{COMMON, SUBAGENT_RUN_ID, TYPE};
pub(crate) use check::is_json_pointer;
use check::{Ctx, Kind, found};
use path::Path;
use serde_json::{Map, Value};
pub use strip::{Judged, Seg};

/// One schema fault inside one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    pub rule: RuleId,
    /// Path of the offending field inside the event, e.g.
    /// `outcome.interruptIds[2]`; `""` for the event itself.
    pub path: String,
    pub message: String,
}

/// Checks one stream item against the wire schema. Issues come back sorted
/// by catalogue order (then by order of discovery).
///
/// An item that is not an object is `schema.not-json` alone; one whose
/// `type` is absent is `schema.missing-field` alone, not a string
/// `schema.wrong-type` alone, a string naming no 1.0 type
/// `schema.unknown-type` alone. Otherwise every field is checked.
pub fn validate(value: &Value) -> Vec<SchemaIssue> {
    judge(value).issues
}

/// [`validate`], with what a consumer strips of the item (docs/rules.md
/// `schema.unknown-type`, `schema.unknown-member`,
/// `lifecycle.unknown-outcome`: unrecognised material is dropped, never
/// fatal).
pub fn judge(value: &Value) -> Judged {
    let root = Path::Root;
    let Some(obj) = value.as_object() else {
        let message = format!(
            "a stream item must be a JSON object, found {}",
            found(value)
        );
        return Judged::alone(RuleId::SchemaNotJson, "", message);
    };
    let Some(t) = event_type(obj) else {
        return match obj.get(TYPE) {
            None => Judged::alone(
                RuleId::SchemaMissingField,
                TYPE,
                "missing required field `type`: an event names one of the 31 AG-UI 1.0 event types"
                    .to_owned(),
            ),
            Some(Value::String(name)) => {
                let mut m = format!(
                    "`type` {name:?} names none of the 31 AG-UI 1.0 event types: a consumer drops the event (it opens, closes and changes nothing)"
                );
                if let Some(near) = near_type(name) {
                    m += &format!("; did you mean `{}`?", near.as_str());
                }
                let mut judged = Judged::alone(RuleId::SchemaUnknownType, TYPE, m);
                judged.dropped = true;
                judged
            }
            Some(v) => Judged::alone(
                RuleId::SchemaWrongType,
                TYPE,
                format!(
                    "`type` must be a string naming one of the 31 AG-UI 1.0 event types, found {}",
                    found(v)
                ),
            ),
        };
    };
    let mut ctx = Ctx::default();
    ctx.fields(obj, &root, COMMON);
    ctx.fields(obj, &root, t.fields());
    check_attribution(&mut ctx, t, obj, &root);
    // Stable: keeps discovery order within one rule.
    ctx.issues.sort_by_key(|i| i.rule);
    Judged {
        issues: ctx.issues,
        strips: ctx.strips,
        dropped: ctx.dropped,
    }
}

/// Whether one value fits a field kind with no issue at all (the fast path
/// judges a nested value it cannot screen byte by byte).
pub(crate) fn fits(v: &Value, kind: crate::wire::Kind) -> bool {
    let mut ctx = Ctx::default();
    ctx.value(v, &Path::Root, kind);
    ctx.issues.is_empty()
}

/// The event type a misspelt `type` most likely meant: the same name in
/// another case or with `-` or spaces for `_` (`text_message_start`), else
/// the closest name by Jaro-Winkler similarity, if close enough.
pub fn near_type(name: &str) -> Option<EventType> {
    let norm: String = name
        .trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    if let Some(t) = EventType::from_name(&norm) {
        return Some(t);
    }
    EventType::ALL
        .iter()
        .map(|&t| (strsim::jaro_winkler(&norm, t.as_str()), t))
        .filter(|&(score, _)| score >= 0.9)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, t)| t)
}

/// The event type named by `type`, if it is one of the 31.
fn event_type(obj: &Map<String, Value>) -> Option<EventType> {
    obj.get(TYPE)
        .and_then(Value::as_str)
        .and_then(EventType::from_name)
}

/// The event's own `subagentRunId`: `null` is `attribution.null` on every
/// type; required on the `SUBAGENT_*` events (`lifecycle.missing-id`); not
/// declared on the four run-scoped types, where any value is
/// `attribution.not-attributable` and is otherwise ignored.
fn check_attribution(ctx: &mut Ctx, t: EventType, obj: &Map<String, Value>, root: &Path<'_>) {
    let p = root.key(SUBAGENT_RUN_ID);
    match obj.get(SUBAGENT_RUN_ID) {
        Some(Value::Null) => ctx.attribution_null(&p),
        None if t.is_lifecycle() => {
            let msg = format!("{t} must carry `subagentRunId`, the invocation it concerns");
            ctx.report(RuleId::LifecycleMissingId, &p, msg);
        }
        None => {}
        Some(_) if !t.is_attributable() => {
            let msg = format!(
                "{t} carries `subagentRunId`, which the schema does not declare on it; it attributes nothing"
            );
            ctx.report(RuleId::AttributionNotAttributable, &p, msg);
        }
        Some(v) => ctx.value(v, &p, Kind::Str),
    }
}

#[cfg(test)]
mod near_type_tests {
    use super::*;

    #[test]
    fn near_misses_name_the_type_meant() {
        assert_eq!(
            near_type("text_message_start"),
            Some(EventType::TextMessageStart)
        );
        assert_eq!(near_type("Run-Finished"), Some(EventType::RunFinished));
        // One letter dropped.
        assert_eq!(
            near_type("TEXT_MESAGE_CONTENT"),
            Some(EventType::TextMessageContent)
        );
        // Nothing like a type.
        assert_eq!(near_type("hello"), None);
        assert_eq!(near_type(""), None);
    }

    #[test]
    fn the_unknown_type_message_carries_the_hint() {
        let issues = validate(&serde_json::json!({"type": "text_message_end", "messageId": "m"}));
        assert_eq!(issues[0].rule, RuleId::SchemaUnknownType);
        assert!(
            issues[0]
                .message
                .ends_with("did you mean `TEXT_MESSAGE_END`?"),
            "{}",
            issues[0].message
        );
    }
}
