// action.yml's steps as a runner plays a composite action: each `run` in
// `bash --noprofile --norc -eo pipefail`, `${{ inputs.* }}` and
// `${{ steps.*.outputs.* }}` substituted, $GITHUB_ENV carried to the next
// step, the outputs read from each step's $GITHUB_OUTPUT. The package is
// installed from the packed tarballs (AGUI_TARBALLS, set by
// scripts/ci-npm.sh, which copies action.yml beside the project), offline.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { jsonl, planted, plantedFinding, valid } from "./support/streams.js";

const require = createRequire(import.meta.url);
const actionYml = resolve("action.yml");
const tarballs = process.env.AGUI_TARBALLS;
const dir = mkdtempSync(join(tmpdir(), "agui-conform-action-yml-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The action's folder as a runner checks it out: action.yml and the
 * package's action script at npm/agui-conform/action/run.js. */
function actionPath() {
  const path = join(dir, "action");
  if (!existsSync(path)) {
    mkdirSync(join(path, "npm"), { recursive: true });
    writeFileSync(join(path, "action.yml"), readFileSync(actionYml));
    symlinkSync(dirname(require.resolve("agui-conform/package.json")), join(path, "npm", "agui-conform"));
  }
  return path;
}

function substitute(text, ctx) {
  return String(text).replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e) => {
    const input = e.match(/^inputs\.([\w-]+)$/);
    if (input) return ctx.inputs[input[1]] ?? "";
    const out = e.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/);
    if (out) return ctx.steps[out[1]]?.[out[2]] ?? "";
    throw new Error(`an expression this runner does not know: ${e}`);
  });
}

const keyValues = (text) => Object.fromEntries(text.split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));

function runAction(inputs, extraEnv = {}) {
  const action = YAML.parse(readFileSync(actionYml, "utf8"));
  const path = actionPath();
  const run = mkdtempSync(join(dir, "run-"));
  const workspace = join(run, "workspace");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "planted.jsonl"), jsonl(planted));
  writeFileSync(join(workspace, "valid.jsonl"), jsonl(valid));
  const files = { summary: join(run, "summary.md"), env: join(run, "env") };
  writeFileSync(files.summary, "");
  writeFileSync(files.env, "");
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ""]));
  const ctx = { inputs: { ...defaults, ...inputs }, steps: {} };
  const base = { ...process.env, ...extraEnv, GITHUB_ACTION_PATH: path, RUNNER_TEMP: run, GITHUB_STEP_SUMMARY: files.summary, GITHUB_ENV: files.env };
  delete base.AGUI_CONFORM_BIN;
  let stdout = "";
  let status = 0;
  for (const [i, step] of action.runs.steps.entries()) {
    expect(step.shell).toBe("bash");
    const output = join(run, `output-${i}`);
    writeFileSync(output, "");
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(v, ctx)]));
    const env = { ...base, ...keyValues(readFileSync(files.env, "utf8")), ...stepEnv, GITHUB_OUTPUT: output };
    const proc = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step.run, ctx)], { cwd: workspace, env, encoding: "utf8" });
    stdout += proc.stdout;
    if (step.id) ctx.steps[step.id] = keyValues(readFileSync(output, "utf8"));
    status = proc.status;
    if (status !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, ctx)]));
  return { status, stdout, outputs, summary: readFileSync(files.summary, "utf8"), env: keyValues(readFileSync(files.env, "utf8")), run };
}

describe.skipIf(!tarballs || !existsSync(actionYml))("action.yml, played as a runner would", () => {
  it("installs the package, checks the recordings, fails on the planted bug with its outputs", () => {
    const result = runAction({ files: "planted.jsonl valid.jsonl", package: tarballs }, { npm_config_offline: "true" });
    expect(result.env.AGUI_CONFORM_BIN).toBe(join(result.run, "agui-conform-npm", "node_modules", "@agui-conform", "linux-x64", "bin", "agui-conform"));
    expect(result.status).toBe(1);
    expect(result.outputs).toEqual({ errors: "1", warnings: "0", verdict: "reject", sarif: "agui-conform.sarif" });
    expect(result.summary).toContain("| planted.jsonl | reject | 5 | 1 | 0 |");
    expect(result.stdout).toContain(`::error file=planted.jsonl,line=3,title=agui-conform%3A ${plantedFinding.rule} (event 2)::`);
    expect(existsSync(join(result.run, "workspace", "agui-conform.sarif"))).toBe(true);
  }, 120_000);

  it("takes a binary instead, and passes a conforming recording", () => {
    const binary = join(dirname(require.resolve("@agui-conform/linux-x64/package.json")), "bin", "agui-conform");
    const result = runAction({ files: "valid.jsonl", binary, sarif: "out.sarif" });
    expect(result.env.AGUI_CONFORM_BIN).toBe(binary);
    expect(result.status).toBe(0);
    expect(result.outputs).toEqual({ errors: "0", warnings: "0", verdict: "accept", sarif: "out.sarif" });
  });
});
