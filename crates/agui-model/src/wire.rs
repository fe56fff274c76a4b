//! The AG-UI 1.0 wire schema of the 31 event types, written once.
//!
//! [`for_each_event!`] lists every event type with its wire name, how it is
//! attributed, and each of its own fields: Rust name, Rust type, wire name
//! and [`Kind`]. Everything that knows the shape of an event is produced
//! from it, in the style of wasmparser's `for_each_operator!`: the
//! [`EventType`](crate::EventType) enum, the typed event structs
//! (`events.rs`), the schema's per-type field table ([`EventType::fields`],
//! read by `schema.rs`, the fast path and the fuzzers), and which types carry
//! `subagentRunId` ([`Attribution`]). Adding a field or an event type is one
//! line here; the compiler then points at every consumer that must react.
//!
//! The table leaves out what every event may carry (`type`, `timestamp`,
//! `rawEvent`, `metadata`: [`COMMON`]) and `subagentRunId`, whose presence
//! is the type's [`Attribution`].

use crate::events::EventType;

/// `TEXT_MESSAGE_START.role` / `TEXT_MESSAGE_CHUNK.role`.
pub const TEXT_ROLES: &[&str] = &["developer", "system", "assistant", "user"];
/// `role` of a message in `MESSAGES_SNAPSHOT` and `RUN_STARTED.input`.
pub const MESSAGE_ROLES: &[&str] = &[
    "developer",
    "system",
    "assistant",
    "user",
    "tool",
    "activity",
    "reasoning",
];
/// `REASONING_ENCRYPTED_VALUE.subtype`.
pub const SUBTYPES: &[&str] = &["tool-call", "message"];
/// `SUBAGENT_FINISHED.outcome.type`.
pub const SUBAGENT_OUTCOMES: &[&str] = &["success", "suspended"];

/// The wire name of the field every attributable event may carry.
pub const SUBAGENT_RUN_ID: &str = "subagentRunId";
/// The wire name of the discriminator every event carries.
pub const TYPE: &str = "type";

/// Wire names of nested shapes' fields (Message, ToolCall, the outcomes,
/// Interrupt, RunAgentInput) that code reads by name; a message's or an
/// interrupt's owner is [`SUBAGENT_RUN_ID`], a discriminator [`TYPE`].
pub mod nested {
    /// `Message.id`, `ToolCall.id`, `Interrupt.id`, `ContentPart.id`.
    pub const ID: &str = "id";
    /// `Message.role`.
    pub const ROLE: &str = "role";
    /// `AssistantMessage.toolCalls`.
    pub const TOOL_CALLS: &str = "toolCalls";
    /// `RunAgentInput.state`.
    pub const STATE: &str = "state";
    /// `RunAgentInput.messages`.
    pub const MESSAGES: &str = "messages";
    /// `RunOutcome.interrupts` (type `interrupt`).
    pub const INTERRUPTS: &str = "interrupts";
    /// `SubagentOutcome.interruptIds` (type `suspended`).
    pub const INTERRUPT_IDS: &str = "interruptIds";
    /// A JSON Patch operation's `op`.
    pub const OP: &str = "op";
    /// A message's `content`.
    pub const CONTENT: &str = "content";
    /// A message's, a tool's and `ToolCall.function`'s `name`.
    pub const NAME: &str = "name";
    /// `ToolCall.function`.
    pub const TOOL_FUNCTION: &str = "function";
    /// `ToolCall.function.arguments`.
    pub const ARGUMENTS: &str = "arguments";
    /// `RunAgentInput.forwardedProps`.
    pub const FORWARDED_PROPS: &str = "forwardedProps";
    /// `RunAgentInput.resume`.
    pub const INPUT_RESUME: &str = "resume";
    /// `RunAgentInput.tools`.
    pub const INPUT_TOOLS: &str = "tools";
    /// `RunAgentInput.context`.
    pub const INPUT_CONTEXT: &str = "context";
    /// A resume entry's `interruptId`.
    pub const INTERRUPT_ID: &str = "interruptId";
    /// A resume entry's `status`.
    pub const STATUS: &str = "status";
    /// A resume entry's `payload`.
    pub const PAYLOAD: &str = "payload";

