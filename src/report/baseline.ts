import { AiEvalError } from '../errors.js';
import type { BaselineChange, EvalReport, QuestionReport, TargetReport } from './model.js';
import { REPORT_SCHEMA_VERSION } from './model.js';
import { questionKey } from './aggregate.js';
import { reportProblem } from './report-shape.js';
import { readTextFile } from '../internal/read-text.js';

/**
 * Changes smaller than this (composite points) are noise, not a change.
 *
 * @example
 * ```ts
 * Math.abs(after - before) >= BASELINE_EPSILON; // a real change
 * ```
 */
export const BASELINE_EPSILON = 0.01;

/**
 * Reads a previous JSON report to compare against. Errors name the file, the JSON path and what
 * is wrong (a missing file, bad JSON, another schema version, a value of the wrong type). A report
 * of schema version 1 (ai-eval 0.1) is read too: comparing needs only its targets and questions.
 *
 * @example
 * ```ts
 * const previous = readBaseline('reports/main.json');
 * ```
 */
export function readBaseline(file: string): EvalReport {
  return readReportFile(file, {
    role: 'baseline report',
    hint: 'Point `baseline` at a JSON report written by `outputFile`.',
  });
}

/**
 * How the CLI's `--baseline` names its file when it cannot be read (`ai-eval merge`, `ai-eval report`).
 *
 * @example
 * ```ts
 * readReportFile(resolve(values.baseline), BASELINE_FLAG);
 * ```
 */
export const BASELINE_FLAG = {
  role: 'baseline report',
  hint: 'Give --baseline a JSON report written by `outputFile` or `ai-eval merge -o`.',
} as const;

/**
 * Reads a JSON report from a file, as {@link readBaseline} does, naming its role when it cannot be
 * read: `<file>: cannot read the <role> (<why>). <hint>`. Versions 1 and 2 by default.
 *
 * @example
 * ```ts
 * const head = readReportFile('head.json', { role: 'head report', hint: 'Name a JSON report written by outputFile.' });
 * ```
 */
export function readReportFile(
  file: string,
  options: { role: string; hint: string; versions?: readonly number[] },
): EvalReport {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (cause) {
    throw new AiEvalError(
      'INVALID_REPORT',
      `${file}: cannot read the ${options.role} (${(cause as Error).message}). ${options.hint}`,
      { cause },
    );
  }
  return parseReport(text, file, { versions: options.versions ?? [1, REPORT_SCHEMA_VERSION] });
}

/**
 * Parses a JSON report and checks it against the report schema (`ai-eval/schema/report.json`):
 * every value of its type and range, so that no renderer meets a string where a score should be.
 * The error names the file, the JSON path and what is wrong. Fields the schema does not name are
 * ignored. By default only the current schema version is accepted (`ai-eval merge` needs every
 * field); a version 1 report is checked against the same definitions, the fields that version 2
 * added allowed to be absent.
 *
 * @example
 * ```ts
 * const report = parseReport(readFileSync('shard-1.json', 'utf8'), 'shard-1.json');
 * ```
 */
export function parseReport(
  text: string,
  file: string,
  options: { versions?: readonly number[] } = {},
): EvalReport {
  const versions = options.versions ?? [REPORT_SCHEMA_VERSION];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    throw new AiEvalError('INVALID_REPORT', `${file}: not JSON (${(cause as Error).message}).`, { cause });
  }
  const fail = (path: string, what: string): never => {
    throw new AiEvalError(
      'INVALID_REPORT',
      `${file} at ${path}: ${what}. Use a report written by the ai-eval reporter's \`outputFile\`.`,
    );
  };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('$', 'expected an object');
  const report = data as Partial<EvalReport>;
  if (!versions.includes(report.schemaVersion as number))
    fail('$.schemaVersion', `expected ${versions.join(' or ')}, got ${JSON.stringify(report.schemaVersion)}`);
  if (!Array.isArray(report.targets)) fail('$.targets', 'expected an array of targets');
  report.targets?.forEach((t, i) => {
    if (typeof t?.name !== 'string') fail(`$.targets[${i}].name`, 'expected a string');
    if (!Array.isArray(t.questions)) fail(`$.targets[${i}].questions`, 'expected an array');
    t.questions.forEach((q, j) => {
      if (typeof q?.id !== 'string') fail(`$.targets[${i}].questions[${j}].id`, 'expected a string');
      if (!Array.isArray(q.grades)) fail(`$.targets[${i}].questions[${j}].grades`, 'expected an array');
    });
  });
  const current = report.schemaVersion === REPORT_SCHEMA_VERSION;
  const problem = current
    ? reportProblem(report)
    : reportProblem({ ...report, schemaVersion: REPORT_SCHEMA_VERSION }, { required: false });
  if (problem) fail(problem.path, problem.problem);
  return report as EvalReport;
}

