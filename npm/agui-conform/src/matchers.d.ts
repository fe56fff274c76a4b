import type { CheckInput, CheckOptions, CheckUrlOptions, Report, RunProducerOptions } from "./index.js";

/** What the stream is held to: at most `maxWarnings` warnings (default: any
 * number), and the rules in `allow` set aside. */
export interface ConformOptions {
  /** Fail when more warnings than this remain (default: warnings never fail). */
  maxWarnings?: number;
  /** Rule ids whose findings do not fail the expectation (an unknown id is an error). */
  allow?: string[] | string;
}

export interface ProducerSuiteOptions extends RunProducerOptions {
  /** WARN fails too. */
  strict?: boolean;
}

export interface AguiConformMatchers<R = unknown> {
  /** The stream (events, its text, a file, or a report from `check`) conforms. Synchronous. */
  toConform(options?: ConformOptions & CheckOptions): R;
  /** The endpoint answers the request with a conforming stream (`check --url`). Await it. */
  toServeConformingStream(request?: ConformOptions & CheckUrlOptions): Promise<R>;
  /** The endpoint passes the producer suite (`run --producer`). Await it. */
  toPassProducerSuite(options?: ProducerSuiteOptions): Promise<R>;
}

type Result = { pass: boolean; message: () => string };

export function toConform(this: { isNot?: boolean } | void, received: CheckInput | Report, options?: ConformOptions & CheckOptions): Result;
export function toServeConformingStream(this: { isNot?: boolean } | void, url: string | URL, request?: ConformOptions & CheckUrlOptions): Promise<Result>;
export function toPassProducerSuite(this: { isNot?: boolean } | void, url: string | URL, options?: ProducerSuiteOptions): Promise<Result>;
export const matchers: {
  toConform: typeof toConform;
  toServeConformingStream: typeof toServeConformingStream;
  toPassProducerSuite: typeof toPassProducerSuite;
};
