// The vitest matchers: what passes, what fails, and the failure's text
// (written out here by hand from the spec and the CLI's text format).
import { describe, expect, it } from "vitest";
import "agui-conform/vitest";
import { check } from "agui-conform";
import { jsonl, planted, valid } from "./support/streams.js";

const failure = (fn) => {
  try {
    fn();
  } catch (e) {
    return e.message;
  }
  throw new Error("the expectation passed");
};

// A duplicate key is a warning (schema.duplicate-key), not an error.
const withWarning = [valid[0], '{"type":"TEXT_MESSAGE_START","messageId":"m1","messageId":"m1","role":"assistant"}', ...[
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  valid[4],
].map((e) => JSON.stringify(e))];

describe("toConform", () => {
  it("passes a valid stream, and its report", async () => {
    expect(valid).toConform();
    expect(jsonl(valid)).toConform({ maxWarnings: 0 });
    expect(await check(valid)).toConform();
  });

  it("fails on the planted ownership bug, listing the finding and the events around it", () => {
    expect(planted).not.toConform();
    expect(failure(() => expect(planted).toConform())).toBe(
      [
        "expected the stream to conform",
        "the stream: verdict reject — 1 violation(s) (1 error(s), 0 warning(s)) in 5 events",
        '  #2     error   ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for "m1" carries subagentRunId "s2", but "m1" was opened by invocation "s1" (see #1)',
        "         docs/rules.md#ownership.continuation-disagrees",
        "",
        "events around #2:",
        '    #0     {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}',
        '    #1     {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant","subagentRunId":"s1"}',
        '  > #2     {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello","subagentRunId":"s2"}',
        '    #3     {"type":"TEXT_MESSAGE_END","messageId":"m1","subagentRunId":"s1"}',
      ].join("\n"),
    );
  });

  it("never dumps the JSON report", () => {
    const message = failure(() => expect(planted).toConform());
    expect(message).not.toContain('"violations"');
    expect(message).not.toContain('"projection"');
  });

  it("sets allowed rules aside, and refuses an unknown one", () => {
    expect(planted).toConform({ allow: ["ownership.continuation-disagrees"] });
    expect(() => expect(planted).toConform({ allow: ["ownership.no-such-rule"] })).toThrow(
      "unknown rule id(s) in allow: ownership.no-such-rule",
    );
  });

  it("lets warnings through up to maxWarnings", () => {
    expect(withWarning).toConform();
    expect(withWarning).toConform({ maxWarnings: 1 });
    const message = failure(() => expect(withWarning).toConform({ maxWarnings: 0 }));
    expect(message).toContain("at most 0 warning(s) accepted, 1 found");
    expect(message).toMatch(/#1 +warning +schema\.duplicate-key: /);
  });

  it("fails on a stream with no events (no verdict)", () => {
    expect(failure(() => expect("").toConform())).toContain("verdict inconclusive");
    const message = failure(() => expect([]).toConform());
    expect(message).toContain("verdict inconclusive");
    expect(message).toContain("the input holds no events");
  });
});
