//! The 31 AG-UI 1.0 event types.
//!
//! [`EventType`] is what the checker dispatches on. Typed event structs
//! (serde) for every type live below it.

use crate::wire::{Attribution, for_each_event};
use std::fmt;

macro_rules! event_types {
    ($( $variant:ident = $name:literal, $attr:ident { $($fields:tt)* } )*) => {
        /// One of the 31 AG-UI 1.0 event types (`type` on the wire).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EventType { $( $variant ),* }

        impl EventType {
            /// Every event type, in the order of the AG-UI 1.0 schema.
            pub const ALL: &'static [EventType] = &[ $( EventType::$variant ),* ];

            /// The wire name, e.g. `TEXT_MESSAGE_START`.
            pub fn as_str(self) -> &'static str {
                match self { $( EventType::$variant => $name ),* }
            }

            /// Parses a wire name; `None` for anything not a 1.0 type.
            pub fn from_name(name: &str) -> Option<EventType> {
                match name { $( $name => Some(EventType::$variant), )* _ => None }
            }
        }
    };
}

for_each_event!(event_types);

impl EventType {
    /// Whether the schema declares `subagentRunId` on this type: every type
    /// but `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and `MESSAGES_SNAPSHOT`.
    pub fn is_attributable(self) -> bool {
        self.attribution() != Attribution::None
    }

    /// The three `SUBAGENT_*` lifecycle events, on which `subagentRunId` is
    /// required and names the invocation they concern.
    pub fn is_lifecycle(self) -> bool {
        self.attribution() == Attribution::Required
    }
}

impl fmt::Display for EventType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_one_types_round_trip_their_names() {
        assert_eq!(EventType::ALL.len(), 31);
        for t in EventType::ALL {
            assert_eq!(EventType::from_name(t.as_str()), Some(*t));
        }
        assert_eq!(EventType::from_name("THINKING_START"), None);
        assert_eq!(EventType::from_name("run_started"), None);
    }

    #[test]
    fn attribution_is_declared_on_all_but_four() {
        let n = EventType::ALL
            .iter()
            .filter(|t| !t.is_attributable())
            .count();
        assert_eq!(n, 4);
    }
}

// ---------------------------------------------------------------------------
// Typed events (serde).
//
// One struct per event type and per nested shape of the AG-UI 1.0 schema. Field names
// are the wire's camelCase; optional fields are `Option`s left out when
// `None`; unknown fields land in `extra` and are written back, so a
// schema-valid event round-trips `Value -> Event -> Value` unchanged. Numbers
// that the schema wants integral (`timestamp`, token counts) stay
// `serde_json::Number`, so `1.0` comes back as `1.0`.
//
// These types parse; they do not validate. The wire rules, with their rule
// ids and paths, are `crate::schema::validate`.
// ---------------------------------------------------------------------------

pub use typed::*;

mod typed {
    use super::EventType;
    use crate::wire::for_each_event;
    use serde::{Deserialize, Deserializer, Serialize};
    use serde_json::{Map, Number, Value};

    /// An unknown-field bag and a JSON object (`metadata`, `content`, …).
    pub type Object = Map<String, Value>;

    /// A JSON Patch (RFC 6902): its operations are kept as raw values.
    pub type JsonPatch = Vec<Value>;

