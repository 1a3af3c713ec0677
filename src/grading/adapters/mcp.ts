import { isObject, type Adapter } from './core.js';

/**
 * MCP over JSON-RPC 2.0: a `tools/call` request (`{ jsonrpc: '2.0', id, method: 'tools/call',
 * params: { name, arguments } }`) is a call; the response with the same `id` is its result, failed
 * when the `CallToolResult` has `isError: true` or the response is a JSON-RPC `error`. Other
 * messages (`initialize`, `tools/list`, notifications) are passed over.
 *
 * @example
 * ```ts
 * mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_nodes', arguments: {} } }, '$[2]', reader); // true
 * ```
 */
export const mcp: Adapter = (item, path, reader) => {
  if (item.jsonrpc !== '2.0') return false;
  const id = typeof item.id === 'string' || typeof item.id === 'number' ? `jsonrpc:${item.id}` : undefined;
  if (item.method === 'tools/call' && isObject(item.params) && typeof item.params.name === 'string') {
    reader.call({ name: item.params.name, args: item.params.arguments, id }, `${path}.params`);
    return true;
  }
  if (id !== undefined && ('result' in item || 'error' in item)) {
    const failed = 'error' in item || (isObject(item.result) && item.result.isError === true);
    reader.result(failed ? 'error' : 'ok', { id });
  }
  return true;
};
