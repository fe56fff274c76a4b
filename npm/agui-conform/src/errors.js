/**
 * The checker could not run or produced no report (exit status 2: a usage
 * or I/O error, an endpoint that could not be reached, a missing binary),
 * as opposed to a stream that does not conform, which is a report.
 * `stderr` holds what the command printed on standard error, `exitCode` its
 * exit status (undefined when it never ran).
 */
export class ConformError extends Error {
  constructor(message, { stderr = "", exitCode = undefined, args = undefined } = {}) {
    super(message);
    this.name = "ConformError";
    this.stderr = stderr;
    this.exitCode = exitCode;
    this.args = args;
  }
}
