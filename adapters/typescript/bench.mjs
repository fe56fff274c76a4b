#!/usr/bin/env node
// The TypeScript peer pipeline of `agui-bench`: one JSON Lines file through
// JSON.parse, the AG-UI 1.0 zod event schema (`EventSchemas` of @ag-ui/core)
// and `verifyEvents` of @ag-ui/client 1.0.0 — the client's own checks, with
// no transport, no chunk transform and no state application around them.
// Usage: node bench.mjs FILE   →   one JSON summary line on stdout.
// Every line is parsed and schema-checked even after verifyEvents has
// rejected the stream (it stops the observable), so the work per line is the
// same whatever the verdict.
import { closeSync, openSync, readSync } from "node:fs";
import { verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { Subject } from "rxjs";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: node bench.mjs FILE\n");
  process.exit(2);
}
// The client logs through console; keep stdout for the summary.
for (const level of ["log", "info", "debug", "warn", "error"]) console[level] = () => {};

const started = process.hrtime.bigint();
let events = 0;
let bytes = 0;
let schemaErrors = 0;
let firstError;
const source = new Subject();
verifyEvents(false)(source).subscribe({
  next() {},
  error(e) {
    firstError ??= { index: events - 1, message: String(e?.message ?? e).split("\n")[0] };
  },
});

function line(buf, start, end) {
  if (end > start && buf[end - 1] === 13) end -= 1;
  if (end <= start) return;
  const text = buf.toString("utf8", start, end);
  if (text.trim() === "") return;
  events += 1;
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    schemaErrors += 1;
    firstError ??= { index: events - 1, message: `JSON.parse: ${e.message}` };
    return;
  }
  const parsed = EventSchemas.safeParse(value);
  if (!parsed.success) {
    schemaErrors += 1;
    firstError ??= { index: events - 1, message: `schema: ${parsed.error.issues[0]?.message}` };
    return;
  }
  source.next(parsed.data);
}

const fd = openSync(file, "r");
const chunk = Buffer.allocUnsafe(1 << 20);
let carry = Buffer.alloc(0);
for (;;) {
  const n = readSync(fd, chunk, 0, chunk.length, null);
  if (n === 0) break;
  bytes += n;
  const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
  let start = 0;
  for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
    line(buf, start, nl);
    start = nl + 1;
  }
  carry = Buffer.from(buf.subarray(start));
}
if (carry.length) line(carry, 0, carry.length);
closeSync(fd);
source.complete();

const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const verdict = firstError === undefined ? "accept" : "reject";
process.stdout.write(
  `${JSON.stringify({ events, bytes, seconds, verdict, schemaErrors, firstError })}\n`,
);