    /// Reads a present field as `Some` even when it is `null`, for the fields
    /// where `null` is tolerated and must survive a round trip.
    fn keep_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
        Value::deserialize(d).map(Some)
    }

    /// A loose struct: `req { .. }` fields as given, `opt { .. }` fields as
    /// `Option`s skipped when `None`, unknown fields in `extra`.
    macro_rules! loose {
        (
            $(#[$m:meta])* $name:ident {
                req { $( $(#[$rm:meta])* $rf:ident : $rt:ty ),* $(,)? }
                opt { $( $(#[$om:meta])* $of:ident : $ot:ty ),* $(,)? }
            }
        ) => {
            $(#[$m])*
            #[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
            #[serde(rename_all = "camelCase")]
            pub struct $name {
                $( $(#[$rm])* pub $rf: $rt, )*
                $(
                    $(#[$om])*
                    #[serde(default, skip_serializing_if = "Option::is_none")]
                    pub $of: Option<$ot>,
                )*
                /// Unknown fields, kept as they came.
                #[serde(flatten)]
                pub extra: Object,
            }
        };
    }

    /// An event struct: a loose struct plus the fields every event may carry
    /// (`timestamp`, `rawEvent`, `metadata`), and how it is attributed:
    /// `none` (not attributable; a `subagentRunId` there stays in `extra`),
    /// `opt` (optional `subagent_run_id`), `req` (required, lifecycle events).
    macro_rules! event {
        (
            $name:ident ($attr:ident) {
                req { $( $(#[$rm:meta])* $rf:ident : $rt:ty ),* $(,)? }
                opt { $( $(#[$om:meta])* $of:ident : $ot:ty ),* $(,)? }
            }
        ) => {
            event!(@struct $attr $name
                req { $( $(#[$rm])* $rf: $rt, )* }
                opt {
                    $( $(#[$om])* $of: $ot, )*
                    /// Integer within ±(2^53−1), kept as written.
                    timestamp: Number,
                    /// The producer's original event; any JSON but `null`.
                    raw_event: Value,
                    metadata: Object,
                }
            );
        };
        (@struct none $name:ident req { $($r:tt)* } opt { $($o:tt)* }) => {
            loose! { #[doc = concat!("`", stringify!($name), "` (not attributable).")] $name { req { $($r)* } opt { $($o)* } } }
            impl $name {
                /// Not attributable: always `None`.
                pub fn subagent_run_id(&self) -> Option<&str> { None }
            }
        };
        (@struct opt $name:ident req { $($r:tt)* } opt { $($o:tt)* }) => {
            loose! { #[doc = concat!("`", stringify!($name), "`.")] $name { req { $($r)* } opt { subagent_run_id: String, $($o)* } } }
            impl $name {
                pub fn subagent_run_id(&self) -> Option<&str> { self.subagent_run_id.as_deref() }
            }
        };
        (@struct req $name:ident req { $($r:tt)* } opt { $($o:tt)* }) => {
            loose! { #[doc = concat!("`", stringify!($name), "` (a lifecycle event).")] $name { req { subagent_run_id: String, $($r)* } opt { $($o)* } } }
            impl $name {
                pub fn subagent_run_id(&self) -> Option<&str> { Some(&self.subagent_run_id) }
            }
        };
    }

    /// The 31 event structs, from the wire table: each field renamed to its
    /// wire name there.
    macro_rules! event_structs {
        ($(
            $variant:ident = $name:literal, $attr:ident {
                req { $( $(#[$rm:meta])* $rf:ident : $rt:ty = $rw:literal $rk:expr ),* $(,)? }
                opt { $( $(#[$om:meta])* $of:ident : $ot:ty = $ow:literal $ok:expr ),* $(,)? }
            }
        )*) => {
            $(
                event! {
                    $variant ($attr) {
                        req { $( $(#[$rm])* #[serde(rename = $rw)] $rf: $rt ),* }
                        opt { $( $(#[$om])* #[serde(rename = $ow)] $of: $ot ),* }
                    }
                }
            )*
        };
    }

    // ---- Enumerations ----

    /// `role` of `TEXT_MESSAGE_START` / `TEXT_MESSAGE_CHUNK`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum TextMessageRole {
        Developer,
        System,
        #[default]
        Assistant,
        User,
    }

    /// `REASONING_MESSAGE_START.role`: always `"reasoning"`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ReasoningRole {
        #[default]
        Reasoning,
    }

    /// `TOOL_CALL_RESULT.role`: always `"tool"`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ToolRole {
        #[default]
        Tool,
    }

    /// `REASONING_ENCRYPTED_VALUE.subtype`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum EncryptedValueSubtype {
        #[default]
        ToolCall,
        Message,
    }

    /// `ToolCall.type`: always `"function"`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ToolCallType {
        #[default]
        Function,
    }

    /// `resume[].status`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum ResumeStatus {
        #[default]
        Resolved,
        Cancelled,
    }

    // ---- Content ----

    /// Content of a user or tool message and of `TOOL_CALL_RESULT`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(untagged)]
    pub enum Content {
        Text(String),
        Parts(Vec<ContentPart>),
    }

    impl Default for Content {
        fn default() -> Self {
            Content::Text(String::new())
        }
    }

    /// One part of multimodal content, selected by `type`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    pub enum ContentPart {
        Text(TextPart),
        Image(MediaPart),
        Audio(MediaPart),
        Video(MediaPart),
        Document(MediaPart),
    }

    loose! {
        /// `{type: "text", text}`.
        TextPart { req { text: String } opt {} }
    }

    loose! {
        /// An image, audio, video or document part.
        MediaPart { req { source: ContentSource } opt {} }
    }

    /// Where a media part's bytes come from, selected by `type`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    pub enum ContentSource {
        Data(DataSource),
        Url(UrlSource),
        File(FileSource),
    }

    impl Default for ContentSource {
        fn default() -> Self {
            ContentSource::Url(UrlSource::default())
        }
    }

    loose! {
        /// Bytes carried inline.
        DataSource { req { value: String, mime_type: String } opt {} }
    }

    loose! {
        /// Bytes referenced by URL.
        UrlSource { req { value: String } opt { mime_type: String } }
    }

    loose! {
        /// Bytes held by a file provider.
        FileSource { req { value: String } opt { provider: String, mime_type: String } }
    }

    // ---- Messages ----

    /// A message of `MESSAGES_SNAPSHOT` or `RUN_STARTED.input`, selected by `role`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "role", rename_all = "lowercase")]
    pub enum Message {
        Developer(DeveloperMessage),
        System(DeveloperMessage),
        Assistant(AssistantMessage),
        User(UserMessage),
        Tool(ToolMessage),
        Activity(ActivityMessage),
        Reasoning(ReasoningMessage),
    }

    impl Message {
        pub fn id(&self) -> &str {
            match self {
                Message::Developer(m) | Message::System(m) => &m.id,
                Message::Assistant(m) => &m.id,
                Message::User(m) => &m.id,
                Message::Tool(m) => &m.id,
                Message::Activity(m) => &m.id,
                Message::Reasoning(m) => &m.id,
            }
        }

        /// The wire `role`.
        pub fn role(&self) -> &'static str {
            match self {
                Message::Developer(_) => "developer",
                Message::System(_) => "system",
                Message::Assistant(_) => "assistant",
                Message::User(_) => "user",
                Message::Tool(_) => "tool",
                Message::Activity(_) => "activity",
                Message::Reasoning(_) => "reasoning",
            }
        }

        /// The message's owner; `None` means the parent agent.
        pub fn subagent_run_id(&self) -> Option<&str> {
            match self {
                Message::Developer(m) | Message::System(m) => m.subagent_run_id.as_deref(),
                Message::Assistant(m) => m.subagent_run_id.as_deref(),
                Message::User(m) => m.subagent_run_id.as_deref(),
                Message::Tool(m) => m.subagent_run_id.as_deref(),
                Message::Activity(m) => m.subagent_run_id.as_deref(),
                Message::Reasoning(m) => m.subagent_run_id.as_deref(),
            }
        }
    }

    loose! {
        /// A `developer` or `system` message.
        DeveloperMessage {
            req { id: String, content: String }
            opt { name: String, encrypted_value: String, subagent_run_id: String }
        }
    }

    loose! {
        /// An `assistant` message.
        AssistantMessage {
            req { id: String }
            opt {
                content: String,
                tool_calls: Vec<ToolCall>,
                name: String,
                encrypted_value: String,
                subagent_run_id: String,
            }
        }
    }

    loose! {
        /// A `user` message.
        UserMessage {
            req { id: String, content: Content }
            opt { name: String, encrypted_value: String, subagent_run_id: String }
        }
    }

    loose! {
        /// A `tool` message.
        ToolMessage {
            req { id: String, content: Content, tool_call_id: String }
            opt { error: String, encrypted_value: String, metadata: Object, subagent_run_id: String }
        }
    }

    loose! {
        /// An `activity` message.
        ActivityMessage {
            req { id: String, activity_type: String, content: Object }
            opt { metadata: Object, subagent_run_id: String }
        }
    }

    loose! {
        /// A `reasoning` message.
        ReasoningMessage {
            req { id: String, content: String }
            opt { encrypted_value: String, metadata: Object, subagent_run_id: String }
        }
    }

    loose! {
        /// A call an assistant message made. It has no `subagentRunId` of
        /// its own: one on the wire stays in `extra`.
        ToolCall {
            req {
                id: String,
                #[serde(rename = "type")]
                kind: ToolCallType,
                function: FunctionCall,
            }
            opt { encrypted_value: String, metadata: Object }
        }
    }

    loose! {
        /// `ToolCall.function`.
        FunctionCall { req { name: String, arguments: String } opt {} }
    }

    // ---- Outcomes and interrupts ----

    /// `RUN_FINISHED.outcome`, selected by `type`.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    pub enum RunOutcome {
        Success(RunSuccess),
        Interrupt(RunInterrupt),
        Cancelled(RunCancelled),
    }

    loose! {
        /// `{type: "success", pendingToolCallIds?}`.
        RunSuccess { req {} opt { pending_tool_call_ids: Vec<String> } }
    }

    loose! {
        /// `{type: "interrupt", interrupts}` (at least one).
        RunInterrupt { req { interrupts: Vec<Interrupt> } opt {} }
    }

    loose! {
        /// `{type: "cancelled"}`.
        RunCancelled { req {} opt {} }
    }

    loose! {
        /// Something a run needs from outside before it can continue.
        Interrupt {
            req { id: String, reason: String }
            opt {
                message: String,
                tool_call_id: String,
                response_schema: Object,
                expires_at: String,
                metadata: Object,
                subagent_run_id: String,
            }
        }
    }

    /// `SUBAGENT_FINISHED.outcome`, selected by `type`; absent means success.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(tag = "type", rename_all = "lowercase")]
    pub enum SubagentOutcome {
        Success(SubagentSuccess),
        Suspended(SubagentSuspended),
    }

    loose! {
        /// `{type: "success"}`. Loose: an `interruptIds` here (which
        /// `lifecycle.success-with-interrupts` forbids when non-empty) stays
        /// in `extra`.
        SubagentSuccess { req {} opt {} }
    }

    loose! {
        /// `{type: "suspended", interruptIds?}`.
        SubagentSuspended { req {} opt { interrupt_ids: Vec<String> } }
    }

    loose! {
        /// Token counts for one provider and model.
        TokenUsage {
            req {}
            opt {
                provider: String,
                model: String,
                input_tokens: Number,
                output_tokens: Number,
                total_tokens: Number,
                reasoning_tokens: Number,
                cached_input_tokens: Number,
                cache_write_input_tokens: Number,
            }
        }
    }

    // ---- RunAgentInput ----

    loose! {
        /// The `RUN_STARTED.input` echo.
        RunAgentInput {
            req { thread_id: String, run_id: String, messages: Vec<Message> }
            opt {
                protocol_version: String,
                parent_run_id: String,
                /// `Some(Value::Null)` when written as `null`, which the
                /// schema tolerates here and reads as absent; see
                /// [`RunAgentInput::state_value`].
                #[serde(deserialize_with = "keep_null")]
                state: Value,
                tools: Vec<Tool>,
                context: Vec<Context>,
                forwarded_props: Value,
                resume: Vec<ResumeEntry>,
            }
        }
    }

    impl RunAgentInput {
        /// The state the input gives, with `null` read as absent.
        pub fn state_value(&self) -> Option<&Value> {
            self.state.as_ref().filter(|s| !s.is_null())
        }
    }

    loose! {
        /// A tool the agent may call.
        Tool {
            req { name: String, description: String }
            opt {
                #[serde(deserialize_with = "keep_null")]
                parameters: Value,
            }
        }
    }

    loose! {
        /// A piece of ambient information given to the agent.
        Context { req { description: String, value: String } opt {} }
    }

    loose! {
        /// An answer to one interrupt.
        ResumeEntry {
            req { interrupt_id: String, status: ResumeStatus }
            opt { payload: Value, metadata: Object }
        }
    }

    // ---- The 31 events ----

    for_each_event!(event_structs);

    macro_rules! event_enum {
        ($( $variant:ident = $name:literal, $attr:ident { $($fields:tt)* } )*) => {
            /// A typed AG-UI 1.0 event, selected by `type`. Each variant's
            /// struct is named like its [`EventType`] variant.
            #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
            #[serde(tag = "type")]
            pub enum Event {
                $( #[serde(rename = $name)] $variant($variant), )*
            }

            impl Event {
                pub fn event_type(&self) -> EventType {
                    match self { $( Event::$variant(_) => EventType::$variant, )* }
                }

                /// The event's own attribution: `None` for the parent agent
                /// and for the four types that carry none (`RUN_STARTED`,
                /// `RUN_FINISHED`, `RUN_ERROR`, `MESSAGES_SNAPSHOT`); for the
                /// `SUBAGENT_*` events, the invocation they concern.
                pub fn subagent_run_id(&self) -> Option<&str> {
                    match self { $( Event::$variant(e) => e.subagent_run_id(), )* }
                }

                /// Unknown fields of the event itself.
                pub fn extra(&self) -> &Object {
                    match self { $( Event::$variant(e) => &e.extra, )* }
                }
            }

            $(
                impl From<$variant> for Event {
                    fn from(e: $variant) -> Event { Event::$variant(e) }
                }
            )*
        };
    }

    for_each_event!(event_enum);

    impl Event {
        /// Parses a JSON value into a typed event. Parsing is not
        /// validation: check the value with `schema::validate` first.
        pub fn from_value(value: &Value) -> Result<Event, serde_json::Error> {
            Event::deserialize(value)
        }

        /// The wire form.
        pub fn to_value(&self) -> Value {
            // Serializing these types cannot fail: every map key is a string
            // and every field is plain data.
            serde_json::to_value(self).unwrap_or(Value::Null)
        }
    }
}
