/**
 * `n word` or `n words`.
 *
 * @example
 * ```ts
 * plural(1, 'question'); // '1 question'
 * plural(2, 'advisory', 'advisories'); // '2 advisories'
 * ```
 */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * Text for a message: one line, at most `max` characters, cut with `…`.
 *
 * @example
 * ```ts
 * shorten('a\nb', 10); // 'a b'
 * ```
 */
export function shorten(text: string, max = 160): string {
  return clipAtWord(text.replace(/\s+/g, ' ').trim(), max + 1);
}

/**
 * Text cut to at most `width` characters (the `…` included) at a word boundary: the cut falls on
 * the last space that keeps at least half the width, else (one long word, a URL) mid-word.
 *
 * @example
 * ```ts
 * clipAtWord('the agent never searched the docs', 20); // 'the agent never…'
 * ```
 */
export function clipAtWord(text: string, width: number): string {
  if (text.length <= width) return text;
  const room = Math.max(0, width - 1);
  const head = text.slice(0, room + 1);
  const space = head.lastIndexOf(' ');
  const cut = space >= Math.floor(room / 2) && space > 0 ? space : room;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/**
 * A list for a sentence: the first `max` items, then `and N more`.
 *
 * @example
 * ```ts
 * abbreviate(['a', 'b', 'c'], 2); // 'a, b and 1 more'
 * ```
 */
export function abbreviate(items: readonly string[], max = 5): string {
  return items.length <= max
    ? items.join(', ')
    : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/**
 * The message of anything thrown.
 *
 * @example
 * ```ts
 * errorMessage(new Error('boom')); // 'boom'
 * errorMessage('plain'); // 'plain'
 * ```
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * How a value reads in a message about a wrong type.
 *
 * @example
 * ```ts
 * describeValue(null); // 'null'
 * describeValue({ a: 1 }); // 'an object with keys a'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).join(', ') || '(none)'}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} ${value.toString()}`;
  }
  return typeof value;
}

const FENCED = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/**
 * The body of a text that is exactly one fenced code block, or `undefined`.
 *
 * @example
 * ```ts
 * unfence('```json\n{"a":1}\n```'); // '{"a":1}'
 * unfence('{"a":1}'); // undefined
 * ```
 */
export function unfence(text: string): string | undefined {
  const match = FENCED.exec(text.trim());
  return match ? (match[1] ?? '') : undefined;
}
