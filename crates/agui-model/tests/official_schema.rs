//! The official AG-UI schema against our wire table (issue 41, item 4).
//!
//! `official_schema/facts-1.1.json` holds facts read from the official
//! `schema.json` (its provenance is inside), in our own vocabulary. This test
//! reads the wire table through the crate's public API
//! ([`EventType::fields`], [`EventType::attribution`], [`wire::COMMON`],
//! [`wire::nested`]) and fails on any difference between the two that
//! docs/decisions.md ("The official schema against our wire table") does
//! not list — and on any listed difference that is gone, so the page and
//! the table cannot drift apart.

use agui_model::EventType;
use agui_model::wire::{self, Attribution, Field, Kind, nested};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

const FACTS: &str = include_str!("official_schema/facts-1.1.json");
const DECISIONS: &str = include_str!("../../../docs/decisions.md");
const SECTION: &str = "## The official schema against our wire table";

fn facts() -> Value {
    serde_json::from_str(FACTS).expect("facts-1.1.json is JSON")
}

fn obj<'v>(v: &'v Value, key: &str) -> &'v Map<String, Value> {
    v.get(key)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("facts: `{key}` is not an object"))
}

/// `[a, b]`, sorted: closed sets compare as sets.
fn set_text<'a>(members: impl IntoIterator<Item = &'a str>) -> String {
    let mut m: Vec<&str> = members.into_iter().collect();
    m.sort_unstable();
    format!("[{}]", m.join(", "))
}

/// A closed set of the facts, by name.
fn official_set(f: &Value, name: &str) -> Vec<String> {
    let set = obj(f, "closed_sets")
        .get(name)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("facts: no closed set `{name}`"));
    set.iter()
        .map(|m| {
            m.as_str()
                .expect("closed-set members are strings")
                .to_owned()
        })
        .collect()
}

/// An official field as `required string`, `optional enum [a, b]`, ….
fn official_field(f: &Value, field: &Value) -> String {
    let required = field["required"]
        .as_bool()
        .expect("facts: `required` is a bool");
    let ty = field["type"].as_str().expect("facts: `type` is a string");
    let ty = if ty == "enum" {
        let set = field["set"]
            .as_str()
            .expect("facts: an enum names its `set`");
        format!(
            "enum {}",
            set_text(official_set(f, set).iter().map(String::as_str))
        )
    } else {
        ty.to_owned()
    };
    format!("{} {ty}", if required { "required" } else { "optional" })
}

/// One of our kinds in the facts' vocabulary.
fn kind_text(kind: Kind) -> String {
    let s = match kind {
        Kind::Any => "any",
        Kind::Str | Kind::Attribution => "string",
        Kind::Bool => "boolean",
        Kind::Object => "object",
        Kind::Timestamp => "timestamp",
        Kind::Count => "count",
        Kind::Pointer => "pointer",
        Kind::OneOf(names) => return format!("enum {}", set_text(names.iter().copied())),
        Kind::Strings => "string[]",
        Kind::Content => "content",
        Kind::Patch => "patch",
        Kind::Messages => "messages",
        Kind::Input => "input",
        Kind::State => "any (null read as absent)",
        Kind::RunOutcome => "run-outcome",
        Kind::SubagentOutcome => "subagent-outcome",
        Kind::Usage => "usage",
        Kind::ToolCalls => "tool-calls",
        Kind::Function => "function",
        Kind::Interrupts => "interrupts",
        Kind::Tools => "tools",
        Kind::Context => "context",
        Kind::Resume => "resume",
        Kind::Source => "source",
    };
    s.to_owned()
}

fn our_field(field: &Field) -> String {
    let req = if field.required {
        "required"
    } else {
        "optional"
    };
    format!("{req} {}", kind_text(field.kind))
}

/// Adds `scope.key: official …, ours …` for every field the two describe
/// differently (`absent` on the side that lacks it).
fn compare_fields(
    f: &Value,
    scope: &str,
    official: &Map<String, Value>,
    ours: &[&[Field]],
    diffs: &mut BTreeSet<String>,
) {
    let mut mine: BTreeMap<&str, String> = BTreeMap::new();
    for field in ours.iter().flat_map(|t| t.iter()) {
        if mine.insert(field.key, our_field(field)).is_some() {
            diffs.insert(format!("{scope}.{}: ours twice", field.key));
        }
    }
    let keys: BTreeSet<&str> = official
        .keys()
        .map(String::as_str)
        .chain(mine.keys().copied())
        .collect();
    for key in keys {
        let o = official
            .get(key)
            .map_or_else(|| "absent".to_owned(), |v| official_field(f, v));
        let u = mine
            .get(key)
            .cloned()
            .unwrap_or_else(|| "absent".to_owned());
        if o != u {
            diffs.insert(format!("{scope}.{key}: official {o}, ours {u}"));
        }
    }
}

