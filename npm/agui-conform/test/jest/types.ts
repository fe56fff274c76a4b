// Type-checked by scripts/ci-npm.sh (tsc --noEmit, strict): the jest
// matchers' types through @jest/globals. Not run.
import { expect, test } from "@jest/globals";
import "agui-conform/jest";

test("types", async () => {
  expect([]).toConform({ maxWarnings: 0, allow: ["run.unterminated"] });
  await expect("http://localhost:1/").toServeConformingStream({ message: "hi" });
  await expect("http://localhost:1/").toPassProducerSuite({ strict: true });
  // @ts-expect-error: maxWarnings is a number
  expect([]).toConform({ maxWarnings: "none" });
});
