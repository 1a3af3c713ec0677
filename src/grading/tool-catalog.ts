import { AiEvalError } from '../errors.js';
import { isObject, text, type Json } from './adapters/core.js';
import type { CatalogTool } from './types.js';

/** OpenAI hosted tool types, by the name the record gives their calls; search is read-only. */
const HOSTED_TOOLS: ReadonlyArray<[RegExp, string, boolean | undefined]> = [
  [/^web_search/, 'web_search', true],
  [/^file_search$/, 'file_search', true],
  [/^tool_search$/, 'tool_search', true],
  [/^code_interpreter$/, 'code_interpreter', undefined],
  [/^image_generation$/, 'image_generation', undefined],
  [/^computer(_use_preview)?$/, 'computer', undefined],
  [/^local_shell$/, 'local_shell', undefined],
  [/^shell$/, 'shell', undefined],
  [/^apply_patch$/, 'apply_patch', undefined],
];

/**
 * The tools given to an agent, in any shape {@link normalizeToolCatalog} reads: an OpenAI tools
 * array, an MCP `tools/list` result, an AI SDK tools object, `{ name, readOnly }` entries.
 *
 * @example
 * ```ts
 * const tools: ToolCatalogInput = [{ name: 'list_nodes', readOnly: true }, { name: 'delete_node', readOnly: false }];
 * ```
 */
export type ToolCatalogInput = readonly unknown[] | Readonly<Record<string, unknown>>;

/**
 * Normalises the tools an agent was given into `{ name, readOnly?, destructive? }[]`. Reads an
 * OpenAI tools array (Chat Completions `{ type: 'function', function: { name } }` and custom tools,
 * Responses function, custom, hosted and `mcp` tools), an MCP `tools/list` result (`{ tools }`,
 * bare or in its JSON-RPC response, with `annotations.readOnlyHint` and `destructiveHint`), an AI
 * SDK tools object (`{ name: tool({...}) }`), Anthropic tool definitions, Gemini
 * `functionDeclarations`, `{ name, readOnly?, destructive? }` entries and plain names. The hints
 * are kept only where the catalog states them. An unknown shape is an {@link AiEvalError} of code
 * `INVALID_TOOL_CATALOG` naming the path.
 *
 * @example
 * ```ts
 * normalizeToolCatalog({ tools: [{ name: 'list_nodes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] });
 * // [{ name: 'list_nodes', readOnly: true }]
 * ```
 */
export function normalizeToolCatalog(input: unknown, where = 'tools'): CatalogTool[] {
  const out = new Map<string, CatalogTool>();
  readCatalog(input, where, out);
  return [...out.values()];
}

function readCatalog(input: unknown, path: string, out: Map<string, CatalogTool>): void {
  if (Array.isArray(input)) {
    input.forEach((entry, i) => readEntry(entry, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(input)) throw invalid(input, path);
  if (input.jsonrpc === '2.0' && isObject(input.result))
    return readCatalog(input.result, `${path}.result`, out);
  if (Array.isArray(input.tools)) return readCatalog(input.tools, `${path}.tools`, out);
  // An AI SDK tools object: each key names a tool.
  for (const [name, tool] of Object.entries(input)) {
    if (!isObject(tool)) throw invalid(tool, `${path}.${name}`);
    add(out, { name, ...hints(tool) });
  }
}

function readEntry(entry: unknown, path: string, out: Map<string, CatalogTool>): void {
  if (typeof entry === 'string' && entry.trim() !== '') return add(out, { name: entry.trim() });
  if (!isObject(entry)) throw invalid(entry, path);
  const fn = entry.function ?? entry.custom;
  if (isObject(fn) && typeof fn.name === 'string') return add(out, { name: fn.name, ...hints(entry) });
  if (Array.isArray(entry.functionDeclarations))
    return readCatalog(entry.functionDeclarations, `${path}.functionDeclarations`, out);
  if (entry.type === 'mcp' && typeof entry.server_label === 'string')
    return add(out, { name: entry.server_label });
  const name = text(entry.name);
  if (name !== undefined) return add(out, { name, ...hints(entry) });
  const hosted =
    typeof entry.type === 'string' ? HOSTED_TOOLS.find(([re]) => re.test(entry.type as string)) : undefined;
  if (hosted)
    return add(out, { name: hosted[1], ...(hosted[2] !== undefined ? { readOnly: hosted[2] } : {}) });
  throw invalid(entry, path);
}

/** The hints a catalog entry states: `readOnly` / `destructive`, or MCP annotations. */
function hints(entry: Json): Pick<CatalogTool, 'readOnly' | 'destructive'> {
  const annotations = isObject(entry.annotations) ? entry.annotations : {};
  const readOnly = typeof entry.readOnly === 'boolean' ? entry.readOnly : annotations.readOnlyHint;
  const destructive =
    typeof entry.destructive === 'boolean' ? entry.destructive : annotations.destructiveHint;
  return {
    ...(typeof readOnly === 'boolean' ? { readOnly } : {}),
    ...(typeof destructive === 'boolean' ? { destructive } : {}),
  };
}

function add(out: Map<string, CatalogTool>, tool: CatalogTool): void {
  if (!out.has(tool.name)) out.set(tool.name, tool);
}

function invalid(value: unknown, path: string): AiEvalError {
  let shown = JSON.stringify(value) ?? String(value);
  if (shown.length > 160) shown = `${shown.slice(0, 160)}…`;
  return new AiEvalError(
    'INVALID_TOOL_CATALOG',
    `Unrecognised tool catalog at ${path}: expected a tool definition, got ${shown}. Pass an OpenAI tools array, an MCP tools/list result, an AI SDK tools object, or { name, readOnly } entries (node_modules/ai-eval/docs/graders.md, "Tool catalogs").`,
  );
}

/**
 * Whether a tool is mutating by what the catalog declares: `false` for a tool declared read-only,
 * `true` for one declared not read-only or destructive, `undefined` when the catalog does not know
 * the tool or says nothing about it (the name fragments decide then).
 *
 * @example
 * ```ts
 * declaredMutating([{ name: 'cancel_pending_order', readOnly: false }], 'cancel_pending_order'); // true
 * ```
 */
export function declaredMutating(catalog: readonly CatalogTool[], name: string): boolean | undefined {
  const tool = catalog.find((t) => t.name === name);
  if (!tool) return undefined;
  if (tool.readOnly !== undefined) return !tool.readOnly;
  return tool.destructive === true ? true : undefined;
}

/**
 * The known name closest to `name` by edit distance, when it is close enough to be a likely typo
 * (at most a third of the longer name, and at least 1 edit); `undefined` otherwise.
 *
 * @example
 * ```ts
 * closestName('list_node', ['list_nodes', 'delete_node']); // 'list_nodes'
 * ```
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(1, Math.floor(Math.max(name.length, best.length) / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
