import { isObject, text, type Adapter, type Json } from './core.js';

/**
 * Anthropic content blocks: `tool_use` (a client tool), `server_tool_use` and `mcp_tool_use`
 * (hosted: Anthropic ran them; the MCP server name becomes `plugin_id`), and their results:
 * `tool_result` and `mcp_tool_result` (failed when `is_error`), and every server tool's
 * `*_tool_result` block (`web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, `bash_code_execution_tool_result`,
 * `text_editor_code_execution_tool_result`, `tool_search_tool_result`, ...), failed when its content
 * is a `*_error` object or a code run with a non-zero `return_code`. A whole Message is read by
 * role.
 *
 * @example
 * ```ts
 * anthropic({ type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'x' } }, '$.content[1]', reader); // true
 * ```
 */
export const anthropic: Adapter = (item, path, reader) => {
  const type = item.type;
  if (typeof type !== 'string') return false;
  if (
    (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') &&
    typeof item.name === 'string'
  ) {
    reader.call(
      {
        name: item.name,
        args: item.input,
        id: text(item.id),
        // An MCP server's name, or the toolset a member call belongs to (`toolset_name: 'browser'`).
        pluginId: text(item.server_name) ?? text(item.toolset_name),
        kind: type === 'tool_use' ? undefined : 'hosted',
      },
      path,
    );
    return true;
  }
  if (type === 'tool_result' || type === 'mcp_tool_result') {
    reader.result(item.is_error === true ? 'error' : 'ok', { id: text(item.tool_use_id) });
    return true;
  }
  if (type.endsWith('_tool_result') && typeof item.tool_use_id === 'string') {
    reader.result(serverResultFailed(item.content) ? 'error' : 'ok', { id: item.tool_use_id });
    return true;
  }
  return false;
};

function serverResultFailed(content: unknown): boolean {
  if (!isObject(content)) return false;
  const c: Json = content;
  if (typeof c.type === 'string' && c.type.endsWith('_error')) return true;
  return typeof c.return_code === 'number' && c.return_code !== 0;
}
