import { statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { getConfig } from '../config.js';
import { AiEvalError } from '../errors.js';
import { searchDirs } from './sources/file-resolve.js';
import type { DatasetProblem } from './types.js';
import { parseText, type ParsedText } from './parse.js';
import { readDocumentText } from './text-input.js';
import { formatProblem } from './validate.js';
import { documentValidator } from '../internal/lazy-modules.js';
import rubricSchemaJson from '../../schema/rubric.json' with { type: 'json' };
import type { Rubric, RubricCheck, ResolvedRubric } from '../grading/rubric-types.js';
import { parseExpectedTools } from '../graders/expected-tools.js';
import { patternProblem } from '../graders/patterns.js';
import { compileSchema } from '../graders/schema-cache.js';
import { registeredExecutor } from '../graders/rubric/executors.js';
import { checkParams, SHIPPED_CHECK_KINDS } from '../graders/rubric/shipped-executors.js';
import { getStateCheck } from '../graders/state/state-checks.js';
import { translateErrors, type SchemaIssue } from './schema.js';

export type {
  Rubric,
  RubricCheck,
  ResolvedRubric,
  CombineMode,
  RubricScoring,
} from '../grading/rubric-types.js';

/**
 * The outcome of {@link validateRubric}: the problems (each with file, line, column and JSON path)
 * and warnings (check kinds this process cannot run or check, such as a kind whose executor or
 * state check is registered only in the tests).
 *
 * @example
 * ```ts
 * const { valid, rubric, problems, warnings } = validateRubric(text, 'rubrics/cites-policy.yaml');
 * ```
 */
export interface RubricValidation {
  valid: boolean;
  rubric?: Rubric;
  problems: DatasetProblem[];
  warnings: string[];
}

function at(parsed: ParsedText, file: string, path: string, message: string): DatasetProblem {
  const pos = parsed.locate(path);
  return { file, ...(pos ? { line: pos.line, column: pos.column } : {}), path, message };
}

/**
 * The rubric JSON Schema (draft 2020-12), also published as `ai-eval/schema/rubric.json`.
 *
 * @example
 * ```ts
 * rubricSchema.$id; // 'https://unpkg.com/ai-eval/schema/rubric.json'
 * ```
 */
export const rubricSchema: Readonly<Record<string, unknown>> = rubricSchemaJson;

const rubricValidator = documentValidator(rubricSchemaJson);

/**
 * Validates the text of a rubric file against the rubric schema (`ai-eval/schema/rubric.json`),
 * then what a schema cannot check: regex patterns compile and cannot backtrack exponentially,
 * embedded JSON Schemas compile, `tool_usage` expectations are well formed, check ids are unique,
 * a pass threshold goes with a numeric combine mode, and the params of kinds registered in this
 * process (`defineCheckExecutor`, `defineStateCheck`) match their schemas. Every problem names the
 * file, line, column and JSON path. Never throws.
 *
 * @example
 * ```ts
 * validateRubric('checks:\n  - type: llm_judge\n    criteria: Cites the docs page.\n', 'cites.yaml').valid; // true
 * ```
 */
export function validateRubric(text: string, file = 'rubric'): RubricValidation {
  return validateParsedRubric(parseText(text, file, { json: extname(file).toLowerCase() === '.json' }), file);
}

/** {@link validateRubric} of a text already parsed (the CLI parses each file once). */
export function validateParsedRubric(parsed: ParsedText, file: string): RubricValidation {
  if (parsed.problems.length > 0) return { valid: false, problems: parsed.problems, warnings: [] };
  const value = parsed.value as Record<string, unknown> | null;
  const problems: DatasetProblem[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(
      at(parsed, file, '', "must be an object with a 'checks' list. Fix: start the file with `checks:`."),
    );
    return { valid: false, problems, warnings: [] };
  }
  if (!Array.isArray(value.checks) || value.checks.length === 0) {
    problems.push(
      at(
        parsed,
        file,
        value.checks === undefined ? '' : '/checks',
        "needs a non-empty 'checks' list. Fix: add `checks: [{ type: llm_judge, criteria: ... }]`.",
      ),
    );
  }
  const validate = rubricValidator();
  if (!validate(value)) {
    const errors = (validate.errors ?? []).filter(
      (e) =>
        e.keyword !== 'if' &&
        !(e.instancePath === '/checks' && e.keyword === 'minItems') &&
        !(
          e.instancePath === '' &&
          e.keyword === 'required' &&
          (e.params as { missingProperty?: string }).missingProperty === 'checks'
        ),
    );
    // An llm_judge check without usable criteria keeps the message it always had.
    const criteria = (e: (typeof errors)[number]) =>
      (e.keyword === 'required' &&
        (e.params as { missingProperty?: string }).missingProperty === 'criteria') ||
      (e.keyword === 'pattern' && e.instancePath.endsWith('/criteria')) ||
      (e.keyword === 'type' && e.instancePath.endsWith('/criteria'));
    for (const e of errors.filter(criteria)) {
      const value: unknown = e.keyword === 'required' ? undefined : e.data;
      problems.push(
        at(
          parsed,
          file,
          e.instancePath,
          `needs 'criteria': a non-empty text the judges score against, got ${JSON.stringify(value)}.`,
        ),
      );
    }
    for (const issue of translateErrors(errors.filter((e) => !criteria(e))))
      problems.push(at(parsed, file, issue.path, issue.message));
  }
  const warnings: string[] = [];
  if (Array.isArray(value.checks)) {
    for (const issue of checkIssues(value.checks as unknown[], value.scoring, warnings, file))
      problems.push(at(parsed, file, issue.path, issue.message));
  }
  if (problems.length > 0) return { valid: false, problems, warnings };
  return { valid: true, rubric: value as unknown as Rubric, problems, warnings };
}

/** What the schema cannot check about the checks and the scoring block. */
function checkIssues(checks: unknown[], scoring: unknown, warnings: string[], file: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const ids = new Map<string, number>();
  checks.forEach((entry, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
    const check = entry as RubricCheck;
    const path = `/checks/${i}`;
    if (typeof check.id === 'string') {
      const first = ids.get(check.id);
      if (first !== undefined)
        issues.push({
          path: `${path}/id`,
          message: `repeats the id '${check.id}' of /checks/${first}. Fix: give each check its own id.`,
        });
      else ids.set(check.id, i);
    }
    if (
      (check.type === 'regex' || check.type === 'format') &&
      typeof check.pattern === 'string' &&
      check.pattern !== ''
    ) {
      const flags =
        typeof check.flags === 'string' && /^[imsu]*$/.test(check.flags) ? check.flags : undefined;
      const problem = patternProblem(check.pattern, flags, 'pattern');
      if (problem !== undefined) issues.push({ path: `${path}/pattern`, message: `${problem}.` });
    }
    if ((check.type === 'json_schema' || check.type === 'format') && check.schema !== undefined) {
      if (typeof check.schema === 'boolean' || (typeof check.schema === 'object' && check.schema !== null)) {
        const compiledSchema = compileSchema(check.schema);
        if (!compiledSchema.ok)
          issues.push({
            path: `${path}/schema`,
            message: `${compiledSchema.message.replace('expected.schema', 'schema')}. Fix the schema (JSON Schema draft 2020-12).`,
          });
      }
    }
    if (
      check.type === 'tool_usage' &&
      Array.isArray(check.expected_tools) &&
      check.expected_tools.length > 0
    ) {
      const parsedTools = parseExpectedTools(check.expected_tools);
      if (!parsedTools.ok)
        for (const problem of parsedTools.problems)
          issues.push({ path: `${path}/expected_tools`, message: `${problem}.` });
    }
    if (check.type === 'state' && typeof check.kind === 'string') {
      const { kind, ...params } = checkParams(check);
      const stateCheck = getStateCheck(kind as string);
      if (stateCheck) {
        const problem = stateCheck.paramsProblem(params);
        if (problem !== undefined)
          issues.push({
            path,
            message: `params do not match the schema of state check kind '${String(kind)}': ${problem}.`,
          });
      } else {
        warnings.push(
          `${file}: ${path}: state check kind '${String(kind)}' is not defined in this process; its params are checked when a suite that defines it runs.`,
        );
      }
    }
    if (typeof check.type === 'string' && !SHIPPED_CHECK_KINDS.includes(check.type)) {
      const executor = registeredExecutor(check.type);
      if (executor) {
        const problem = executor.paramsProblem(check);
        if (problem !== undefined)
          issues.push({
            path,
            message: `params do not match the schema of check kind '${check.type}': ${problem}.`,
          });
      } else {
        warnings.push(
          `${file}: ${path}: check type '${check.type}' is not a shipped kind (${SHIPPED_CHECK_KINDS.join(', ')}) and no executor for it is defined in this process; rubric_checks leaves it out unless defineCheckExecutor({ kind: '${check.type}' }) runs first.`,
        );
      }
    }
  });
  const mode = (scoring as { combine?: unknown } | null | undefined)?.combine;
  const threshold = (scoring as { pass_threshold?: unknown } | null | undefined)?.pass_threshold;
  if (threshold !== undefined && (mode === 'all_pass' || mode === 'any_pass'))
    issues.push({
      path: '/scoring/pass_threshold',
      message: `applies only to the numeric modes (weighted_avg, min, max, median), and combine is ${String(mode)}. Fix: remove it or change combine.`,
    });
  return issues;
}

/**
 * Options of {@link loadRubricCriteria}.
 *
 * @example
 * ```ts
 * loadRubricCriteria('cites-policy', { datasetFile: loaded.file });
 * ```
 */
export interface RubricLookup {
  /** The dataset file the question came from: its `rubrics/` directory is searched first. */
  datasetFile?: string;
}

/**
 * The directories searched for rubric files, in order.
 *
 * @example
 * ```ts
 * rubricDirs({ datasetFile: '/repo/datasets/support.yaml' });
 * // ['/repo/datasets/rubrics', ..., '/repo/rubrics']
 * ```
 */
export function rubricDirs(lookup: RubricLookup = {}): string[] {
  const root = getConfig().datasets.root ?? process.cwd();
  const dirs = [
    ...(lookup.datasetFile ? [resolve(dirname(lookup.datasetFile), 'rubrics')] : []),
    ...searchDirs().map((dir) => join(dir, 'rubrics')),
    resolve(root, 'rubrics'),
  ];
  return dirs.filter((dir, i) => dirs.indexOf(dir) === i);
}

const NAMES = (ref: string) =>
  ['.rubric.yaml', '.rubric.yml', '.rubric.json', '.yaml', '.yml', '.json'].map((e) => `${ref}${e}`);

/**
 * Reads the rubric a question names in `rubric_ref`: `rubrics/<ref>.yaml` (or `.rubric.yaml`,
 * `.yml`, `.json`) next to the dataset, in a dataset directory, or under the root. Throws an
 * `AiEvalError` (`INVALID_RUBRIC`) naming the ref, the file, line and path when the rubric is
 * missing or invalid: a question must not be graded without the rubric it asks for.
 *
 * @example
 * ```ts
 * const { file, rubric } = loadRubric('refund_reply', { datasetFile: 'datasets/support.yaml' });
 * ```
 */
export function loadRubric(
  ref: string,
  lookup: RubricLookup = {},
): ResolvedRubric & { file: string; rubric: Rubric } {
  if (typeof ref !== 'string' || ref.trim() === '' || /[/\\]/.test(ref) || ref.includes('..')) {
    throw new AiEvalError(
      'INVALID_RUBRIC',
      `rubric_ref ${JSON.stringify(ref)} must be a bare rubric name (no path separator, no '..').`,
    );
  }
  const dirs = rubricDirs(lookup);
  const path = dirs
    .flatMap((dir) => NAMES(ref).map((name) => join(dir, name)))
    .find((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
  if (path === undefined) {
    throw new AiEvalError(
      'INVALID_RUBRIC',
      `No rubric named '${ref}' (looked for ${ref}.yaml in ${dirs.join(', ')}). Fix: create rubrics/${ref}.yaml with \`checks: [{ type: llm_judge, criteria: ... }]\`, or fix the question's rubric_ref.`,
    );
  }
  const read = readDocumentText(path, path);
  const result =
    'problem' in read
      ? ({ valid: false, problems: [read.problem], warnings: [] as string[] } as RubricValidation)
      : validateParsedRubric(
          parseText(read.text, path, {
            json: extname(path).toLowerCase() === '.json',
            ascii: read.ascii,
            noDelOrC1: read.noDelOrC1,
          }),
          path,
        );
  if (!result.valid || !result.rubric) {
    throw new AiEvalError(
      'INVALID_RUBRIC',
      `Rubric '${ref}' (${path}) is invalid:\n${result.problems.map(formatProblem).join('\n')}`,
    );
  }
  return { ref, file: path, rubric: result.rubric };
}

/**
 * The LLM judge criteria of the rubric a question names in `rubric_ref`, for
 * `gradeQuestion({ rubricCriteria })`: the `criteria` of its `llm_judge` checks, in order. Throws
 * as {@link loadRubric} does.
 *
 * @example
 * ```ts
 * const rubricCriteria = question.rubric_ref ? loadRubricCriteria(question.rubric_ref, { datasetFile }) : [];
 * await gradeQuestion({ question, response, graders, rubricCriteria });
 * ```
 */
export function loadRubricCriteria(ref: string, lookup: RubricLookup = {}): string[] {
  return judgeCriteria(loadRubric(ref, lookup).rubric);
}

/**
 * The criteria of a rubric's `llm_judge` checks, in order.
 *
 * @example
 * ```ts
 * judgeCriteria({ checks: [{ type: 'llm_judge', criteria: 'Polite.' }, { type: 'regex', id: 'x', pattern: 'x' }] }); // ['Polite.']
 * ```
 */
export function judgeCriteria(rubric: Rubric): string[] {
  return rubric.checks.flatMap((check) =>
    check.type === 'llm_judge' && typeof check.criteria === 'string' ? [check.criteria] : [],
  );
}
