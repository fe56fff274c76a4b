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

/** The protocol `result` (or `errored`) for one case. */
export async function runCase(events) {
  const agent = new ReplayAgent(events);
  try {
    await agent.runAgent();
  } catch (error) {
    const failure = agent.failure;
    const message = describe(error);
    if (failure === undefined || !failure.synchronous) {
      // The client failed after the whole stream was delivered, somewhere we
      // cannot tie to one event: report it rather than guess an index.
      return { errored: { message: `client failed after delivery: ${message}` } };
    }
    return { result: { verdict: "reject", index: failure.index, message } };
  }
  return { result: { verdict: "accept" } };
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
