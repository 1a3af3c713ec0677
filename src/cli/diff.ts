import { resolve } from 'node:path';
import { formatNumber } from '../internal/numbers.js';
import { readReportFile } from '../report/baseline.js';
import { diffReports, type QuestionDiff, type ReportDiff, type TargetDiff } from '../report/diff.js';
import type { EvalReport, LoadFailureReport } from '../report/model.js';
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

A target regressed when a question that passed in base does not pass in head, when its pass
share dropped beyond noise, or when a dataset of it did not load in head. A question of base that
is not in head did not pass there: it counts, unless head's dataset loaded with other content and
without it (removed from the dataset) or head lists it as disabled. --all lists unchanged questions
too. --json prints one JSON document and nothing else on stdout.

Exits 0; 1 with --fail-on-regression when a target regressed; 2 on bad arguments or a report that
cannot be read or holds a value of the wrong type (named with its JSON path).
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
  if (q.change === 'removed') return removedLine(q);
  const d = q.delta === null ? '' : ` (${signed(q.delta)})`;
  return `    ${q.change === 'regressed' ? '!' : q.change === 'fixed' ? '*' : ' '} ${q.id}: ${verdict(q.before)} -> ${verdict(q.after)}${d}  ${label}`;
}

/** A question of base that head does not have, and why (see AbsenceReason). */
function removedLine(q: QuestionDiff): string {
  const was = `was ${verdict(q.before)}`;
  const dataset = q.absent?.dataset;
  switch (q.absent?.reason) {
    case 'removed-from-dataset':
      return `    - ${q.id}: removed from the dataset (${was}; ${dataset} changed and no longer has it)`;
    case 'disabled':
      return `    - ${q.id}: disabled in the dataset (${was})`;
    default:
      break;
  }
  const hashes = q.absent?.hashes;
  const why =
    q.absent?.reason === 'not-loaded'
      ? `its dataset ${dataset} did not load in head`
      : q.absent?.reason === 'filtered'
        ? `the filters selected nothing of its dataset ${dataset} in head`
        : dataset === undefined
          ? 'not in head'
          : !hashes?.head
            ? `not in head, nor anything of its dataset ${dataset}`
            : hashes.base === hashes.head
              ? `not in head, though its dataset ${dataset} is unchanged`
              : `not in head, though its dataset ${dataset} loaded there`;
  if (q.regression) return `    ! ${q.id}: removed (${was}): ${why}  REGRESSED`;
  return q.absent?.reason === 'missing' || q.absent === undefined
    ? `    - ${q.id}: removed (${was})`
    : `    - ${q.id}: removed (${was}): ${why}`;
}

function notLoadedLine(f: LoadFailureReport): string {
  return `  dataset not loaded in head: ${f.dataset} (suite ${f.suite}): ${f.problems.join('; ')}`;
}

function targetLines(t: TargetDiff, all: boolean): string[] {
  const flag = t.regressed ? '  REGRESSED' : '';
  if (t.status !== 'compared') {
    const head =
      t.status === 'new'
        ? `${t.name}: new target (average ${n(t.after?.averageScore)}, pass rate ${pct(t.after?.passRate)})${flag}`
        : `${t.name}: removed (was average ${n(t.before?.averageScore)}, pass rate ${pct(t.before?.passRate)})${flag}`;
    const shown = t.questions.filter((q) => all || q.regression);
    return [
      head,
      ...t.notLoaded.map(notLoadedLine),
      ...(shown.length > 0 ? ['  questions:', ...shown.map(questionLine)] : []),
    ];
  }
  const interval = t.passRateInterval;
  const noise = interval
    ? `; 95% interval ${pts(interval.low)} to ${pts(interval.high)} pts over ${t.before?.passUnits.units ?? 0} and ${t.after?.passUnits.units ?? 0} trials: ${t.beyondNoise ? 'beyond noise' : 'within noise'}`
    : '';
  const lines = [
    `${t.name}${flag}`,
    `  average ${n(t.before?.averageScore)} -> ${n(t.after?.averageScore)}${t.averageDelta === null ? '' : ` (${signed(t.averageDelta)})`}`,
    `  pass rate ${pct(t.before?.passRate)} -> ${pct(t.after?.passRate)}${t.passRateDelta === null ? '' : ` (${pts(t.passRateDelta)} pts${noise})`}`,
    ...t.notLoaded.map(notLoadedLine),
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
  const fixed = result.fixed > 0 ? `; ${result.fixed} question(s) fixed` : '';
  const notLoaded =
    result.notLoaded.length > 0 ? `; ${result.notLoaded.length} dataset(s) did not load in head` : '';
  lines.push(
    result.regressions === 0
      ? `No regression${fixed}.`
      : `${result.regressions} target(s) regressed${notLoaded}${fixed}.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `ai-eval diff <base.json> <head.json>`: what changed between two runs. Exit code 0, 1 with
 * `--fail-on-regression` when a target regressed (a question that passed in base does not pass in
 * head or is absent from it, the pass share dropped beyond noise, a dataset did not load in head),
 * 2 on bad input.
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
  const read = (file: string, role: 'base' | 'head'): EvalReport =>
    readReportFile(resolve(file), {
      role: `${role} report`,
      hint: "Name JSON reports written by a reporter's `outputFile` or by `ai-eval merge -o`.",
    });
  try {
    base = read(baseFile, 'base');
    head = read(headFile, 'head');
  } catch (error) {
    return Promise.resolve(inputError('diff', error));
  }
  const result = diffReports(base, head);
  if (values.json)
    printJson({
      base: { file: baseFile, ...result.base },
      head: { file: headFile, ...result.head },
      targets: result.targets,
      notLoaded: result.notLoaded,
      regressions: result.regressions,
      fixed: result.fixed,
    });
  else process.stdout.write(render(result, [baseFile, headFile], values.all === true));
  return Promise.resolve(values['fail-on-regression'] && result.regressions > 0 ? EXIT.findings : EXIT.ok);
}
