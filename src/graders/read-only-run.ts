import { defineGrader } from '../grading/define-grader.js';
import type { GradingContext, ToolCall } from '../grading/types.js';

/**
 * Name fragments that mark a tool as mutating, unless the question's
 * `metadata.forbidden_tool_prefixes` says otherwise.
 *
 * @example
 * ```ts
 * DEFAULT_FORBIDDEN_PREFIXES.some((p) => 'delete_node'.includes(p)); // true
 * ```
 */
export const DEFAULT_FORBIDDEN_PREFIXES = ['create_', 'update_', 'delete_', 'edit_', 'save_'] as const;

/**
 * `read_only_run` (binary, 0-1, observes actions): fails a run in which the agent called a mutating
 * tool. A tool is mutating when its name contains one of the question's
 * `metadata.forbidden_tool_prefixes` (default `create_`, `update_`, `delete_`, `edit_`, `save_`).
 *
 * Use it for questions that must be answered without side effects: lookups, reports, previews.
 * Do not use it where writing is the task. Without a tool-call record it errors instead of quietly
 * passing: a read-only claim it cannot check is worse than a missing score.
 *
 * @example
 * ```ts
 * await expect({ output: 'Listed 3 nodes', toolCalls: [{ function_name: 'list_nodes', arguments: {} }] })
 *   .toPassGrader('read_only_run');
 * ```
 */
export const readOnlyRun = defineGrader({
  id: 'read_only_run',
  label: 'Read-only run',
  description: 'Deterministic: did the agent call any mutating tool while answering?',
  minScore: 0,
  maxScore: 1,
  observesActions: true,
  grade(_input, _response, context, { result }) {
    // An empty record is a real answer (the agent ran and called nothing) and must not be confused
    // with no record at all.
    if (context.tool_calls === undefined || !Array.isArray(context.tool_calls)) {
      return result(null, 'no tool-call record available, cannot verify the run was read-only', true);
    }
    const prefixes = forbiddenPrefixes(context);
    const offenders = new Set<string>();
    for (const call of context.tool_calls) {
      const name = callName(call);
      if (name !== '' && prefixes.some((prefix) => name.includes(prefix))) offenders.add(name);
    }
    if (offenders.size > 0) {
      return result(
        0,
        `mutating tools called: ${[...offenders].join(', ')} (from the agent tool-call record)`,
      );
    }
    return result(
      1,
      `no mutating tool among ${context.tool_calls.length} recorded calls (from the agent tool-call record)`,
    );
  },
});

function callName(call: unknown): string {
  if (typeof call !== 'object' || call === null) return '';
  const { function_name: fn, plugin_id: plugin } = call as Partial<ToolCall>;
  if (typeof fn === 'string' && fn !== '') return fn;
  return typeof plugin === 'string' ? plugin : '';
}

/** The question's forbidden fragments: strings only, trimmed, lowercased; none falls back to the defaults. */
function forbiddenPrefixes(context: GradingContext): readonly string[] {
  const configured = context.metadata?.forbidden_tool_prefixes;
  if (!Array.isArray(configured)) return DEFAULT_FORBIDDEN_PREFIXES;
  const fragments = configured
    .map((v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : ''))
    .filter((v) => v !== '');
  return fragments.length === 0 ? DEFAULT_FORBIDDEN_PREFIXES : fragments;
}
