// The timers module's own functions: a test's fake timers must not stop a check's time from running out.
import { clearTimeout, setTimeout } from 'node:timers';
import { errorMessage } from '../../internal/text.js';
import type { GradingContext } from '../../grading/types.js';
import type { StateCheck } from './state-checks.js';

/** One state assertion's outcome; `pass` is true only when the check ran and said so. */
export interface AssertionOutcome {
  pass: boolean;
  reason: string;
}

/**
 * Runs one state check on its params, inside its time budget and the grading signal. Never throws:
 * params that fail the kind's schema, a check that throws, rejects, times out, is aborted or
 * returns something other than `{ pass: boolean, reason: string }` all fail the assertion, saying
 * why. Only `pass === true` passes (fail-closed).
 *
 * @example
 * ```ts
 * const outcome = await runStateCheck(getStateCheck('node_title')!, { id: 7, title: 'Launch' }, context, response, signal);
 * ```
 */
export async function runStateCheck(
  kind: StateCheck,
  params: Record<string, unknown>,
  context: GradingContext,
  output: string,
  signal: AbortSignal | undefined,
): Promise<AssertionOutcome> {
  const problem = kind.paramsProblem(params);
  if (problem !== undefined)
    return { pass: false, reason: `params do not match the kind's schema: ${problem}` };
  if (signal?.aborted) return { pass: false, reason: 'not checked: grading was aborted' };
  const controller = new AbortController();
  const combined = signal ? AbortSignal.any([controller.signal, signal]) : controller.signal;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<AssertionOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${kind.timeoutMs} ms`));
      resolve({
        pass: false,
        reason: `the check did not finish within ${kind.timeoutMs} ms and was aborted`,
      });
    }, kind.timeoutMs);
    onAbort = () => resolve({ pass: false, reason: 'not finished: grading was aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const ran = Promise.resolve()
    .then(() =>
      kind.check(params, {
        question: context,
        run: { output, record: context.tool_calls },
        signal: combined,
      }),
    )
    .then(
      (value): AssertionOutcome => checked(value),
      (error: unknown): AssertionOutcome => ({
        pass: false,
        reason: `the check threw: ${errorMessage(error)}`,
      }),
    );
  try {
    return await Promise.race([ran, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

function checked(value: unknown): AssertionOutcome {
  if (typeof value !== 'object' || value === null) {
    return {
      pass: false,
      reason: `the check returned ${value === null ? 'null' : typeof value} instead of { pass, reason }`,
    };
  }
  const { pass, reason } = value as { pass?: unknown; reason?: unknown };
  if (typeof pass !== 'boolean') {
    return {
      pass: false,
      reason: `the check returned pass ${JSON.stringify(pass) ?? 'undefined'} instead of true or false`,
    };
  }
  const why = typeof reason === 'string' && reason.trim() !== '' ? reason : '(the check gave no reason)';
  return { pass, reason: why };
}
