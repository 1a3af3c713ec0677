/**
 * An `Error` without stack frames: for a failure whose message says everything (a generated
 * test's verdict), where capturing and source-mapping a stack that points into ai-eval's own code
 * would cost more than the test itself and show the user nothing they can act on.
 *
 * @example
 * ```ts
 * throw stacklessError('q1: composite 2 is below the pass threshold 3.5');
 * ```
 */
export function stacklessError(message: string): Error {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new Error(message);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
