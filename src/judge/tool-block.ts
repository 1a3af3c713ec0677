import { displayArguments } from '../grading/tool-calls.js';
import type { ToolCall } from '../grading/types.js';

/**
 * What a judge is told when the agent ran and called no tools.
 *
 * @example
 * ```ts
 * renderToolCalls([]) === NO_TOOL_CALLS_STATEMENT; // true
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
 * renderToolCalls(manyCalls); // lists MAX_RENDERED_CALLS, then '… and 5 more calls, not listed'
 * ```
 */
export const MAX_RENDERED_CALLS = 100;

/**
 * Renders a tool-call record for the criteria slot of a judge prompt: tool names and arguments in
 * call order, never what a tool returned. An empty record renders as a statement that the agent
 * called no tools; an absent record (`undefined`) renders nothing (`undefined`). Arguments are
 * JSON-encoded on one line, so they cannot break the block's layout.
 *
 * @example
 * ```ts
 * renderToolCalls([{ function_name: 'search', arguments: { q: 'x' } }]);
 * // 'Tool-call record (names and arguments, in call order; results not shown):\n1. search {"q":"x"}'
 * renderToolCalls([]); // NO_TOOL_CALLS_STATEMENT
 * renderToolCalls(undefined); // undefined
 * ```
 */
export function renderToolCalls(record: readonly ToolCall[] | undefined): string | undefined {
  if (record === undefined) return undefined;
  if (record.length === 0) return NO_TOOL_CALLS_STATEMENT;
  const lines = record.slice(0, MAX_RENDERED_CALLS).map((call, index) => {
    const name = PLAIN_NAME.test(call.function_name)
      ? call.function_name
      : JSON.stringify(call.function_name);
    const plugin = call.plugin_id ? ` (plugin ${JSON.stringify(call.plugin_id)})` : '';
    return `${index + 1}. ${name}${plugin} ${JSON.stringify(displayArguments(call.arguments))}`;
  });
  if (record.length > MAX_RENDERED_CALLS) {
    lines.push(`… and ${record.length - MAX_RENDERED_CALLS} more calls, not listed`);
  }
  return `Tool-call record (names and arguments, in call order; results not shown):\n${lines.join('\n')}`;
}
