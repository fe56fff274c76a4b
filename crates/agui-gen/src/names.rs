//! Wire names the generator needs outside the typed structs: a mutator
//! breaking one field of an event value, the projection naming a run's ids
//! and an activity's type as the wire does. Each re-exports the wire
//! table's constant for that field (`agui_model::wire::key`, named by type
//! and field, so reordering the table cannot shift them), so no name is
//! spelled here; `tests/field_names.rs` pins each to the field it must be.

use agui_model::wire::key;

pub use agui_model::wire::SUBAGENT_RUN_ID;

pub const THREAD_ID: &str = key::RunStarted::thread_id;
pub const RUN_ID: &str = key::RunStarted::run_id;
pub const STEP_NAME: &str = key::StepStarted::step_name;
pub const MESSAGE_ID: &str = key::TextMessageStart::message_id;
pub const DELTA: &str = key::TextMessageContent::delta;
pub const ROLE: &str = key::TextMessageStart::role;
pub const TOOL_CALL_ID: &str = key::ToolCallStart::tool_call_id;
pub const TOOL_CALL_NAME: &str = key::ToolCallStart::tool_call_name;
pub const PARENT_MESSAGE_ID: &str = key::ToolCallStart::parent_message_id;
pub const ACTIVITY_TYPE: &str = key::ActivitySnapshot::activity_type;
pub const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;
pub const OUTCOME: &str = key::RunFinished::outcome;
pub const PROTOCOL_VERSION: &str = key::RunStarted::protocol_version;
pub const PARENT_RUN_ID: &str = key::RunStarted::parent_run_id;
pub const ENCRYPTED_VALUE: &str = key::ReasoningEncryptedValue::encrypted_value;
pub const ENTITY_ID: &str = key::ReasoningEncryptedValue::entity_id;
