import { pointerKey } from './positions.js';

/**
 * Small iterative scanners over JSON text and values: nothing here recurses, so no nesting depth
 * can exhaust the stack. `JSON.parse` (iterative in V8) gives the value; these give what it does
 * not. On every load, cheaply: the nesting depth and the number of keys the text writes against
 * the number parsed (fewer parsed means a repeated key). Only for a document that has a problem
 * to report: where the too-deep part, the JSON Pointers, every repeated key and a syntax error are.
 */

const OPEN_OBJECT = 123; // {
const CLOSE_OBJECT = 125; // }
const OPEN_ARRAY = 91; // [
const CLOSE_ARRAY = 93; // ]
const QUOTE = 34; // "
const BACKSLASH = 92; // \
const COLON = 58; // :
const COMMA = 44; // ,

/** The offset of the quote that closes the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let j = start + 1;
  for (;;) {
    j = text.indexOf('"', j);
    if (j === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return j;
    j++;
  }
}

/**
 * The shape of a JSON text that `JSON.parse` accepted: how many keys it writes (a colon outside a
 * string always follows a key) and the offset of the first list or map nested deeper than
 * `maxDepth` (-1 when none is). A character loop: used to find where, once the walk said so.
 */
export function jsonShape(text: string, maxDepth: number): { keys: number; tooDeepAt: number } {
  let depth = 0;
  let keys = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) break;
    } else if (c === COLON) keys++;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return { keys, tooDeepAt: i };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return { keys, tooDeepAt: -1 };
}

/**
 * A count of the keys a JSON text that `JSON.parse` accepted writes, never fewer than it writes:
 * the colons whose nearest non-blank character before them is an unescaped quote. A colon outside
 * a string follows only a key, so every key is counted; a colon inside a string is counted only
 * when blanks alone stand between it and the string's opening quote (a string beginning with
 * spaces and a colon). So when the parsed value holds as many keys as this counts, no key was
 * repeated (a repeat leaves the value fewer keys than the text writes); otherwise the scanner
 * decides. Hops from colon to colon with `indexOf`.
 */
export function jsonKeyCount(text: string): number {
  let keys = 0;
  for (let c = text.indexOf(':'); c !== -1; c = text.indexOf(':', c + 1)) {
    let j = c - 1;
    let code = text.charCodeAt(j);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(--j);
    if (code !== QUOTE) continue;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) keys++;
  }
  return keys;
}

/**
 * Walks a parsed JSON value without recursion: how many keys its objects hold, and whether lists
 * and maps nest deeper than `maxDepth` (the value itself is level 1). Visits only lists and maps.
 */
export function walkJson(value: unknown, maxDepth: number): { keys: number; tooDeep: boolean } {
  let keys = 0;
  if (value === null || typeof value !== 'object') return { keys, tooDeep: false };
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return { keys, tooDeep: true };
    if (Array.isArray(v)) {
      const list = v as unknown[];
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in v) {
        keys++;
        const item = (v as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { keys, tooDeep: false };
}

interface Frame {
  object: boolean;
  pointer: string;
  /** The pointer is a prefix of a wanted one, so the pointers of its children are worth building. */
  relevant: boolean;
  index: number;
  key: string | undefined;
  keys: Set<string> | undefined;
}

/** What {@link scanJson} found. */
export interface JsonScan {
  /** The offset of each wanted pointer (and of each of their ancestors) that exists. */
  offsets: Map<string, number>;
  /** Keys repeated in the same object (the second and later of each): where, and the key. */
  duplicates: Array<{ offset: number; key: string }>;
  /** The offset where the text stops being JSON, or -1. */
  error: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/**
 * Scans JSON text once, iteratively: records where the values at `wanted` pointers (and their
 * ancestors) start, every repeated key when `duplicates` is set, and the first syntax error.
 */
export function scanJson(
  text: string,
  wanted: Iterable<string> = [],
  options: { duplicates?: boolean } = {},
): JsonScan {
  const prefixes = new Set<string>();
  for (const pointer of wanted) {
    prefixes.add(pointer);
    for (let i = pointer.lastIndexOf('/'); i > 0; i = pointer.lastIndexOf('/', i - 1))
      prefixes.add(pointer.slice(0, i));
    prefixes.add('');
  }
  const offsets = new Map<string, number>();
  const duplicates: Array<{ offset: number; key: string }> = [];
  const stack: Frame[] = [];
  const hunt = options.duplicates === true;
  let i = 0;
  const skip = () => {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(text);
    i = WHITESPACE.lastIndex;
  };
  const fail = (at: number): JsonScan => ({ offsets, duplicates, error: at });

  // Each turn reads one value at i (its pointer is `here`), then what follows it.
  let here: string | undefined = '';
  skip();
  for (;;) {
    if (here !== undefined && prefixes.has(here) && !offsets.has(here)) offsets.set(here, i);
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const object = c === OPEN_OBJECT;
      const frame: Frame = {
        object,
        pointer: here ?? '',
        relevant: here !== undefined && prefixes.has(here),
        index: 0,
        key: undefined,
        keys: object && hunt ? new Set() : undefined,
      };
      stack.push(frame);
      i++;
      skip();
      const close = object ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (text.charCodeAt(i) === close) {
        stack.pop();
        i++;
      } else {
        if (object) {
          const next = readKey(frame);
          if (next === undefined) return fail(i);
        }
        here = childPointer(frame);
        continue;
      }
    } else if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return fail(i);
      i = end + 1;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return fail(i);
      i = NUMBER.lastIndex;
    }
    // After a value: a comma and the next member, or the end of containers.
    for (;;) {
      skip();
      const frame = stack[stack.length - 1];
      if (frame === undefined) return i === text.length ? { offsets, duplicates, error: -1 } : fail(i);
      const d = text.charCodeAt(i);
      if (d === COMMA) {
        i++;
        skip();
        frame.index++;
        if (frame.object && readKey(frame) === undefined) return fail(i);
        here = childPointer(frame);
        break;
      }
      if (d !== (frame.object ? CLOSE_OBJECT : CLOSE_ARRAY)) return fail(i);
      stack.pop();
      i++;
    }
  }

  /** Reads `"key":` at i into the frame; undefined on a syntax error. */
  function readKey(frame: Frame): string | undefined {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const start = i;
    const end = stringEnd(text, i);
    if (end === -1) return undefined;
    const key = frame.relevant || frame.keys ? (JSON.parse(text.slice(start, end + 1)) as string) : '';
    if (frame.keys) {
      if (frame.keys.has(key)) duplicates.push({ offset: start, key });
      else frame.keys.add(key);
    }
    frame.key = key;
    i = end + 1;
    skip();
    if (text.charCodeAt(i) !== COLON) return undefined;
    i++;
    skip();
    return key;
  }

  function childPointer(frame: Frame): string | undefined {
    if (!frame.relevant) return undefined;
    return `${frame.pointer}/${frame.object ? pointerKey(frame.key ?? '') : frame.index}`;
  }
}
