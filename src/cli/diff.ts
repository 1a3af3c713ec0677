import { resolve } from 'node:path';
import { formatNumber } from '../internal/numbers.js';
import { readBaseline } from '../report/baseline.js';
import { diffReports, type QuestionDiff, type ReportDiff, type TargetDiff } from '../report/diff.js';
import type { EvalReport } from '../report/model.js';
import {
  EXIT,
  inputError,
  parseCommand,
  printJson,
  usageError,
  type CommandOptions,
  type CommandSpec,
} from './args.js';

const USAGE = `Usage: ai-eval diff <base.json> <head.json> [--json] [--fail-on-regression] [--all]

Compares two JSON reports (written by a reporter's outputFile or ai-eval merge), per target and
per question: average and pass-rate changes, questions whose composite or verdict changed, new and
removed questions, graders whose mean moved, advisories that appeared or went away.

For each target it gives a 95% interval on the change of its pass share (head minus base;
Newcombe's hybrid score interval from two Wilson intervals; each trial of a question that ran
several counts once) and says whether the change is beyond noise (the interval excludes 0).

A target regressed when a question that passed in base does not pass in head, or when its pass
share dropped beyond noise. --all lists unchanged questions too. --json prints one JSON document
and nothing else on stdout.

Exits 0; 1 with --fail-on-regression when a target regressed; 2 on bad arguments or a report that
cannot be read.
`;

const SPEC = {
  name: 'diff',
  usage: USAGE,
  options: {
    json: { type: 'boolean' },
    'fail-on-regression': { type: 'boolean' },
    all: { type: 'boolean' },
  },
} as const satisfies CommandSpec<CommandOptions>;

const n = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(2));
const signed = (x: number | null): string => (x === null ? '' : `${x >= 0 ? '+' : ''}${x.toFixed(2)}`);
const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : `${formatNumber(x * 100)}%`;
const pts = (x: number): string => `${x >= 0 ? '+' : ''}${formatNumber(x * 100)}`;

function verdict(v: { composite: number | null; passed: boolean } | null): string {
  if (!v) return '';
  return `${n(v.composite)} ${v.composite === null ? 'unscored' : v.passed ? 'passed' : 'failed'}`;
}

function questionLine(q: QuestionDiff): string {
  const label = {
    regressed: 'REGRESSED',
    fixed: 'fixed',
    new: 'new',
    removed: 'removed',
    changed: 'changed',
    same: 'same',
  }[q.change];
  if (q.change === 'new') return `    + ${q.id}: new (${verdict(q.after)})`;
  if (q.change === 'removed') return `    - ${q.id}: removed (was ${verdict(q.before)})`;
  const d = q.delta === null ? '' : ` (${signed(q.delta)})`;
  return `    ${q.change === 'regressed' ? '!' : q.change === 'fixed' ? '*' : ' '} ${q.id}: ${verdict(q.before)} -> ${verdict(q.after)}${d}  ${label}`;
}

function targetLines(t: TargetDiff, all: boolean): string[] {
  if (t.status === 'new')
    return [
      `${t.name}: new target (average ${n(t.after?.averageScore)}, pass rate ${pct(t.after?.passRate)})`,
    ];
  if (t.status === 'removed')
    return [
      `${t.name}: removed (was average ${n(t.before?.averageScore)}, pass rate ${pct(t.before?.passRate)})`,
    ];
  const interval = t.passRateInterval;
  const noise = interval
    ? `; 95% interval ${pts(interval.low)} to ${pts(interval.high)} pts over ${t.before?.passUnits.units ?? 0} and ${t.after?.passUnits.units ?? 0} trials: ${t.beyondNoise ? 'beyond noise' : 'within noise'}`
    : '';
  const lines = [
    `${t.name}${t.regressed ? '  REGRESSED' : ''}`,
    `  average ${n(t.before?.averageScore)} -> ${n(t.after?.averageScore)}${t.averageDelta === null ? '' : ` (${signed(t.averageDelta)})`}`,
    `  pass rate ${pct(t.before?.passRate)} -> ${pct(t.after?.passRate)}${t.passRateDelta === null ? '' : ` (${pts(t.passRateDelta)} pts${noise})`}`,
  ];
  const shown = t.questions.filter((q) => all || q.change !== 'same');
  if (shown.length > 0) lines.push('  questions:', ...shown.map(questionLine));
  for (const g of t.graders)
    lines.push(
      `  grader ${g.grader}: mean ${n(g.before)} -> ${n(g.after)}${g.delta === null ? '' : ` (${signed(g.delta)})`}`,
    );
  for (const a of t.advisories.appeared) lines.push(`  advisory appeared: ${a.code}: ${a.message}`);
  for (const a of t.advisories.gone) lines.push(`  advisory gone: ${a.code}: ${a.message}`);
  return lines;
}

function render(result: ReportDiff, files: [string, string], all: boolean): string {
  const lines = [
    `ai-eval diff ${files[0]} (${result.base.timestamp}) -> ${files[1]} (${result.head.timestamp})`,
    '',
  ];
  for (const t of result.targets) lines.push(...targetLines(t, all), '');
  lines.push(
    result.regressions === 0
      ? `No regression${result.fixed > 0 ? `; ${result.fixed} question(s) fixed` : ''}.`
      : `${result.regressions} target(s) regressed${result.fixed > 0 ? `; ${result.fixed} question(s) fixed` : ''}.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `ai-eval diff <base.json> <head.json>`: what changed between two runs. Exit code 0, 1 with
 * `--fail-on-regression` when a target regressed, 2 on bad input.
 *
 * @example
 * ```ts
 * process.exitCode = await diff(['main.json', 'branch.json', '--fail-on-regression']);
 * ```
 */
export function diff(args: string[]): Promise<number> {
  const parsed = parseCommand(SPEC, args);
  if (!parsed.ok) return Promise.resolve(parsed.code);
  const { values, positionals } = parsed;
  if (positionals.length !== 2)
    return Promise.resolve(
      usageError(SPEC, `name two JSON reports, the base then the head (got ${positionals.length})`),
    );
  const [baseFile, headFile] = positionals as [string, string];
  let base: EvalReport;
  let head: EvalReport;
  try {
    base = readBaseline(resolve(baseFile));
    head = readBaseline(resolve(headFile));
  } catch (error) {
    return Promise.resolve(inputError('diff', error));
  }
  const result = diffReports(base, head);
  if (values.json)
    printJson({
      base: { file: baseFile, ...result.base },
      head: { file: headFile, ...result.head },
      targets: result.targets,
      regressions: result.regressions,
      fixed: result.fixed,
    });
  else process.stdout.write(render(result, [baseFile, headFile], values.all === true));
  return Promise.resolve(values['fail-on-regression'] && result.regressions > 0 ? EXIT.findings : EXIT.ok);
}
