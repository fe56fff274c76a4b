// The text of a failed expectation: each finding as `agui-conform check`
// prints it (event index, severity, rule, message, the related event), its
// documentation link, then the few events around the first one. Never the
// raw JSON report.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const MAX_FINDINGS = 20;
const EVENT_CHARS = 240;

/** One finding as the CLI's text report prints it. */
export function findingLine(v) {
  const at = `#${v.index}`.padEnd(6);
  const see = v.related !== undefined ? ` (see #${v.related})` : "";
  return `  ${at} ${v.severity.padEnd(7)} ${v.rule}: ${v.message}${see}`;
}

/** Findings with their doc links, at most MAX_FINDINGS. */
export function findingLines(violations) {
  const out = [];
  for (const v of violations.slice(0, MAX_FINDINGS)) {
    out.push(findingLine(v));
    if (v.doc) out.push(`         ${v.doc}`);
  }
  if (violations.length > MAX_FINDINGS) out.push(`  … and ${violations.length - MAX_FINDINGS} more`);
  return out;
}

function short(event) {
  const text = typeof event === "string" ? event : JSON.stringify(event);
  return text.length > EVENT_CHARS ? `${text.slice(0, EVENT_CHARS - 1)}…` : text;
}

/** The events around event `index` (two before, one after, and the
 * related event), marked `>` at the finding. */
export function eventsAround(events, index, related) {
  if (!events || events.length === 0 || index >= events.length) return [];
  const shown = new Set();
  for (let i = Math.max(0, index - 2); i <= Math.min(events.length - 1, index + 1); i++) shown.add(i);
  if (related !== undefined && related < events.length) shown.add(related);
  const out = [`events around #${index}:`];
  let last = -1;
  for (const i of [...shown].sort((a, b) => a - b)) {
    if (last >= 0 && i > last + 1) out.push("     …");
    out.push(`  ${i === index ? ">" : " "} ${`#${i}`.padEnd(6)} ${short(events[i])}`);
    last = i;
  }
  return out;
}

/** The items of a stream's text, as the checker counts them (a JSON array's
 * elements, else the non-blank lines; an SSE body: its `data:` events). */
export function itemsOfText(text) {
  if (/^\s*\[/.test(text)) {
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not one array after all: read as lines
    }
  }
  const lines = text.split(/\r?\n/);
  if (/^(data|event|id|retry):|^:/.test(lines[0] ?? "")) {
    const out = [];
    let data = [];
    for (const line of lines) {
      if (line === "") {
        if (data.length) out.push(parseOr(data.join("\n")));
        data = [];
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length) out.push(parseOr(data.join("\n")));
    return out;
  }
  return lines.filter((l) => l.trim() !== "").map(parseOr);
}

function parseOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The events of a check's input, when they can be listed (for messages). */
export function eventsOf(input) {
  try {
    if (Array.isArray(input)) return input.map((e) => (typeof e === "string" ? parseOr(e) : e));
    if (typeof input === "string") {
      if (input.trim() === "" || /^\s*[[{]/.test(input) || input.includes("\n")) return itemsOfText(input);
      return itemsOfText(readFileSync(input, "utf8"));
    }
    if (input instanceof URL) return itemsOfText(readFileSync(fileURLToPath(input), "utf8"));
    if (input instanceof Uint8Array) return itemsOfText(Buffer.from(input).toString("utf8"));
    if (input && typeof input.file === "string") return itemsOfText(readFileSync(input.file, "utf8"));
  } catch {
    // a file that cannot be read again: the findings alone
  }
  return undefined;
}

/** Which violations fail an expectation: errors not allowed, and the
 * warnings not allowed once there are more than `maxWarnings`. */
export function failing(report, { allow = [], maxWarnings = Infinity } = {}) {
  const allowed = new Set(allow);
  const kept = report.violations.filter((v) => !allowed.has(v.rule));
  const errors = kept.filter((v) => v.severity === "error");
  const warnings = kept.filter((v) => v.severity === "warning");
  const bad = warnings.length > maxWarnings ? kept : errors;
  return { failing: bad, errors, warnings, allowed: report.violations.length - kept.length };
}

/** The whole message of a report that fails (or, with `not`, passes). */
export function reportMessage(subject, report, judged, { maxWarnings = Infinity, allow = [] } = {}, events) {
  const c = report.counts;
  const lines = [
    `${subject}: verdict ${report.verdict} — ${c.violations} violation(s) (${c.errors} error(s), ${c.warnings} warning(s)) in ${report.events} events`,
  ];
  const notes = [];
  if (judged.allowed) notes.push(`${judged.allowed} allowed (${allow.join(", ")})`);
  if (maxWarnings !== Infinity) notes.push(`at most ${maxWarnings} warning(s) accepted, ${judged.warnings.length} found`);
  if (notes.length) lines.push(`  ${notes.join("; ")}`);
  if (report.reason) lines.push(`  ${report.reason}`);
  for (const n of report.limits ?? []) lines.push(`  #${n.index} limit ${n.kind}: ${n.message}`);
  const shown = judged.failing.length ? judged.failing : report.violations;
  lines.push(...findingLines(shown));
  if (shown.length) {
    const around = eventsAround(events, shown[0].index, shown[0].related);
    if (around.length) lines.push("", ...around);
  }
  return lines.join("\n");
}

/** Whether a report meets an expectation: a verdict reached (accept or
 * reject) and nothing failing. */
export function passes(report, judged) {
  return (report.verdict === "accept" || report.verdict === "reject") && judged.failing.length === 0;
}

/** The message of a producer suite run. */
export function producerMessage(url, result, bad) {
  const footer = result.footer ?? {};
  const scores = result.summary?.scores ?? footer.totals ?? {};
  const counted = Object.entries(scores)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  const lines = [`${url} fails the producer suite (${footer.status ?? "no footer"}): ${counted}`];
  if (footer.incomplete) lines.push(`  incomplete: ${footer.incomplete}`);
  for (const s of bad) {
    const why = s.failure || s.refused || "";
    lines.push(`  ${s.score.padEnd(8)}${s.id}  ${s.events} events${why ? `: ${why}` : ""}`);
    for (const line of findingLines(s.violations ?? [])) lines.push(`  ${line}`);
  }
  const first = bad.find((s) => (s.violations ?? []).length);
  if (first) {
    const v = first.violations[0];
    const around = eventsAround(first.stream, v.index, v.related);
    if (around.length) lines.push("", `${first.id}: ${around[0]}`, ...around.slice(1));
  }
  return lines.join("\n");
}
