import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { TokenUsage } from '../grading/types.js';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { errorMessage, shorten } from '../internal/text.js';
import { logger } from '../logger.js';
import { sha256Hex } from '../internal/sha256.js';

/**
 * The version of {@link JudgeCacheEntry}.
 *
 * @example
 * ```ts
 * entry.v === JUDGE_CACHE_VERSION;
 * ```
 */
export const JUDGE_CACHE_VERSION = 1;

/**
 * One recorded judge answer. Holds no API key or header, only what the model was asked and said.
 *
 * @example
 * ```ts
 * const entry = JSON.parse(readFileSync(file, 'utf8')) as JudgeCacheEntry;
 * console.log(entry.judge, entry.model, entry.content);
 * ```
 */
export interface JudgeCacheEntry {
  v: typeof JUDGE_CACHE_VERSION;
  key: string;
  judge: string;
  model: string;
  trial: number;
  /**
   * The full prompt, so a reviewer can read what was asked; absent when the cache stores answers
   * only (`judge.cacheStore: 'answers'`).
   */
  prompt?: string;
  content: string | null;
  refusal: string | null;
  usage?: TokenUsage;
  recordedAt: string;
}

/**
 * The cache key of a judge call: a SHA-256 over the model, the full prompt (every message), the
 * decoding settings and the trial number.
 *
 * @example
 * ```ts
 * judgeCacheKey({ model: 'gpt-4o-mini', messages, decoding: { temperature: 0, seed: 0 }, trial: 1 });
 * ```
 */
export function judgeCacheKey(parts: {
  model: string;
  messages: ReadonlyArray<{ role: string; content: string }>;
  decoding: Record<string, unknown>;
  trial: number;
}): string {
  // JSON.stringify([model, messages, sortKeys(decoding), trial]), with the decoding's part
  // (the same few settings and answer schema on every call of a judge) written once.
  const canonical = `[${item(parts.model)},${item(parts.messages)},${canonicalDecoding(parts.decoding)},${item(parts.trial)}]`;
  return sha256Hex(canonical);
}

/** A value as JSON.stringify writes it inside a list (where `undefined` is `null`). */
const item = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** The canonical text of values that cannot change (frozen all the way down), by identity. */
const FROZEN_TEXTS = new WeakMap<object, string>();

function deepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

/** `JSON.stringify(sortKeys(decoding))`, with a frozen answer schema written once. */
function canonicalDecoding(decoding: Record<string, unknown>): string {
  const members: string[] = [];
  for (const key of Object.keys(decoding).sort()) {
    const value = decoding[key];
    if (value === undefined) continue;
    let text: string | undefined;
    if (value !== null && typeof value === 'object') {
      text = FROZEN_TEXTS.get(value);
      if (text === undefined) {
        text = JSON.stringify(sortKeys(value));
        if (deepFrozen(value)) FROZEN_TEXTS.set(value, text);
      }
    } else {
      // What JSON.stringify leaves out of an object (a function, a symbol) is left out here too.
      text = JSON.stringify(value);
      if (text === undefined) continue;
    }
    members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Where the entry of `key` lives: `<dir>/<first two hex digits>/<key>.json`.
 *
 * @example
 * ```ts
 * judgeCachePath('.ai-eval/judge-cache', 'ab12…'); // '/repo/.ai-eval/judge-cache/ab/ab12….json'
 * ```
 */
export function judgeCachePath(dir: string, key: string): string {
  // The key is hex: only the folder needs resolving, once per folder and working directory.
  const cwd = process.cwd();
  if (resolved?.dir !== dir || resolved.cwd !== cwd) {
    const path = resolve(dir);
    resolved = { dir, cwd, prefix: path.endsWith(sep) ? path : `${path}${sep}` };
  }
  return `${resolved.prefix}${key.slice(0, 2)}${sep}${key}.json`;
}

let resolved: { dir: string; cwd: string; prefix: string } | undefined;

/** Why a value read from an entry's file is not the entry of `key`, or `undefined` when it is. */
function entryProblem(value: unknown, key: string): string | undefined {
  const shape = `it does not have the shape of a version ${JUDGE_CACHE_VERSION} entry`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return shape;
  const e = value as Partial<JudgeCacheEntry>;
  if (e.v === JUDGE_CACHE_VERSION && typeof e.key === 'string' && e.key !== key)
    return `it holds the entry of another key (${shorten(e.key, 80)})`;
  const ok =
    e.v === JUDGE_CACHE_VERSION &&
    e.key === key &&
    (typeof e.content === 'string' || e.content === null) &&
    (typeof e.refusal === 'string' || e.refusal === null || e.refusal === undefined);
  return ok ? undefined : shape;
}

/**
 * What the cache holds for a key: the entry; nothing (`missing`); or a file that is there but
 * cannot be used (`corrupt`, saying why: not JSON, empty, a directory, the wrong shape, another
 * key's entry, unreadable).
 *
 * @example
 * ```ts
 * const found = lookupJudgeCache('.ai-eval/judge-cache', key);
 * if ('corrupt' in found) console.log(found.file, found.corrupt);
 * ```
 */
export type JudgeCacheLookup =
  | { entry: JudgeCacheEntry; file: string }
  | { missing: true; file: string }
  | { corrupt: string; file: string };

/**
 * Looks a key up in the cache, telling a missing entry from one that is there but unusable. Logs
 * nothing (see {@link readJudgeCache}).
 *
 * @example
 * ```ts
 * const found = lookupJudgeCache('.ai-eval/judge-cache', key);
 * if ('entry' in found) replay(found.entry);
 * ```
 */
export function lookupJudgeCache(dir: string, key: string): JudgeCacheLookup {
  const file = judgeCachePath(dir, key);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true, file };
    if (code === 'EISDIR') return { corrupt: 'it is a directory, not a file', file };
    return { corrupt: `it could not be read (${shorten(errorMessage(error), 160)})`, file };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Told apart only here: an entry that parses is not copied to be trimmed.
    if (text.trim() === '') return { corrupt: 'the file is empty', file };
    return { corrupt: `it is not JSON (${shorten(errorMessage(error), 160)})`, file };
  }
  const problem = entryProblem(value, key);
  return problem === undefined ? { entry: value as JudgeCacheEntry, file } : { corrupt: problem, file };
}

/**
 * Reads a cache entry. A missing entry is `undefined`; a corrupt one (not JSON, empty, a directory,
 * wrong shape, another key's) is `undefined` too, with a logger warning naming the file and why.
 *
 * @example
 * ```ts
 * const entry = readJudgeCache('.ai-eval/judge-cache', key);
 * ```
 */
export function readJudgeCache(dir: string, key: string): JudgeCacheEntry | undefined {
  const found = lookupJudgeCache(dir, key);
  if ('entry' in found) return found.entry;
  if ('corrupt' in found) {
    logger.warn(
      `ignoring corrupt judge cache entry ${found.file}: ${found.corrupt}; delete it or re-record`,
      'judge:cache',
    );
  }
  return undefined;
}

/**
 * Writes a cache entry atomically (through the package's one atomic writer: a temporary file
 * beside it, then renamed over the target), so a reader never sees half an entry.
 *
 * @example
 * ```ts
 * writeJudgeCache('.ai-eval/judge-cache', entry);
 * ```
 */
export function writeJudgeCache(dir: string, entry: JudgeCacheEntry): string {
  const file = judgeCachePath(dir, entry.key);
  writeFileAtomic(file, `${JSON.stringify(entry, null, 2)}\n`);
  return file;
}
