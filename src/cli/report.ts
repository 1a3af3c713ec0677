import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { errorMessage } from '../internal/text.js';
import { BASELINE_FLAG, parseReport, readReportFile } from '../report/baseline.js';
import { failsRun } from '../report/gates.js';
import type { EvalReport } from '../report/model.js';
import { checkReporterOptions, type ReporterOptions } from '../report/options.js';
import { renderHtml } from '../report/renderers/html.js';
import { renderJunit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { readChannelDir } from '../report/side-channel.js';
import { finishRun } from '../report/write.js';
import { EXIT, inputError, parseCommand, usageError, type CommandOptions, type CommandSpec } from './args.js';
import { readTextFile } from '../internal/read-text.js';

const USAGE = `Usage: ai-eval report <report.json> [--html <file>] [--junit <file>] [--markdown <file>]
                      [--baseline <report.json>]
       ai-eval report <channel-dir...> [-o <report.json>] [--html <file>] [--junit <file>]
                      [--markdown <file>] [--options <options.json>]

With a JSON report (written by a reporter's outputFile or by ai-eval merge), renders it: --html
writes the self-contained HTML report (one file, no network request, opens from disk), --junit and
--markdown the other views; --baseline shows each target's trend against an older report.

With a side-channel directory, builds the report from the records that matchers wrote there: set
AI_EVAL_CHANNEL_DIR=<dir> for the run (mocha, a script on ai-eval/expect), then name <dir> here.
It prints the summary and writes the files; the gates come from --options, a JSON file with the
reporter options.

Exits 0, 1 when a hard gate of the report fails, 2 on bad input.
`;

const SPEC = {
  name: 'report',
  usage: USAGE,
  options: {
    output: { type: 'string', short: 'o' },
    junit: { type: 'string' },
    markdown: { type: 'string' },
    html: { type: 'string' },
    options: { type: 'string' },
    baseline: { type: 'string' },
  },
} as const satisfies CommandSpec<CommandOptions>;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `ai-eval report <report.json> --html <file>`: renders a JSON report; `ai-eval report <dir>`: the
 * report of a run whose records went to a side-channel directory (runners without an ai-eval
 * reporter). Exit code 0, 1 when a hard gate fails, 2 on bad input.
 *
 * @example
 * ```ts
 * process.exitCode = await report(['reports/ai-eval.json', '--html', 'reports/ai-eval.html']);
 * process.exitCode = await report(['.ai-eval/records', '-o', 'ai-eval.json']);
 * ```
 */
export function report(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return Promise.resolve(parsed.code);
  const { values, positionals } = parsed;
  if (positionals.length === 0)
    return Promise.resolve(
      usageError(SPEC, 'name a JSON report to render, or the channel directory the run wrote to'),
    );
  for (const key of ['output', 'junit', 'markdown', 'html', 'options', 'baseline'] as const) {
    if (values[key] === '') return Promise.resolve(usageError(SPEC, `--${key} needs a file`));
  }
  const missing = positionals.find((p) => /\.json$/i.test(p) && !isFile(resolve(p)));
  if (missing !== undefined)
    return Promise.resolve(
      inputError(
        'report',
        `${missing}: no such report file. Name a JSON report written by outputFile or ai-eval merge`,
      ),
    );
  if (positionals.length === 1 && isFile(resolve(positionals[0] as string)))
    return Promise.resolve(renderReportFile(positionals[0] as string, values));
  if (values.baseline !== undefined)
    return Promise.resolve(
      usageError(
        SPEC,
        '--baseline is for rendering a JSON report; with a channel directory, set baseline in --options',
      ),
    );
  return Promise.resolve(fromChannel(positionals, values));
}

function renderReportFile(
  file: string,
  values: {
    output?: string;
    junit?: string;
    markdown?: string;
    html?: string;
    options?: string;
    baseline?: string;
  },
): number {
  if (values.output !== undefined || values.options !== undefined)
    return usageError(SPEC, `${file} is already a report: -o and --options are for a channel directory`);
  if (values.html === undefined && values.junit === undefined && values.markdown === undefined)
    return usageError(
      SPEC,
      `say what to render ${file} as: --html <file>, --junit <file> or --markdown <file>`,
    );
  let parsedReport: EvalReport;
  let baseline: EvalReport | undefined;
  try {
    parsedReport = parseReport(readTextFile(resolve(file)), file);
    if (values.baseline !== undefined) baseline = readReportFile(resolve(values.baseline), BASELINE_FLAG);
  } catch (error) {
    return inputError('report', error);
  }
  const outputs: Array<[string | undefined, () => string]> = [
    [values.html, () => renderHtml(parsedReport, baseline ? { baseline } : {})],
    [values.junit, () => renderJunit(parsedReport)],
    [values.markdown, () => renderMarkdown(parsedReport)],
  ];
  for (const [out, render] of outputs) {
    if (out === undefined) continue;
    try {
      writeFileAtomic(resolve(out), render());
    } catch (error) {
      return inputError('report', `cannot write ${out}: ${errorMessage(error)}`);
    }
    process.stderr.write(`ai-eval report: wrote ${out}\n`);
  }
  return parsedReport.gates.some(failsRun) ? EXIT.findings : EXIT.ok;
}

function fromChannel(
  dirs: string[],
  values: { output?: string; junit?: string; markdown?: string; html?: string; options?: string },
): number {
  let options: ReporterOptions;
  try {
    const fromFile: unknown =
      values.options === undefined ? {} : JSON.parse(readFileSync(resolve(values.options), 'utf8'));
    options = checkReporterOptions({
      ...(fromFile as ReporterOptions),
      ...(values.output !== undefined ? { outputFile: values.output } : {}),
      ...(values.junit !== undefined ? { junitFile: values.junit } : {}),
      ...(values.markdown !== undefined ? { markdownFile: values.markdown } : {}),
      ...(values.html !== undefined ? { htmlFile: values.html } : {}),
    });
  } catch (error) {
    return inputError('report', `${values.options ?? 'options'}: ${errorMessage(error)}`);
  }
  const records = [];
  const warnings: string[] = [];
  for (const dir of dirs) {
    const read = readChannelDir(resolve(dir));
    // One by one: spreading a list of 150,000 or more into push() overflows the stack.
    for (const record of read.records) records.push(record);
    for (const problem of read.problems) warnings.push(problem);
  }
  if (records.length === 0) warnings.push(`no records in ${dirs.join(', ')}`);
  const result = finishRun(records, options, {
    root: options.root ?? process.cwd(),
    print: (text) => process.stdout.write(text),
    isTTY: process.stdout.isTTY,
    warnings,
  });
  return result.failed ? EXIT.findings : EXIT.ok;
}
