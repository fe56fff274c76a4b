#!/usr/bin/env node
// `npx agui-conform …`: runs the agui-conform binary with these arguments,
// standard streams shared, and exits as it exits.
import { spawn } from "node:child_process";
import { binary } from "../src/binary.js";

let bin;
try {
  bin = binary();
} catch (e) {
  process.stderr.write(`agui-conform: ${e.message}\n`);
  process.exit(2);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (e) => {
  process.stderr.write(`agui-conform: could not run ${bin}: ${e.message}\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 2);
});
