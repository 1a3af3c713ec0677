import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pc from 'picocolors';
import { isAiEvalError } from '../errors.js';
import { parseReport, readBaseline } from '../report/baseline.js';
import type { EvalReport } from '../report/model.js';
import { failsRun } from '../report/gates.js';
import { mergeReports } from '../report/merge.js';
import { renderJunit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-markdown.js';
import { renderTerminal } from '../report/render-terminal.js';
import { useColour, writeFileAtomic } from '../report/write.js';

const USAGE = `Usage: ai-eval merge <report.json...> -o <out.json> [--junit <file>] [--markdown <file>]
                     [--baseline <file> [--max-drop <n>]] [--quiet]

Combines the JSON reports of several shards into one report, recomputing every aggregate,
advisory, gate and the verdict as one run would: the hard gates each shard deferred are judged
here, on the merged data. Every report must carry the same gate settings, and shard reports must
be one complete set (each shard once). --baseline compares the merged run with a previous report;
--max-drop fails it when a target's average drops by more than n (0 to 5). A maxDrop set in the
shards' options also needs --baseline here: without it the drop gate fails. Exits 1 when a hard
gate fails, 2 on bad input (including reports gated differently or a missing shard).
`;

interface MergeArgs {
  inputs: string[];
  output?: string;
  junit?: string;
  markdown?: string;
  baseline?: string;
  maxDrop?: number;
  quiet: boolean;
}

function parseArgs(args: string[]): MergeArgs | string {
  const out: MergeArgs = { inputs: [], quiet: false };
  const flags: Record<string, 'output' | 'junit' | 'markdown' | 'baseline'> = {
    '-o': 'output',
    '--output': 'output',
    '--junit': 'junit',
    '--markdown': 'markdown',
    '--baseline': 'baseline',
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const key = flags[flag ?? ''];
    if (key) {
      const value = inline ?? args[++i];
      if (!value) return `${flag} needs a file`;
      out[key] = value;
    } else if (flag === '--max-drop') {
      const value = inline ?? args[++i];
      const n = Number(value);
      if (!value || !Number.isFinite(n) || n < 0 || n > 5)
        return `--max-drop needs a number from 0 to 5, got ${JSON.stringify(value ?? '')}`;
      out.maxDrop = n;
    } else if (arg === '--quiet' || arg === '-q') out.quiet = true;
    else if (arg === '--help' || arg === '-h') return '';
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else out.inputs.push(arg);
  }
  if (out.inputs.length === 0) return 'name at least one JSON report to merge';
  if (!out.output) return 'name the merged report with -o <out.json>';
  if (out.maxDrop !== undefined && !out.baseline)
    return '--max-drop needs --baseline <file>, the report to compare with';
  return out;
}

/**
 * `ai-eval merge a.json b.json -o out.json`: merges shard reports into one, writes it (and JUnit
 * or Markdown when asked) atomically and prints the summary. Returns 1 when a hard gate fails.
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
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed ? `ai-eval merge: ${parsed}.\n\n` : ''}${USAGE}`);
    return parsed ? 2 : 0;
  }
  try {
    const reports: EvalReport[] = parsed.inputs.map((file) => {
      let text: string;
      try {
        text = readFileSync(resolve(file), 'utf8');
      } catch (cause) {
        throw new Error(`${file}: cannot read (${(cause as Error).message})`, { cause });
      }
      return parseReport(text, file);
    });
    const baselineFile = parsed.baseline;
    const baseline = baselineFile
      ? { file: baselineFile, report: readBaseline(resolve(baselineFile)) }
      : null;
    const report = mergeReports(reports, {
      names: parsed.inputs,
      baseline,
      ...(parsed.maxDrop !== undefined ? { maxDrop: parsed.maxDrop } : {}),
    });
    writeFileAtomic(resolve(parsed.output as string), `${JSON.stringify(report, null, 2)}\n`);
    if (parsed.junit) writeFileAtomic(resolve(parsed.junit), renderJunit(report));
    if (parsed.markdown) writeFileAtomic(resolve(parsed.markdown), renderMarkdown(report));
    if (!parsed.quiet) {
      const palette = pc.createColors(useColour(undefined, process.env, process.stdout.isTTY));
      process.stdout.write(`${renderTerminal(report, { palette }).join('\n')}\n`);
    }
    return report.gates.some(failsRun) ? 1 : 0;
  } catch (error) {
    const message = isAiEvalError(error) || error instanceof Error ? error.message : String(error);
    process.stderr.write(`ai-eval merge: ${message}\n`);
    return 2;
  }
}
