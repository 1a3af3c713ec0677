import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isAiEvalError } from '../errors.js';
import { errorMessage } from '../internal/text.js';

/** The options of a command, as node:util's parseArgs takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

/**
 * The exit codes every command uses: 0 ok, 1 findings (a failed gate, a regression, an invalid
 * file), 2 a usage or input error (bad arguments, a file that cannot be read).
 */
export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/** A command's name and usage text, for its errors and `--help`. */
export interface CommandSpec<O extends CommandOptions> {
  /** The command as typed (`merge`, `list`): errors start with `ai-eval <name>:`. */
  name: string;
  /** The usage text `--help` prints (to stdout) and a usage error prints (to stderr). */
  usage: string;
  /** The command's options; `--help` / `-h` is added. */
  options: O;
}

type Parsed<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: O & { help: { type: 'boolean'; short: 'h' } };
    allowPositionals: true;
    strict: true;
  }>
>;

/** Arguments parsed, or the exit code the command returns at once (after `--help` or a usage error). */
export type ParsedCommand<O extends CommandOptions> =
  { ok: true; values: Parsed<O>['values']; positionals: string[] } | { ok: false; code: number };

/**
 * Parses a command's arguments strictly. `--help` prints the usage to stdout (exit 0); an unknown
 * option or a missing value prints `ai-eval <name>: <what is wrong>.` and the usage to stderr (exit 2).
 *
 * @example
 * ```ts
 * const parsed = parseCommand({ name: 'diff', usage: USAGE, options: { json: { type: 'boolean' } } }, args);
 * if (!parsed.ok) return parsed.code;
 * ```
 */
export function parseCommand<O extends CommandOptions>(
  spec: CommandSpec<O>,
  args: string[],
): ParsedCommand<O> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return { ok: false, code: usageError(spec, errorMessage(error)) };
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    process.stdout.write(spec.usage);
    return { ok: false, code: EXIT.ok };
  }
  return { ok: true, values: parsed.values, positionals: parsed.positionals };
}

function sentence(message: string): string {
  const trimmed = message.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Prints `ai-eval <name>: <message>.` and the usage to stderr; returns 2 (a usage error).
 *
 * @example
 * ```ts
 * if (positionals.length !== 2) return usageError(spec, 'name the base and the head report');
 * ```
 */
export function usageError(spec: { name: string; usage: string }, message: string): number {
  process.stderr.write(`ai-eval ${spec.name}: ${sentence(message)}\n\n${spec.usage}`);
  return EXIT.usage;
}

/**
 * Prints `ai-eval <name>: <message>` to stderr (no usage: the arguments were fine, the input was
 * not); returns 2. `error` may be an Error, an AiEvalError or a string.
 *
 * @example
 * ```ts
 * return inputError('diff', error); // "ai-eval diff: base.json: not JSON ..."
 * ```
 */
export function inputError(name: string, error: unknown): number {
  const message = isAiEvalError(error) || error instanceof Error ? error.message : String(error);
  process.stderr.write(`ai-eval ${name}: ${sentence(message)}\n`);
  return EXIT.usage;
}

/**
 * Prints one JSON document to stdout, and nothing else (what `--json` promises).
 *
 * @example
 * ```ts
 * printJson({ datasets: rows, warnings });
 * ```
 */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