/**
 * What improved and what regressed, per target (average score) and per question (composite),
 * against a baseline report. New and removed targets and questions are listed too.
 *
 * @example
 * ```ts
 * compareWithBaseline(report.targets, readBaseline('main.json').targets)
 *   .filter((c) => c.kind === 'regressed');
 * ```
 */
export function compareWithBaseline(
  current: readonly TargetReport[],
  previous: readonly TargetReport[],
): BaselineChange[] {
  const changes: BaselineChange[] = [];
  const before = new Map(previous.map((t) => [t.name, t]));
  for (const target of current) {
    const old = before.get(target.name);
    if (!old) {
      changes.push(change(target.name, undefined, null, target.averageScore, 'new'));
      continue;
    }
    const targetChange = diff(target.name, undefined, old.averageScore, target.averageScore);
    if (targetChange) changes.push(targetChange);
    const oldQuestions = [...old.questions];
    for (const q of target.questions) {
      const prev = takeMatch(oldQuestions, q, target.questions);
      if (!prev) changes.push(change(target.name, q.id, null, q.composite, 'new'));
      else {
        const c = diff(target.name, q.id, prev.composite, q.composite);
        if (c) changes.push(c);
      }
    }
    for (const q of oldQuestions) changes.push(change(target.name, q.id, q.composite, null, 'removed'));
    before.delete(target.name);
  }
  for (const old of before.values())
    changes.push(change(old.name, undefined, old.averageScore, null, 'removed'));
  return changes;
}

/**
 * Removes and returns the baseline question that `q` continues: the same id and test file, else
 * the only question with that id when the id is unique on both sides (a moved test file).
 *
 * @example
 * ```ts
 * const left = [...old.questions];
 * const previous = takeMatch(left, question, target.questions); // left now lacks it
 * ```
 */
export function takeMatch(
  previous: QuestionReport[],
  q: QuestionReport,
  current: readonly QuestionReport[],
): QuestionReport | undefined {
  const key = questionKey(q.id, q.test.file);
  let index = previous.findIndex((p) => questionKey(p.id, p.test.file) === key);
  if (index < 0) {
    const same = previous.filter((p) => p.id === q.id);
    const unique = current.filter((c) => c.id === q.id).length === 1;
    index = same.length === 1 && unique ? previous.indexOf(same[0] as QuestionReport) : -1;
  }
  return index < 0 ? undefined : previous.splice(index, 1)[0];
}

function diff(
  target: string,
  question: string | undefined,
  before: number | null,
  after: number | null,
): BaselineChange | null {
  if (before === null && after === null) return null;
  if (before === null) return change(target, question, before, after, 'improved');
  if (after === null) return change(target, question, before, after, 'regressed');
  const delta = after - before;
  if (Math.abs(delta) < BASELINE_EPSILON) return null;
  return change(target, question, before, after, delta > 0 ? 'improved' : 'regressed');
}

function change(
  target: string,
  question: string | undefined,
  before: number | null,
  after: number | null,
  kind: BaselineChange['kind'],
): BaselineChange {
  return {
    target,
    ...(question !== undefined ? { question } : {}),
    before,
    after,
    delta: before === null || after === null ? null : after - before,
    kind,
  };
}
