//! Wire names the generator needs outside the typed structs: a mutator
//! breaking one field of an event value, the projection naming a run's ids
//! and an activity's type as the wire does. Each is read from the wire
//! table (`EventType::fields`, a `const fn`), so no name is spelled here;
//! `tests/field_names.rs` pins each to the field it must be.

use agui_model::EventType as T;

pub use agui_model::wire::SUBAGENT_RUN_ID;

/// The wire name of field `i` of type `t` in the table (required fields
/// first). Evaluated at compile time: an index past the end fails the build.
const fn key(t: T, i: usize) -> &'static str {
    t.fields()[i].key
}

pub const THREAD_ID: &str = key(T::RunStarted, 0);
pub const RUN_ID: &str = key(T::RunStarted, 1);
pub const STEP_NAME: &str = key(T::StepStarted, 0);
pub const MESSAGE_ID: &str = key(T::TextMessageStart, 0);
pub const DELTA: &str = key(T::TextMessageContent, 1);
pub const ROLE: &str = key(T::TextMessageStart, 1);
pub const TOOL_CALL_ID: &str = key(T::ToolCallStart, 0);
pub const TOOL_CALL_NAME: &str = key(T::ToolCallStart, 1);
pub const PARENT_MESSAGE_ID: &str = key(T::ToolCallStart, 2);
pub const ACTIVITY_TYPE: &str = key(T::ActivitySnapshot, 1);
pub const PARENT_SUBAGENT_RUN_ID: &str = key(T::SubagentStarted, 2);
pub const OUTCOME: &str = key(T::RunFinished, 3);
pub const PROTOCOL_VERSION: &str = key(T::RunStarted, 2);
pub const PARENT_RUN_ID: &str = key(T::RunStarted, 3);
pub const ENCRYPTED_VALUE: &str = key(T::ReasoningEncryptedValue, 2);
