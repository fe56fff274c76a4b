// Runs one case through the published @ag-ui/client exactly as an application
// receiving the stream over HTTP would: the stream is framed as server-sent
// events and handed to the client's own transport parser
// (`transformHttpEventStream`, what `HttpAgent.run` returns), inside a real
// `AbstractAgent.runAgent`. The client therefore applies its whole inbound
// pipeline unchanged: the compatibility boundary, `enforceEvents` (the 1.0 zod
// event schemas), `transformChunks`, `verifyEvents` and `defaultApplyEvents`.
// Nothing here judges the stream; the adapter only observes where the client
// stopped.
import { AbstractAgent, transformHttpEventStream } from "@ag-ui/client";
import { Observable, Subject } from "rxjs";

const encoder = new TextEncoder();

/** A one-shot input line that is not JSON: sent to the client as it was. */
export class RawLine {
  constructor(line) {
    this.line = line;
  }
}

/** One SSE frame per stream item. */
function frame(item) {
  const text = item instanceof RawLine ? item.line : JSON.stringify(item);
  return encoder.encode(`data: ${text}\n\n`);
}

/**
 * An agent whose transport replays the case. `cursor` is the index of the
 * item being delivered; the client's pipeline is synchronous from the
 * transport to `verifyEvents`, so when the client fails while item `i` is
 * being delivered, `onError` runs with `cursor === i`. After the last item the
 * cursor is `events.length` (end of input).
 */
class ReplayAgent extends AbstractAgent {
  constructor(events) {
    super({ threadId: "agui-conform" });
    this.events = events;
    this.cursor = 0;
    this.delivered = false;
    this.failure = undefined;
  }

  run() {
    return new Observable((subscriber) => {
      const transport = new Subject();
      const inner = transformHttpEventStream(transport).subscribe(subscriber);
      transport.next({
        type: "headers",
        status: 200,
        headers: new Headers({ "content-type": "text/event-stream" }),
      });
      for (let i = 0; i < this.events.length && !subscriber.closed; i++) {
        this.cursor = i;
        transport.next({ type: "data", data: frame(this.events[i]) });
      }
      if (!subscriber.closed) {
        this.cursor = this.events.length;
        transport.complete();
      }
      this.delivered = true;
      return () => inner.unsubscribe();
    });
  }

  onError(input, error, subscribers) {
    if (this.failure === undefined) {
      this.failure = { index: this.cursor, synchronous: !this.delivered, error };
    }
    return super.onError(input, error, subscribers);
  }
}

