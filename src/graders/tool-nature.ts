/**
 * What built-in agent tools do by their nature, whatever their names say: `read_only_run`'s name
 * fragments (`create_`, `delete_`, ...) see nothing in `apply_patch`, `shell` or a click.
 */

import type { ToolCall } from '../grading/types.js';

/**
 * How a call of a built-in tool acts: `writes` (it changes files or state whatever it was asked:
 * `apply_patch`, a text editor's `create` or `str_replace`), `unverifiable` (it may or may not
 * change anything and the record cannot tell: a shell command, a click, keys typed), `reads` (it
 * only looks: a screenshot, a browser's page text, a text editor's `view`, whatever its name
 * says), or undefined (a tool of no known nature).
 *
 * @example
 * ```ts
 * toolNature({ function_name: 'apply_patch', arguments: { type: 'update_file' } }); // 'writes'
 * toolNature({ function_name: 'shell', arguments: { commands: ['ls'] } }); // 'unverifiable'
 * toolNature({ function_name: 'computer', arguments: { action: { type: 'screenshot' } } }); // 'reads'
 * ```
 */
export function toolNature(call: Pick<ToolCall, 'function_name' | 'plugin_id' | 'arguments'>): ToolNature {
  const name = call.function_name;
  const args = call.arguments;
  if (name === 'apply_patch') return 'writes';
  if (EDITORS.has(name)) return EDITOR_READS.has(stringField(args, 'command') ?? '') ? 'reads' : 'writes';
  if (SHELLS.has(name)) return 'unverifiable';
  if (name === 'computer')
    return computerActions(args).every((a) => SCREEN_READS.has(a)) ? 'reads' : 'unverifiable';
  if (call.plugin_id === 'browser') return BROWSER_READS.has(name) ? 'reads' : 'unverifiable';
  return undefined;
}

/**
 * See {@link toolNature}.
 *
 * @example
 * ```ts
 * const nature: ToolNature = 'writes';
 * ```
 */
export type ToolNature = 'writes' | 'unverifiable' | 'reads' | undefined;

/** Text editor tools: Anthropic's `str_replace_based_edit_tool` and the older `str_replace_editor`. */
const EDITORS = new Set(['str_replace_based_edit_tool', 'str_replace_editor']);
/** The text editor's command that only reads. */
const EDITOR_READS = new Set(['view']);
/** Shell tools: OpenAI's `shell` and `local_shell`, Anthropic's `bash`. */
const SHELLS = new Set(['shell', 'local_shell', 'bash']);
/**
 * Computer use actions that only look or move (OpenAI `computer_call` action types, Anthropic
 * `computer` tool actions); a click, a drag, keys or typing may change anything.
 */
const SCREEN_READS = new Set([
  'screenshot',
  'move',
  'mouse_move',
  'scroll',
  'wait',
  'cursor_position',
  'zoom',
]);
/** Anthropic browser toolset members that only read, look, move or switch tabs. */
const BROWSER_READS = new Set([
  'navigate',
  'get_page_text',
  'read_page',
  'find',
  'screenshot',
  'list_tabs',
  'new_tab',
  'switch_tab',
  'close_tab',
  'hover',
  'mouse_move',
  'scroll',
  'scroll_to',
  'read_console',
  'read_network',
  'wait',
  'zoom',
]);

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

/**
 * The action types of a computer call: OpenAI's `{ action: { type } }` or `{ actions: [...] }`,
 * Anthropic's `{ action: 'left_click' }`. None found reads as an action that may act.
 */
function computerActions(args: unknown): string[] {
  if (typeof args !== 'object' || args === null) return [''];
  const { action, actions } = args as { action?: unknown; actions?: unknown };
  const list = Array.isArray(actions) ? actions : [action];
  const types = list.map((a) => (typeof a === 'string' ? a : (stringField(a, 'type') ?? '')));
  return types.length > 0 ? types : [''];
}
