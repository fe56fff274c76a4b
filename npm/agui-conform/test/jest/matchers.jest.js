// The jest matchers (agui-conform/jest on jest's global expect), run by
// scripts/ci-npm.sh with jest in ESM mode.
import "agui-conform/jest";
import { planted, valid } from "../support/streams.js";
import { startServer } from "../support/sse-server.js";

test("toConform passes a valid stream and fails the planted bug with the findings' text", () => {
  expect(valid).toConform();
  expect(planted).not.toConform();
  let message = "";
  try {
    expect(planted).toConform();
  } catch (e) {
    message = e.message;
  }
  expect(message).toContain('  #2     error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for "m1" carries subagentRunId "s2", but "m1" was opened by invocation "s1" (see #1)');
  expect(message).toContain("         docs/rules.md#ownership.continuation-disagrees");
  expect(message).toContain('  > #2     {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello","subagentRunId":"s2"}');
});

test("toServeConformingStream", async () => {
  const server = await startServer();
  try {
    await expect(`${server.url}/`).toServeConformingStream({ message: "hi" });
    await expect(`${server.url}/planted`).not.toServeConformingStream({ message: "hi" });
  } finally {
    await server.close();
  }
});