    use super::{Field, Kind, SUBAGENT_RUN_ID, TYPE, opt, req};

    /// `RunOutcome.type`.
    pub const RUN_OUTCOMES: &[&str] = &["success", "interrupt", "cancelled"];
    /// A JSON Patch operation's `op`.
    pub const PATCH_OPS: &[&str] = &["add", "remove", "replace", "move", "copy", "test"];
    /// `ContentPart.type`.
    pub const PART_TYPES: &[&str] = &["text", "image", "audio", "video", "document"];
    /// A media part's `source.type`.
    pub const SOURCE_TYPES: &[&str] = &["data", "url", "file"];
    /// `resume[].status`.
    pub const RESUME_STATUSES: &[&str] = &["resolved", "cancelled"];

    // ---- Field tables of the nested shapes ----

    /// Every JSON Patch operation: `path`.
    pub const PATCH_PATH: &[Field] = &[req("path", Kind::Pointer)];
    /// `add`, `replace`, `test`: `value`.
    pub const PATCH_VALUE: &[Field] = &[req("value", Kind::Any)];
    /// `move`, `copy`: `from`.
    pub const PATCH_FROM: &[Field] = &[req("from", Kind::Pointer)];
    /// `RunOutcome` of type `success`.
    pub const RUN_SUCCESS: &[Field] = &[opt("pendingToolCallIds", Kind::Strings)];
    /// `RunOutcome` of type `interrupt`.
    pub const RUN_INTERRUPT: &[Field] = &[req(INTERRUPTS, Kind::Interrupts)];
    /// `SubagentOutcome` of type `suspended`.
    pub const SUBAGENT_SUSPENDED: &[Field] = &[opt(INTERRUPT_IDS, Kind::Strings)];
    pub const MESSAGE_BASE: &[Field] =
        &[req(ID, Kind::Str), opt(SUBAGENT_RUN_ID, Kind::Attribution)];
    /// `developer` and `system`.
    pub const DEVELOPER: &[Field] = &[
        req(CONTENT, Kind::Str),
        opt(NAME, Kind::Str),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const ASSISTANT: &[Field] = &[
        opt(CONTENT, Kind::Str),
        opt(TOOL_CALLS, Kind::ToolCalls),
        opt(NAME, Kind::Str),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const USER: &[Field] = &[
        req(CONTENT, Kind::Content),
        opt(NAME, Kind::Str),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const TOOL_MESSAGE: &[Field] = &[
        req(CONTENT, Kind::Content),
        req("toolCallId", Kind::Str),
        opt("error", Kind::Str),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const ACTIVITY: &[Field] = &[
        req("activityType", Kind::Str),
        req(CONTENT, Kind::Object),
        opt("metadata", Kind::Object),
    ];
    pub const REASONING: &[Field] = &[
        req(CONTENT, Kind::Str),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];

    /// A tool call has no `subagentRunId` of its own: one there is an unknown
    /// field and is ignored.
    pub const TOOL_CALL: &[Field] = &[
        req(ID, Kind::Str),
        req(TYPE, Kind::OneOf(&["function"])),
        req(TOOL_FUNCTION, Kind::Function),
        opt("encryptedValue", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const FUNCTION: &[Field] = &[req(NAME, Kind::Str), req(ARGUMENTS, Kind::Str)];

    /// A part's `metadata` is any JSON value (not an object only), as the
    /// official schema has it.
    pub const TEXT_PART: &[Field] = &[
        req("text", Kind::Str),
        opt(ID, Kind::Str),
        opt("metadata", Kind::Any),
    ];
    pub const MEDIA_PART: &[Field] = &[
        req("source", Kind::Source),
        opt(ID, Kind::Str),
        opt("metadata", Kind::Any),
    ];
    pub const DATA_SOURCE: &[Field] = &[req("value", Kind::Str), req("mimeType", Kind::Str)];
    pub const URL_SOURCE: &[Field] = &[req("value", Kind::Str), opt("mimeType", Kind::Str)];
    pub const FILE_SOURCE: &[Field] = &[
        req("value", Kind::Str),
        opt("provider", Kind::Str),
        opt("mimeType", Kind::Str),
    ];

    pub const INTERRUPT: &[Field] = &[
        req(ID, Kind::Str),
        req("reason", Kind::Str),
        opt("message", Kind::Str),
        opt("toolCallId", Kind::Str),
        opt("responseSchema", Kind::Object),
        opt("expiresAt", Kind::Str),
        opt("metadata", Kind::Object),
        opt(SUBAGENT_RUN_ID, Kind::Attribution),
    ];

    pub const USAGE: &[Field] = &[
        opt("provider", Kind::Str),
        opt("model", Kind::Str),
        opt("inputTokens", Kind::Count),
        opt("outputTokens", Kind::Count),
        opt("totalTokens", Kind::Count),
        opt("reasoningTokens", Kind::Count),
        opt("cachedInputTokens", Kind::Count),
        opt("cacheWriteInputTokens", Kind::Count),
    ];

    pub const INPUT: &[Field] = &[
        req("threadId", Kind::Str),
        req("runId", Kind::Str),
        req(MESSAGES, Kind::Messages),
        opt("protocolVersion", Kind::Str),
        opt("parentRunId", Kind::Str),
        opt(STATE, Kind::State),
        opt(INPUT_TOOLS, Kind::Tools),
        opt(INPUT_CONTEXT, Kind::Context),
        opt(FORWARDED_PROPS, Kind::Any),
        opt(INPUT_RESUME, Kind::Resume),
    ];
    /// Checked loosely: `parameters` is not looked at (a `null` there is
    /// not reported; docs/decisions.md, "The official schema against our
    /// wire table").
    pub const TOOL: &[Field] = &[
        req(NAME, Kind::Str),
        req("description", Kind::Str),
        opt("metadata", Kind::Object),
    ];
    pub const CONTEXT: &[Field] = &[req("description", Kind::Str), req("value", Kind::Str)];
    pub const RESUME: &[Field] = &[
        req(INTERRUPT_ID, Kind::Str),
        req(STATUS, Kind::OneOf(RESUME_STATUSES)),
        opt(PAYLOAD, Kind::Any),
        opt("metadata", Kind::Object),
    ];
}

/// The type a field must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Any JSON value (`null` included when the field is required).
    Any,
    Str,
    Bool,
    /// An object, not null and not an array.
    Object,
    /// An integer-valued number within ±(2^53−1).
    Timestamp,
    /// A non-negative integer-valued number up to 2^53−1 (token counts).
    Count,
    /// A string matching `^(/([^/~]|~[01])*)*$`.
    Pointer,
    /// A string equal to one of these.
    OneOf(&'static [&'static str]),
    /// An array of strings.
    Strings,
    /// A string or an array of ContentPart.
    Content,
    /// A JSON Patch: an array of RFC 6902 operations.
    Patch,
    /// An array of Message.
    Messages,
    /// RunAgentInput.
    Input,
    /// `RunAgentInput.state`: any JSON, and here alone `null` reads as absent.
    State,
    RunOutcome,
    /// `SUBAGENT_FINISHED.outcome`: SubagentOutcome.
    SubagentOutcome,
    /// An array of TokenUsage.
    Usage,
    /// An array of ToolCall.
    ToolCalls,
    /// `ToolCall.function`.
    Function,
    /// A non-empty array of Interrupt.
    Interrupts,
    /// `RunAgentInput.tools`.
    Tools,
    /// `RunAgentInput.context`.
    Context,
    /// `RunAgentInput.resume`.
    Resume,
    /// A media content part's `source`.
    Source,
    /// `subagentRunId` on a message or an interrupt: a string; `null` is
    /// `attribution.null`.
    Attribution,
}

/// One field of an object shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The wire (camelCase) name.
    pub key: &'static str,
    pub required: bool,
    pub kind: Kind,
}

/// A required field.
pub const fn req(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        required: true,
        kind,
    }
}

/// An optional field: absent, or a value of its kind (never `null`).
pub const fn opt(key: &'static str, kind: Kind) -> Field {
    Field {
        key,
        required: false,
        kind,
    }
}

/// Fields every event may carry (`subagentRunId` apart: [`Attribution`]).
pub const COMMON: &[Field] = &[
    opt("timestamp", Kind::Timestamp),
    opt("rawEvent", Kind::Any),
    opt("metadata", Kind::Object),
];

/// Whether and how an event type carries `subagentRunId`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attribution {
    /// Not declared (`RUN_*`, `MESSAGES_SNAPSHOT`): a value there attributes
    /// nothing.
    None,
    /// Optional: absent means the parent agent.
    Optional,
    /// Required: the `SUBAGENT_*` events name the invocation they concern.
    Required,
}

/// Invokes `$m!` with the wire schema of the 31 event types, in the order
/// of the AG-UI 1.0 schema ("The 31 event types"), as
///
/// ```text
/// Variant = "WIRE_NAME", attribution {
///     req { rust_name: RustType = "wireName" Kind, … }
///     opt { rust_name: RustType = "wireName" Kind, … }
/// }
/// ```
///
/// where attribution is `none`, `opt` or `req` ([`Attribution`]) and a kind
/// is an expression over [`Kind`]'s variants and the role lists above.
/// Fields may carry attributes (doc comments, serde) for the typed structs.
macro_rules! for_each_event {
    ($m:ident) => {
        $m! {
            RunStarted = "RUN_STARTED", none {
                req { thread_id: String = "threadId" Str, run_id: String = "runId" Str }
                opt {
                    protocol_version: String = "protocolVersion" Str,
                    parent_run_id: String = "parentRunId" Str,
                    /// Boxed: by far the largest payload, kept out of `Event`'s size.
                    input: Box<RunAgentInput> = "input" Input,
                }
            }
            RunFinished = "RUN_FINISHED", none {
                req { thread_id: String = "threadId" Str, run_id: String = "runId" Str }
                opt {
                    result: Value = "result" Any,
                    outcome: RunOutcome = "outcome" RunOutcome,
                    usage: Vec<TokenUsage> = "usage" Usage,
                }
            }
            RunError = "RUN_ERROR", none {
                req { message: String = "message" Str }
                opt { code: String = "code" Str, usage: Vec<TokenUsage> = "usage" Usage }
            }
            StepStarted = "STEP_STARTED", opt {
                req { step_name: String = "stepName" Str }
                opt {}
            }
            StepFinished = "STEP_FINISHED", opt {
                req { step_name: String = "stepName" Str }
                opt {}
            }
            TextMessageStart = "TEXT_MESSAGE_START", opt {
                req { message_id: String = "messageId" Str }
                opt {
                    role: TextMessageRole = "role" OneOf(TEXT_ROLES),
                    name: String = "name" Str,
                }
            }
            TextMessageContent = "TEXT_MESSAGE_CONTENT", opt {
                req { message_id: String = "messageId" Str, delta: String = "delta" Str }
                opt {}
            }
            TextMessageEnd = "TEXT_MESSAGE_END", opt {
                req { message_id: String = "messageId" Str }
                opt {}
            }
            TextMessageChunk = "TEXT_MESSAGE_CHUNK", opt {
                req {}
                opt {
                    message_id: String = "messageId" Str,
                    role: TextMessageRole = "role" OneOf(TEXT_ROLES),
                    delta: String = "delta" Str,
                    name: String = "name" Str,
                }
            }
            ToolCallStart = "TOOL_CALL_START", opt {
                req {
                    tool_call_id: String = "toolCallId" Str,
                    tool_call_name: String = "toolCallName" Str,
                }
                opt { parent_message_id: String = "parentMessageId" Str }
            }
            ToolCallArgs = "TOOL_CALL_ARGS", opt {
                req { tool_call_id: String = "toolCallId" Str, delta: String = "delta" Str }
                opt {}
            }
            ToolCallEnd = "TOOL_CALL_END", opt {
                req { tool_call_id: String = "toolCallId" Str }
                opt {}
            }
            ToolCallChunk = "TOOL_CALL_CHUNK", opt {
                req {}
                opt {
                    tool_call_id: String = "toolCallId" Str,
                    tool_call_name: String = "toolCallName" Str,
                    parent_message_id: String = "parentMessageId" Str,
                    delta: String = "delta" Str,
                }
            }
            ToolCallResult = "TOOL_CALL_RESULT", opt {
                req {
                    message_id: String = "messageId" Str,
                    tool_call_id: String = "toolCallId" Str,
                    content: Content = "content" Content,
                }
                opt { role: ToolRole = "role" OneOf(&["tool"]) }
            }
            StateSnapshot = "STATE_SNAPSHOT", opt {
                req { snapshot: Value = "snapshot" Any }
                opt {}
            }
            StateDelta = "STATE_DELTA", opt {
                req { delta: JsonPatch = "delta" Patch }
                opt {}
            }
            MessagesSnapshot = "MESSAGES_SNAPSHOT", none {
                req { messages: Vec<Message> = "messages" Messages }
                opt {}
            }
            ActivitySnapshot = "ACTIVITY_SNAPSHOT", opt {
                req {
                    message_id: String = "messageId" Str,
                    activity_type: String = "activityType" Str,
                    content: Object = "content" Object,
                }
                opt { replace: bool = "replace" Bool }
            }
            ActivityDelta = "ACTIVITY_DELTA", opt {
                req {
                    message_id: String = "messageId" Str,
                    activity_type: String = "activityType" Str,
                    patch: JsonPatch = "patch" Patch,
                }
                opt {}
            }
            Raw = "RAW", opt {
                req { event: Value = "event" Any }
                opt { source: String = "source" Str }
            }
            Custom = "CUSTOM", opt {
                req { name: String = "name" Str, value: Value = "value" Any }
                opt {}
            }
            ReasoningStart = "REASONING_START", opt {
                req { message_id: String = "messageId" Str }
                opt {}
            }
            ReasoningMessageStart = "REASONING_MESSAGE_START", opt {
                req {
                    message_id: String = "messageId" Str,
                    role: ReasoningRole = "role" OneOf(&["reasoning"]),
                }
                opt {}
            }
            ReasoningMessageContent = "REASONING_MESSAGE_CONTENT", opt {
                req { message_id: String = "messageId" Str, delta: String = "delta" Str }
                opt {}
            }
            ReasoningMessageEnd = "REASONING_MESSAGE_END", opt {
                req { message_id: String = "messageId" Str }
                opt {}
            }
            ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK", opt {
                req {}
                opt { message_id: String = "messageId" Str, delta: String = "delta" Str }
            }
            ReasoningEnd = "REASONING_END", opt {
                req { message_id: String = "messageId" Str }
                opt {}
            }
            ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE", opt {
                req {
                    subtype: EncryptedValueSubtype = "subtype" OneOf(SUBTYPES),
                    entity_id: String = "entityId" Str,
                    encrypted_value: String = "encryptedValue" Str,
                }
                opt {}
            }
            SubagentStarted = "SUBAGENT_STARTED", req {
                req { name: String = "name" Str }
                opt {
                    description: String = "description" Str,
                    parent_subagent_run_id: String = "parentSubagentRunId" Str,
                    parent_tool_call_id: String = "parentToolCallId" Str,
                    parent_message_id: String = "parentMessageId" Str,
                }
            }
            SubagentFinished = "SUBAGENT_FINISHED", req {
                req {}
                opt {
                    result: Value = "result" Any,
                    outcome: SubagentOutcome = "outcome" SubagentOutcome,
                }
            }
            SubagentError = "SUBAGENT_ERROR", req {
                req { message: String = "message" Str }
                opt { code: String = "code" Str }
            }
        }
    };
}
pub(crate) use for_each_event;

