// agui-conform from Node: runs the agui-conform binary as a subprocess and
// returns what its JSON output says. Nothing of the checker is
// re-implemented here: `check` is `check --format json`, the `Checker` is one
// long-lived `check -`, `checkUrl` is `check --url`, `runProducer` is
// `run --producer`, `fuzz` is `fuzz --format json`, `explain` is
// `explain --format json`.

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { fileURLToPath } from "node:url";
import { binary } from "./binary.js";
import { ConformError } from "./errors.js";
import { failed, reportOf } from "./outcome.js";

export { binary, PLATFORM_PACKAGES } from "./binary.js";
export { ConformError } from "./errors.js";
export { checkSync } from "./sync.js";

// ---------------------------------------------------------------- flags

const kebab = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/_/g, "-");

/**
 * Options as command-line flags, named as the flags are (camelCase or the
 * flag's own spelling): `maxLineBytes: 10` → `--max-line-bytes 10`,
 * `noProjection: true` → `--no-projection`, `failOn: "warning"`; false,
 * null and undefined leave a flag out; an array repeats it;
 * `rules: {id: "off"}` → `--rule id=off`.
 */
export function flags(options = {}) {
  const out = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "rules") {
      for (const [id, level] of Object.entries(value)) out.push("--rule", `${id}=${level}`);
      continue;
    }
    const flag = `--${kebab(key)}`;
    if (value === true) out.push(flag);
    else if (Array.isArray(value)) for (const v of value) out.push(flag, String(v));
    else out.push(flag, String(value));
  }
  return out;
}

/** The flags that shape the RunAgentInput sent and the request. */
function requestFlags({ message, state, tools, forwardedProps, headers } = {}) {
  const out = [];
  if (message !== undefined) out.push("--message", String(message));
  if (state !== undefined) out.push("--state", JSON.stringify(state));
  for (const tool of tools ?? []) {
    out.push("--tool", typeof tool === "string" ? tool : JSON.stringify(tool)); // JSON or @FILE as the CLI takes it
  }
  if (forwardedProps !== undefined) out.push("--forwarded-props", JSON.stringify(forwardedProps));
  for (const [name, value] of Object.entries(headers ?? {})) out.push("--header", `${name}: ${value}`);
  return out;
}

const REQUEST_KEYS = ["message", "state", "tools", "forwardedProps", "headers"];

function split(options, keys) {
  const picked = {};
  const rest = {};
  for (const [k, v] of Object.entries(options ?? {})) (keys.includes(k) ? picked : rest)[k] = v;
  return [picked, rest];
}

// ---------------------------------------------------------------- processes

/** One line of JSON Lines for an event: an object (serialised), or a line
 * of JSON text as it is (a line that is not JSON is `schema.not-json`). */
export function eventLine(event, index) {
  if (typeof event === "string" || event instanceof Uint8Array) {
    let line = typeof event === "string" ? event : Buffer.from(event).toString("utf8");
    line = line.replace(/\r?\n$/, "");
    if (/[\r\n]/.test(line)) {
      throw new TypeError(`event #${index} is a string holding a line break: feed one JSON line per event`);
    }
    return `${line}\n`;
  }
  let text;
  try {
    text = JSON.stringify(event);
  } catch (e) {
    throw new TypeError(`event #${index} cannot be written as JSON: ${e.message}`);
  }
  if (typeof text !== "string") {
    throw new TypeError(`event #${index} cannot be written as JSON (it is ${typeof event})`);
  }
  return `${text}\n`;
}

function spawnChecker(args) {
  const bin = binary();
  const child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
  child.stdin.on("error", () => {}); // EPIPE: the exit status says why
  return child;
}

