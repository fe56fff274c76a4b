// The action's script (action/run.js) as GitHub runs it: the GITHUB_*
// files are temporary files here; what it writes there and prints is
// checked against the planted and valid recordings of streams.js.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { jsonl, planted, plantedFinding, valid } from "./support/streams.js";

const require = createRequire(import.meta.url);
const script = join(dirname(require.resolve("agui-conform/package.json")), "action", "run.js");
const dir = mkdtempSync(join(tmpdir(), "agui-conform-action-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "planted.jsonl"), jsonl(planted));
writeFileSync(join(dir, "valid.jsonl"), jsonl(valid));

function runAction(inputs) {
  const summary = join(dir, `summary-${Math.random()}.md`);
  const output = join(dir, `output-${Math.random()}.txt`);
  writeFileSync(summary, "");
  writeFileSync(output, "");
  const env = { ...process.env, GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: output };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k}`] = v;
  const proc = spawnSync(process.execPath, [script], { cwd: dir, env, encoding: "utf8" });
  return { ...proc, summary: readFileSync(summary, "utf8"), output: readFileSync(output, "utf8") };
}

describe("the action's script", () => {
  it("writes the summary table, annotations, outputs and SARIF for a failing recording", () => {
    const run = runAction({ FILES: "planted.jsonl valid.jsonl", SARIF: "out.sarif" });
    expect(run.status).toBe(1);
    expect(run.output).toBe("errors=1\nwarnings=0\nverdict=reject\nsarif=out.sarif\n");
    expect(run.summary).toContain("| recording | verdict | events | errors | warnings |");
    expect(run.summary).toContain("| planted.jsonl | reject | 5 | 1 | 0 |");
    expect(run.summary).toContain("| valid.jsonl | accept | 5 | 0 | 0 |");
    expect(run.summary).toContain(
      `| planted.jsonl | #2 | error | \`${plantedFinding.rule}\` | TEXT_MESSAGE_CONTENT for "m1" carries subagentRunId "s2", but "m1" was opened by invocation "s1" |`,
    );
    // Event #2 is line 3 of the JSON Lines file.
    expect(run.stdout).toContain(
      `::error file=planted.jsonl,line=3,title=agui-conform%3A ${plantedFinding.rule} (event 2)::TEXT_MESSAGE_CONTENT for "m1" carries subagentRunId "s2", but "m1" was opened by invocation "s1"\n`,
    );
    expect(run.stdout.match(/^::/gm)).toHaveLength(1);
    const sarif = JSON.parse(readFileSync(join(dir, "out.sarif"), "utf8"));
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.map((r) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri])).toEqual([
      [plantedFinding.rule, "planted.jsonl"],
    ]);
  });

  it("passes a conforming recording, and only reports with fail: false", () => {
    const ok = runAction({ FILES: "valid.jsonl" });
    expect(ok.status).toBe(0);
    expect(ok.output).toBe("errors=0\nwarnings=0\nverdict=accept\nsarif=agui-conform.sarif\n");
    expect(ok.stdout).not.toMatch(/^::/m);
    const report = runAction({ FILES: "planted.jsonl", FAIL: "false" });
    expect(report.status).toBe(0);
    expect(report.output).toContain("verdict=reject\n");
  });

  it("fails clearly without inputs, or on a file that is not there", () => {
    const none = runAction({});
    expect(none.status).toBe(2);
    expect(none.stdout).toContain("::error title=agui-conform could not run::give the action `files`");
    const missing = runAction({ FILES: "missing.jsonl" });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toContain("cannot open missing.jsonl");
  });
});

const mastra = process.env.AGUI_MASTRA_URL;

describe.skipIf(!mastra)("the action's script against the Mastra producer", () => {
  it("tables the producer suite's scenarios", () => {
    const run = runAction({ URL: mastra });
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/^errors=\d+\nwarnings=\d+\nverdict=reject\nsarif=\n$/);
    expect(run.summary).toContain(`### agui-conform run --producer ${mastra}`);
    expect(run.summary).toMatch(/\| plain \| PASS \| \d+ \| {2}\|/);
    expect(run.summary).toMatch(/\| state-carrying \| FAIL \| \d+ \| the producer refused a valid input/);
    expect(run.stdout).toContain("::error title=agui-conform%3A state-carrying FAIL::state-carrying: the producer refused a valid input");
  }, 300_000);
});
