import { AsyncLocalStorage } from 'node:async_hooks';
import { redactText } from './internal/redact.js';

/**
 * How loud a log entry is.
 *
 * @example
 * ```ts
 * logger.setEchoLevel('error' satisfies LogLevel); // only errors reach stderr
 * ```
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One line written to the ai-eval logger.
 *
 * @example
 * ```ts
 * const { logs } = captureLogs(() => loadDatasetSync({ path: 'evals/a.yaml' }));
 * logs.filter((entry: LogEntry) => entry.level === 'warn').map((e) => e.message);
 * ```
 */
export interface LogEntry {
  level: LogLevel;
  message: string;
  /** What wrote it, for example `dataset:file` or `judge`. */
  source?: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/**
 * A function that receives every entry written to the logger.
 *
 * @example
 * ```ts
 * const stop = logger.subscribe(((entry) => console.log(entry.message)) satisfies LogListener);
 * stop();
 * ```
 */
export type LogListener = (entry: LogEntry) => void;

interface LoggerState {
  listeners: Set<LogListener>;
  entries: LogEntry[];
  echo: LogLevel | 'silent';
  /** The captures active in the current async context: each sees only what its own work wrote. */
  scopes: AsyncLocalStorage<readonly LogEntry[][]>;
  /** The synchronous captures running now, innermost last (no async context needed for them). */
  sync?: LogEntry[][];
}

const MAX_ENTRIES = 1000;
const ORDER: Record<LogLevel | 'silent', number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };
const KEY = Symbol.for('ai-eval.logger');

function state(): LoggerState {
  const holder = globalThis as { [KEY]?: LoggerState };
  holder[KEY] ??= {
    listeners: new Set(),
    entries: [],
    echo: (process.env.AI_EVAL_LOG_LEVEL as LogLevel | 'silent' | undefined) ?? 'warn',
    scopes: new AsyncLocalStorage(),
  };
  return holder[KEY];
}

function write(level: LogLevel, raw: string, source?: string): void {
  // Log lines leave the process (stderr, failing tests that show warnings): never with a secret.
  const message = redactText(raw);
  const entry: LogEntry = { level, message, at: Date.now(), ...(source ? { source } : {}) };
  const s = state();
  s.entries.push(entry);
  if (s.entries.length > MAX_ENTRIES) s.entries.shift();
  for (const listener of s.listeners) listener(entry);
  for (const collector of s.scopes.getStore() ?? []) collector.push(entry);
  for (const collector of s.sync ?? []) collector.push(entry);
  if (ORDER[level] >= ORDER[s.echo]) process.stderr.write(logLine(entry));
}

/**
 * An entry as the logger echoes it to stderr: `[ai-eval:source] level: message` and a line end.
 *
 * @example
 * ```ts
 * logLine({ level: 'warn', message: 'no base URL', source: 'dataset:http' });
 * // '[ai-eval:dataset:http] warn: no base URL\n'
 * ```
 */
export function logLine(entry: Pick<LogEntry, 'level' | 'message' | 'source'>): string {
  return `[ai-eval${entry.source ? `:${entry.source}` : ''}] ${entry.level}: ${entry.message}\n`;
}

/**
 * The lowest level echoed to stderr now (`AI_EVAL_LOG_LEVEL`, or what `logger.setEchoLevel` set).
 * Internal: the CLI holds a source's warnings back and prints each once.
 *
 * @example
 * ```ts
 * const level = echoLevel();
 * logger.setEchoLevel('silent');
 * // ... work whose warnings are printed later ...
 * logger.setEchoLevel(level);
 * ```
 */
export function echoLevel(): LogLevel | 'silent' {
  return state().echo;
}

/**
 * Whether an entry at `level` is echoed to stderr now.
 *
 * @example
 * ```ts
 * if (!isEchoed('warn')) console.error(warnings.join('\n')); // AI_EVAL_LOG_LEVEL hides them
 * ```
 */
export function isEchoed(level: LogLevel): boolean {
  return ORDER[level] >= ORDER[state().echo];
}

/**
 * The ai-eval logger. Dataset sources, judges and the cache write warnings here instead of
 * throwing; tests and generated suites read them back with {@link captureLogs}. Entries at or above
 * `AI_EVAL_LOG_LEVEL` (default `warn`; `silent` for none) are echoed to stderr.
 *
 * @example
 * ```ts
 * logger.warn('refusing non-simple dataset ref ../x.yaml', 'dataset:file');
 * ```
 */
export const logger = {
  debug: (message: string, source?: string): void => write('debug', message, source),
  info: (message: string, source?: string): void => write('info', message, source),
  warn: (message: string, source?: string): void => write('warn', message, source),
  error: (message: string, source?: string): void => write('error', message, source),
  /** Calls `listener` with every later entry; returns the function that stops it. */
  subscribe(listener: LogListener): () => void {
    state().listeners.add(listener);
    return () => state().listeners.delete(listener);
  },
  /** The most recent entries (at most 1000), oldest first. */
  entries(): readonly LogEntry[] {
    return state().entries;
  },
  /** Sets the lowest level echoed to stderr. */
  setEchoLevel(level: LogLevel | 'silent'): void {
    state().echo = level;
  },
};

/**
 * Runs `fn` and returns what it returned together with every log entry it wrote while it ran.
 * Nothing else runs meanwhile, so no other work's entries get in. It uses no async context (on
 * Node 20 and 22 an active one taxes every promise the process makes afterwards): what `fn`
 * starts and leaves running is not captured; capture asynchronous work with
 * {@link captureLogsAsync}.
 *
 * @example
 * ```ts
 * const { value: questions, logs } = captureLogs(() => source.load('missing.yaml'));
 * if (questions.length === 0) console.log(logs.map((l) => l.message));
 * ```
 */
export function captureLogs<T>(fn: () => T): { value: T; logs: LogEntry[] } {
  const logs: LogEntry[] = [];
  const s = state();
  const sync = (s.sync ??= []);
  sync.push(logs);
  try {
    return { value: fn(), logs };
  } finally {
    sync.splice(sync.lastIndexOf(logs), 1);
  }
}

/**
 * The asynchronous twin of {@link captureLogs}: collects what `fn` and everything it awaits wrote,
 * and nothing that concurrent work wrote meanwhile.
 *
 * @example
 * ```ts
 * const { value, logs } = await captureLogsAsync(() => loadDataset({ source: 'http', ref: 'a.yaml' }));
 * ```
 */
export async function captureLogsAsync<T>(fn: () => Promise<T>): Promise<{ value: T; logs: LogEntry[] }> {
  const logs: LogEntry[] = [];
  const scopes = state().scopes;
  const value = await scopes.run([...(scopes.getStore() ?? []), logs], fn);
  return { value, logs };
}
