// Streams the tests check, written from the spec (docs/rules.md), with the
// finding each must produce. `planted` is corpus/ownership/continuation-
// disagrees.json's bug inside a finished run: a subagent (s2) sends content
// into the message another invocation (s1) opened, so the checker must
// report ownership.continuation-disagrees at that event, related to the
// opener, and nothing else.

export const valid = [
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello", subagentRunId: "s1" },
  { type: "TEXT_MESSAGE_END", messageId: "m1", subagentRunId: "s1" },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
];

export const planted = [
  { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello", subagentRunId: "s2" },
  { type: "TEXT_MESSAGE_END", messageId: "m1", subagentRunId: "s1" },
  { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
];
/** planted's only finding. */
export const plantedFinding = { rule: "ownership.continuation-disagrees", index: 2, related: 1, severity: "error" };

export const jsonl = (events) => events.map((e) => `${JSON.stringify(e)}\n`).join("");

/** A valid run of `n` events (n ≥ 4): one message of n - 4 deltas. With
 * `plantAt`, the delta at that index is sent by subagent s2 into the
 * message the run (untagged: the parent) opened: ownership.continuation-
 * disagrees there. */
export function* longRun(n, plantAt) {
  yield { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
  yield { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" };
  for (let i = 2; i < n - 2; i++) {
    yield i === plantAt
      ? { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s2" }
      : { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" };
  }
  yield { type: "TEXT_MESSAGE_END", messageId: "m1" };
  yield { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
}
