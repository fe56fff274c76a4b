// Type-checked by scripts/ci-npm.sh (tsc --noEmit, strict): the API's and
// the matchers' types as a TypeScript user meets them. Not run.
import { expect, test } from "vitest";
import "agui-conform/vitest";
import { Checker, ConformError, check, checkUrl, explain, fuzz, runProducer, type Report, type Violation } from "agui-conform";

test("types", async () => {
  const report: Report = await check([{ type: "RUN_STARTED", threadId: "t", runId: "r" }], { noProjection: true, rules: { "run.unterminated": "off" }, failOn: "warning" });
  const first: Violation | undefined = report.violations[0];
  const verdict: "accept" | "reject" | "inconclusive" = report.verdict;
  const checker = new Checker({ maxDepth: 100 });
  const more: boolean = checker.feed('{"type":"RUN_STARTED"}');
  const done: Report = await checker.finish();
  const live: Report = await checkUrl("http://localhost:1/", { message: "hi", headers: { A: "b" }, timeout: 5 });
  const suite = await runProducer(new URL("http://localhost:1/"), { suite: "producer", baseInput: { state: {} } });
  const score: string = suite.scenarios[0].score;
  const fuzzed = await fuzz({ impl: "reference", cases: 10 });
  const statement: string = (await explain("run.unterminated")).statement;
  const error = new ConformError("x");
  const code: number | undefined = error.exitCode;
  expect([first, verdict, more, done, live, score, fuzzed.status, statement, code]).toBeDefined();
  expect([]).toConform({ maxWarnings: 0, allow: ["run.unterminated"] });
  await expect("http://localhost:1/").toServeConformingStream({ message: "hi", allow: "run.unterminated" });
  await expect("http://localhost:1/").toPassProducerSuite({ strict: true, filter: "plain" });
  // @ts-expect-error: maxWarnings is a number
  expect([]).toConform({ maxWarnings: "none" });
  // @ts-expect-error: a rule's level is error, warning or off
  await check([], { rules: { "run.unterminated": "fatal" } });
});
