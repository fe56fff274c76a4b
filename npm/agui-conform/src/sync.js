// The synchronous check the `toConform` matcher needs (a matcher called
// without `await` must answer at once): `check --format json` through
// spawnSync. The binary answers a few thousand events in milliseconds.

import { spawnSync } from "node:child_process";
import { binary } from "./binary.js";
import { ConformError } from "./errors.js";
import { eventLine, flags, inputOf } from "./index.js";
import { reportOf } from "./outcome.js";

const MAX_BUFFER = 1 << 30;

function runSync(args, input) {
  const bin = binary();
  const proc = spawnSync(bin, args, { input, maxBuffer: MAX_BUFFER, windowsHide: true });
  if (proc.error) {
    throw new ConformError(`agui-conform could not be run (${bin}): ${proc.error.message}`, { args });
  }
  return {
    code: proc.status,
    signal: proc.signal,
    stdout: proc.stdout.toString("utf8"),
    stderr: proc.stderr.toString("utf8"),
    args,
  };
}

/**
 * `check` run synchronously: the same input forms but async iterables,
 * the same report. Returns `{report, events}`: `events` is what was
 * checked as a list (for the events around a finding), when it is known.
 */
export function checkSync(input, options = {}) {
  if (options && "url" in options) throw new TypeError("checkSync() checks a recorded stream, not a URL");
  if (input != null && typeof input[Symbol.asyncIterator] === "function" && typeof input[Symbol.iterator] !== "function") {
    throw new TypeError("an async iterable of events cannot be checked synchronously: `await check(events)` and match the report");
  }
  const { arg, stdin } = inputOf(input);
  let text = stdin;
  if (stdin !== undefined && typeof stdin !== "string" && !(stdin instanceof Uint8Array)) {
    let i = 0;
    const lines = [];
    for (const event of stdin) lines.push(eventLine(event, i++));
    text = lines.join("");
  }
  return reportOf("agui-conform check", runSync(["check", "--format", "json", ...flags(options), arg], text));
}

let catalogue;

/** The rule catalogue, read once (synchronously). */
export function rulesSync() {
  if (!catalogue) {
    const result = runSync(["rules", "--format", "json"]);
    if (result.code !== 0) throw new ConformError(`agui-conform rules exited with status ${result.code}: ${result.stderr.trim()}`);
    catalogue = JSON.parse(result.stdout);
  }
  return catalogue;
}
