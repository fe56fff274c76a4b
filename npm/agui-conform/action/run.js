#!/usr/bin/env node
// The script of the agui-conform GitHub Action (action.yml at the
// repository's root). It checks recordings (`check --format json --sarif`)
// and/or runs the producer suite against a URL (`run --producer`), then:
//   - appends a findings table to $GITHUB_STEP_SUMMARY,
//   - prints one workflow command per finding (`::error file=…,line=…::`),
//     which GitHub shows as pull-request annotations on the files checked,
//   - appends `errors`, `warnings`, `verdict` and `sarif` to $GITHUB_OUTPUT,
//   - leaves the SARIF log of the recordings at INPUT_SARIF for
//     github/codeql-action/upload-sarif.
// Inputs (environment, set by action.yml): INPUT_FILES (files or
// directories, whitespace-separated), INPUT_RECURSIVE, INPUT_URL,
// INPUT_SUITE, INPUT_FAIL_ON, INPUT_MAX_WARNINGS, INPUT_SARIF, INPUT_FAIL.
// Exit status: 0, or 1 when the verdict is not accept and INPUT_FAIL is not
// `false`; 2 when the checker could not run.

import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { binary, runProducer } from "../src/index.js";

const input = (name, fallback = "") => (process.env[`INPUT_${name}`] ?? "").trim() || fallback;

/** A workflow command's data and property values, escaped as GitHub reads them. */
const escapeData = (s) => String(s).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (s) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
/** A Markdown table cell. */
const cell = (s) => String(s).replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function annotate(level, message, { file, line, title } = {}) {
  const props = [];
  if (file) props.push(`file=${escapeProperty(file)}`);
  if (line) props.push(`line=${line}`);
  if (title) props.push(`title=${escapeProperty(title)}`);
  process.stdout.write(`::${level}${props.length ? ` ${props.join(",")}` : ""}::${escapeData(message)}\n`);
}

const WORST = { accept: 0, inconclusive: 1, reject: 2 };
const worse = (a, b) => ((WORST[b] ?? 2) > (WORST[a] ?? 0) ? b : a);

/** Checks the recordings; returns the totals and the summary's Markdown. */
function checkFiles(files, sarif) {
  const args = ["check", "--format", "json", "--no-projection", "--sarif", sarif];
  if (input("RECURSIVE") === "true") args.push("--recursive");
  const failOn = input("FAIL_ON");
  if (failOn) args.push("--fail-on", failOn);
  const maxWarnings = input("MAX_WARNINGS");
  if (maxWarnings) args.push("--max-warnings", maxWarnings);
  args.push(...files);
  const proc = spawnSync(binary(), args, { encoding: "utf8", maxBuffer: 1 << 30 });
  const lines = (proc.stdout ?? "").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const summary = lines.find((l) => l.summary)?.summary;
  const reports = lines.filter((l) => !l.summary);
  if (proc.status === 2 && reports.every((r) => !("verdict" in r)) && !summary) {
    throw new Error(`agui-conform check exited with status 2: ${(proc.stderr ?? "").trim() || "no output"}`);
  }
  // One input: its report alone; several: one per file, then the summary.
  const perFile = summary ? summary.perFile.map((p, i) => ({ file: p.file, report: reports[i] })) : [{ file: files[0], report: reports[0] }];

  // Annotations: the SARIF log places each finding at its file and line.
  if (existsSync(sarif)) {
    const log = JSON.parse(readFileSync(sarif, "utf8"));
    for (const result of log.runs?.[0]?.results ?? []) {
      const where = result.locations?.[0]?.physicalLocation;
      annotate(result.level === "error" ? "error" : "warning", result.message.text, {
        file: where?.artifactLocation?.uri,
        line: where?.region?.startLine,
        title: `agui-conform: ${result.ruleId} (event ${result.properties?.eventIndex ?? "?"})`,
      });
    }
  }

  const totals = { errors: 0, warnings: 0, verdict: "accept" };
  const md = ["| recording | verdict | events | errors | warnings |", "|---|---|---:|---:|---:|"];
  const findings = ["| recording | event | severity | rule | message |", "|---|---:|---|---|---|"];
  for (const { file, report } of perFile) {
    if (!report || "error" in report || !("verdict" in report)) {
      md.push(`| ${cell(file)} | unreadable | | | ${cell(report?.error ?? "")} |`);
      annotate("error", report?.error ?? "unreadable", { file, title: "agui-conform: unreadable" });
      totals.verdict = "reject";
      continue;
    }
    totals.errors += report.counts.errors;
    totals.warnings += report.counts.warnings;
    totals.verdict = worse(totals.verdict, report.verdict);
    md.push(`| ${cell(file)} | ${report.verdict} | ${report.events} | ${report.counts.errors} | ${report.counts.warnings} |`);
    for (const v of report.violations) {
      const rule = v.doc && /^https?:/.test(v.doc) ? `[${v.rule}](${v.doc})` : `\`${v.rule}\``;
      findings.push(`| ${cell(file)} | #${v.index} | ${v.severity} | ${rule} | ${cell(v.message)} |`);
    }
  }
  const text = ["### agui-conform check", "", ...md, ""];
  if (findings.length > 2) text.push(...findings, "");
  return { totals, markdown: text.join("\n"), exit: proc.status };
}

