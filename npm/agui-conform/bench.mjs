// Per-call overhead of the npm package (docs/performance.md, "Node
// package: per-call overhead"). A benchmark, not a test: it prints a
// Markdown table of medians. Run it where `agui-conform` resolves (the
// package installed, or from this folder with AGUI_CONFORM_BIN set):
//   AGUI_CONFORM_BIN=target/dist/agui-conform node npm/agui-conform/bench.mjs [ROUNDS]
// Each row: the median and the fastest wall time of ROUNDS calls (default 30; 5 for the
// 100k-event rows), after one warm-up call. "spawn only" is the floor: the
// binary started by spawnSync on an empty input (what any call pays).

import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { Checker, binary, check, checkSync } from "./src/index.js";
import { toConform } from "./src/matchers.js";

const rounds = Number(process.argv[2] ?? 30);

/** A valid run of n events: one message of n - 4 deltas. */
function run(n) {
  const events = [{ type: "RUN_STARTED", threadId: "t1", runId: "r1" }, { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }];
  for (let i = 2; i < n - 2; i++) events.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "word " });
  events.push({ type: "TEXT_MESSAGE_END", messageId: "m1" }, { type: "RUN_FINISHED", threadId: "t1", runId: "r1" });
  return events;
}

async function median(n, fn) {
  await fn();
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(times.length / 2)], times[0]];
}

const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const bin = binary();
const rows = [];
rows.push(["spawn only (`check` of an empty input, spawnSync)", "0", await median(rounds, () => spawnSync(bin, ["check", "--format", "json", "-"], { input: "" }))]);
for (const n of [7, 100, 1006]) {
  const events = run(n);
  const accept = (r) => {
    if (r.verdict !== "accept") throw new Error(`expected accept, got ${r.verdict}`);
  };
  rows.push(["`await check(events)`", String(n), await median(rounds, async () => accept(await check(events)))]);
  rows.push(["`checkSync(events)`", String(n), await median(rounds, () => accept(checkSync(events)))]);
  rows.push(["`expect(events).toConform()` (the matcher's work)", String(n), await median(rounds, () => {
    if (!toConform(events).pass) throw new Error("expected a pass");
  })]);
  rows.push(["`await check(events, {noProjection: true})`", String(n), await median(rounds, async () => accept(await check(events, { noProjection: true })))]);
}
const big = run(100_000);
const few = Math.max(3, Math.min(rounds, 5));
rows.push(["`await check(events, {noProjection: true})`", "100,000", await median(few, async () => {
  if ((await check(big, { noProjection: true })).events !== 100_000) throw new Error("events");
})]);
rows.push(["`Checker`: `feed` each, `finish()` (`noProjection`, `keepEvents: false`)", "100,000", await median(few, async () => {
  const checker = new Checker({ noProjection: true, keepEvents: false });
  for (const e of big) if (!checker.feed(e)) await checker.drained();
  if ((await checker.finish()).events !== 100_000) throw new Error("events");
})]);

console.log(`Node ${process.version}, ${rounds} rounds (100k rows: ${few}), binary ${bin}\n`);
console.log("| call | events | median ms | min ms |");
console.log("|---|---:|---:|---:|");
for (const [what, n, [med, min]] of rows) console.log(`| ${what} | ${n} | ${ms(med)} | ${ms(min)} |`);
