import { own } from '../internal/own.js';

/** A CLI command: takes its arguments, returns the exit code. */
export type Command = (args: string[]) => Promise<number>;

const HELP = `Usage: ai-eval <command> [options]

Commands:
  validate <file...>   check datasets, rubrics and gold-label files
  merge <report...>    combine the JSON reports of several shards into one
                       (-o out.json, --junit, --markdown, --baseline, --max-drop)
  list datasets        list the datasets the file source finds and where each
                       comes from (--root, --path, --no-packages, --json)
  report <dir...>      the report of records a run wrote to a side channel
                       (AI_EVAL_CHANNEL_DIR; -o, --junit, --markdown, --options)
  help                 show this help

Run 'ai-eval <command> --help' for a command's options. Docs: docs/reporter.md, docs/datasets.md.
`;

/**
 * Commands by name. Each is loaded only when it runs.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  list: () => import('./list.js').then((m) => m.list),
  merge: () => import('./merge.js').then((m) => m.merge),
  report: () => import('./report.js').then((m) => m.report),
  validate: () => import('./validate.js').then((m) => m.validate),
};

/**
 * Runs the ai-eval CLI with `args` (without the node and script paths) and returns the exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(['validate', 'datasets/support.yaml']);
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  const load = own(COMMANDS, name);
  if (!load) {
    process.stderr.write(`ai-eval: unknown command '${name}'.\n\n${HELP}`);
    return 2;
  }
  const command = await load();
  return command(rest);
}
