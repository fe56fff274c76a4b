// The API on valid and invalid streams, in every input form, and the clear
// errors of bad input. Expectations come from streams.js (written from the
// spec), never from the checker's output pasted back.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import { Checker, ConformError, binary, check, checkSync, checkUrl, explain, fuzz, rules } from "agui-conform";
import { jsonl, planted, plantedFinding, valid } from "./support/streams.js";

const dir = mkdtempSync(join(tmpdir(), "agui-conform-api-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

function expectPlanted(report) {
  expect(report.verdict).toBe("reject");
  expect(report.events).toBe(planted.length);
  expect(report.violations).toHaveLength(1);
  expect(report.violations[0]).toMatchObject({ ...plantedFinding, obligation: "must-reject", doc: `docs/rules.md#${plantedFinding.rule}` });
  expect(report.counts).toEqual({ violations: 1, errors: 1, warnings: 0, limits: 0 });
}

describe("check", () => {
  it("accepts a valid stream and reports its run and projection", async () => {
    const report = await check(valid);
    expect(report.verdict).toBe("accept");
    expect(report.violations).toEqual([]);
    expect(report.events).toBe(5);
    expect(report.runs).toEqual([{ outcome: "finished", start: 0, end: 4, threadId: "t1", runId: "r1" }]);
    expect(report.projection.runs[0].messages).toEqual([{ id: "m1", role: "assistant", content: "Hello", owner: "s1" }]);
  });

  it("rejects the planted ownership bug, in every input form", async () => {
    async function* slowly() {
      for (const e of planted) {
        await new Promise((r) => setTimeout(r, 5));
        yield e;
      }
    }
    const path = file("planted.jsonl", jsonl(planted));
    const inputs = [
      planted,
      planted.map((e) => JSON.stringify(e)),
      jsonl(planted),
      JSON.stringify(planted),
      planted.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""),
      path,
      pathToFileURL(path),
      { file: path },
      Buffer.from(jsonl(planted)),
      slowly(),
    ];
    for (const input of inputs) expectPlanted(await check(input));
    expectPlanted(checkSync(planted));
  });

  it("passes options as the CLI's flags", async () => {
    const off = await check(planted, { rules: { [plantedFinding.rule]: "off" }, noProjection: true });
    expect(off.verdict).toBe("accept");
    expect(off.violations).toEqual([]);
    expect(off).not.toHaveProperty("projection");
    const warn = await check(planted, { rules: { [plantedFinding.rule]: "warning" }, group: true });
    expect(warn.verdict).toBe("accept");
    expect(warn.violations[0].severity).toBe("warning");
    expect(warn.groups).toEqual([{ rule: plantedFinding.rule, severity: "warning", count: 1, first: 2, doc: `docs/rules.md#${plantedFinding.rule}` }]);
    const linked = await check(planted, { docsUrl: "https://example.org/docs" });
    expect(linked.violations[0].doc).toBe(`https://example.org/docs/rules.md#${plantedFinding.rule}`);
  });

  it("reports a line that is not JSON as schema.not-json, with its index", async () => {
    const report = await check(`${JSON.stringify(valid[0])}\nthis is not JSON\n${jsonl(valid.slice(1))}`);
    expect(report.verdict).toBe("reject");
    expect(report.violations[0]).toMatchObject({ rule: "schema.not-json", index: 1, severity: "error" });
  });

  it("says which event cannot be written as JSON", async () => {
    await expect(check([valid[0], { type: "TEXT_MESSAGE_START", messageId: 1n }])).rejects.toThrow(/event #1 cannot be written as JSON/);
    await expect(check(["{}\n{}"])).rejects.toThrow(/event #0 is a string holding a line break/);
    await expect(check(42)).rejects.toThrow(TypeError);
  });

  it("fails with the command's error on a file that cannot be read", async () => {
    const missing = join(dir, "missing.jsonl");
    const error = await check(missing).catch((e) => e);
    expect(error).toBeInstanceOf(ConformError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(`cannot open ${missing}`);
  });

  it("refuses a URL (checkUrl checks endpoints)", async () => {
    await expect(check(valid, { url: "http://127.0.0.1:9/" })).rejects.toThrow(/checkUrl/);
  });
});

describe("checkUrl", () => {
  it("fails clearly when the endpoint refuses the connection", async () => {
    const error = await checkUrl("http://127.0.0.1:9/agent", { message: "hi", timeout: 10 }).catch((e) => e);
    expect(error).toBeInstanceOf(ConformError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/http:\/\/127\.0\.0\.1:9\/agent.*Connection refused/);
  });
});

describe("explain, rules, fuzz", () => {
  it("explains a rule with the draft's sentence", async () => {
    const rule = await explain(plantedFinding.rule);
    expect(rule).toMatchObject({ id: plantedFinding.rule, area: "ownership", severity: "error", obligation: "must-reject" });
    expect(rule.quote).toBe("A consumer MUST reject a continuation whose tag disagrees with its opener.");
    const error = await explain("no.such-rule").catch((e) => e);
    expect(error).toBeInstanceOf(ConformError);
    expect(error.message).toContain("unknown rule id `no.such-rule`");
  });

  it("lists the catalogue", async () => {
    const ids = (await rules()).map((r) => r.id);
    expect(ids).toContain(plantedFinding.rule);
    expect(ids).toContain("run.unterminated");
  });

  it("fuzzes the reference with a fixed seed and case count", async () => {
    // Streams breaking one rule, built to break it: the reference must
    // name it in every case.
    const summary = await fuzz({ impl: "reference", cases: 40, seed: 7, mode: "invalid", rules: [plantedFinding.rule] });
    expect(summary.status).toBe("passed");
    expect(summary.cases).toBe(40);
    expect(summary.seed).toBe(7);
    expect(summary.scores.PASS).toBe(40);
    expect(summary.covered).toEqual([plantedFinding.rule]);
    expect(summary.findings).toEqual([]);
    await expect(fuzz({ impl: "reference" })).rejects.toThrow(/cases or time/);
  });
});

describe("the binary", () => {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve("agui-conform/package.json"));

  it("comes from the platform package", () => {
    expect(binary()).toBe(join(dirname(require.resolve("@agui-conform/linux-x64/package.json")), "bin", "agui-conform"));
  });

  it("is named in a clear error when there is none", () => {
    // The package alone (no platform package beside it), no PATH, no AGUI_CONFORM_BIN.
    const alone = mkdtempSync(join(tmpdir(), "agui-conform-alone-"));
    try {
      cpSync(pkgDir, join(alone, "node_modules", "agui-conform"), { recursive: true });
      const env = { ...process.env, PATH: "/nonexistent" };
      delete env.AGUI_CONFORM_BIN;
      const script = "import('agui-conform').then(m => m.check([])).catch(e => { console.log(e.name + ': ' + e.message); })";
      const out = spawnSync(process.execPath, ["-e", script], { cwd: alone, env, encoding: "utf8" });
      expect(out.stdout).toContain("ConformError: the agui-conform executable was not found");
      expect(out.stdout).toContain("AGUI_CONFORM_BIN is not set");
      expect(out.stdout).toContain("the platform package @agui-conform/linux-x64 is not installed");
      expect(out.stdout).toContain("no agui-conform on PATH");
      const cli = spawnSync(process.execPath, [join(alone, "node_modules", "agui-conform", "bin", "agui-conform.js"), "rules"], { env, encoding: "utf8" });
      expect(cli.status).toBe(2);
      expect(cli.stderr).toContain("the agui-conform executable was not found");
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });

  it("is AGUI_CONFORM_BIN when set, and an error when that is no executable", () => {
    const script = "import('agui-conform').then(m => console.log(m.binary())).catch(e => console.log(e.message))";
    const run = (bin) => spawnSync(process.execPath, ["-e", script], { env: { ...process.env, AGUI_CONFORM_BIN: bin }, encoding: "utf8" }).stdout.trim();
    expect(run(binary())).toBe(binary());
    expect(run(join(dir, "nothing-here"))).toBe(`AGUI_CONFORM_BIN is set to ${join(dir, "nothing-here")}, which is not an executable file`);
  });

  it("runs as `npx agui-conform`, with the command's exit status", () => {
    const bad = file("bad.jsonl", jsonl(planted));
    const npx = spawnSync("npx", ["--no-install", "agui-conform", "check", bad], { encoding: "utf8" });
    expect(npx.status).toBe(1);
    expect(npx.stdout).toContain(`#2     error   ${plantedFinding.rule}:`);
    const ok = spawnSync("npx", ["--no-install", "agui-conform", "check", file("ok.jsonl", jsonl(valid))], { encoding: "utf8" });
    expect(ok.status).toBe(0);
  });
});