/// The tables `schema/check.rs` checks each official shape with (its
/// dispatch on `role`, `type` and `op`); `None` for a shape we lack.
fn our_tables(shape: &str) -> Option<Vec<&'static [Field]>> {
    use nested::*;
    let t: Vec<&'static [Field]> = match shape {
        "DeveloperMessage" | "SystemMessage" => vec![MESSAGE_BASE, DEVELOPER],
        "AssistantMessage" => vec![MESSAGE_BASE, ASSISTANT],
        "UserMessage" => vec![MESSAGE_BASE, USER],
        "ToolMessage" => vec![MESSAGE_BASE, TOOL_MESSAGE],
        "ActivityMessage" => vec![MESSAGE_BASE, ACTIVITY],
        "ReasoningMessage" => vec![MESSAGE_BASE, REASONING],
        "ToolCall" => vec![TOOL_CALL],
        "FunctionCall" => vec![FUNCTION],
        "TextPart" => vec![TEXT_PART],
        "ImagePart" | "AudioPart" | "VideoPart" | "DocumentPart" => vec![MEDIA_PART],
        "DataSource" => vec![DATA_SOURCE],
        "UrlSource" => vec![URL_SOURCE],
        "FileSource" => vec![FILE_SOURCE],
        "RunFinishedSuccessOutcome" => vec![RUN_SUCCESS],
        "RunFinishedInterruptOutcome" => vec![RUN_INTERRUPT],
        "RunFinishedCancelledOutcome" | "SubagentFinishedSuccessOutcome" => vec![],
        "SubagentFinishedSuspendedOutcome" => vec![SUBAGENT_SUSPENDED],
        "Interrupt" => vec![INTERRUPT],
        "ResumeEntry" => vec![RESUME],
        "TokenUsage" => vec![USAGE],
        "RunAgentInput" => vec![INPUT],
        "Tool" => vec![TOOL],
        "Context" => vec![CONTEXT],
        "AddOperation" | "ReplaceOperation" | "TestOperation" => vec![PATCH_PATH, PATCH_VALUE],
        "RemoveOperation" => vec![PATCH_PATH],
        "MoveOperation" | "CopyOperation" => vec![PATCH_PATH, PATCH_FROM],
        _ => return None,
    };
    Some(t)
}

/// Our members of an official closed set; `Ok(None)` for the one-member
/// sets that are a field's kind, compared with that field.
fn our_set(name: &str) -> Result<Option<Vec<&'static str>>, ()> {
    let v: Vec<&'static str> = match name {
        "EventType" => EventType::ALL.iter().map(|t| t.as_str()).collect(),
        "TextMessageRole" => wire::TEXT_ROLES.to_vec(),
        "Role" => wire::MESSAGE_ROLES.to_vec(),
        "ReasoningEncryptedValueSubtype" => wire::SUBTYPES.to_vec(),
        "RunFinishedOutcome.type" => nested::RUN_OUTCOMES.to_vec(),
        "SubagentFinishedOutcome.type" => wire::SUBAGENT_OUTCOMES.to_vec(),
        "ResumeEntry.status" => nested::RESUME_STATUSES.to_vec(),
        "ContentPart.type" => nested::PART_TYPES.to_vec(),
        "PartSource.type" => nested::SOURCE_TYPES.to_vec(),
        "JsonPatchOperation.op" => nested::PATCH_OPS.to_vec(),
        "ToolCall.type" | "ToolCallResultEvent.role" | "ReasoningMessageStartEvent.role" => {
            return Ok(None);
        }
        _ => return Err(()),
    };
    Ok(Some(v))
}

fn attribution_text(a: Attribution) -> &'static str {
    match a {
        Attribution::None => "none",
        Attribution::Optional => "optional",
        Attribution::Required => "required",
    }
}

