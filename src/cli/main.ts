import { own } from '../internal/own.js';

/** A CLI command: takes its arguments, returns the exit code. */
export type Command = (args: string[]) => Promise<number>;

const HELP = `Usage: ai-eval <command> [options]

Commands:
  validate <file...>   check datasets, rubrics and gold-label files
  merge <report...>    combine the JSON reports of several shards into one
                       (-o out.json, --junit, --markdown, --baseline, --max-drop)
  list <what>          list graders, judges, sources or datasets (and where each
                       dataset comes from; --source, --json)
  diff <base> <head>   compare two JSON reports per target and question
                       (--json, --fail-on-regression)
  pull <source> <ref>  bring a dataset from a source (http, a custom one) into a
                       local file a suite loads (-o <file>)
  promote <report>     append a report's questions to a writable dataset
                       (--to <source>:<ref>, --failed, --degraded, --ids, --dry-run)
  report <report.json> render a JSON report (--html, --junit, --markdown), or build
  report <dir...>      the report of records a run wrote to a side channel
                       (AI_EVAL_CHANNEL_DIR; -o, --html, --junit, --markdown, --options)
  judges validate      measure LLM judges against gold labels, record trust
                       (--gold <file>, --judge, --json, --dry-run)
  judges list          every LLM judge with its trust state (--json)
  help                 show this help

Run 'ai-eval <command> --help' for a command's options. Exit codes: 0 ok, 1 findings
(a failed gate, a regression, an invalid file), 2 a usage or input error.
Docs: node_modules/ai-eval/docs/cli.md, node_modules/ai-eval/docs/reporter.md.
`;

/**
 * Commands by name. Each is loaded only when it runs.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  diff: () => import('./diff.js').then((m) => m.diff),
  judges: () => import('./judges.js').then((m) => m.judges),
  list: () => import('./list.js').then((m) => m.list),
  merge: () => import('./merge.js').then((m) => m.merge),
  promote: () => import('./promote.js').then((m) => m.promote),
  pull: () => import('./pull.js').then((m) => m.pull),
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
  if (name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  // No command is a usage error, as a missing argument is: a CI step that lost its arguments fails.
  if (name === undefined) {
    process.stderr.write(`ai-eval: name a command.\n\n${HELP}`);
    return 2;
  }
  const load = own(COMMANDS, name);
  if (!load) {
    process.stderr.write(`ai-eval: unknown command '${name}'.\n\n${HELP}`);
    return 2;
  }
  const command = await load();
  return command(rest);
}
