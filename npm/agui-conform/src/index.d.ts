// Types of agui-conform's Node API. The report types follow
// docs/check-report.schema.json (check --format json) and the run record
// docs/run-record.schema.json (run --producer --record).

/** An AG-UI event as JSON (its `type` and the rest of its fields). */
export type AgUiEvent = { type?: string; [field: string]: unknown };

/** What `check` reads: events (objects or JSON lines; sync or async), the
 * stream's text (JSON Lines, one JSON array, an SSE body: a string that
 * starts with `{` or `[` or holds a line break), or a file (a path, a
 * `file:` URL, `{file}`). */
export type CheckInput =
  | Iterable<AgUiEvent | string | Uint8Array>
  | AsyncIterable<AgUiEvent | string | Uint8Array>
  | string
  | Uint8Array
  | URL
  | { file: string };

export type Severity = "error" | "warning";
export type Level = Severity | "off";
export type Obligation = "must-reject" | "should-reject" | "may-reject" | "must-accept" | "none";
export type Verdict = "accept" | "reject" | "inconclusive";

export interface Violation {
  rule: string;
  /** The event's index in the stream (from 0). */
  index: number;
  severity: Severity;
  obligation: Obligation;
  message: string;
  /** The offending field, dotted (`delta[0].path`). */
  path?: string;
  /** The same place as a JSON Pointer (`/delta/0/path`). */
  pointer?: string;
  /** The earlier event the finding refers to (the opener on record, …). */
  related?: number;
  /** The rule's row of the catalogue: `docs/rules.md#RULE-ID`, or absolute with `docsUrl`. */
  doc?: string;
}

export interface LimitNotice {
  kind: "line-bytes" | "nesting" | "state-bytes" | "time" | "violations" | "projection-bytes" | "bookkeeping-bytes";
  index: number;
  limit: number;
  message: string;
}

export interface RunOutcome {
  outcome: "finished" | "interrupted" | "cancelled" | "errored" | "unterminated";
  start: number;
  end: number;
  threadId?: string;
  runId?: string;
  message?: string;
  code?: string;
  interrupts?: unknown[];
}

export type Area = "schema" | "transport" | "run" | "entities" | "consistency" | "lifecycle" | "ownership" | "interrupts" | "chunks";

export interface Coverage {
  exercised: Area[];
  notExercised: Area[];
  notEvaluable: Array<{ areas?: Area[]; rules?: string[]; from?: number; notices?: number[]; reason: string }>;
}

/** The report of `agui-conform check --format json`. */
export interface Report {
  violations: Violation[];
  limits: LimitNotice[];
  counts: { violations: number; errors: number; warnings: number; limits: number };
  events: number;
  verdict: Verdict;
  reason?: string;
  runs?: RunOutcome[];
  coverage?: Coverage;
  groups?: Array<{ rule: string; severity: Severity; count: number; first: number; doc?: string }>;
  /** What a client shows after the stream (docs/projection.md); absent with `noProjection`. */
  projection?: { runs: unknown[] };
}

/** Flags of `check`, named as the flags are (camelCase). */
export interface CheckOptions {
  /** `--rule ID=LEVEL` for each entry. */
  rules?: Record<string, Level>;
  failOn?: Severity;
  maxWarnings?: number;
  maxViolations?: number;
  maxLineBytes?: number;
  maxDepth?: number;
  maxStateBytes?: number;
  maxProjectionBytes?: number;
  maxBookkeepingBytes?: number;
  noProjection?: boolean;
  group?: boolean;
  docsUrl?: string;
  inputFormat?: "jsonl" | "json" | "sse";
  config?: string;
  noConfig?: boolean;
  /** Also write the JSON report / SARIF log / JUnit test case / lanes page here. */
  json?: string;
  sarif?: string;
  junit?: string;
  html?: string;
  parseAhead?: "auto" | "on" | "off";
  /** Any other flag of `check`. */
  [flag: string]: unknown;
}

