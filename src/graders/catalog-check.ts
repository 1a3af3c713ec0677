import { closestName } from '../grading/tool-catalog.js';
import type { CatalogTool, GradingContext, ToolCall } from '../grading/types.js';

/**
 * One `expected_tools` name the tool catalog does not have.
 *
 * @example
 * ```ts
 * const problem: UnknownTool = { index: 1, field: 'name', name: 'list_node', suggestion: 'list_nodes' };
 * ```
 */
export interface UnknownTool {
  /** Position in `expected_tools`. */
  index: number;
  /** Which field names the tool: the entry's `name`, or its `after` anchor. */
  field: 'name' | 'after';
  name: string;
  /** The closest catalog name, when one is close enough to be the intended one. */
  suggestion?: string;
}

/**
 * The tool names in `expected_tools` entries (their `name` and `after`) that the catalog does not
 * list. A name the record shows the agent calling (as `function_name` or `plugin_id`, for example
 * a hosted tool the catalog leaves out) is known too.
 *
 * @example
 * ```ts
 * unknownTools([{ index: 0, name: 'list_node' }], [{ name: 'list_nodes' }]);
 * // [{ index: 0, field: 'name', name: 'list_node', suggestion: 'list_nodes' }]
 * ```
 */
export function unknownTools(
  entries: ReadonlyArray<{ index: number; name: string; after?: string | undefined }>,
  catalog: readonly CatalogTool[],
  calls: readonly ToolCall[] = [],
): UnknownTool[] {
  const names = catalog.map((t) => t.name);
  const known = new Set([
    ...names,
    ...calls.flatMap((c) => (c.plugin_id ? [c.function_name, c.plugin_id] : [c.function_name])),
  ]);
  const out: UnknownTool[] = [];
  for (const entry of entries) {
    for (const field of ['name', 'after'] as const) {
      const name = entry[field];
      if (name === undefined || known.has(name)) continue;
      const suggestion = closestName(name, names);
      out.push({ index: entry.index, field, name, ...(suggestion !== undefined ? { suggestion } : {}) });
    }
  }
  return out;
}

/**
 * One line per unknown tool, for reasons and CLI output.
 *
 * @example
 * ```ts
 * describeUnknownTool({ index: 1, field: 'name', name: 'list_node', suggestion: 'list_nodes' });
 * // "expected_tools[1].name 'list_node' is not in the tool catalog (did you mean list_nodes?)"
 * ```
 */
export function describeUnknownTool(problem: UnknownTool): string {
  const hint = problem.suggestion !== undefined ? ` (did you mean ${problem.suggestion}?)` : '';
  return `expected_tools[${problem.index}].${problem.field} '${problem.name}' is not in the tool catalog${hint}`;
}

/**
 * With a tool catalog on the target (`context.tools`): the `expected_tools` entries that name tools
 * it does not have, as one reason for an errored grade; undefined without a catalog or a problem.
 *
 * @example
 * ```ts
 * catalogReason([{ index: 0, name: 'list_node' }], { ...context, tools: [{ name: 'list_nodes' }] });
 * // "expected_tools names tools the agent was not given: expected_tools[0].name 'list_node' is not in the tool catalog (did you mean list_nodes?). ..."
 * ```
 */
export function catalogReason(
  entries: ReadonlyArray<{ index: number; name: string; after?: string | undefined }>,
  context: GradingContext,
): string | undefined {
  if (!Array.isArray(context.tools)) return undefined;
  const calls = Array.isArray(context.tool_calls) ? context.tool_calls : [];
  const problems = unknownTools(entries, context.tools, calls);
  if (problems.length === 0) return undefined;
  return `expected_tools names tools the agent was not given: ${problems.map(describeUnknownTool).join('; ')}. Fix the name, or add the tool to the target's tools.`;
}