/** Runs the producer suite; returns the totals and the summary's Markdown. */
async function producer(url) {
  const options = { suite: input("SUITE", "producer") };
  const failOn = input("FAIL_ON");
  if (failOn) options.failOn = failOn;
  const result = await runProducer(url, options);
  const totals = { errors: 0, warnings: 0, verdict: result.footer?.status === "passed" ? "accept" : "reject" };
  const md = [`### agui-conform run --producer ${url}`, "", "| scenario | score | events | finding |", "|---|---|---:|---|"];
  for (const s of result.scenarios) {
    const first = s.violations?.[0];
    const why = first ? `\`${first.rule}\` at #${first.index}: ${first.message}` : s.failure || s.refused || "";
    md.push(`| ${cell(s.id)} | ${s.score} | ${s.events} | ${cell(why)} |`);
    for (const v of s.violations ?? []) {
      if (v.severity === "error") totals.errors++;
      else totals.warnings++;
      annotate(v.severity === "error" ? "error" : "warning", `${s.id}: #${v.index} ${v.message}`, { title: `agui-conform: ${v.rule}` });
    }
    if ((s.score === "FAIL" || s.score === "ERRORED") && !(s.violations ?? []).length) {
      annotate("error", `${s.id}: ${s.failure || s.refused || s.score}`, { title: `agui-conform: ${s.id} ${s.score}` });
    }
  }
  return { totals, markdown: `${md.join("\n")}\n` };
}

async function main() {
  const files = input("FILES").split(/\s+/).filter(Boolean);
  const url = input("URL");
  const sarif = input("SARIF", "agui-conform.sarif");
  if (!files.length && !url) throw new Error("give the action `files` (recordings to check) or `url` (a producer to run the suite against)");
  const totals = { errors: 0, warnings: 0, verdict: "accept" };
  const parts = [];
  for (const part of [files.length ? checkFiles(files, sarif) : undefined, url ? await producer(url) : undefined]) {
    if (!part) continue;
    totals.errors += part.totals.errors;
    totals.warnings += part.totals.warnings;
    totals.verdict = worse(totals.verdict, part.totals.verdict);
    parts.push(part.markdown);
  }
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${parts.join("\n")}\n`);
  const outputs = { errors: totals.errors, warnings: totals.warnings, verdict: totals.verdict, sarif: files.length ? sarif : "" };
  if (process.env.GITHUB_OUTPUT) {
    appendFileSync(process.env.GITHUB_OUTPUT, Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join(""));
  }
  process.stdout.write(`agui-conform: verdict ${totals.verdict}, ${totals.errors} error(s), ${totals.warnings} warning(s)\n`);
  const maxWarnings = input("MAX_WARNINGS");
  const tooManyWarnings = maxWarnings !== "" && totals.warnings > Number(maxWarnings);
  const failed = totals.verdict !== "accept" || tooManyWarnings || (input("FAIL_ON") === "warning" && totals.warnings > 0);
  return failed && input("FAIL", "true") !== "false" ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    annotate("error", e.message, { title: "agui-conform could not run" });
    process.exit(2);
  },
);