/// Every difference between the facts and the wire table.
fn differences(f: &Value) -> BTreeSet<String> {
    let mut diffs = BTreeSet::new();

    compare_fields(
        f,
        "every event",
        obj(f, "base_event"),
        &[wire::COMMON],
        &mut diffs,
    );

    let events = obj(f, "events");
    for (name, ev) in events {
        let Some(&t) = EventType::ALL.iter().find(|t| t.as_str() == name) else {
            diffs.insert(format!("event type {name}: official defined, ours absent"));
            continue;
        };
        let o = ev["attribution"].as_str().expect("facts: attribution");
        let u = attribution_text(t.attribution());
        if o != u {
            diffs.insert(format!("{name} attribution: official {o}, ours {u}"));
        }
        compare_fields(f, name, obj(ev, "fields"), &[t.fields()], &mut diffs);
    }
    for t in EventType::ALL {
        if !events.contains_key(t.as_str()) {
            diffs.insert(format!("event type {t}: official absent, ours defined"));
        }
    }

    for (name, shape) in obj(f, "shapes") {
        match our_tables(name) {
            Some(tables) => compare_fields(f, name, obj(shape, "fields"), &tables, &mut diffs),
            None => {
                diffs.insert(format!("shape {name}: official defined, ours absent"));
            }
        }
    }

    for name in obj(f, "closed_sets").keys() {
        let o = set_text(official_set(f, name).iter().map(String::as_str));
        match our_set(name) {
            Ok(Some(ours)) => {
                let u = set_text(ours);
                if o != u {
                    diffs.insert(format!("closed set {name}: official {o}, ours {u}"));
                }
            }
            Ok(None) => {}
            Err(()) => {
                diffs.insert(format!("closed set {name}: official {o}, ours absent"));
            }
        }
    }
    diffs
}

/// The differences docs/decisions.md accepts: the first backticked cell of
/// each table row of its section.
fn accepted() -> BTreeSet<String> {
    let start = DECISIONS
        .find(SECTION)
        .unwrap_or_else(|| panic!("docs/decisions.md has no section {SECTION:?}"));
    let body = &DECISIONS[start + SECTION.len()..];
    let body = body.find("\n## ").map_or(body, |end| &body[..end]);
    body.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| l.split('`').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_difference_from_the_official_schema_is_written_down() {
    let found = differences(&facts());
    let accepted = accepted();
    let unlisted: Vec<&String> = found.difference(&accepted).collect();
    let stale: Vec<&String> = accepted.difference(&found).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "the wire table and the official schema facts differ where docs/decisions.md \
         ({SECTION:?}) does not say why:\n  {}\nand docs/decisions.md lists differences \
         that are gone:\n  {}",
        unlisted
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        stale
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
    );
}

/// The facts hold together: every union's members carry exactly its closed
/// set's values as tags, every enum field names a closed set of kind `enum`
/// or `const` (one member), every closed set has a kind, and the 31 event
/// types are there.
#[test]
fn the_facts_are_consistent() {
    let f = facts();
    let shapes = obj(&f, "shapes");
    for (union, u) in obj(&f, "unions") {
        let set = u["set"].as_str().expect("facts: a union names its set");
        let tags = shapes
            .values()
            .filter(|s| s["union"].as_str() == Some(union))
            .map(|s| s["tag"].as_str().expect("facts: a union member has a tag"));
        assert_eq!(
            set_text(tags),
            set_text(official_set(&f, set).iter().map(String::as_str)),
            "union {union}"
        );
    }
    let fields = obj(&f, "events")
        .values()
        .chain(shapes.values())
        .flat_map(|s| obj(s, "fields").values());
    let kinds = obj(&f, "closed_set_kinds");
    let kind = |set: &str| kinds.get(set).and_then(Value::as_str);
    for field in fields {
        if field["type"] == "enum" {
            let set = field["set"].as_str().expect("facts: enum set");
            match kind(set) {
                Some("enum") => {}
                Some("const") => assert_eq!(official_set(&f, set).len(), 1, "const {set}"),
                other => panic!("facts: the field set {set} is of kind {other:?}"),
            }
        }
    }
    for (union, u) in obj(&f, "unions") {
        let set = u["set"].as_str().expect("facts: a union names its set");
        assert_eq!(kind(set), Some("union"), "union {union}");
    }
    let sets: BTreeSet<&String> = obj(&f, "closed_sets").keys().collect();
    assert_eq!(sets, kinds.keys().collect(), "every closed set has a kind");
    assert_eq!(obj(&f, "events").len(), 31);
    assert_eq!(official_set(&f, "EventType").len(), 31);
    let p = obj(&f, "provenance");
    assert_eq!(p["repository"], "ag-ui-protocol/ag-ui");
    assert_eq!(p["commit"].as_str().map(str::len), Some(40));
}