/// `none` / `opt` / `req` of the table as an [`Attribution`].
macro_rules! attribution {
    (none) => {
        Attribution::None
    };
    (opt) => {
        Attribution::Optional
    };
    (req) => {
        Attribution::Required
    };
}

/// The per-type queries of the table.
macro_rules! event_schema {
    ($(
        $variant:ident = $name:literal, $attr:ident {
            req { $( $(#[$rm:meta])* $rf:ident : $rt:ty = $rw:literal $rk:expr ),* $(,)? }
            opt { $( $(#[$om:meta])* $of:ident : $ot:ty = $ow:literal $ok:expr ),* $(,)? }
        }
    )*) => {
        impl EventType {
            /// The type's own fields (required first), without [`COMMON`]
            /// and `subagentRunId`.
            pub const fn fields(self) -> &'static [Field] {
                use Kind::*;
                match self {
                    $( EventType::$variant => const { &[ $( req($rw, $rk), )* $( opt($ow, $ok), )* ] }, )*
                }
            }

            /// Whether and how the type carries `subagentRunId`.
            pub fn attribution(self) -> Attribution {
                match self { $( EventType::$variant => attribution!($attr), )* }
            }
        }
    };
}

for_each_event!(event_schema);

/// Each type's wire names as constants, generated from the table:
/// `key::ToolCallChunk::tool_call_id` is `"toolCallId"`. For code that
/// names a field in a message or reads it from a map.
macro_rules! event_keys {
    ($(
        $variant:ident = $name:literal, $attr:ident {
            req { $( $(#[$rm:meta])* $rf:ident : $rt:ty = $rw:literal $rk:expr ),* $(,)? }
            opt { $( $(#[$om:meta])* $of:ident : $ot:ty = $ow:literal $ok:expr ),* $(,)? }
        }
    )*) => {
        /// One module per event type, one constant per field (named like
        /// the typed struct's field).
        #[allow(non_snake_case, non_upper_case_globals, dead_code)]
        pub mod key {
            $(
                #[doc = concat!("The fields of `", $name, "`.")]
                pub mod $variant {
                    $( pub const $rf: &str = $rw; )*
                    $( pub const $of: &str = $ow; )*
                }
            )*
        }
    };
}

for_each_event!(event_keys);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Event;

    /// The typed structs and the field table come from one list, so each
    /// type's default struct writes exactly its required fields (plus
    /// `subagentRunId` where required), under their table names.
    #[test]
    fn typed_structs_write_the_table_names() {
        use serde_json::json;
        for &t in EventType::ALL {
            let mut required: Vec<&str> = t
                .fields()
                .iter()
                .filter(|f| f.required)
                .map(|f| f.key)
                .collect();
            if t.attribution() == Attribution::Required {
                required.push(SUBAGENT_RUN_ID);
            }
            required.push("type");
            required.sort_unstable();
            // A value with every required field, of the right kind.
            let mut v = json!({ "type": t.as_str() });
            for f in t.fields().iter().filter(|f| f.required) {
                v[f.key] = match f.kind {
                    Kind::Str => json!(""),
                    Kind::OneOf(names) => json!(names[0]),
                    Kind::Object => json!({}),
                    Kind::Patch | Kind::Messages => json!([]),
                    Kind::Content => json!(""),
                    _ => json!(1),
                };
            }
            if t.attribution() == Attribution::Required {
                v[SUBAGENT_RUN_ID] = json!("s");
            }
            let e = Event::from_value(&v).unwrap_or_else(|e| panic!("{t}: {e}"));
            let back = e.to_value();
            let mut keys: Vec<&str> = back
                .as_object()
                .map(|o| o.keys().map(String::as_str).collect())
                .unwrap_or_default();
            keys.sort_unstable();
            assert_eq!(keys, required, "{t}");
            assert!(e.extra().is_empty(), "{t}: {:?}", e.extra());
        }
    }

    #[test]
    fn four_types_are_not_attributable_and_three_require_it() {
        let count = |a: Attribution| {
            EventType::ALL
                .iter()
                .filter(|t| t.attribution() == a)
                .count()
        };
        assert_eq!(count(Attribution::None), 4);
        assert_eq!(count(Attribution::Required), 3);
        assert_eq!(EventType::MessagesSnapshot.attribution(), Attribution::None);
        assert_eq!(
            EventType::SubagentError.attribution(),
            Attribution::Required
        );
    }
}
