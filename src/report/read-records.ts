import { RECORD_VERSION, type EvalRecord } from './record.js';

/**
 * Why a value is not an {@link EvalRecord} (the first problem, with its JSON path), or `null` when
 * it is one. The reporters skip a bad record with this message instead of failing the whole run.
 *
 * @example
 * ```ts
 * recordProblem({ v: 2 }); // '$.v: expected 1, got 2 (a record from another ai-eval version)'
 * ```
 */
export function recordProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '$: expected an object';
  const r = value as Record<string, unknown>;
  if (r.v !== RECORD_VERSION)
    return `$.v: expected ${RECORD_VERSION}, got ${JSON.stringify(r.v)} (a record from another ai-eval version)`;
  const test = r.test as Record<string, unknown> | null | undefined;
  if (typeof test !== 'object' || test === null) return '$.test: expected { file, name }';
  if (typeof test.file !== 'string') return '$.test.file: expected a string';
  if (typeof test.name !== 'string') return '$.test.name: expected a string';
  if (r.target !== null) {
    const t = r.target as Record<string, unknown> | undefined;
    if (typeof t !== 'object' || typeof t.name !== 'string')
      return '$.target: expected null or { name, mode, graders, ... }';
    if (t.mode !== 'agent' && t.mode !== 'chat') return `$.target.mode: expected 'agent' or 'chat'`;
    if (!Array.isArray(t.graders)) return '$.target.graders: expected an array';
    if (!Array.isArray(t.actionObserving)) return '$.target.actionObserving: expected an array';
  }
  for (const key of ['question', 'grader', 'label', 'reason'])
    if (typeof r[key] !== 'string') return `$.${key}: expected a string`;
  for (const key of ['trial', 'min', 'max', 'passThreshold', 'at'])
    if (typeof r[key] !== 'number' || !Number.isFinite(r[key])) return `$.${key}: expected a number`;
  for (const key of ['score', 'composite'])
    if (r[key] !== null && (typeof r[key] !== 'number' || !Number.isFinite(r[key])))
      return `$.${key}: expected a number or null`;
  for (const key of ['error', 'skipped', 'llm', 'observesActions', 'toolCallRecord'])
    if (typeof r[key] !== 'boolean') return `$.${key}: expected true or false`;
  return null;
}

/** Records read from somewhere, and the problems with those that were skipped. */
export interface ReadRecords {
  records: EvalRecord[];
  problems: string[];
}

/**
 * Keeps the values that are records; each other value becomes a problem naming `where` and its
 * index.
 *
 * @example
 * ```ts
 * const { records, problems } = checkRecords(testCase.meta().aiEval, 'src/a.test.ts > q1');
 * ```
 */
export function checkRecords(values: unknown, where: string): ReadRecords {
  if (values === undefined) return { records: [], problems: [] };
  if (!Array.isArray(values))
    return { records: [], problems: [`${where}: meta.aiEval is not an array of records; skipped`] };
  const out: ReadRecords = { records: [], problems: [] };
  values.forEach((value, i) => {
    const problem = recordProblem(value);
    if (problem) out.problems.push(`${where}: record ${i} skipped, ${problem.replace('$', `$[${i}]`)}`);
    else out.records.push(value as EvalRecord);
  });
  return out;
}

/**
 * Parses a JSON Lines channel file: one record per line. A bad line is skipped with a problem
 * naming the file and line; blank lines are ignored.
 *
 * @example
 * ```ts
 * const { records, problems } = parseJsonLines(readFileSync(file, 'utf8'), file);
 * ```
 */
export function parseJsonLines(text: string, file: string): ReadRecords {
  const out: ReadRecords = { records: [], problems: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      out.problems.push(`${file}:${i + 1}: not JSON (${(error as Error).message}); line skipped`);
      return;
    }
    const problem = recordProblem(value);
    if (problem) out.problems.push(`${file}:${i + 1}: ${problem}; line skipped`);
    else out.records.push(value as EvalRecord);
  });
  return out;
}
