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
            // finish("r1") ends the run `r1b` started.
            (RuleId::RunIdsDisagree, 2, Some(1)),
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

fn sub_start(id: &str) -> Value {
    json!({"type": "SUBAGENT_STARTED", "subagentRunId": id, "name": "n"})
}

fn sub_finish(id: &str) -> Value {
    json!({"type": "SUBAGENT_FINISHED", "subagentRunId": id})
}

#[test]
fn already_open_and_open_at_finish_name_the_opener() {
    let found = related(&[
        start("r"),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "t"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "t"}),
        json!({"type": "REASONING_START", "messageId": "z"}),
        json!({"type": "REASONING_START", "messageId": "z"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "z", "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "z", "role": "reasoning"}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        sub_start("b"),
        sub_start("a"),
        sub_finish("b"),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
        // Listed first in the message (text before tool calls), but opened
        // after the tool call at 3.
        json!({"type": "TEXT_MESSAGE_START", "messageId": "n", "role": "assistant"}),
        finish("r"),
    ]);
    assert_eq!(
        found,
        [
            (RuleId::TextAlreadyOpen, 2, Some(1)),
            (RuleId::ToolAlreadyOpen, 4, Some(3)),
            (RuleId::ReasoningAlreadyOpen, 6, Some(5)),
            (RuleId::ReasoningAlreadyOpen, 8, Some(7)),
            (RuleId::StepAlreadyOpen, 10, Some(9)),
            // Still open: tool call c (3), span z (5), message z (7),
            // step s (9), text n (15): the earliest opener is 3.
            (RuleId::RunOpenEntitiesAtFinish, 16, Some(3)),
            // b finished at 13; a, announced at 12, is still active.
            (RuleId::LifecycleOpenAtRunFinish, 16, Some(12)),
        ]
    );
}

#[test]
fn step_owner_names_the_step_started_it_closes() {
    let found = related(&[
        start("r"),
        json!({"type": "STEP_STARTED", "stepName": "s", "subagentRunId": "a"}),
        json!({"type": "STEP_STARTED", "stepName": "s"}),
        // Held by "a" (1) and the parent (2), not "b": closes a's, the first.
        json!({"type": "STEP_FINISHED", "stepName": "s", "subagentRunId": "b"}),
        json!({"type": "STEP_FINISHED", "stepName": "s"}),
        finish("r"),
    ]);
    assert_eq!(found, [(RuleId::OwnershipStepOwner, 3, Some(1))]);
}

#[test]
fn interrupt_violations_name_the_suspended_finish() {
    let found = related(&[
        start("r1"),
        sub_start("a"),
        sub_start("b"),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "a",
               "outcome": {"type": "suspended", "interruptIds": ["i1", "i2"]}}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "b",
               "outcome": {"type": "suspended", "interruptIds": ["i3"]}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r1",
               "outcome": {"type": "interrupt", "interrupts": [
                   {"id": "i1", "reason": "r", "subagentRunId": "a"},
                   {"id": "i3", "reason": "r"}]}}),
        start("r2"),
        sub_start("c"),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "c",
               "outcome": {"type": "suspended", "interruptIds": []}}),
        finish("r2"),
    ]);
    assert_eq!(
        found,
        [
            // a listed i2 at 3; b's i3 (listed at 4) is the parent's.
            (RuleId::InterruptUnknownId, 5, Some(3)),
            (RuleId::InterruptOwnerMismatch, 5, Some(4)),
            // c suspended at 8 in a run that did not end interrupted.
            (RuleId::InterruptRunNotInterrupted, 9, Some(8)),
        ]
    );
}

#[test]
fn cross_run_violations_name_the_earlier_end() {
    let found = related(&[
        start("r1"),
        sub_start("p"),
        sub_finish("p"),
        sub_start("q"),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "q", "message": "m"}),
        finish("r1"),
        start("r2"),
        // p finished (not suspended) at 2.
        sub_start("p"),
        // q is not announced in this run; it errored at 4.
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "c", "name": "n", "parentSubagentRunId": "q"}),
        // Never seen: nothing to refer to.
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "d", "name": "n", "parentSubagentRunId": "zz"}),
        sub_finish("p"),
        sub_finish("c"),
        sub_finish("d"),
        finish("r2"),
        start("r3"),
        sub_start("e"),
        json!({"type": "RUN_ERROR", "message": "x"}),
        start("r4"),
        // e was abandoned by the RUN_ERROR at 16.
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "f", "name": "n", "parentSubagentRunId": "e"}),
        sub_finish("f"),
        finish("r4"),
    ]);
    assert_eq!(
        found,
        [
            (RuleId::LifecycleResumedNotSuspended, 7, Some(2)),
            (RuleId::LifecycleUnknownParent, 8, Some(4)),
            (RuleId::LifecycleUnknownParent, 9, None),
            (RuleId::LifecycleUnknownParent, 18, Some(16)),
        ]
    );
}

#[test]
fn chunk_violations_name_the_opening_chunk() {
    let found = related(&[
        start("r"),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "x"}),
        // The opener at 1 gave no name.
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "name": "n"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "t", "delta": "{", "subagentRunId": "a"}),
        // c is a's since 3.
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "subagentRunId": "b"}),
        // The opener at 3 said "t".
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "u"}),
        finish("r"),
    ]);
    assert_eq!(
        found,
        [
            (RuleId::ChunkOpenerDisagrees, 2, Some(1)),
            (RuleId::OwnershipContinuationDisagrees, 4, Some(3)),
            (RuleId::ChunkOpenerDisagrees, 5, Some(3)),
            // RUN_FINISHED ends c, whose arguments are "{": the related
            // event is the call's opener.
            (RuleId::ToolArgsNotJson, 6, Some(3)),
        ]
    );
}
