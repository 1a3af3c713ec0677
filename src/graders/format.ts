import { defineGrader } from '../grading/define-grader.js';
import type { GradingContext } from '../grading/types.js';
import { patternProblem, testPattern } from './patterns.js';
import { compileSchema } from './schema-cache.js';

/** One check of `format_grader`: what was checked and whether it held. */
interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

/** A problem with the question itself: the grade is an error, not a score. */
class QuestionProblem extends Error {}

/**
 * `format_grader` (0-5): is the response in the shape the question asks for?
 *
 * Checks, from the question's `expected`:
 * - `format: 'json'`: the response parses as JSON (surrounding whitespace, and one code fence
 *   around the whole response, are allowed); with `schema`, the parsed value also validates against
 *   it (JSON Schema draft 2020-12, ajv; `format` keywords are annotations, not asserted). A `schema`
 *   without `format` implies `json`.
 * - `format: 'markdown'`: the response has markdown structure: a heading, a list, a table, a fenced
 *   code block or a blockquote (emphasis and links alone are not structure).
 * - `pattern`: the response matches this regular expression (JavaScript syntax, unanchored;
 *   `expected.flags` may add `i`, `m`, `s` or `u`). The pattern runs on a worker thread with a
 *   time budget (`PATTERN_TIME_BUDGET_MS`, 1 s): one that does not finish is stopped, and the
 *   grade is an error naming it. A repeated ambiguous group such as `(\w+\s?)*`, the shape that
 *   backtracks exponentially, is refused before it runs (and by `ai-eval validate`).
 * - and, whenever any of those applies, the length cap: the response is at most
 *   `response_char_limit` characters. An over-long response fails this check; the other checks still
 *   read the whole response.
 *
 * Score = 5 x checks passed / checks; the reason lists each. No `format`, `schema` or `pattern`:
 * skip. An unknown format, an invalid or catastrophic regex, a pattern over its time budget or an
 * invalid schema is a problem with the question, so the grade is an error naming it, never a zero.
 *
 * Use it for machine-read answers (JSON for a parser, a fixed reply pattern, a size budget). Do not
 * use it to judge whether the content is right.
 *
 * @example
 * ```ts
 * await gradeQuestion({
 *   question: { id: 'q1', input: 'Reply as JSON', expected: { format: 'json', schema: { type: 'object', required: ['ok'] } } },
 *   response: '{"ok": true}',
 *   graders: ['format_grader'],
 * }); // composite 5: parses, matches the schema, within the length cap
 * ```
 */
export const formatGrader = defineGrader({
  id: 'format_grader',
  label: 'Format',
  description:
    'Deterministic: does the response parse as the expected format (JSON with an optional schema, markdown), match the expected pattern and fit the length cap?',
  minScore: 0,
  maxScore: 5,
  grade(_input, response, context, { result }) {
    const expected = context.expected;
    if (expected === undefined || expected === null)
      return result(null, 'no expected format in context, skipping');
    if (typeof expected !== 'object' || Array.isArray(expected)) {
      return result(null, 'expected must be an object with format, schema or pattern', true);
    }
    const { format, schema, pattern } = expected;
    if (format === undefined && schema === undefined && pattern === undefined) {
      return result(null, 'no expected.format, expected.schema or expected.pattern, skipping');
    }
    const problem = pattern !== undefined ? patternProblem(pattern, expected.flags) : undefined;
    if (problem !== undefined) return result(null, problem, true);
    let shape: Check[];
    try {
      shape = formatChecks(response, format, schema);
    } catch (error) {
      if (error instanceof QuestionProblem) return result(null, error.message, true);
      throw error;
    }
    const length = lengthCheck(response, context);
    const score = (checks: Check[]) => {
      const passed = checks.filter((c) => c.passed).length;
      return result(
        (5 * passed) / checks.length,
        `${passed}/${checks.length} format checks passed: ${checks
          .map((c) => `${c.passed ? 'passed' : 'failed'}: ${c.name} (${c.detail})`)
          .join('; ')}`,
      );
    };
    if (typeof pattern !== 'string') return score([...shape, ...length]);
    const flags = typeof expected.flags === 'string' ? expected.flags : '';
    return testPattern(pattern, flags, response).then((outcome) => {
      if (outcome.kind === 'timeout') {
        return result(
          null,
          `expected.pattern /${pattern}/${flags} did not finish within ${outcome.budgetMs} ms on the response (${response.length} chars) and was stopped: it backtracks catastrophically on this text. Fix the pattern so that each part matches unambiguously`,
          true,
        );
      }
      if (outcome.kind === 'error') {
        return result(null, `expected.pattern /${pattern}/${flags} could not run: ${outcome.message}`, true);
      }
      const check: Check = {
        name: 'pattern',
        passed: outcome.matched,
        detail: `${outcome.matched ? 'matches' : 'does not match'} /${pattern}/${flags}`,
      };
      return score([...shape, check, ...length]);
    });
  },
});

