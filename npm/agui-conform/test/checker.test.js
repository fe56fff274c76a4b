// The incremental Checker: one long-lived `check -` process fed event by
// event, findings seen before the input ends.
import { describe, expect, it } from "vitest";
import { Checker, ConformError } from "agui-conform";
import { longRun, planted, plantedFinding, valid } from "./support/streams.js";

const N = 100_000;
const PLANT = 50_000;

async function until(condition, ms = 30_000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("Checker", () => {
  it("checks a 100k-event stream fed one event at a time", async () => {
    const checker = new Checker({ noProjection: true, keepEvents: false });
    for (const event of longRun(N)) if (!checker.feed(event)) await checker.drained();
    const report = await checker.finish();
    expect(checker.fed).toBe(N);
    expect(report.events).toBe(N);
    expect(report.verdict).toBe("accept");
    expect(report.violations).toEqual([]);
    expect(await checker.finish()).toBe(report);
  }, 120_000);

  it("reports a finding in the middle of a 100k-event stream before the input ends", async () => {
    const checker = new Checker({ noProjection: true });
    const events = [...longRun(N, PLANT)];
    for (const event of events.slice(0, PLANT + 1)) if (!checker.feed(event)) await checker.drained();
    await until(() => checker.violations.length > 0);
    expect(checker.violations).toEqual([expect.objectContaining({ rule: plantedFinding.rule, index: PLANT, related: 1 })]);
    await checker.feedAll(events.slice(PLANT + 1)); // the rest
    const report = await checker.finish();
    expect(report.events).toBe(N);
    expect(report.verdict).toBe("reject");
    expect(report.violations.map((v) => [v.rule, v.index])).toEqual([[plantedFinding.rule, PLANT]]);
    expect(checker.events()[PLANT]).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s2" });
  }, 120_000);

  it("feeds an async iterable as it yields", async () => {
    async function* agent() {
      for (const e of planted) {
        await new Promise((r) => setTimeout(r, 2));
        yield e;
      }
    }
    const checker = new Checker();
    await checker.feedAll(agent());
    const report = await checker.finish();
    expect(checker.fed).toBe(planted.length);
    expect(report.violations.map((v) => [v.rule, v.index])).toEqual([[plantedFinding.rule, plantedFinding.index]]);
  });

  it("takes JSON lines as they are, and refuses use after finish", async () => {
    const checker = new Checker();
    for (const e of planted) checker.feed(`${JSON.stringify(e)}\n`);
    const report = await checker.finish();
    expect(report.violations.map((v) => v.rule)).toEqual([plantedFinding.rule]);
    expect(() => checker.feed(valid[0])).toThrow(/finished or closed/);
  });

  it("fails with the command's error on a bad flag", async () => {
    const checker = new Checker({ maxDepth: "many" });
    checker.feed(valid[0]);
    const error = await checker.finish().catch((e) => e);
    expect(error).toBeInstanceOf(ConformError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain("--max-depth");
  });

  it("is killed by close", async () => {
    const checker = new Checker();
    checker.feed(valid[0]);
    checker.close();
    await expect(checker.finish()).rejects.toThrow(/closed before it finished/);
  });
});