/** The client's error message, with a zod error's issues on one line. */
function describe(error) {
  if (Array.isArray(error?.issues)) {
    const issues = error.issues.map((i) => `${(i.path ?? []).join(".") || "(event)"}: ${i.message}`);
    return `${error.name}: ${issues.join("; ")}`;
  }
  return error instanceof Error ? error.message : String(error);
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

// The client's log tags, and the stage of its inbound pipeline each names.
const TAGGED_STAGES = {
  compat: "CompatibilityBoundary",
  legacy: "CompatibilityBoundary",
  enforce: "enforceEvents",
  transform: "transformChunks",
  compact: "compactEvents",
  proto: "parseProtoStream",
};

/** The stage a log line comes from: its `[ag-ui][tag]`, else the reducer
 * (`defaultApplyEvents` logs untagged `TYPE: …` warnings). */
function stageOfLog(line) {
  const tag = /^\[ag-ui\]\[([a-z-]+)\]/.exec(line);
  if (tag) return TAGGED_STAGES[tag[1]] ?? `[ag-ui][${tag[1]}]`;
  return /^[A-Z_]+: /.test(line) || /^Failed to apply/.test(line) ? "defaultApplyEvents" : undefined;
}

/** The stage whose error stopped the run. */
function stageOfError(error) {
  if (error instanceof SyntaxError) return "transformHttpEventStream";
  if (Array.isArray(error?.issues)) return "enforceEvents";
  if (error?.name === "AGUIError" || error?.constructor?.name === "AGUIError") return "verifyEvents";
  return undefined;
}

/** What the client logged while `body` ran (first lines, ids it minted at
 * random shown as `<uuid>`), passed on to the adapter's own logging. */
async function capturingLogs(body) {
  const logs = [];
  const saved = {};
  for (const level of ["log", "info", "warn", "error"]) {
    saved[level] = console[level];
    console[level] = (...args) => {
      const first = args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ").split("\n")[0];
      if (!first.startsWith("Agent execution failed")) logs.push(first.replace(UUID, "<uuid>"));
      saved[level](...args);
    };
  }
  try {
    return { value: await body(), logs };
  } finally {
    Object.assign(console, saved);
  }
}

/** The answer's `explain` (suites/PROTOCOL.md): the stage of the client's
 * pipeline that decided it, and the warnings it logged. */
function explain(logs, error) {
  const warnings = logs.slice(0, 5);
  const stage = (error === undefined ? undefined : stageOfError(error)) ?? warnings.map(stageOfLog).find(Boolean);
  if (stage === undefined && warnings.length === 0) return undefined;
  return { ...(stage && { stage }), ...(warnings.length > 0 && { warnings }) };
}

/** A message the client keeps, in the projection's message form
 * (docs/projection.md): id, role, owner, content as text, tool calls,
 * activity type. */
function shownMessage(m) {
  const out = { id: m.id, role: m.role };
  if (m.subagentRunId !== undefined && m.subagentRunId !== null) out.owner = m.subagentRunId;
  if (m.role === "activity") {
    out.content = m.content;
    out.activityType = m.activityType;
  } else if (typeof m.content === "string") {
    out.content = m.content;
  } else if (Array.isArray(m.content)) {
    out.content = m.content.filter((p) => p?.type === "text").map((p) => p.text ?? "").join("");
  } else {
    out.content = "";
  }
  if (m.role === "assistant" && (m.toolCalls ?? []).length > 0) {
    out.toolCalls = m.toolCalls.map((t) => ({ id: t.id, name: t.function?.name, args: t.function?.arguments }));
  }
  return out;
}

/** What the client shows after an accepted stream, in projection form:
 * its reducer's messages (one list across runs), state and pending
 * interrupts. It keeps no invocations, so this is not a projection; the
 * report compares it with the expected one, informationally. */
function shown(agent) {
  return {
    messages: agent.messages.map(shownMessage),
    state: agent.state,
    interrupts: agent.pendingInterrupts.map((i) => ({ id: i.id, ...(i.subagentRunId != null && { owner: i.subagentRunId }) })),
  };
}

/** The protocol `result` (or `errored`) for one case. */
export async function runCase(events) {
  const agent = new ReplayAgent(events);
  const { value: error, logs } = await capturingLogs(async () => {
    try {
      await agent.runAgent();
      return undefined;
    } catch (e) {
      return e ?? new Error("unknown failure");
    }
  });
  const why = explain(logs, error);
  if (error !== undefined) {
    const failure = agent.failure;
    // Ids the client minted at random would make every run's report differ.
    const message = describe(error).replace(UUID, "<uuid>");
    if (failure === undefined || !failure.synchronous) {
      // The client failed after the whole stream was delivered, somewhere we
      // cannot tie to one event: report it rather than guess an index.
      return { errored: { message: `client failed after delivery: ${message}` } };
    }
    return { result: { verdict: "reject", index: failure.index, message, ...(why && { explain: why }) } };
  }
  return { result: { verdict: "accept", explain: { ...why, shown: shown(agent) } } };
}

/**
 * What the client shows after the stream (not part of the protocol): the
 * agent's messages, state and pending interrupts as its reducer left them,
 * with the verdict. Used by the conformance report to compare message
 * attribution with the expected projection.
 */
export async function clientView(events) {
  const agent = new ReplayAgent(events);
  let verdict = "accept";
  try {
    await agent.runAgent();
  } catch (error) {
    verdict = "reject";
  }
  return {
    verdict,
    messages: agent.messages,
    state: agent.state,
    pendingInterrupts: agent.pendingInterrupts,
  };
}