function formatChecks(response: string, format: unknown, schema: unknown): Check[] {
  if (format === undefined && schema === undefined) return [];
  if (format === 'markdown') {
    if (schema !== undefined) throw new QuestionProblem('expected.schema only applies to format json');
    const found = markdownStructure(response);
    return [
      {
        name: 'markdown',
        passed: found.length > 0,
        detail:
          found.length > 0
            ? `found ${found.join(', ')}`
            : 'no heading, list, table, code block or blockquote',
      },
    ];
  }
  if (format !== undefined && format !== 'json') {
    throw new QuestionProblem(
      `expected.format ${JSON.stringify(format)} is not supported; use 'json' or 'markdown', or expected.pattern`,
    );
  }
  const parsed = parseJsonResponse(response);
  const checks: Check[] = [
    { name: 'json', passed: parsed.ok, detail: parsed.ok ? 'parses' : `does not parse: ${parsed.message}` },
  ];
  if (schema !== undefined) {
    const compiled = compileSchema(schema);
    if (!compiled.ok) throw new QuestionProblem(compiled.message);
    const validate = compiled.validate;
    if (!parsed.ok) {
      checks.push({ name: 'schema', passed: false, detail: 'not checked: the response is not JSON' });
    } else if (validate(parsed.value)) {
      checks.push({ name: 'schema', passed: true, detail: 'matches expected.schema' });
    } else {
      const errors = (validate.errors ?? [])
        .slice(0, 3)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
      checks.push({ name: 'schema', passed: false, detail: errors.join(', ') });
    }
  }
  return checks;
}

/**
 * Parses a response as JSON, allowing surrounding whitespace and one code fence around the whole
 * response (as `format_grader` does).
 *
 * @example
 * ```ts
 * parseJsonResponse("```json\n{\"ok\": true}\n```"); // { ok: true, value: { ok: true } }
 * ```
 */
export function parseJsonResponse(
  response: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = response.trim();
  const fenced = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : trimmed) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const MARKDOWN: ReadonlyArray<[string, RegExp]> = [
  ['heading', /^ {0,3}#{1,6}[ \t]+\S/m],
  ['list', /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\S/m],
  ['table', /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$/m],
  ['code block', /^ {0,3}(?:```|~~~)/m],
  ['blockquote', /^ {0,3}>[ \t]?\S/m],
];

function markdownStructure(response: string): string[] {
  return MARKDOWN.filter(([, re]) => re.test(response)).map(([name]) => name);
}

function lengthCheck(response: string, context: GradingContext): Check[] {
  const limit = context.response_char_limit;
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit <= 0) return [];
  const passed = response.length <= limit;
  return [
    {
      name: 'length',
      passed,
      detail: `${response.length} chars, ${passed ? 'within' : 'over'} the ${limit} char limit`,
    },
  ];
}