/// The comparison sees a difference: a table without `entityId` and with
/// a required `subtype` of another set is reported field by field.
#[test]
fn a_changed_table_is_reported() {
    let f = facts();
    let official = obj(&obj(&f, "events")["REASONING_ENCRYPTED_VALUE"], "fields");
    let table: &[Field] = &[
        wire::req("subtype", Kind::OneOf(&["message"])),
        wire::req("encryptedValue", Kind::Str),
        wire::opt("extra", Kind::Bool),
    ];
    let mut diffs = BTreeSet::new();
    compare_fields(&f, "E", official, &[table], &mut diffs);
    let want: BTreeSet<String> = [
        "E.entityId: official required string, ours absent",
        "E.encryptedValueType: official optional string, ours absent",
        "E.extra: official absent, ours optional boolean",
        "E.subtype: official required enum [message, tool-call], ours required enum [message]",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(diffs, want);
}

/// The 1.0 fields the cross-check added to the table are checked like any
/// other (the official schema: `metadata` an object on every message, a
/// part's `id` a string and its `metadata` any value, a tool's `metadata` an
/// object; none of them `null`), and valid values stay clean.
#[test]
fn the_fields_the_cross_check_added_are_checked() {
    use agui_model::RuleId as R;
    use agui_model::schema::validate;
    use serde_json::json;
    let issues = |v: Value| -> Vec<(R, String)> {
        validate(&v).into_iter().map(|i| (i.rule, i.path)).collect()
    };
    let snapshot = |m: Value| json!({"type": "MESSAGES_SNAPSHOT", "messages": [m]});
    let one = |r: R, p: &str| vec![(r, p.to_owned())];

    let clean = [
        snapshot(json!({"id": "d", "role": "developer", "content": "c", "metadata": {}})),
        snapshot(json!({"id": "s", "role": "system", "content": "c", "metadata": {"k": null}})),
        snapshot(json!({"id": "a", "role": "assistant", "metadata": {"k": 1}})),
        snapshot(json!({"id": "u", "role": "user", "content": [
            {"type": "text", "id": "p1", "text": "t", "metadata": "a string is fine"},
            {"type": "image", "id": "p2", "source": {"type": "url", "value": "u"}, "metadata": [1]}
        ]})),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": [
            {"type": "document", "id": "d1", "source": {"type": "file", "value": "f"}, "metadata": {"title": "x"}}
        ]}),
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {
            "threadId": "t", "runId": "r", "messages": [],
            "tools": [{"name": "n", "description": "d", "metadata": {"ui": "card"}}]
        }}),
    ];
    for v in clean {
        assert_eq!(issues(v.clone()), vec![], "{v}");
    }

    let cases = [
        (
            snapshot(json!({"id": "u", "role": "user", "content": "c", "metadata": null})),
            one(R::SchemaNullOptional, "messages[0].metadata"),
        ),
        (
            snapshot(json!({"id": "a", "role": "assistant", "metadata": "x"})),
            one(R::SchemaWrongType, "messages[0].metadata"),
        ),
        (
            snapshot(
                json!({"id": "u", "role": "user", "content": [{"type": "text", "id": 5, "text": "t"}]}),
            ),
            one(R::SchemaWrongType, "messages[0].content[0].id"),
        ),
        (
            snapshot(json!({"id": "u", "role": "user", "content": [
                {"type": "audio", "source": {"type": "url", "value": "u"}, "metadata": null}
            ]})),
            one(R::SchemaNullOptional, "messages[0].content[0].metadata"),
        ),
        (
            json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c",
                   "content": [{"type": "text", "id": null, "text": "t"}]}),
            one(R::SchemaNullOptional, "content[0].id"),
        ),
        (
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {
                "threadId": "t", "runId": "r", "messages": [],
                "tools": [{"name": "n", "description": "d", "metadata": 1}]
            }}),
            one(R::SchemaWrongType, "input.tools[0].metadata"),
        ),
    ];
    for (v, want) in cases {
        assert_eq!(issues(v.clone()), want, "{v}");
    }
}
