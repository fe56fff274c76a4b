//! The events the stop and soundness tests build their streams from.

use serde_json::{Value, json};

/// `RUN_STARTED` of run `r1` on thread `t1`.
pub fn start() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"})
}

/// `RUN_FINISHED` of run `r1` on thread `t1`.
pub fn finish() -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"})
}

/// Content for a message no event opened: `text.not-open`.
pub fn not_open() -> Value {
    json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m9", "delta": "x"})
}
