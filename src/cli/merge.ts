import { resolve } from 'node:path';
import pc from 'picocolors';
import { inputError, parseCommand, usageError, type CommandOptions, type CommandSpec } from './args.js';
import { renderHtml } from '../report/renderers/html.js';
import { BASELINE_FLAG, parseReport, readReportFile } from '../report/baseline.js';
import type { EvalReport } from '../report/model.js';
import { failsRun } from '../report/gates.js';
import { mergeReports } from '../report/merge.js';
import { renderJunit } from '../report/render-junit.js';
import { reportJsonChunks } from '../report/report-json.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { renderTerminal } from '../report/render-terminal.js';
import { useColour } from '../report/write.js';
import { writeFileAtomic } from '../internal/atomic-write.js';
import { readTextFile } from '../internal/read-text.js';

const USAGE = `Usage: ai-eval merge <report.json...> -o <out.json> [--junit <file>] [--markdown <file>] [--html <file>]
                     [--baseline <file> [--max-drop <n>]] [--quiet]

Combines the JSON reports of several shards into one report, recomputing every aggregate,
advisory, gate and the verdict as one run would: the hard gates each shard deferred are judged
here, on the merged data. Every report must carry the same gate settings, and shard reports must
be one complete set (each shard once). A report given twice is refused, and so are whole runs
(not shards) that hold the same question: to compare two runs, use ai-eval diff. --baseline
compares the merged run with a previous report; --max-drop fails it when a target's average drops
by more than n (0 to 5). A maxDrop set in the shards' options also needs --baseline here: without
it the drop gate fails. Exits 1 when a hard gate fails, 2 on bad input (a report that cannot be
read or holds a value of the wrong type, reports gated differently, a missing shard, a report
given twice, two runs of the same question); nothing is written then.
`;

interface MergeArgs {
  inputs: string[];
  output?: string;
  junit?: string;
  markdown?: string;
  html?: string;
  baseline?: string;
  maxDrop?: number;
  quiet: boolean;
}

const SPEC = {
  name: 'merge',
  usage: USAGE,
  options: {
    output: { type: 'string', short: 'o' },
    junit: { type: 'string' },
    markdown: { type: 'string' },
    html: { type: 'string' },
    baseline: { type: 'string' },
    'max-drop': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  },
} as const satisfies CommandSpec<CommandOptions>;

/** The arguments, the exit code to return at once (help, usage error), or what is wrong. */
function parseMergeArgs(args: string[]): MergeArgs | number | string {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return parsed.code;
  const { values, positionals } = parsed;
  for (const key of ['output', 'junit', 'markdown', 'html', 'baseline'] as const) {
    if (values[key] === '') return `--${key} needs a file`;
  }
  const out: MergeArgs = {
    inputs: positionals,
    quiet: values.quiet === true,
    ...(values.output !== undefined ? { output: values.output } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.markdown !== undefined ? { markdown: values.markdown } : {}),
    ...(values.html !== undefined ? { html: values.html } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
  };
  const drop = values['max-drop'];
  if (drop !== undefined) {
    const n = Number(drop);
    if (drop.trim() === '' || !Number.isFinite(n) || n < 0 || n > 5)
      return `--max-drop needs a number from 0 to 5, got ${JSON.stringify(drop)}`;
    out.maxDrop = n;
  }
  if (out.inputs.length === 0) return 'name at least one JSON report to merge';
  if (!out.output) return 'name the merged report with -o <out.json>';
  if (out.maxDrop !== undefined && !out.baseline)
    return '--max-drop needs --baseline <file>, the report to compare with';
  return out;
}

/**
 * `ai-eval merge a.json b.json -o out.json`: merges shard reports into one, writes it (and JUnit
 * or Markdown when asked) atomically and prints the summary. Returns 1 when a hard gate fails, 2
 * (writing nothing) when the reports are not the shards of one run (see `mergeReports`).
 *
 * @example
 * ```ts
 * process.exitCode = await merge(['shard-1.json', 'shard-2.json', '-o', 'ai-eval.json']);
 * ```
 */
export function merge(args: string[]): Promise<number> {
  return Promise.resolve(runMerge(args));
}

function runMerge(args: string[]): number {
  const parsed = parseMergeArgs(args);
  if (typeof parsed === 'number') return parsed;
  if (typeof parsed === 'string') return usageError(SPEC, parsed);
  try {
    const reports: EvalReport[] = parsed.inputs.map((file) => {
      let text: string;
      try {
        text = readTextFile(resolve(file));
      } catch (cause) {
        throw new Error(`${file}: cannot read (${(cause as Error).message})`, { cause });
      }
      return parseReport(text, file);
    });
    const baselineFile = parsed.baseline;
    const baseline = baselineFile
      ? { file: baselineFile, report: readReportFile(resolve(baselineFile), BASELINE_FLAG) }
      : null;
    const report = mergeReports(reports, {
      names: parsed.inputs,
      baseline,
      ...(parsed.maxDrop !== undefined ? { maxDrop: parsed.maxDrop } : {}),
    });
    writeFileAtomic(resolve(parsed.output as string), reportJsonChunks(report));
    if (parsed.junit) writeFileAtomic(resolve(parsed.junit), renderJunit(report));
    if (parsed.markdown) writeFileAtomic(resolve(parsed.markdown), renderMarkdown(report));
    if (parsed.html) writeFileAtomic(resolve(parsed.html), renderHtml(report));
    if (!parsed.quiet) {
      const palette = pc.createColors(useColour(undefined, process.env, process.stdout.isTTY));
      process.stdout.write(`${renderTerminal(report, { palette }).join('\n')}\n`);
    }
    return report.gates.some(failsRun) ? 1 : 0;
  } catch (error) {
    return inputError('merge', error);
  }
}
