import type { RubricCheck } from '../../grading/rubric-types.js';
import type { GradeResult, GradingContext } from '../../grading/types.js';
import { own } from '../../internal/own.js';
import { formatGrader, parseJsonResponse } from '../format.js';
import { patternProblem, testPattern } from '../patterns.js';
import { compileSchema } from '../schema-cache.js';
import { runStateCheck } from '../state/run-check.js';
import { getStateCheck } from '../state/state-checks.js';
import { toolUsageGrader } from '../tool-usage.js';
import type { CheckExecutor, CheckOutcome, CheckRun } from './check-types.js';
import { chrf } from './chrf.js';

/** The keys every check has beside its params. */
export const CHECK_KEYS = ['type', 'id', 'weight'] as const;

/**
 * A check's params: every key but `type`, `id` and `weight`.
 *
 * @example
 * ```ts
 * checkParams({ type: 'regex', id: 'ticket', pattern: '#\\d+' }); // { pattern: '#\\d+' }
 * ```
 */
export function checkParams(check: RubricCheck): Record<string, unknown> {
  const { type: _type, id: _id, weight: _weight, ...params } = check;
  return params;
}

function shipped(
  kind: string,
  execute: (check: RubricCheck, run: CheckRun) => CheckOutcome | Promise<CheckOutcome>,
  flags: { observesActions?: boolean; queriesState?: boolean } = {},
): CheckExecutor {
  return Object.freeze({
    kind,
    schema: undefined,
    applies: (check: RubricCheck) => check.type === kind,
    execute,
    observesActions: flags.observesActions ?? false,
    queriesState: flags.queriesState ?? false,
    paramsProblem: () => undefined,
  });
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function contains(response: string, value: string, caseSensitive: boolean): boolean {
  return caseSensitive ? response.includes(value) : response.toLowerCase().includes(value.toLowerCase());
}

const quoteList = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

const mustContainAny = shipped('must_contain_any', (check, { response }) => {
  const values = strings(check.values);
  const found = values.filter((v) => contains(response, v, check.case_sensitive === true));
  return found.length > 0
    ? { pass: true, reason: `contains ${quoteList(found)}` }
    : { pass: false, reason: `contains none of ${quoteList(values)}` };
});

const mustNotContain = shipped('must_not_contain', (check, { response }) => {
  const values = strings(check.values);
  const found = values.filter((v) => contains(response, v, check.case_sensitive === true));
  return found.length === 0
    ? { pass: true, reason: `contains none of ${quoteList(values)}` }
    : { pass: false, reason: `contains ${quoteList(found)}` };
});

const regex = shipped('regex', async (check, { response }) => {
  const flags = typeof check.flags === 'string' ? check.flags : '';
  const problem = patternProblem(check.pattern, check.flags, 'pattern');
  if (problem !== undefined) return { pass: false, error: true, reason: problem };
  const pattern = check.pattern as string;
  const outcome = await testPattern(pattern, flags, response);
  if (outcome.kind === 'timeout') {
    return {
      pass: false,
      error: true,
      reason: `/${pattern}/${flags} did not finish within ${outcome.budgetMs} ms on the response and was stopped`,
    };
  }
  if (outcome.kind === 'error')
    return { pass: false, error: true, reason: `/${pattern}/${flags} could not run: ${outcome.message}` };
  return {
    pass: outcome.matched,
    reason: `${outcome.matched ? 'matches' : 'does not match'} /${pattern}/${flags}`,
  };
});

const jsonSchema = shipped('json_schema', (check, { response }) => {
  const compiled = compileSchema(check.schema);
  if (!compiled.ok)
    return { pass: false, error: true, reason: compiled.message.replace('expected.schema', 'schema') };
  const parsed = parseJsonResponse(response);
  if (!parsed.ok) return { pass: false, reason: `the response is not JSON: ${parsed.message}` };
  if (compiled.validate(parsed.value))
    return { pass: true, reason: 'the response is JSON that matches the schema' };
  const errors = (compiled.validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { pass: false, reason: `the response does not match the schema: ${errors.join(', ')}` };
});

/** A delegated grade (0 to 5) as a check outcome: passes at the top of the scale. */
function fromGrade(grade: GradeResult, what: string): CheckOutcome {
  if (grade.error) return { pass: false, error: true, reason: grade.reason };
  if (grade.score === null)
    return { pass: false, error: true, reason: `${what} had nothing to check: ${grade.reason}` };
  const score = (grade.score - grade.min) / (grade.max - grade.min);
  return { pass: score === 1, score, reason: grade.reason };
}

const format = shipped('format', async (check, { response, input, context, signal }) => {
  const { format: kind, schema, pattern, flags } = check;
  const expected = {
    ...(kind !== undefined ? { format: kind } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(pattern !== undefined ? { pattern } : {}),
    ...(flags !== undefined ? { flags } : {}),
  };
  const grade = await formatGrader.grade(input, response, { ...context, expected } as GradingContext, {
    result: formatGrader.result,
    ...(signal ? { signal } : {}),
  });
  return fromGrade(grade, 'the format check');
});

const toolUsage = shipped(
  'tool_usage',
  async (check, { response, input, context, signal }) => {
    const grade = await toolUsageGrader.grade(
      input,
      response,
      { ...context, expected_tools: check.expected_tools } as GradingContext,
      { result: toolUsageGrader.result, ...(signal ? { signal } : {}) },
    );
    return fromGrade(grade, 'the tool_usage check');
  },
  { observesActions: true },
);

const state = shipped(
  'state',
  async (check, { response, context, signal }) => {
    const { kind, ...params } = checkParams(check);
    const stateCheck = typeof kind === 'string' ? getStateCheck(kind) : undefined;
    if (typeof kind !== 'string' || stateCheck === undefined) {
      // Fail-closed: an assertion of a kind nobody defined is not checked, so it does not pass.
      return {
        pass: false,
        reason: `setup failure: ${typeof kind === 'string' ? `unknown state check kind '${kind}'; define it with defineStateCheck('${kind}', { schema, check })` : 'the state check needs a kind'}`,
      };
    }
    return runStateCheck(stateCheck, params, context, response, signal);
  },
  { observesActions: true, queriesState: true },
);

/**
 * The value at a dot path of the question (`expected.reference`, `metadata.answers.0`): own keys
 * only, list items by index. Undefined when any step is missing.
 *
 * @example
 * ```ts
 * valueAtPath({ expected: { reference: 'Paris' } }, 'expected.reference'); // 'Paris'
 * ```
 */
export function valueAtPath(root: unknown, path: string): unknown {
  let value: unknown = root;
  for (const step of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(step)) value = value[Number(step)];
    else if (typeof value === 'object' && value !== null && !Array.isArray(value))
      value = own(value as Record<string, unknown>, step);
    else return undefined;
  }
  return value;
}

/**
 * The text `normalized` target matching compares: Unicode NFKC, lowercase, punctuation removed,
 * whitespace runs collapsed to one space, trimmed.
 *
 * @example
 * ```ts
 * normalizeForMatch('  Paris, France! '); // 'paris france'
 * ```
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

const targetMatch = shipped('target_match', (check, { response, context }) => {
  const path = typeof check.path === 'string' ? check.path : 'expected.reference';
  const found = valueAtPath(context, path);
  if (typeof found !== 'string' && typeof found !== 'number') {
    return {
      pass: false,
      error: true,
      reason: `the question has no text at ${path} to compare with (got ${found === undefined ? 'nothing' : typeof found}); add it to the question or fix the check's path`,
    };
  }
  const target = String(found);
  const mode = typeof check.mode === 'string' ? check.mode : 'normalized';
  if (mode === 'exact') {
    const pass = response.trim() === target.trim();
    return {
      pass,
      reason: `${pass ? 'equals' : 'differs from'} ${path} exactly (surrounding whitespace aside)`,
    };
  }
  if (mode === 'normalized') {
    const pass = normalizeForMatch(response) === normalizeForMatch(target);
    return {
      pass,
      reason: `${pass ? 'equals' : 'differs from'} ${path} after normalising case, punctuation and whitespace`,
    };
  }
  const threshold = typeof check.threshold === 'number' ? check.threshold : 0.5;
  const score = chrf(response, target);
  const pass = score >= threshold;
  return {
    pass,
    score,
    reason: `chrF2 against ${path} is ${score.toFixed(3)}, ${pass ? 'at or above' : 'below'} the threshold ${threshold}`,
  };
});

/**
 * The check executors ai-eval ships, in the order they are tried. `llm_judge` checks have none:
 * their criteria reach the judges, and they are never executed by `rubric_checks`.
 *
 * @example
 * ```ts
 * SHIPPED_EXECUTORS.map((e) => e.kind); // ['must_contain_any', 'must_not_contain', 'regex', ...]
 * ```
 */
export const SHIPPED_EXECUTORS: readonly CheckExecutor[] = [
  mustContainAny,
  mustNotContain,
  regex,
  jsonSchema,
  format,
  targetMatch,
  toolUsage,
  state,
];

/**
 * Every check type ai-eval ships, `llm_judge` included.
 *
 * @example
 * ```ts
 * SHIPPED_CHECK_KINDS.includes('llm_judge'); // true
 * ```
 */
export const SHIPPED_CHECK_KINDS: readonly string[] = [...SHIPPED_EXECUTORS.map((e) => e.kind), 'llm_judge'];
