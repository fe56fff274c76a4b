//! Suite variants (`[variant]` of a suite file): the same cases written the
//! way a consumer with a narrower model needs them, so that what else it
//! does shows once one known defect is out of the way.
//!
//! - `ids = "uuid"`: every id a consumer may type as a UUID (thread, run,
//!   message and tool call ids) is renamed to one, consistently through the
//!   stream and the expected projection. Ids are opaque strings to every
//!   rule, so a one-to-one renaming keeps each violation, its index and the
//!   projection's shape: the expectation still comes from construction.
//!   Only generated cases are renamed (a corpus case's prose names its ids).
//! - `run-input = "with-tools-and-context"`: every `RUN_STARTED.input`
//!   object is given `tools: []` and `context: []` where it lacks them, as a
//!   client's request always carries them. Both are optional, no rule looks
//!   at them, and the projection does not show them.
//!
//! Lines given raw (a duplicate key, a lone surrogate) are left as written:
//! re-encoding them would lose what they test.

use agui_model::wire::{key, nested};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// How ids are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ids {
    /// As the generator draws them (`msg-3`, `tc-7`, …).
    #[default]
    AsGenerated,
    /// Thread, run, message and tool call ids as UUIDs.
    Uuid,
}

/// What `RUN_STARTED.input` carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunInput {
    #[default]
    AsWritten,
    /// `tools` and `context` always present.
    WithToolsAndContext,
}

/// A suite's variant; the default changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Variant {
    #[serde(default)]
    pub ids: Ids,
    #[serde(default)]
    pub run_input: RunInput,
}

impl Variant {
    /// Whether the variant changes anything.
    pub fn is_plain(self) -> bool {
        self == Variant::default()
    }

    /// A few words for a report (`ids as UUIDs`), `None` when plain.
    pub fn label(self) -> Option<String> {
        let mut parts = Vec::new();
        if self.ids == Ids::Uuid {
            parts.push("ids as UUIDs");
        }
        if self.run_input == RunInput::WithToolsAndContext {
            parts.push("RUN_STARTED.input with tools and context");
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Applies the variant to a case's stream and expected projection;
    /// `generated` says whether the case is a generated one (ids are
    /// renamed in those only).
    pub fn apply(
        self,
        events: &mut [Value],
        projection: Option<&mut Value>,
        raw: bool,
        generated: bool,
    ) {
        if raw {
            return;
        }
        if self.ids == Ids::Uuid && generated {
            let names = uuid_names(events);
            if !names.is_empty() {
                for e in events.iter_mut() {
                    rename(e, &names, false);
                }
                if let Some(p) = projection {
                    rename(p, &names, false);
                }
            }
        }
        if self.run_input == RunInput::WithToolsAndContext {
            for e in events.iter_mut() {
                complete_input(e);
            }
        }
    }
}

/// The keys whose values are ids a consumer may type as UUIDs.
const ID_KEYS: [&str; 6] = [
    key::RunStarted::thread_id,
    key::RunStarted::run_id,
    key::RunStarted::parent_run_id,
    key::TextMessageStart::message_id,
    key::ToolCallStart::tool_call_id,
    key::ToolCallStart::parent_message_id,
];

/// Every such id of the stream (and every `id` of a message or tool call
/// it carries), each with its UUID, in order of first appearance.
fn uuid_names(events: &[Value]) -> HashMap<String, String> {
    let mut names = HashMap::new();
    for e in events {
        collect(e, false, &mut names);
    }
    names
}

/// `in_list`: `v` is an element of a `messages` or `toolCalls` array,
/// whose `id` is a message's or a tool call's.
fn collect(v: &Value, in_list: bool, names: &mut HashMap<String, String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let is_id = ID_KEYS.contains(&k.as_str()) || (in_list && k == nested::ID);
                if let (true, Value::String(s)) = (is_id, x)
                    && !s.is_empty()
                    && !names.contains_key(s)
                {
                    let n = names.len() + 1;
                    names.insert(s.clone(), uuid(n));
                }
                let list = k == nested::MESSAGES || k == nested::TOOL_CALLS;
                match x {
                    Value::Array(a) if list => a.iter().for_each(|y| collect(y, true, names)),
                    _ => collect(x, false, names),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|y| collect(y, false, names)),
        _ => {}
    }
}

/// The `n`th UUID of a case: version 4 and variant bits set, the number in
/// the last group (unique in the case, and readable).
fn uuid(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012x}")
}

/// Renames, in place, every value of an id key (and every `id` of a
/// message or tool call, and of a projection's message) found in `names`.
fn rename(v: &mut Value, names: &HashMap<String, String>, in_list: bool) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                let is_id = ID_KEYS.contains(&k.as_str()) || (in_list && k == nested::ID);
                if is_id
                    && let Value::String(s) = x
                    && let Some(u) = names.get(s.as_str())
                {
                    *s = u.clone();
                    continue;
                }
                let list = k == nested::MESSAGES || k == nested::TOOL_CALLS;
                match x {
                    Value::Array(a) if list => a.iter_mut().for_each(|y| rename(y, names, true)),
                    _ => rename(x, names, false),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|y| rename(y, names, false)),
        _ => {}
    }
}

