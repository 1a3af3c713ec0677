import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorMessage } from '../internal/text.js';
import { checkReporterOptions, type ReporterOptions } from '../report/options.js';
import { readChannelDir } from '../report/side-channel.js';
import { finishRun } from '../report/write.js';

const USAGE = `Usage: ai-eval report <channel-dir...> [-o <report.json>] [--junit <file>] [--markdown <file>]
                      [--options <options.json>]

Builds the ai-eval report from the records that matchers wrote to a side channel: set
AI_EVAL_CHANNEL_DIR=<dir> for the run (mocha, a script on ai-eval/expect), then name <dir> here.
It prints the summary, writes the files, and exits 1 when a hard gate fails (the gates come from
--options, a JSON file with the reporter options), 2 on bad input.
`;

/**
 * `ai-eval report <dir>`: the report of a run whose records went to a side-channel directory
 * (runners without an ai-eval reporter). Exit code 0, 1 when a hard gate fails, 2 on bad input.
 *
 * @example
 * ```ts
 * process.exitCode = await report(['.ai-eval/records', '-o', 'ai-eval.json']);
 * ```
 */
export function report(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        output: { type: 'string', short: 'o' },
        junit: { type: 'string' },
        markdown: { type: 'string' },
        options: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`ai-eval report: ${errorMessage(error)}.\n\n${USAGE}`);
    return Promise.resolve(2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return Promise.resolve(0);
  }
  if (positionals.length === 0) {
    process.stderr.write(`ai-eval report: name the channel directory the run wrote to.\n\n${USAGE}`);
    return Promise.resolve(2);
  }
  let options: ReporterOptions;
  try {
    const fromFile: unknown =
      values.options === undefined ? {} : JSON.parse(readFileSync(resolve(values.options), 'utf8'));
    options = checkReporterOptions({
      ...(fromFile as ReporterOptions),
      ...(values.output !== undefined ? { outputFile: values.output } : {}),
      ...(values.junit !== undefined ? { junitFile: values.junit } : {}),
      ...(values.markdown !== undefined ? { markdownFile: values.markdown } : {}),
    });
  } catch (error) {
    process.stderr.write(`ai-eval report: ${values.options ?? 'options'}: ${errorMessage(error)}\n`);
    return Promise.resolve(2);
  }
  const records = [];
  const warnings: string[] = [];
  for (const dir of positionals) {
    const read = readChannelDir(resolve(dir));
    records.push(...read.records);
    warnings.push(...read.problems);
  }
  if (records.length === 0) warnings.push(`no records in ${positionals.join(', ')}`);
  const result = finishRun(records, options, {
    root: options.root ?? process.cwd(),
    print: (text) => process.stdout.write(text),
    isTTY: process.stdout.isTTY,
    warnings,
  });
  return Promise.resolve(result.failed ? 1 : 0);
}