function collect(child) {
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  return new Promise((resolve, reject) => {
    child.on("error", (e) =>
      reject(new ConformError(`agui-conform could not be started (${child.spawnfile}): ${e.message}`, { args: child.spawnargs })),
    );
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/** Writes a line; lines written in one tick leave in one write (cork now,
 * uncork on the next tick) instead of one system call each. */
function writeCorked(stream, line) {
  if (!stream.writableCorked) {
    stream.cork();
    process.nextTick(() => stream.uncork());
  }
  return stream.write(line);
}

async function writeAll(stream, chunks) {
  let index = 0;
  try {
    for await (const event of chunks) {
      const line = eventLine(event, index++);
      if (!writeCorked(stream, line)) {
        await new Promise((resolve) => {
          const done = () => {
            stream.off("drain", done);
            stream.off("close", done);
            resolve();
          };
          stream.on("drain", done);
          stream.on("close", done);
        });
      }
      if (stream.destroyed) break;
    }
  } finally {
    stream.end();
  }
}

/** Runs the binary with `args`; `stdin` is text, bytes, or an (async)
 * iterable of events. Resolves `{code, signal, stdout, stderr}`. */
async function run(args, stdin) {
  const child = spawnChecker(args);
  const done = collect(child);
  let feeding = Promise.resolve();
  if (stdin === undefined) child.stdin.end();
  else if (typeof stdin === "string" || stdin instanceof Uint8Array) child.stdin.end(stdin);
  else feeding = writeAll(child.stdin, stdin);
  const [result] = await Promise.all([
    done,
    feeding.catch((e) => {
      child.kill();
      throw e;
    }),
  ]);
  return { ...result, args };
}

function jsonLines(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a record's last line cut by a kill
    }
  }
  return out;
}

// ---------------------------------------------------------------- check

const isIterable = (x) => x != null && (typeof x[Symbol.iterator] === "function" || typeof x[Symbol.asyncIterator] === "function");

/** Text that is a stream rather than a path: JSON (an object or an array),
 * or anything with a line break (JSON Lines, an SSE body). */
const looksLikeStream = (s) => s.trim() === "" || /^\s*[[{]/.test(s) || s.includes("\n");

/**
 * What `check` reads: `{arg, stdin}` (a path, or `-` and what goes on
 * standard input).
 */
export function inputOf(input) {
  if (typeof input === "string") return looksLikeStream(input) ? { arg: "-", stdin: input } : { arg: input };
  if (input instanceof URL) return { arg: fileURLToPath(input) };
  if (input instanceof Uint8Array) return { arg: "-", stdin: input };
  if (input && typeof input === "object" && !isIterable(input) && typeof input.file === "string") return { arg: input.file };
  if (isIterable(input)) return { arg: "-", stdin: input };
  throw new TypeError(
    "check() takes events (an array or an iterable, sync or async, of event objects or JSON lines), " +
      "the stream's text (JSON Lines, one JSON array, an SSE body), a file (a path, a file: URL or {file})",
  );
}

function refuseUrl(options, what) {
  if (options && "url" in options) {
    throw new TypeError(`${what} checks a recorded stream; check a live endpoint with checkUrl(url, {message})`);
  }
}

/**
 * Checks a stream and resolves the report of `agui-conform check --format
 * json` (docs/check-report.schema.json). A stream that does not conform is
 * a report (verdict `reject`), not an error; a ConformError when the
 * checker cannot run or ends in a usage or I/O error (exit status 2).
 */
export async function check(input, options = {}) {
  refuseUrl(options, "check()");
  const { arg, stdin } = inputOf(input);
  const result = await run(["check", "--format", "json", ...flags(options), arg], stdin);
  return reportOf("agui-conform check", result);
}

// ---------------------------------------------------------------- Checker

/** Parses the violations of a JSON report as they are printed
 * (`{"violations":[{…},{…}` comes first, one object at a time). */
class ViolationStream {
  static PREFIX = '{"violations":[';

  constructor() {
    this.found = [];
    this.state = "prefix";
    this.text = "";
  }

  take(chunk) {
    if (this.state === "done") return;
    this.text += chunk;
    if (this.state === "prefix") {
      const p = ViolationStream.PREFIX;
      if (!(this.text.startsWith(p) || p.startsWith(this.text))) {
        this.state = "done";
        return;
      }
      if (this.text.length < p.length) return;
      this.text = this.text.slice(p.length);
      this.state = "array";
    }
    let pos = 0;
    const t = this.text;
    while (pos < t.length) {
      while (pos < t.length && " \t\r\n,".includes(t[pos])) pos++;
      if (pos >= t.length) break;
      if (t[pos] === "]") {
        this.state = "done";
        break;
      }
      const end = objectEnd(t, pos);
      if (end < 0) break;
      this.found.push(JSON.parse(t.slice(pos, end)));
      pos = end;
    }
    this.text = this.state === "done" ? "" : t.slice(pos);
  }
}

/** The end (exclusive) of the JSON object starting at `start`, or -1 when
 * it is not whole yet. */
function objectEnd(text, start) {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Checks a stream fed one event at a time over ONE `agui-conform check
 * --format json -` process: its standard input stays open while you feed,
 * findings are printed as they are found (`violations` holds those printed
 * so far), and `finish()` ends the input and resolves the whole report.
 */
export class Checker {
  constructor(options = {}) {
    refuseUrl(options, "Checker");
    this.options = options;
    this.fed = 0;
    /** The lines fed, kept (unless `keepEvents: false`) to show the
     * events around a finding. */
    this.lines = options.keepEvents === false ? undefined : [];
    const { keepEvents: _keep, ...rest } = options;
    this.child = spawnChecker(["check", "--format", "json", ...flags(rest), "-"]);
    this.stream = new ViolationStream();
    const decoder = new StringDecoder("utf8");
    this.child.stdout.on("data", (c) => this.stream.take(decoder.write(c)));
    this.result = collect(this.child);
    this.result.catch(() => {}); // surfaced by feed/finish
    this.report = undefined;
    this.closed = false;
  }

  /** The violations the checker has printed so far (each when it became
   * detectable: this may lag behind `feed`); `finish()` has them all. */
  get violations() {
    return this.report ? [...this.report.violations] : [...this.stream.found];
  }

  /** Sends one event: an object, or one line of JSON (string or bytes,
   * sent as it is). Returns false when the pipe's buffer is full (then
   * `await checker.drained()` before feeding much more, or not: it is
   * buffered either way). */
  feed(event) {
    if (this.report || this.closed) throw new Error("this Checker is finished or closed; start a new one");
    if (this.child.exitCode !== null || this.child.stdin.destroyed) {
      throw new ConformError(`agui-conform check exited with status ${this.child.exitCode} while being fed`, {
        exitCode: this.child.exitCode ?? undefined,
      });
    }
    const line = eventLine(event, this.fed);
    this.fed++;
    this.lines?.push(line);
    return writeCorked(this.child.stdin, line);
  }

  /** Feeds every event of an iterable (sync or async), waiting for the
   * pipe to drain as it goes. */
  async feedAll(events) {
    for await (const event of events) if (!this.feed(event)) await this.drained();
  }

  /** Resolves once the pipe's buffer has room again. */
  drained() {
    if (!this.child.stdin.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.child.stdin.off("drain", done);
        this.child.stdin.off("close", done);
        resolve();
      };
      this.child.stdin.on("drain", done);
      this.child.stdin.on("close", done);
    });
  }

  /** Ends the input and resolves the report (the same one when called
   * again); a ConformError when the checker could not run. */
  async finish() {
    if (this.report) return this.report;
    if (this.closed) throw new Error("this Checker was closed before it finished");
    this.child.stdin.end();
    const result = await this.result;
    this.report = reportOf("agui-conform check", { ...result, args: this.child.spawnargs });
    return this.report;
  }

  /** The events fed (parsed back where they were JSON), for messages. */
  events() {
    return (this.lines ?? []).map(parseLine);
  }

  /** Kills the checker process if it still runs. */
  close() {
    this.closed = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }

  [Symbol.dispose]() {
    this.close();
  }
}

function parseLine(line) {
  try {
    return JSON.parse(line);
  } catch {
    return line.replace(/\n$/, "");
  }
}

// ---------------------------------------------------------------- live

/**
 * Checks a running agent: POSTs a RunAgentInput to `url` and checks the
 * Server-Sent Events it answers with (`agui-conform check --url URL
 * --format json`, the `transport.*` rules included). `message`, `state`,
 * `tools`, `forwardedProps` and `headers` shape the request; `input` (an
 * object or a path) is `--input`; `timeout`, `idleTimeout`, `save`,
 * `rules` and every other option are flags of `check`. A ConformError when
 * nothing could be checked (no connection, a body with no event).
 */
export async function checkUrl(url, options = {}) {
  return (await checkUrlWithStderr(url, options)).report;
}

/** checkUrl's report with what the command printed on stderr as the
 * stream arrived (for the matchers). */
export async function checkUrlWithStderr(url, options = {}) {
  const [request, rest] = split(options, [...REQUEST_KEYS, "input"]);
  const tmp = await mkdtemp(join(tmpdir(), "agui-conform-"));
  try {
    const args = ["check", "--url", String(url), "--format", "json"];
    if (request.input !== undefined) args.push("--input", await jsonFile(tmp, "input.json", request.input));
    args.push(...requestFlags(request), ...flags(rest));
    const result = await run(args);
    return { report: reportOf(`agui-conform check --url ${url}`, result), stderr: result.stderr };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function jsonFile(dir, name, value) {
  if (typeof value === "string") return value;
  if (value instanceof URL) return fileURLToPath(value);
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(value));
  return path;
}

/**
 * Runs the producer suite against the agent at `url` (`agui-conform run
 * --producer URL --format json --record FILE`) and resolves the run
 * record's lines: `{header, scenarios, footer, summary}`
 * (docs/run-record.schema.json; each scenario has its `score` PASS, WARN,
 * SKIPPED, FAIL or ERRORED, `violations`, `steps` and `stream`).
 * `suite` (default `producer`), `baseInput` (an object or a path),
 * `message`, `state`, `tools`, `forwardedProps`, `headers`, `record` (keep
 * the record there), `timeoutMs`, `filter`, `toolName`, `rules` and every
 * other option are flags of `run`.
 */
export async function runProducer(url, options = {}) {
  const [request, rest] = split(options, [...REQUEST_KEYS, "baseInput", "record", "suite"]);
  const tmp = await mkdtemp(join(tmpdir(), "agui-conform-"));
  try {
    const record = request.record ?? join(tmp, "record.jsonl");
    await rm(record, { force: true }); // never read an earlier run's record
    const args = ["run", "--producer", String(url), "--suite", String(request.suite ?? "producer")];
    args.push("--format", "json", "--no-progress", "--record", record);
    if (request.baseInput !== undefined) args.push("--base-input", await jsonFile(tmp, "base-input.json", request.baseInput));
    args.push(...requestFlags(request), ...flags(rest));
    const result = await run(args);
    let lines = [];
    try {
      lines = jsonLines(await readFile(record, "utf8"));
    } catch {
      lines = [];
    }
    if (result.code === 2 || lines.length === 0 || lines[0].kind !== "header") {
      throw failed(`agui-conform run --producer ${url}`, result);
    }
    return {
      header: lines[0],
      scenarios: lines.filter((l) => l.kind === "scenario"),
      footer: lines.find((l) => l.kind === "footer") ?? null,
      summary: jsonLines(result.stdout).find((l) => "summary" in l)?.summary ?? null,
    };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- fuzz, explain, rules

/**
 * Fuzzes an implementation with generated streams (`agui-conform fuzz
 * --impl IMPL --format json`) and resolves the campaign's summary: `status`,
 * `scores`, `findings` (each distinct failure, shrunk), `covered`, `seed`.
 * `impl` is `reference` or a command line speaking suites/PROTOCOL.md;
 * `cases`, `time` (`"30s"`, or seconds), `seed`, `mode`, `rules` (comma-
 * separated ids, or an array), `save`, `record`, `jobs` and the rest are
 * flags of `fuzz`. At least one of `cases` or `time` is required (the
 * command otherwise runs until interrupted).
 */
export async function fuzz(options = {}) {
  const { impl, rules, ...rest } = options;
  if (!impl) throw new TypeError("fuzz() needs impl: `reference` or a command line speaking suites/PROTOCOL.md");
  if (rest.cases === undefined && rest.time === undefined) {
    throw new TypeError("fuzz() needs cases or time (the command otherwise runs until interrupted)");
  }
  const args = ["fuzz", "--impl", String(impl), "--format", "json", "--no-progress", ...flags(rest)];
  if (rules !== undefined) args.push("--rules", Array.isArray(rules) ? rules.join(",") : String(rules));
  const result = await run(args);
  const summary = jsonLines(result.stdout).findLast((l) => l && typeof l === "object" && "status" in l);
  if (result.code === 2 || !summary) throw failed("agui-conform fuzz", result);
  return summary;
}

/** One rule of the catalogue with the sentence of the draft it rests on
 * (`agui-conform explain RULE --format json`): `{id, area, severity,
 * obligation, statement, source, quote?}`. A ConformError for an unknown id. */
export async function explain(ruleId) {
  const result = await run(["explain", String(ruleId), "--format", "json"]);
  if (result.code !== 0) throw failed(`agui-conform explain ${ruleId}`, result);
  return JSON.parse(result.stdout);
}

let catalogue;

/** The rule catalogue (`agui-conform rules --format json`), read once. */
export async function rules() {
  if (!catalogue) {
    catalogue = run(["rules", "--format", "json"]).then((result) => {
      if (result.code !== 0) throw failed("agui-conform rules", result);
      return JSON.parse(result.stdout);
    });
    catalogue.catch(() => {
      catalogue = undefined;
    });
  }
  return catalogue;
}
