// The agui-conform implementation protocol, version 1 (suites/PROTOCOL.md):
// JSON Lines on stdin/stdout, persistent (start/run/stop) or one-shot.
import { createInterface } from "node:readline";
import { RawLine } from "./client-run.mjs";

export const PROTOCOL = 1;

function send(obj) {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}

function exit(code) {
  process.stdout.write("", () => process.exit(code));
}

/** Persistent mode: one process serves many cases, answered in order. */
export async function servePersistent({ implementation, capabilities, runCase }) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      console.error(`adapter: ignoring a line that is not JSON: ${e.message}`);
      continue;
    }
    switch (msg?.cmd) {
      case "start":
        if (msg.protocol !== PROTOCOL) {
          send({ protocol: PROTOCOL, error: `this adapter speaks protocol ${PROTOCOL}, not ${JSON.stringify(msg.protocol)}` });
        } else {
          send({ protocol: PROTOCOL, implementation, capabilities });
        }
        break;
      case "run": {
        const seq = msg.seq;
        // `lines` (capability raw-lines): the stream as the producer wrote
        // it, handed to the client's own SSE parser line by line.
        const lines = msg.case?.lines;
        const events = Array.isArray(lines) ? lines.map((l) => new RawLine(String(l))) : msg.case?.events;
        if (!Array.isArray(events)) {
          send({ seq, errored: { message: "run: case has neither events nor lines" } });
          break;
        }
        let answer;
        try {
          answer = await runCase(events);
        } catch (e) {
          answer = { errored: { message: `adapter failure: ${e?.stack ?? e}` } };
        }
        send({ seq, ...answer });
        break;
      }
      case "stop":
        exit(0);
        return;
      default:
        console.error(`adapter: ignoring unknown command ${JSON.stringify(msg?.cmd)}`);
    }
  }
  exit(0);
}

/**
 * One-shot mode: the case's items arrive as JSON Lines and stdin closes; the
 * answer is the `result` object alone. Every line is passed on as the raw
 * line it was (the client's own SSE parser reads it: duplicate keys, lone
 * surrogates and huge numbers reach it as written).
 */
export async function serveOneShot({ runCase }) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const events = [];
  for await (const line of lines) {
    if (line.trim() === "") continue;
    events.push(new RawLine(line));
  }
  let answer;
  try {
    answer = await runCase(events);
  } catch (e) {
    answer = { errored: { message: `adapter failure: ${e?.stack ?? e}` } };
  }
  if (answer.result) {
    send(answer.result);
    exit(0);
  } else {
    console.error(answer.errored?.message ?? "adapter: no result");
    exit(1);
  }
}
