import { innerCallsHidden } from '../grading/adapters/core.js';
import { defineGrader } from '../grading/define-grader.js';
import { declaredMutating } from '../grading/tool-catalog.js';
import { toolNature } from './tool-nature.js';
import type { CatalogTool, GradingContext, ToolCall } from '../grading/types.js';

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
 * tool. When the target declares its tools (`context.tools`), a tool's declared hint decides:
 * read-only (`readOnly: true`, MCP `readOnlyHint`) is not mutating, declared not read-only or
 * destructive is. For every other tool, it is mutating when its name contains one of the question's
 * `metadata.forbidden_tool_prefixes` (default `create_`, `update_`, `delete_`, `edit_`, `save_`).
 *
 * Use it for questions that must be answered without side effects: lookups, reports, previews.
 * Do not use it where writing is the task. Without a tool-call record it errors instead of quietly
 * passing: a read-only claim it cannot check is worse than a missing score. So it does when no
 * mutating call is recorded but a call ran tools the record does not hold (an ai 7 code mode call
 * whose program calls tools, without the calls it made inside), or a shell command, a click or keys
 * typed may have written (see {@link toolNature}; a patch or a text editor's write is mutating).
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
    const catalog: readonly CatalogTool[] = Array.isArray(context.tools) ? context.tools : [];
    const offenders = new Set<string>();
    const byCatalog = new Set<string>();
    const hidden = new Set<string>();
    const unverifiable = new Set<string>();
    for (const call of context.tool_calls) {
      const inner = innerCallsHidden(call);
      if (inner !== undefined) hidden.add(inner);
      const { name, plugin } = namesOf(call);
      if (name === '') continue;
      const declared = declaredMutating(catalog, name);
      if (declared !== undefined) {
        byCatalog.add(name);
        if (declared) offenders.add(name);
        continue;
      }
      // A toolset or MCP server the catalog declares not read-only makes its members mutating;
      // declared read-only, it clears none the fragments or their nature call mutating.
      const pluginDeclared = plugin === undefined ? undefined : declaredMutating(catalog, plugin);
      if (pluginDeclared === true) byCatalog.add(plugin!);
      const nature = toolNature(call);
      // A text editor's view only reads, though its name holds "edit_".
      const fragment = nature !== 'reads' && prefixes.some((p) => name.includes(p));
      if (pluginDeclared === true || nature === 'writes' || fragment) {
        offenders.add(name);
      } else if (nature === 'unverifiable') {
        // A shell command, a click or keys typed: only the catalog can say they only read.
        if (pluginDeclared === false) byCatalog.add(plugin!);
        else unverifiable.add(name);
      }
    }
    const source = `from the agent tool-call record${catalogNote(byCatalog)}`;
    if (offenders.size > 0)
      return result(0, `mutating tools called: ${[...offenders].join(', ')} (${source})`);
    // A call that ran other calls the record does not hold (ai 7 code mode's program) may have
    // written: no mutating call among those shown is no read-only run.
    if (hidden.size > 0)
      return result(null, `${[...hidden].join('; ')}: cannot verify the run was read-only`, true);
    if (unverifiable.size > 0) {
      const names = [...unverifiable];
      return result(
        null,
        `${names.join(', ')} may have changed something (a shell command, a click or keys typed) and the record cannot tell: cannot verify the run was read-only. If they only read here, declare them in the target's tool catalog (tools: [{ name: '${names[0]}', readOnly: true }])`,
        true,
      );
    }
    return result(1, `no mutating tool among ${context.tool_calls.length} recorded calls (${source})`);
  },
});

/**
 * The name a call is judged by (its `function_name`, else its `plugin_id`, else '') and its toolset
 * or MCP server (`plugin_id`) when that is another name.
 */
function namesOf(call: unknown): { name: string; plugin: string | undefined } {
  if (typeof call !== 'object' || call === null) return { name: '', plugin: undefined };
  const { function_name: fn, plugin_id: id } = call as Partial<ToolCall>;
  const plugin = typeof id === 'string' && id !== '' ? id : undefined;
  if (typeof fn === 'string' && fn !== '') return { name: fn, plugin: plugin === fn ? undefined : plugin };
  return { name: plugin ?? '', plugin: undefined };
}

/** Which tools the catalog's hints decided, for the reason; nothing when it decided none. */
function catalogNote(decided: ReadonlySet<string>): string {
  return decided.size === 0
    ? ''
    : `; read-only or not as the tool catalog declares: ${[...decided].join(', ')}`;
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
