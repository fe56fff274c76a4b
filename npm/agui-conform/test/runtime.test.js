// The Node this suite runs on is the one scripts/ci-npm.sh meant (20, 22).
import { expect, it } from "vitest";

it.skipIf(!process.env.AGUI_EXPECT_NODE)("runs on the Node asked for", () => {
  expect(process.version.split(".")[0]).toBe(`v${process.env.AGUI_EXPECT_NODE}`);
});
