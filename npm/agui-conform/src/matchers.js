// The matchers, one object for `expect.extend` in vitest and jest:
//   expect(events).toConform({maxWarnings, allow, ...checkOptions})
//   await expect(url).toServeConformingStream({message, headers, ..., allow, maxWarnings})
//   await expect(url).toPassProducerSuite({suite, strict, ...runProducerOptions})
// A failure lists each finding as `agui-conform check` prints it, with its
// docs link, then the events around the first one.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkUrlWithStderr, runProducer } from "./index.js";
import { eventsOf, failing, itemsOfText, passes, producerMessage, reportMessage } from "./format.js";
import { checkSync, rulesSync } from "./sync.js";

const isReport = (x) => x && typeof x === "object" && !Array.isArray(x) && "verdict" in x && Array.isArray(x.violations);

function expectation(options = {}) {
  const { allow = [], maxWarnings = Infinity, ...checkOptions } = options;
  const list = typeof allow === "string" ? [allow] : [...allow];
  if (list.length) {
    const known = new Set(rulesSync().map((r) => r.id));
    const unknown = list.filter((id) => !known.has(id));
    if (unknown.length) throw new Error(`unknown rule id(s) in allow: ${unknown.join(", ")} (see \`agui-conform rules\`)`);
  }
  if (!(maxWarnings === Infinity || (Number.isInteger(maxWarnings) && maxWarnings >= 0))) {
    throw new TypeError(`maxWarnings must be a whole number of warnings, not ${maxWarnings}`);
  }
  return { judge: { allow: list, maxWarnings }, checkOptions };
}

function verdictOf(subject, report, judge, events, isNot) {
  const judged = failing(report, judge);
  const pass = passes(report, judged);
  const message = () =>
    isNot
      ? `expected ${subject} not to conform, but it does: ${reportMessage(subject, report, judged, judge, events)}`
      : `expected ${subject} to conform\n${reportMessage(subject, report, judged, judge, events)}`;
  return { pass, message };
}

/** `expect(events).toConform(options)`: events (an array or iterable of
 * events or JSON lines), a stream's text, a file, or a report from
 * `check`. Synchronous. */
export function toConform(received, options) {
  const { judge, checkOptions } = expectation(options);
  const report = isReport(received) ? received : checkSync(received, checkOptions);
  const events = isReport(received) ? undefined : eventsOf(received);
  const isPath = typeof received === "string" && received.trim() !== "" && !/^\s*[[{]/.test(received) && !received.includes("\n");
  const subject = isPath ? received : "the stream";
  return verdictOf(subject, report, judge, events, this?.isNot);
}

/** `await expect(url).toServeConformingStream(request)`: `checkUrl(url,
 * request)` judged as `toConform` judges, the events received around the
 * first finding. */
export async function toServeConformingStream(url, options) {
  const { judge, checkOptions } = expectation(options);
  const tmp = await mkdtemp(join(tmpdir(), "agui-conform-"));
  try {
    const save = checkOptions.save ?? join(tmp, "received.jsonl");
    const { report } = await checkUrlWithStderr(String(url), { ...checkOptions, save });
    let events;
    try {
      events = itemsOfText(await readFile(save, "utf8"));
    } catch {
      events = undefined;
    }
    return verdictOf(String(url), report, judge, events, this?.isNot);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** `await expect(url).toPassProducerSuite(options)`: `runProducer(url,
 * options)`; fails when a scenario scored FAIL or ERRORED (with `strict`,
 * WARN too) or the run did not pass. */
export async function toPassProducerSuite(url, options = {}) {
  const { strict = false, ...rest } = options;
  const result = await runProducer(String(url), rest);
  const badScores = strict ? ["FAIL", "ERRORED", "WARN"] : ["FAIL", "ERRORED"];
  const bad = result.scenarios.filter((s) => badScores.includes(s.score));
  const pass = bad.length === 0 && result.footer?.status === "passed";
  const message = () =>
    this?.isNot
      ? `expected ${url} not to pass the producer suite, but it does (${result.scenarios.length} scenarios)`
      : `expected ${url} to pass the producer suite\n${producerMessage(String(url), result, bad)}`;
  return { pass, message };
}

export const matchers = { toConform, toServeConformingStream, toPassProducerSuite };