/// Gives a `RUN_STARTED` whose `input` is an object the `tools` and
/// `context` it lacks.
fn complete_input(e: &mut Value) {
    if e.get(agui_model::wire::TYPE).and_then(Value::as_str) != Some("RUN_STARTED") {
        return;
    }
    let Some(input) = e
        .get_mut(key::RunStarted::input)
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for k in [nested::INPUT_TOOLS, nested::INPUT_CONTEXT] {
        if !input.contains_key(k) {
            input.insert(k.into(), Value::Array(Vec::new()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn uuid_variant() -> Variant {
        Variant {
            ids: Ids::Uuid,
            ..Variant::default()
        }
    }

    #[test]
    fn ids_are_renamed_one_to_one_through_stream_and_projection() {
        let mut events = vec![
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "subagentRunId": "s1"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "tc1", "toolCallName": "f", "parentMessageId": "m1"}),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "m2", "role": "assistant", "toolCalls": [{"id": "tc1", "type": "function"}]}]}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "m1"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r2"}),
        ];
        let mut projection = json!({"runs": [{"messages": [{"id": "m1", "owner": "s1"}, {"role": "assistant"}], "interrupts": [{"id": "m1x"}]}]});
        let before = events.clone();
        uuid_variant().apply(&mut events, Some(&mut projection), false, true);
        let is_uuid = |v: &Value| {
            v.as_str()
                .is_some_and(|s| s.len() == 36 && s.starts_with("00000000-0000-4000-8000-"))
        };
        let (t, r1, m1) = (
            &events[0]["threadId"],
            &events[0]["runId"],
            &events[1]["messageId"],
        );
        let (tc1, m2, r2) = (
            &events[2]["toolCallId"],
            &events[3]["messages"][0]["id"],
            &events[5]["runId"],
        );
        let all = [t, r1, m1, tc1, m2, r2];
        assert!(all.iter().all(|v| is_uuid(v)), "{events:?}");
        // One to one: distinct ids stay distinct (run.ids-disagree keeps
        // its point), one id is one UUID everywhere.
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(&events[5]["threadId"], t);
        assert_eq!(&events[2]["parentMessageId"], m1);
        assert_eq!(&events[3]["messages"][0]["toolCalls"][0]["id"], tc1);
        assert_eq!(&events[4]["messageId"], m2);
        assert_eq!(&projection["runs"][0]["messages"][0]["id"], m1);
        // Not ids a consumer types as UUIDs, nor texts: unchanged.
        assert_eq!(events[1]["subagentRunId"], before[1]["subagentRunId"]);
        assert_eq!(events[4]["delta"], json!("m1"));
        assert_eq!(projection["runs"][0]["messages"][0]["owner"], json!("s1"));
        assert_eq!(projection["runs"][0]["interrupts"][0]["id"], json!("m1x"));
        assert!(projection["runs"][0]["messages"][1].get("id").is_none());
    }

    #[test]
    fn corpus_cases_raw_lines_and_empty_ids_are_left_alone() {
        let stream = vec![json!({"type": "RUN_STARTED", "threadId": "", "runId": "r"})];
        let mut corpus = stream.clone();
        uuid_variant().apply(&mut corpus, None, false, false);
        assert_eq!(corpus, stream);
        let mut raw = stream.clone();
        uuid_variant().apply(&mut raw, None, true, true);
        assert_eq!(raw, stream);
        let mut generated = stream.clone();
        uuid_variant().apply(&mut generated, None, false, true);
        assert_eq!(generated[0]["threadId"], json!(""));
        assert_eq!(generated[0]["runId"], json!(uuid(1)));
    }

    #[test]
    fn run_input_gains_tools_and_context_where_it_lacks_them() {
        let v = Variant {
            run_input: RunInput::WithToolsAndContext,
            ..Variant::default()
        };
        let mut events = vec![
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"threadId": "t", "runId": "r", "messages": [], "tools": [{"name": "f"}]}}),
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": "not an object"}),
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            json!({"type": "STEP_STARTED", "stepName": "x", "input": {}}),
        ];
        let before = events.clone();
        v.apply(&mut events, None, false, false);
        assert_eq!(events[0]["input"]["tools"], json!([{"name": "f"}]));
        assert_eq!(events[0]["input"]["context"], json!([]));
        assert_eq!(events[1..], before[1..]);
        assert_eq!(
            v.label().as_deref(),
            Some("RUN_STARTED.input with tools and context")
        );
        assert_eq!(Variant::default().label(), None);
    }
}
