//! The 31 AG-UI 1.0 event types.
//!
//! [`EventType`] is what the checker dispatches on. Typed event structs
//! (serde) for every type live below it.

use std::fmt;

macro_rules! event_types {
    ($( $variant:ident = $name:literal ),* $(,)?) => {
        /// One of the 31 AG-UI 1.0 event types (`type` on the wire).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum EventType { $( $variant ),* }

        impl EventType {
            /// Every event type, in SCHEMA.md order.
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

event_types! {
    RunStarted = "RUN_STARTED",
    RunFinished = "RUN_FINISHED",
    RunError = "RUN_ERROR",
    StepStarted = "STEP_STARTED",
    StepFinished = "STEP_FINISHED",
    TextMessageStart = "TEXT_MESSAGE_START",
    TextMessageContent = "TEXT_MESSAGE_CONTENT",
    TextMessageEnd = "TEXT_MESSAGE_END",
    TextMessageChunk = "TEXT_MESSAGE_CHUNK",
    ToolCallStart = "TOOL_CALL_START",
    ToolCallArgs = "TOOL_CALL_ARGS",
    ToolCallEnd = "TOOL_CALL_END",
    ToolCallChunk = "TOOL_CALL_CHUNK",
    ToolCallResult = "TOOL_CALL_RESULT",
    StateSnapshot = "STATE_SNAPSHOT",
    StateDelta = "STATE_DELTA",
    MessagesSnapshot = "MESSAGES_SNAPSHOT",
    ActivitySnapshot = "ACTIVITY_SNAPSHOT",
    ActivityDelta = "ACTIVITY_DELTA",
    Raw = "RAW",
    Custom = "CUSTOM",
    ReasoningStart = "REASONING_START",
    ReasoningMessageStart = "REASONING_MESSAGE_START",
    ReasoningMessageContent = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd = "REASONING_MESSAGE_END",
    ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK",
    ReasoningEnd = "REASONING_END",
    ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE",
    SubagentStarted = "SUBAGENT_STARTED",
    SubagentFinished = "SUBAGENT_FINISHED",
    SubagentError = "SUBAGENT_ERROR",
}

impl EventType {
    /// Whether the schema declares `subagentRunId` on this type: every type
    /// but `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and `MESSAGES_SNAPSHOT`.
    pub fn is_attributable(self) -> bool {
        !matches!(
            self,
            EventType::RunStarted | EventType::RunFinished | EventType::RunError | EventType::MessagesSnapshot
        )
    }

    /// The three `SUBAGENT_*` lifecycle events, on which `subagentRunId` is
    /// required and names the invocation they concern.
    pub fn is_lifecycle(self) -> bool {
        matches!(self, EventType::SubagentStarted | EventType::SubagentFinished | EventType::SubagentError)
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
        let n = EventType::ALL.iter().filter(|t| !t.is_attributable()).count();
        assert_eq!(n, 4);
    }
}
