import { isObject, text, type Adapter, type Json, type Reader } from './core.js';

/** The `_meta` key under which a `tasks/result` response names its task. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Task statuses that end a task without a result. */
const TASK_FAILED: ReadonlySet<unknown> = new Set(['failed', 'cancelled']);

/**
 * MCP over JSON-RPC 2.0: a `tools/call` request (`{ jsonrpc: '2.0', id, method: 'tools/call',
 * params: { name, arguments } }`) is a call; the response with the same `id` is its result, failed
 * when the `CallToolResult` has `isError: true` or the response is a JSON-RPC `error`. A
 * task-augmented call's response only creates the task (`{ task: { taskId, status } }`): its
 * outcome is the `tasks/result` response (failed as above), or a `failed` / `cancelled` task status
 * (`tasks/get`, `tasks/cancel`, `notifications/tasks/status`); until then it has none. Other
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
  const params = isObject(item.params) ? item.params : undefined;
  if (item.method === 'tools/call' && params && typeof params.name === 'string') {
    reader.call({ name: params.name, args: params.arguments, id }, `${path}.params`);
    return true;
  }
  // The response to a tasks/result request is the task's result.
  if (item.method === 'tasks/result' && id !== undefined && params && typeof params.taskId === 'string') {
    reader.alias(id, taskLink(params.taskId));
    return true;
  }
  if (item.method === 'notifications/tasks/status' && params) {
    readTaskStatus(params, reader);
    return true;
  }
  if (id === undefined || !('result' in item || 'error' in item)) return true;
  const result = isObject(item.result) ? item.result : undefined;
  if (result && isObject(result.task) && typeof result.task.taskId === 'string') {
    // A created task: results for it belong to this call, and it has none yet.
    reader.alias(taskLink(result.task.taskId), id);
    readTaskStatus(result.task, reader);
    return true;
  }
  if (
    result &&
    typeof result.taskId === 'string' &&
    typeof result.status === 'string' &&
    !('content' in result)
  ) {
    readTaskStatus(result, reader);
    return true;
  }
  const related = result && isObject(result._meta) ? result._meta[RELATED_TASK] : undefined;
  const taskId = isObject(related) ? text(related.taskId) : undefined;
  const failed = 'error' in item || result?.isError === true;
  reader.result(failed ? 'error' : 'ok', { id: taskId !== undefined ? taskLink(taskId) : id });
  return true;
};

const taskLink = (taskId: string): string => `mcp-task:${taskId}`;

/** A task that failed or was cancelled fails its call; other statuses say nothing yet. */
function readTaskStatus(task: Json, reader: Reader): void {
  if (typeof task.taskId === 'string' && TASK_FAILED.has(task.status)) {
    reader.result('error', { id: taskLink(task.taskId) });
  }
}