/** What shapes the RunAgentInput sent to an endpoint. */
export interface RequestOptions {
  /** A user message (`--message`). */
  message?: string;
  state?: unknown;
  /** Tool definitions (objects), or `@FILE` strings. */
  tools?: Array<Record<string, unknown> | string>;
  forwardedProps?: unknown;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

export interface CheckUrlOptions extends CheckOptions, RequestOptions {
  /** The RunAgentInput to send: an object, or a path (`--input`). */
  input?: Record<string, unknown> | string | URL;
  /** Longest the whole exchange may take, in seconds (`--timeout`). */
  timeout?: number;
  /** Longest wait for the next bytes, in seconds. */
  idleTimeout?: number;
  runEndGrace?: number;
  /** Save the events received as JSON Lines here. */
  save?: string;
}

export interface RunProducerOptions extends RequestOptions {
  /** A suite name or a folder/file of scenarios (default `producer`). */
  suite?: string;
  /** A RunAgentInput merged into every scenario's first request: an object or a path. */
  baseInput?: Record<string, unknown> | string | URL;
  /** Keep the run record at this path. */
  record?: string;
  timeoutMs?: number;
  idleTimeout?: number;
  runEndGrace?: number;
  filter?: string;
  toolName?: string;
  captures?: string;
  strict?: boolean;
  rules?: Record<string, Level>;
  failOn?: Severity;
  maxWarnings?: number;
  [flag: string]: unknown;
}

export type Score = "PASS" | "WARN" | "SKIPPED" | "FAIL" | "ERRORED" | "INFO";

export interface Scenario {
  kind: "scenario";
  id: string;
  description?: string;
  score: Score;
  events: number;
  status?: string;
  failure?: string;
  refused?: string;
  skipped?: string;
  steps: Array<{ kind: "input" | "resume" | "continue" | "toolResults"; start: number; events: number; outcomes: unknown[]; request: unknown }>;
  runs: unknown[];
  violations: Violation[];
  /** The conversation: every step's events in order. */
  stream: AgUiEvent[];
  elapsed_us: number;
  [key: string]: unknown;
}

export interface ProducerResult {
  header: Record<string, unknown>;
  scenarios: Scenario[];
  footer: ({ status: string; exit_status?: number; incomplete?: string; totals?: Record<string, number> } & Record<string, unknown>) | null;
  summary: ({ scores?: Record<string, number> } & Record<string, unknown>) | null;
}

export interface FuzzOptions {
  /** `reference`, or a command line speaking suites/PROTOCOL.md (persistent). */
  impl: string;
  cases?: number;
  /** `"90s"`, `"5m"`, or seconds. */
  time?: string | number;
  seed?: number;
  jobs?: number;
  mode?: "valid" | "invalid" | "mixed";
  /** Only these violation rules in invalid streams. */
  rules?: string[] | string;
  save?: string;
  record?: string;
  junit?: string;
  shrinkBudget?: number;
  timeoutMs?: number;
  startTimeoutMs?: number;
  memoryLimitMb?: number;
  [flag: string]: unknown;
}

export interface FuzzSummary {
  status: string;
  cases: number;
  seed: number;
  scores: Record<Score, number>;
  findings: Array<Record<string, unknown>>;
  failures: Array<Record<string, unknown>>;
  covered: string[];
  uncovered: string[];
  elapsed_s: number;
  [key: string]: unknown;
}

export interface Rule {
  id: string;
  area: string;
  severity: Severity;
  obligation: Obligation;
  statement: string;
  source: string;
  quote?: string;
}

/** The checker could not run or produced no report (exit status 2, a
 * missing binary), as opposed to a stream that does not conform. */
export class ConformError extends Error {
  readonly stderr: string;
  readonly exitCode: number | undefined;
  readonly args: string[] | undefined;
}

/** The executable run: `$AGUI_CONFORM_BIN`, the platform package's, or one on PATH. */
export function binary(): string;
export const PLATFORM_PACKAGES: Readonly<Record<string, string>>;

/** Options as the command's flags (`maxLineBytes: 10` → `--max-line-bytes 10`). */
export function flags(options?: Record<string, unknown>): string[];

/** `agui-conform check --format json` of a stream. */
export function check(input: CheckInput, options?: CheckOptions): Promise<Report>;

/** `check` run synchronously (no async iterables). */
export function checkSync(input: Exclude<CheckInput, AsyncIterable<unknown>>, options?: CheckOptions): Report;

/** One `agui-conform check --format json -` process fed one event at a time. */
export class Checker implements Disposable {
  constructor(options?: CheckOptions & { keepEvents?: boolean });
  /** How many events were fed. */
  readonly fed: number;
  /** The violations printed so far (each as soon as it is detectable). */
  readonly violations: Violation[];
  /** Sends one event (an object, or one JSON line); false when the pipe's buffer is full. */
  feed(event: AgUiEvent | string | Uint8Array): boolean;
  feedAll(events: Iterable<AgUiEvent | string | Uint8Array> | AsyncIterable<AgUiEvent | string | Uint8Array>): Promise<void>;
  /** Resolves once the pipe's buffer has room again. */
  drained(): Promise<void>;
  /** Ends the input and resolves the report. */
  finish(): Promise<Report>;
  /** The events fed, parsed back. */
  events(): Array<AgUiEvent | string>;
  /** Kills the process if it still runs. */
  close(): void;
  [Symbol.dispose](): void;
}

/** `agui-conform check --url URL --format json`: POST a RunAgentInput, check the SSE answer. */
export function checkUrl(url: string | URL, options?: CheckUrlOptions): Promise<Report>;

/** `agui-conform run --producer URL`: the producer suite's run record. */
export function runProducer(url: string | URL, options?: RunProducerOptions): Promise<ProducerResult>;

/** `agui-conform fuzz --format json`: a campaign's summary. */
export function fuzz(options: FuzzOptions): Promise<FuzzSummary>;

/** `agui-conform explain RULE --format json`. */
export function explain(ruleId: string): Promise<Rule>;

/** The rule catalogue (`agui-conform rules --format json`). */
export function rules(): Promise<Rule[]>;
