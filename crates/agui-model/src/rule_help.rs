//! What each rule protects, how to fix a violation of it, and an example
//! of the fix: the help of the SARIF log's rules (and of any report that
//! wants more than the rule's statement). Data beside the catalogue
//! (crate::rules), keyed by rule id, so that the catalogue itself stays
//! as it is; a test keeps one entry per rule a stream can break.

use crate::rules::RuleId;

/// The help of one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleHelp {
    /// What goes wrong for a consumer when the rule is broken.
    pub protects: &'static str,
    /// What a producer changes to keep it.
    pub fix: &'static str,
    /// A violation and its fix, `wrong → right`.
    pub example: &'static str,
}

/// The help of `rule`; `None` for a rule no stream breaks (an `accept.*`
/// obligation).
pub fn help(rule: RuleId) -> Option<&'static RuleHelp> {
    let id = rule.as_str();
    HELP.iter().find(|(r, _)| *r == id).map(|(_, h)| h)
}

static HELP: &[(&str, RuleHelp)] = &[
    (
        "schema.unknown-member",
        RuleHelp {
            protects: r#"A value outside a closed set (an outcome type, a role, a patch op) is unrecognised material: consumers strip it, so what it carried (an outcome, a message) silently disappears."#,
            fix: r#"Use only the values the AG-UI schema lists for discriminators and enums; send application data as `CUSTOM` events or in open fields."#,
            example: r#"`{"role":"bot",…}` in `MESSAGES_SNAPSHOT` → `{"role":"assistant",…}`"#,
        },
    ),
    (
        "run.ids-disagree",
        RuleHelp {
            protects: r#"A run is identified by its boundary events; a terminal event naming another run or thread leaves the consumer unable to tell which run ended."#,
            fix: r#"Give `RUN_FINISHED` and `RUN_ERROR` the `runId` and `threadId` of the run's `RUN_STARTED` (or leave them out where optional)."#,
            example: r#"`RUN_STARTED r1, …, RUN_FINISHED r2` → `RUN_STARTED r1, …, RUN_FINISHED r1`"#,
        },
    ),
    (
        "run.thread-changed",
        RuleHelp {
            protects: r#"One stream answers one input of one thread; a run on another thread puts messages into the wrong conversation."#,
            fix: r#"Start every run of the stream with the input's `threadId`."#,
            example: r#"`RUN_STARTED t1 r1, …, RUN_STARTED t2 r2` → `RUN_STARTED t1 r1, …, RUN_STARTED t1 r2`"#,
        },
    ),
    (
        "interrupt.duplicate-id",
        RuleHelp {
            protects: r#"The client answers interrupts by id; two with one id make the answer to one of them go to both, or to the wrong one."#,
            fix: r#"Give each interrupt of a run outcome its own `id`."#,
            example: r#"`"interrupts":[{"id":"i1"},{"id":"i1"}]` → `"interrupts":[{"id":"i1"},{"id":"i2"}]`"#,
        },
    ),
    (
        "schema.not-json",
        RuleHelp {
            protects: r#"A consumer parses every item as one JSON object; an item that is not one is dropped or stops the client, and whatever it carried is lost."#,
            fix: r#"Serialize each event with a JSON encoder (never by string concatenation) and write one object per SSE `data:` field or per JSON Lines line."#,
            example: r#"`data: {type: "RUN_STARTED"}` → `data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`"#,
        },
    ),
    (
        "schema.unknown-type",
        RuleHelp {
            protects: r#"Consumers dispatch on `type`; an event without one, or with a name outside AG-UI 1.0, is skipped or rejected, so its content never shows."#,
            fix: r#"Give every event a `type` of the AG-UI 1.0 list, spelled exactly (upper snake case); send application data as `CUSTOM`."#,
            example: r#"`{"type":"TEXT_DELTA",…}` → `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}`"#,
        },
    ),
    (
        "schema.missing-field",
        RuleHelp {
            protects: r#"Consumers index entities by their ids and read required fields unguarded; an absent one breaks the lookup or the display."#,
            fix: r#"Set every field the schema marks required on the event and inside it (outcomes, patch operations, messages)."#,
            example: r#"`{"type":"TEXT_MESSAGE_START","role":"assistant"}` → `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`"#,
        },
    ),
    (
        "schema.wrong-type",
        RuleHelp {
            protects: r#"Typed clients (the TypeScript client's schemas, pydantic models) refuse a value of the wrong JSON type or outside its enum or range."#,
            fix: r#"Emit each field with the schema's JSON type and allowed values (strings for ids, numbers for counts, the enum's spelling)."#,
            example: r#"`{"type":"TEXT_MESSAGE_START","messageId":1,"role":"bot"}` → `{"type":"TEXT_MESSAGE_START","messageId":"1","role":"assistant"}`"#,
        },
    ),
    (
        "schema.null-optional",
        RuleHelp {
            protects: r#"Strict clients reject `null` where the schema allows only absence; lenient ones may take `null` for a value."#,
            fix: r#"Leave an optional field out instead of writing `null` (pydantic: `exclude_none=True`; JavaScript: omit the key)."#,
            example: r#"`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","result":null}` → `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`"#,
        },
    ),
    (
        "attribution.null",
        RuleHelp {
            protects: r#"Attribution says which invocation an event belongs to; `null` is not a spelling of "the parent", and clients disagree on what it means."#,
            fix: r#"For the parent agent, leave `subagentRunId` out; for a subagent, give its invocation id."#,
            example: r#"`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi","subagentRunId":null}` → `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}`"#,
        },
    ),
    (
        "attribution.not-attributable",
        RuleHelp {
            protects: r#"Run events and snapshots belong to the run, not to an invocation; a tag on them suggests an attribution no consumer applies."#,
            fix: r#"Drop `subagentRunId` from `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and `MESSAGES_SNAPSHOT`; attribute the events inside the run instead."#,
            example: r#"`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","subagentRunId":"s1"}` → `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`"#,
        },
    ),
    (
        "lifecycle.missing-id",
        RuleHelp {
            protects: r#"A subagent lifecycle event without its invocation id cannot open or close any lane; the consumer cannot tell which subagent started or ended."#,
            fix: r#"Put the invocation's `subagentRunId` on every `SUBAGENT_STARTED`, `SUBAGENT_FINISHED` and `SUBAGENT_ERROR`."#,
            example: r#"`{"type":"SUBAGENT_STARTED","name":"researcher"}` → `{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"researcher"}`"#,
        },
    ),
    (
        "lifecycle.unknown-outcome",
        RuleHelp {
            protects: r#"Consumers branch on the outcome (done, or waiting for input); an unknown one leaves the invocation in no defined state."#,
            fix: r#"Finish an invocation with `outcome.type` `success`, or `suspended` with its `interruptIds`; report a failure with `SUBAGENT_ERROR`."#,
            example: r#"`"outcome":{"type":"done"}` → `"outcome":{"type":"success"}`"#,
        },
    ),
    (
        "lifecycle.success-with-interrupts",
        RuleHelp {
            protects: r#"A `success` outcome says the invocation is done; interrupts attached to it contradict that and are ignored or misread."#,
            fix: r#"List `interruptIds` only on a `suspended` outcome; finish a completed invocation with `{"type":"success"}` alone."#,
            example: r#"`"outcome":{"type":"success","interruptIds":["i1"]}` → `"outcome":{"type":"suspended","interruptIds":["i1"]}`"#,
        },
    ),
    (
        "schema.duplicate-key",
        RuleHelp {
            protects: r#"Parsers disagree on which of two same-named members wins, so two consumers may see two different events."#,
            fix: r#"Write each member name once per object (build the object as a map before serializing)."#,
            example: r#"`{"type":"TEXT_MESSAGE_CONTENT","delta":"a","delta":"b",…}` → `{"type":"TEXT_MESSAGE_CONTENT","delta":"ab",…}`"#,
        },
    ),
    (
        "schema.lone-surrogate",
        RuleHelp {
            protects: r#"Half of a UTF-16 pair is not text: decoders replace it with U+FFFD or refuse the string, so the character is lost or garbled."#,
            fix: r#"Split text deltas on code point boundaries (in JavaScript iterate with `for…of` or `Array.from`, not by `.length` index)."#,
            example: r#"`"delta":"a\ud83d"` then `"delta":"\ude00b"` → `"delta":"a😀"` then `"delta":"b"`"#,
        },
    ),
    (
        "run.first-event",
        RuleHelp {
            protects: r#"A consumer opens its run state at `RUN_STARTED`; events before it have no run to belong to and are dropped or rejected."#,
            fix: r#"Send `RUN_STARTED` (or `RUN_ERROR` when the run cannot start) before anything else on the stream."#,
            example: r#"`TEXT_MESSAGE_START, RUN_STARTED, …` → `RUN_STARTED, TEXT_MESSAGE_START, …`"#,
        },
    ),
    (
        "run.already-active",
        RuleHelp {
            protects: r#"Runs do not nest; a second `RUN_STARTED` while one is open leaves the consumer unsure which run later events belong to."#,
            fix: r#"Finish (or fail) the active run before starting the next one."#,
            example: r#"`RUN_STARTED r1, RUN_STARTED r2` → `RUN_STARTED r1, RUN_FINISHED r1, RUN_STARTED r2`"#,
        },
    ),
    (
        "run.after-finished",
        RuleHelp {
            protects: r#"After `RUN_FINISHED` a consumer has closed the run; later events land nowhere (or are rejected)."#,
            fix: r#"Send every event of a run before its `RUN_FINISHED`; start a new run for more."#,
            example: r#"`RUN_FINISHED r1, TEXT_MESSAGE_END m1` → `TEXT_MESSAGE_END m1, RUN_FINISHED r1`"#,
        },
    ),
    (
        "run.after-error",
        RuleHelp {
            protects: r#"`RUN_ERROR` ends the run; a consumer shows the error and ignores or rejects what follows."#,
            fix: r#"Make `RUN_ERROR` the run's last event; start a new run to go on."#,
            example: r#"`RUN_ERROR, TEXT_MESSAGE_CONTENT` → `RUN_ERROR` (and a new `RUN_STARTED` for more)"#,
        },
    ),
    (
        "run.open-entities-at-finish",
        RuleHelp {
            protects: r#"Finishing a run with a message, tool call, reasoning span or step still open leaves it half-drawn in every client."#,
            fix: r#"Close everything you opened (`TEXT_MESSAGE_END`, `TOOL_CALL_END`, `REASONING_END`, `STEP_FINISHED`) before `RUN_FINISHED`."#,
            example: r#"`TEXT_MESSAGE_START m1, RUN_FINISHED` → `TEXT_MESSAGE_START m1, TEXT_MESSAGE_END m1, RUN_FINISHED`"#,
        },
    ),
    (
        "run.unterminated",
        RuleHelp {
            protects: r#"A run the stream never ends keeps a consumer waiting (spinner, open lanes) until it gives up."#,
            fix: r#"End every run with `RUN_FINISHED`, or `RUN_ERROR` on failure (also when an exception stops the agent: catch it and send `RUN_ERROR`)."#,
            example: r#"`RUN_STARTED, …, (end of stream)` → `RUN_STARTED, …, RUN_FINISHED`"#,
        },
    ),
    (
        "text.already-open",
        RuleHelp {
            protects: r#"Starting a message that is already open makes its two streams of deltas one, garbled."#,
            fix: r#"Use a fresh `messageId` for each message, or end the open one first."#,
            example: r#"`TEXT_MESSAGE_START m1, TEXT_MESSAGE_START m1` → `TEXT_MESSAGE_START m1, TEXT_MESSAGE_END m1, TEXT_MESSAGE_START m2`"#,
        },
    ),
    (
        "text.not-open",
        RuleHelp {
            protects: r#"Content for a message that was never started (or already ended) has no message to go into: it is dropped."#,
            fix: r#"Send `TEXT_MESSAGE_START` before the content and the end, with the same `messageId`."#,
            example: r#"`TEXT_MESSAGE_CONTENT m1` → `TEXT_MESSAGE_START m1, TEXT_MESSAGE_CONTENT m1, TEXT_MESSAGE_END m1`"#,
        },
    ),
    (
        "tool.already-open",
        RuleHelp {
            protects: r#"Two open calls of one id merge their arguments into one invalid call."#,
            fix: r#"Give each tool call a fresh `toolCallId`, or end the open one first."#,
            example: r#"`TOOL_CALL_START c1, TOOL_CALL_START c1` → `TOOL_CALL_START c1, TOOL_CALL_END c1, TOOL_CALL_START c2`"#,
        },
    ),
    (
        "tool.not-open",
        RuleHelp {
            protects: r#"Arguments or an end for a call that is not open have no call to attach to: the call is lost or never completes."#,
            fix: r#"Send `TOOL_CALL_START` (with its name) before `TOOL_CALL_ARGS` and `TOOL_CALL_END` of the same `toolCallId`."#,
            example: r#"`TOOL_CALL_ARGS c1` → `TOOL_CALL_START c1 get_weather, TOOL_CALL_ARGS c1, TOOL_CALL_END c1`"#,
        },
    ),
    (
        "reasoning.already-open",
        RuleHelp {
            protects: r#"A reasoning span or message opened twice mixes two streams of thought into one."#,
            fix: r#"Use a fresh id for each reasoning span and message, or close the open one first."#,
            example: r#"`REASONING_START r1, REASONING_START r1` → `REASONING_START r1, REASONING_END r1, REASONING_START r2`"#,
        },
    ),
    (
        "reasoning.not-open",
        RuleHelp {
            protects: r#"Reasoning content or an end for something not open has nowhere to go and is dropped."#,
            fix: r#"Open the span (`REASONING_START`) and the message (`REASONING_MESSAGE_START`) before their content and ends, with the same ids."#,
            example: r#"`REASONING_MESSAGE_CONTENT rm1` → `REASONING_MESSAGE_START rm1, REASONING_MESSAGE_CONTENT rm1, REASONING_MESSAGE_END rm1`"#,
        },
    ),
    (
        "step.already-open",
        RuleHelp {
            protects: r#"A step started twice under one owner cannot be told apart when it finishes."#,
            fix: r#"Finish a step before starting one of the same name under the same owner (or name them apart)."#,
            example: r#"`STEP_STARTED plan, STEP_STARTED plan` → `STEP_STARTED plan, STEP_FINISHED plan, STEP_STARTED plan`"#,
        },
    ),
    (
        "step.not-open",
        RuleHelp {
            protects: r#"Finishing a step nobody started leaves progress displays inconsistent."#,
            fix: r#"Send `STEP_STARTED` with the same `stepName` before `STEP_FINISHED`."#,
            example: r#"`STEP_FINISHED plan` → `STEP_STARTED plan, STEP_FINISHED plan`"#,
        },
    ),
    (
        "state.patch-fails",
        RuleHelp {
            protects: r#"A delta that does not apply leaves the consumer's state behind the agent's: every later delta applies to the wrong document."#,
            fix: r#"Compute each `STATE_DELTA` against the state as last sent (RFC 6902), or send a `STATE_SNAPSHOT` to resynchronise."#,
            example: r#"`{"op":"replace","path":"/count","value":2}` on `{}` → `{"op":"add","path":"/count","value":2}`"#,
        },
    ),
    (
        "tool.args-not-json",
        RuleHelp {
            protects: r#"Clients parse a finished call's arguments as JSON to run the tool; text that is not JSON cannot be run."#,
            fix: r#"Stream the arguments as pieces of one JSON value (usually an object) and end the call only when it is whole."#,
            example: r#"`TOOL_CALL_ARGS c1 "{city: Lisbon"` → `TOOL_CALL_ARGS c1 "{\"city\": \"Lisbon\"}"`"#,
        },
    ),
    (
        "tool.result-before-end",
        RuleHelp {
            protects: r#"A result for a call still streaming its arguments answers a call whose input is not known yet."#,
            fix: r#"Send `TOOL_CALL_END` before the call's `TOOL_CALL_RESULT`."#,
            example: r#"`TOOL_CALL_START c1, TOOL_CALL_RESULT c1` → `TOOL_CALL_START c1, TOOL_CALL_END c1, TOOL_CALL_RESULT c1`"#,
        },
    ),
    (
        "messages.snapshot-disagrees",
        RuleHelp {
            protects: r#"A snapshot replaces the consumer's history; when it disagrees with what was streamed, the text on screen changes after the fact."#,
            fix: r#"Build `MESSAGES_SNAPSHOT` from the same text and arguments you streamed (the concatenated deltas), not from a re-generated or post-processed copy."#,
            example: r#"streamed `"Hello"`, snapshot `"content":"Hello!"` → snapshot `"content":"Hello"`"#,
        },
    ),
    (
        "lifecycle.announce-after-attribution",
        RuleHelp {
            protects: r#"Consumers create a subagent's lane at `SUBAGENT_STARTED`; events attributed to it before that have no lane to go to."#,
            fix: r#"Send `SUBAGENT_STARTED` for an invocation before any event tagged with its `subagentRunId`."#,
            example: r#"`TEXT_MESSAGE_START m1 (s1), SUBAGENT_STARTED s1` → `SUBAGENT_STARTED s1, TEXT_MESSAGE_START m1 (s1)`"#,
        },
    ),
    (
        "lifecycle.already-active",
        RuleHelp {
            protects: r#"Announcing an active invocation again makes its lane ambiguous: which announcement do later events and its end belong to?"#,
            fix: r#"Announce each invocation once while it runs; use a new `subagentRunId` for a new invocation."#,
            example: r#"`SUBAGENT_STARTED s1, SUBAGENT_STARTED s1` → `SUBAGENT_STARTED s1, SUBAGENT_FINISHED s1, SUBAGENT_STARTED s2`"#,
        },
    ),
    (
        "lifecycle.reused-id",
        RuleHelp {
            protects: r#"An id that finished in this run names a closed lane; reusing it mixes two invocations' events."#,
            fix: r#"Give every invocation of a run its own `subagentRunId`."#,
            example: r#"`…SUBAGENT_FINISHED s1, SUBAGENT_STARTED s1` → `…SUBAGENT_FINISHED s1, SUBAGENT_STARTED s2`"#,
        },
    ),
    (
        "lifecycle.not-active",
        RuleHelp {
            protects: r#"Finishing an invocation that is not running leaves consumers with an end for no lane (or a second end)."#,
            fix: r#"Send exactly one `SUBAGENT_FINISHED` or `SUBAGENT_ERROR` per `SUBAGENT_STARTED`, with the same id."#,
            example: r#"`SUBAGENT_FINISHED s9` (never started) → `SUBAGENT_STARTED s9, …, SUBAGENT_FINISHED s9`"#,
        },
    ),
    (
        "lifecycle.unknown-parent",
        RuleHelp {
            protects: r#"A parent id that names no invocation of the run breaks the tree consumers draw of nested subagents."#,
            fix: r#"Set `parentSubagentRunId` to an invocation already announced in this run, or leave it out for a child of the parent agent."#,
            example: r#"`SUBAGENT_STARTED s2 parent s9` → `SUBAGENT_STARTED s1, SUBAGENT_STARTED s2 parent s1`"#,
        },
    ),
    (
        "lifecycle.open-at-run-finish",
        RuleHelp {
            protects: r#"A run that finishes with a subagent still running leaves its lane open for ever."#,
            fix: r#"Finish (`SUBAGENT_FINISHED`, `suspended` if it waits for input) or fail (`SUBAGENT_ERROR`) every invocation before `RUN_FINISHED`."#,
            example: r#"`SUBAGENT_STARTED s1, RUN_FINISHED` → `SUBAGENT_STARTED s1, SUBAGENT_FINISHED s1, RUN_FINISHED`"#,
        },
    ),
    (
        "lifecycle.resumed-not-suspended",
        RuleHelp {
            protects: r#"Only a suspended invocation can be resumed; re-announcing a finished or failed one in a later run makes its history ambiguous."#,
            fix: r#"Resume an id only when it ended `suspended`; otherwise start a new invocation with a new id."#,
            example: r#"run 1 `SUBAGENT_FINISHED s1 success`, run 2 `SUBAGENT_STARTED s1` → run 2 `SUBAGENT_STARTED s2`"#,
        },
    ),
    (
        "ownership.continuation-disagrees",
        RuleHelp {
            protects: r#"Lanes are keyed by owner; content tagged with another owner than its opener's lands in the wrong lane, or is rejected."#,
            fix: r#"Tag every continuing and closing event (`*_CONTENT`, `*_ARGS`, `*_END`) with the same `subagentRunId` as its opener, or leave the tag out on all of them for the parent."#,
            example: r#"`TEXT_MESSAGE_START m1 (s1), TEXT_MESSAGE_CONTENT m1 (s2)` → `TEXT_MESSAGE_START m1 (s1), TEXT_MESSAGE_CONTENT m1 (s1)`"#,
        },
    ),
    (
        "ownership.reopen-disagrees",
        RuleHelp {
            protects: r#"An id keeps its owner for the run; reopening it under another owner moves it between lanes after the fact."#,
            fix: r#"Reopen an id under the owner on record, or use a new id for the other owner."#,
            example: r#"`TEXT_MESSAGE_START m1 (s1) … END, TEXT_MESSAGE_START m1 (s2)` → `…, TEXT_MESSAGE_START m2 (s2)`"#,
        },
    ),
    (
        "ownership.tool-call-vs-message",
        RuleHelp {
            protects: r#"A tool call belongs to the message it is part of; a different owner puts the call in one lane and its message in another."#,
            fix: r#"Tag a tool call with the owner of the message its `parentMessageId` names (or drop the explicit tag)."#,
            example: r#"`TEXT_MESSAGE_START m1 (s1), TOOL_CALL_START c1 parent m1 (s2)` → `TOOL_CALL_START c1 parent m1 (s1)`"#,
        },
    ),
    (
        "ownership.step-owner",
        RuleHelp {
            protects: r#"A step is finished by the owner that started it; finishing another owner's step closes the wrong progress indicator."#,
            fix: r#"Tag `STEP_FINISHED` with the same `subagentRunId` as its `STEP_STARTED`."#,
            example: r#"`STEP_STARTED plan (s1), STEP_FINISHED plan (s2)` → `STEP_STARTED plan (s1), STEP_FINISHED plan (s1)`"#,
        },
    ),
    (
        "interrupt.run-not-interrupted",
        RuleHelp {
            protects: r#"A suspended invocation waits for the user; if the run does not finish as interrupted, the client never asks."#,
            fix: r#"Finish a run in which an invocation suspends with `RUN_FINISHED` whose outcome is `interrupt` (listing the interrupts)."#,
            example: r#"`SUBAGENT_FINISHED s1 suspended, RUN_FINISHED (success)` → `…, RUN_FINISHED outcome interrupt [i1]`"#,
        },
    ),
    (
        "interrupt.unknown-id",
        RuleHelp {
            protects: r#"A suspension that names an interrupt the run does not list cannot be answered: the client never shows it."#,
            fix: r#"List every id of a suspended outcome's `interruptIds` among the run's interrupt outcome."#,
            example: r#"`suspended interruptIds ["i9"]`, run interrupts `["i1"]` → `suspended interruptIds ["i1"]`"#,
        },
    ),
    (
        "interrupt.owner-mismatch",
        RuleHelp {
            protects: r#"The client routes the user's answer to the interrupt's owner; a wrong tag sends it to the wrong invocation."#,
            fix: r#"Tag each interrupt in the run outcome with the `subagentRunId` of the invocation that suspended on it."#,
            example: r#"run outcome interrupt `{"id":"i1"}` for s1 → `{"id":"i1","subagentRunId":"s1"}`"#,
        },
    ),
    (
        "chunk.ambiguous",
        RuleHelp {
            protects: r#"An id-less, untagged chunk is continued by whichever lane is open; with several open, consumers guess differently."#,
            fix: r#"Give chunks their `messageId`/`toolCallId` (or a `subagentRunId`) when more than one stream of the kind is open."#,
            example: r#"`TEXT_MESSAGE_CHUNK {"delta":"x"}` with two open messages → `TEXT_MESSAGE_CHUNK {"messageId":"m2","delta":"x"}`"#,
        },
    ),
    (
        "chunk.no-stream",
        RuleHelp {
            protects: r#"A chunk that opens a stream needs an id to open it under; without one, later chunks cannot be joined to it."#,
            fix: r#"Put `messageId` (text) or `toolCallId` (tool call) on the first chunk of a stream."#,
            example: r#"`TEXT_MESSAGE_CHUNK {"delta":"hi"}` (first) → `TEXT_MESSAGE_CHUNK {"messageId":"m1","delta":"hi"}`"#,
        },
    ),
    (
        "chunk.missing-name",
        RuleHelp {
            protects: r#"A tool call opened by a chunk without a name cannot be run: the client does not know which tool."#,
            fix: r#"Put `toolCallName` on the chunk that opens the call."#,
            example: r#"`TOOL_CALL_CHUNK {"toolCallId":"c1"}` → `TOOL_CALL_CHUNK {"toolCallId":"c1","toolCallName":"get_weather"}`"#,
        },
    ),
    (
        "chunk.opener-disagrees",
        RuleHelp {
            protects: r#"A continuing chunk that restates the opener's fields differently leaves consumers to pick one: the role, name or parent shown differs."#,
            fix: r#"Repeat the opener's `role`/`name`/`toolCallName`/`parentMessageId` exactly on continuing chunks, or leave them out."#,
            example: r#"`TOOL_CALL_CHUNK c1 name get_weather, TOOL_CALL_CHUNK c1 name search` → second chunk without `toolCallName`"#,
        },
    ),
    (
        "transport.status",
        RuleHelp {
            protects: r#"A client treats a non-2xx answer as a failure and reads no stream from it."#,
            fix: r#"Answer a valid `RunAgentInput` with 200 and the event stream; report an agent failure in the stream as `RUN_ERROR`."#,
            example: r#"`HTTP 500 {"error":…}` → `HTTP 200 text/event-stream: RUN_STARTED, RUN_ERROR`"#,
        },
    ),
    (
        "transport.content-type",
        RuleHelp {
            protects: r#"Without `text/event-stream`, an SSE client (EventSource, the AG-UI clients) may refuse the body or buffer it as a download."#,
            fix: r#"Send `Content-Type: text/event-stream` (FastAPI: `StreamingResponse(..., media_type="text/event-stream")`)."#,
            example: r#"`Content-Type: application/json` → `Content-Type: text/event-stream`"#,
        },
    ),
    (
        "transport.framing",
        RuleHelp {
            protects: r#"SSE clients ignore lines that are not fields; an event written without `data:` is silently lost."#,
            fix: r#"Write each event as `data: <json>` followed by a blank line (use the AG-UI `EventEncoder`)."#,
            example: r#"`{"type":"RUN_STARTED",…}` → `data: {"type":"RUN_STARTED",…}` + blank line"#,
        },
    ),
    (
        "transport.unterminated-event",
        RuleHelp {
            protects: r#"An SSE client dispatches an event at the blank line after it; the last event without one is discarded."#,
            fix: r#"End every event, the last one too, with a blank line (`\n\n`)."#,
            example: r#"`data: {"type":"RUN_FINISHED",…}\n` (end) → `data: {"type":"RUN_FINISHED",…}\n\n`"#,
        },
    ),
    (
        "transport.ended-early",
        RuleHelp {
            protects: r#"A connection cut before the run ends leaves the consumer with a half run and no error to show."#,
            fix: r#"Keep the response open until the run's terminal event is written and flushed; catch failures and send `RUN_ERROR` before closing."#,
            example: r#"reset after `TEXT_MESSAGE_CONTENT` → `…, RUN_ERROR` then a clean close"#,
        },
    ),
    (
        "transport.buffered",
        RuleHelp {
            protects: r#"Events delivered all at the end defeat streaming: the user waits, then sees everything at once."#,
            fix: r#"Flush after each event (disable proxy and framework buffering: `X-Accel-Buffering: no`, no gzip middleware on the stream)."#,
            example: r#"all events in the last 100 ms of 5 s → events sent as they happen"#,
        },
    ),
    (
        "transport.idle",
        RuleHelp {
            protects: r#"Proxies and load balancers close connections idle for about 30 to 60 s, cutting the run."#,
            fix: r#"While a run waits (a slow model or tool), send an SSE comment (`: keep-alive`) every 15 s or so."#,
            example: r#"30 s of silence → `: keep-alive` lines every 15 s"#,
        },
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_a_stream_can_break_has_its_help_and_no_other() {
        for r in RuleId::ALL.iter().filter(|r| r.rule().is_violation()) {
            let h = help(*r).unwrap_or_else(|| panic!("{} has no help", r.as_str()));
            for text in [h.protects, h.fix, h.example] {
                assert!(text.len() > 20, "{}: {text:?}", r.as_str());
            }
        }
        for (id, _) in HELP {
            let rule =
                RuleId::from_id(id).unwrap_or_else(|| panic!("{id} is not in the catalogue"));
            assert!(
                rule.rule().is_violation(),
                "{id} is an obligation, not a rule to fix"
            );
        }
        let mut ids: Vec<&str> = HELP.iter().map(|(id, _)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), HELP.len(), "an id twice");
    }
}
