import { displayArguments } from '../grading/tool-calls.js';
import type { ToolCall } from '../grading/types.js';
import { redactValue } from '../internal/redact.js';
import { fence } from './fence.js';

/**
 * What a judge is told when the agent ran and called no tools.
 *
 * @example
 * ```ts
 * renderToolCalls([], tag) === NO_TOOL_CALLS_STATEMENT; // true
 * ```
 */
export const NO_TOOL_CALLS_STATEMENT =
  'Tool-call record: the agent called no tools while producing this response. Any claim in the response that it looked something up, changed something or ran something is therefore unsupported.';

const PLAIN_NAME = /^[\w.:/-]{1,120}$/;

/**
 * At most this many calls are listed; the rest are counted in a closing line.
 *
 * @example
 * ```ts
 * renderToolCalls(manyCalls, tag); // lists MAX_RENDERED_CALLS, then '… and 5 more calls, not listed'
 * ```
 */
export const MAX_RENDERED_CALLS = 100;

/**
 * What follows the arguments of a call whose `status` is `error`. A call that is `ok` or has no
 * status gets no mark: its line reads as it always has, so recorded cache entries of runs without a
 * marked call stay valid.
 *
 * @example
 * ```ts
 * toolCallLines([{ function_name: 'publish_node', arguments: { id: 7 }, status: 'error' }]);
 * // '1. publish_node {"id":7} (failed)'
 * ```
 */
export const FAILED_CALL_MARK = ' (failed)';

/**
 * What follows the arguments of a call no result came back for (`status: 'unknown'`): the record
 * does not show it ran, as for a call still awaiting a human's approval. Without it, a judge read
 * "I deleted the draft" over such a call as work done.
 *
 * @example
 * ```ts
 * toolCallLines([{ function_name: 'delete_draft', arguments: { id: 7 }, status: 'unknown' }]);
 * // '1. delete_draft {"id":7} (no result)'
 * ```
 */
export const NO_RESULT_MARK = ' (no result)';

/** The heading's opening; a record without a marked call gets it closed as it is (unchanged, so recorded prompts keep their keys). */
const HEADING_START = 'Tool-call record (names and arguments, in call order; results not shown';
/** What each mark means, said in the heading of a record with a call so marked. */
const FAILED_NOTE = '; a call marked (failed) did not do what it was asked';
const NO_RESULT_NOTE =
  "; a call marked (no result) has no result in the record: it may never have run, for instance while it awaits a human's approval";

/** The mark of a call by its status: failed, no result, or none. */
const markOf = (call: ToolCall): string =>
  call.status === 'error' ? FAILED_CALL_MARK : call.status === 'unknown' ? NO_RESULT_MARK : '';

/**
 * The listed lines of a tool-call record, `n. name {arguments}`, with the values of secret-looking
 * arguments redacted (their names kept), ` (failed)` after a call whose status is `error` and
 * ` (no result)` after one whose status is `unknown`; `undefined` for an absent or empty record. These lines are what the tool-call fence holds.
 *
 * @example
 * ```ts
 * toolCallLines([{ function_name: 'login', arguments: { user: 'a', password: 'p' } }]);
 * // '1. login {"user":"a","password":"[redacted]"}'
 * ```
 */
export function toolCallLines(record: readonly ToolCall[] | undefined): string | undefined {
  if (record === undefined || record.length === 0) return undefined;
  return record
    .slice(0, MAX_RENDERED_CALLS)
    .map((call, index) => {
      const name = PLAIN_NAME.test(call.function_name)
        ? call.function_name
        : JSON.stringify(call.function_name);
      const plugin = call.plugin_id ? ` (plugin ${JSON.stringify(call.plugin_id)})` : '';
      return `${index + 1}. ${name}${plugin} ${JSON.stringify(displayArguments(redactValue(call.arguments) as ToolCall['arguments'])) ?? 'null'}${markOf(call)}`;
    })
    .join('\n');
}

/**
 * Renders a tool-call record for the criteria slot of a judge prompt: tool names and arguments in
 * call order, a call that failed marked ` (failed)` and one no result came back for ` (no result)`
 * (its heading then says what each mark used means),
 * never what a tool returned, fenced with the prompt's `tag` (the agent chose them, so
 * they are data). Arguments are JSON-encoded on one line and values under secret-looking keys are
 * redacted. An empty record renders as a statement that the agent called no tools; an absent
 * record (`undefined`) renders nothing (`undefined`).
 *
 * @example
 * ```ts
 * renderToolCalls([{ function_name: 'search', arguments: { q: 'x' } }], tag);
 * // 'Tool-call record (names and arguments, in call order; results not shown):\n<<<TOOL CALLS tag>>>\n1. search {"q":"x"}\n<<<END TOOL CALLS tag>>>'
 * renderToolCalls([], tag); // NO_TOOL_CALLS_STATEMENT
 * renderToolCalls(undefined, tag); // undefined
 * ```
 */
export function renderToolCalls(record: readonly ToolCall[] | undefined, tag: string): string | undefined {
  if (record === undefined) return undefined;
  const lines = toolCallLines(record);
  if (lines === undefined) return NO_TOOL_CALLS_STATEMENT;
  const more =
    record.length > MAX_RENDERED_CALLS
      ? `\n… and ${record.length - MAX_RENDERED_CALLS} more calls, not listed`
      : '';
  // Only a listed call's mark needs the explaining heading.
  const listed = record.slice(0, MAX_RENDERED_CALLS);
  const failed = listed.some((call) => call.status === 'error') ? FAILED_NOTE : '';
  const unknown = listed.some((call) => call.status === 'unknown') ? NO_RESULT_NOTE : '';
  return `${HEADING_START}${failed}${unknown}):\n${fence('TOOL CALLS', lines, tag)}${more}`;
}
