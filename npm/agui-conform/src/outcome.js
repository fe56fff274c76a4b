// What a finished run of the binary gave: its JSON report, or a
// ConformError naming what failed and why (shared by the async API in
// index.js and checkSync in sync.js).

import { ConformError } from "./errors.js";

/** The error for a run of the binary that did not give what was asked. */
export function failed(what, result, detail = "") {
  const said = result.stderr.trim() || detail || result.stdout.trim().slice(0, 2000) || "no output";
  const status = result.signal ? `was killed by ${result.signal}` : `exited with status ${result.code}`;
  return new ConformError(`${what} ${status}: ${said}`, { stderr: result.stderr, exitCode: result.code, args: result.args });
}

/** The JSON report a run printed, or the error it is. */
export function reportOf(what, result) {
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    report = undefined;
  }
  if (result.code === 2 || !report || typeof report !== "object" || !("verdict" in report)) {
    throw failed(what, result, report && typeof report.error === "string" ? report.error : "");
  }
  return report;
}

