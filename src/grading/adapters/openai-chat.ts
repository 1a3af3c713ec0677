import { isObject, text, type Adapter } from './core.js';

/**
 * OpenAI Chat Completions: function tool calls `{ type: 'function', id, function: { name,
 * arguments } }`, custom tool calls `{ type: 'custom', id, custom: { name, input } }` (kind
 * `custom`), and a whole completion, read through `choices[].message`. Messages themselves (the
 * `assistant` turn with `tool_calls`, the `tool` turn with `tool_call_id`) are read by role.
 *
 * @example
 * ```ts
 * openaiChat({ id: 'c1', type: 'function', function: { name: 'search', arguments: '{}' } }, '$[0]', reader); // true
 * ```
 */
export const openaiChat: Adapter = (item, path, reader) => {
  const fn = item.function;
  if (isObject(fn) && typeof fn.name === 'string' && (item.type === undefined || item.type === 'function')) {
    reader.call({ name: fn.name, args: fn.arguments, id: text(item.id) }, path);
    return true;
  }
  const custom = item.custom;
  if (item.type === 'custom' && isObject(custom) && typeof custom.name === 'string') {
    reader.call({ name: custom.name, args: custom.input, id: text(item.id), kind: 'custom' }, path);
    return true;
  }
  if (typeof item.role !== 'string' && Array.isArray(item.choices)) {
    item.choices.forEach((choice: unknown, i) => {
      const where = `${path}.choices[${i}]`;
      reader.visit(
        isObject(choice) && isObject(choice.message) ? choice.message : choice,
        `${where}.message`,
      );
    });
    return true;
  }
  return false;
};
