import { captureLogsAsync, echoLevel, isEchoed, logger, logLine, type LogEntry } from '../logger.js';

/** The warnings (and errors) that `fn` logged, each once, and what it returned. */
export interface HeldWarnings<T> {
  value: T;
  /** In the order first logged; a repeat of the same level, source and message is dropped. */
  warnings: LogEntry[];
}

/**
 * Runs `fn` (a dataset source's work) with the logger's echo to stderr held back, and returns the
 * warnings and errors it logged, each once: a source may log the same failure on every call (the
 * `http` source logs a cached failure again, so a `load` and a `loadSplits` said it twice). The
 * command then prints them once: on stderr with {@link printWarnings}, or in its `--json`
 * document. The echo level is global, so this is for the CLI, where nothing else runs meanwhile.
 *
 * @example
 * ```ts
 * const { value: questions, warnings } = await holdWarnings(() => source.load(ref));
 * if (!json) printWarnings(warnings);
 * ```
 */
export async function holdWarnings<T>(fn: () => T | Promise<T>): Promise<HeldWarnings<T>> {
  const level = echoLevel();
  logger.setEchoLevel('silent');
  try {
    const { value, logs } = await captureLogsAsync(async () => fn());
    const seen = new Set<string>();
    const warnings = logs.filter((entry) => {
      if (entry.level !== 'warn' && entry.level !== 'error') return false;
      const key = `${entry.level}\u0000${entry.source ?? ''}\u0000${entry.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { value, warnings };
  } finally {
    logger.setEchoLevel(level);
  }
}

/**
 * Prints held warnings to stderr as the logger echoes them (`[ai-eval:dataset:http] warn: ...`),
 * those at or above the echo level (`AI_EVAL_LOG_LEVEL`). Returns true when every one was printed,
 * false when the echo level hid some (a message that refers to them should then carry them).
 *
 * @example
 * ```ts
 * const shown = printWarnings(warnings);
 * const why = shown ? '(its warnings are above)' : `(${warnings.map((w) => w.message).join(' ')})`;
 * ```
 */
export function printWarnings(warnings: readonly LogEntry[]): boolean {
  let all = true;
  for (const entry of warnings) {
    if (isEchoed(entry.level)) process.stderr.write(logLine(entry));
    else all = false;
  }
  return all;
}
