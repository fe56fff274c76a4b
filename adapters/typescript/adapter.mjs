#!/usr/bin/env node
// agui-conform adapter for the AG-UI TypeScript client (@ag-ui/client 1.0.0).
// Usage: node adapter.mjs               persistent mode (start/run/stop)
//        node adapter.mjs --one-shot    one case on stdin, one result line out
//        node adapter.mjs --client-view for the report: what the client shows
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { format } from "node:util";

// stdout carries protocol lines only: anything the client logs goes to stderr,
// one line per call (the client prints a stack for every failed run; set
// AGUI_ADAPTER_VERBOSE=1 to keep it whole).
const verbose = Boolean(process.env.AGUI_ADAPTER_VERBOSE);
const toStderr = (...args) => {
  const text = format(...args);
  process.stderr.write(`${verbose ? text : text.split("\n")[0]}\n`);
};
for (const level of ["log", "info", "debug", "warn", "error"]) console[level] = toStderr;

const { runCase, clientView } = await import("./src/client-run.mjs");
const { servePersistent, serveOneShot } = await import("./src/protocol.mjs");

const require = createRequire(import.meta.url);
const clientPkg = JSON.parse(readFileSync(require.resolve("@ag-ui/client/package.json"), "utf8"));
const corePkg = JSON.parse(readFileSync(require.resolve("@ag-ui/core/package.json"), "utf8"));

const implementation = {
  name: "@ag-ui/client",
  version: `${clientPkg.version} (core ${corePkg.version})`,
  language: "typescript",
};
// verdict + index only: the client names no rule, and it keeps no invocation
// list, so it cannot report the projection (see adapters/README.md).
// raw-lines: a case given as raw JSON Lines text goes to the client's SSE
// parser as written.
const capabilities = ["verdict", "index", "raw-lines"];

if (process.argv.includes("--client-view")) {
  // Not the protocol: one JSON array of stream items per input line, answered
  // by one line with what the client shows afterwards (see clientView).
  const { createInterface } = await import("node:readline");
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") continue;
    process.stdout.write(`${JSON.stringify(await clientView(JSON.parse(line)))}\n`);
  }
} else if (process.argv.includes("--one-shot")) {
  await serveOneShot({ runCase });
} else {
  await servePersistent({ implementation, capabilities, runCase });
}
