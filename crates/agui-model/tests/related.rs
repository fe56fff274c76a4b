//! The related event of a violation (the opener on record, the run's
//! start, the previous run's end), the same on the fast path
//! (`check_bytes`, lines) and the value path (`check_values`). Indexes are
//! written from the streams below.

use agui_model::check::check_bytes;
use agui_model::{Checker, RuleId, check_values};
use serde_json::{Value, json};

fn related(events: &[Value]) -> Vec<(RuleId, usize, Option<usize>)> {
    let values: Vec<_> = check_values(events)
        .violations
        .iter()
        .map(|v| (v.rule, v.index, v.related))
        .collect();
    let lines: String = events.iter().map(|e| format!("{e}\n")).collect();
    let fast: Vec<_> = check_bytes(lines.as_bytes(), Checker::new())
        .violations
        .iter()
        .map(|v| (v.rule, v.index, v.related))
        .collect();
    assert_eq!(values, fast);
    values
}

fn start(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t", "runId": run})
}

fn finish(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t", "runId": run})
}

#[test]
fn ownership_violations_name_the_opener_on_record() {
    let found = related(&[
        start("r"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "subagentRunId": "a"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x", "subagentRunId": "b"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "subagentRunId": "a"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "subagentRunId": "b"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m", "subagentRunId": "b"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "n", "parentMessageId": "m", "subagentRunId": "b"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c", "subagentRunId": "b"}),
        finish("r"),
    ]);
    assert_eq!(
        found,
        [
            (RuleId::OwnershipContinuationDisagrees, 2, Some(1)),
            (RuleId::OwnershipReopenDisagrees, 4, Some(1)),
            (RuleId::OwnershipContinuationDisagrees, 5, Some(1)),
            (RuleId::OwnershipToolCallVsMessage, 6, Some(1)),
        ]
    );
}

#[test]
fn run_violations_name_the_run_start_or_the_previous_end() {
    let found = related(&[
        start("r1"),
        start("r1b"),
        finish("r1"),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        start("r2"),
        json!({"type": "RUN_ERROR", "message": "x"}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        start("r3"),
    ]);
    assert_eq!(
        found,
        [
            (RuleId::RunAlreadyActive, 1, Some(0)),
            (RuleId::RunAfterFinished, 3, Some(2)),
            (RuleId::RunAfterError, 6, Some(5)),
            (RuleId::RunUnterminated, 8, Some(7)),
        ]
    );
}

#[test]
fn lifecycle_violations_name_the_announcement_or_the_end() {
    let found = related(&[
        start("r"),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "x", "message": "m"}),
        finish("r"),
    ]);
    assert_eq!(
        found,
        [
            // Already active since its announcement at 1.
            (RuleId::LifecycleAlreadyActive, 2, Some(1)),
            // Closed at 3.
            (RuleId::LifecycleNotActive, 4, Some(3)),
            (RuleId::LifecycleReusedId, 5, Some(3)),
            // Never announced: nothing to refer to.
            (RuleId::LifecycleNotActive, 7, None),
        ]
    );
}
