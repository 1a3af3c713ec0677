import { statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { getConfig } from '../config.js';
import { AiEvalError } from '../errors.js';
import { searchDirs } from './sources/file-resolve.js';
import type { DatasetProblem } from './types.js';
import { parseText, type ParsedText } from './parse.js';
import { readDocumentText } from './text-input.js';
import { formatProblem } from './validate.js';

/**
 * One check of a rubric. Only LLM judge checks exist today: their criteria reach the judges.
 *
 * @example
 * ```ts
 * const check: RubricCheck = { type: 'llm_judge', criteria: 'Names the 30-day window.' };
 * ```
 */
export interface RubricCheck {
  type: 'llm_judge';
  criteria: string;
}

/**
 * A rubric file: `checks: [{ type: llm_judge, criteria: ... }]`, with an optional name and description.
 *
 * @example
 * ```ts
 * const rubric: Rubric = { name: 'cites-policy', checks: [{ type: 'llm_judge', criteria: 'Cites the policy page.' }] };
 * ```
 */
export interface Rubric {
  name?: string;
  description?: string;
  checks: RubricCheck[];
}

/**
 * The outcome of {@link validateRubric}.
 *
 * @example
 * ```ts
 * const { valid, rubric, problems } = validateRubric(text, 'rubrics/cites-policy.yaml');
 * ```
 */
export interface RubricValidation {
  valid: boolean;
  rubric?: Rubric;
  problems: DatasetProblem[];
}

function at(parsed: ParsedText, file: string, path: string, message: string): DatasetProblem {
  const pos = parsed.locate(path);
  return { file, ...(pos ? { line: pos.line, column: pos.column } : {}), path, message };
}

/**
 * Validates the text of a rubric file: an object with a non-empty `checks` list, each check
 * `{ type: llm_judge, criteria: <text> }`. Every problem names the file, line, column and JSON
 * path. Never throws.
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
  if (parsed.problems.length > 0) return { valid: false, problems: parsed.problems };
  const value = parsed.value as { checks?: unknown; name?: unknown; description?: unknown } | null;
  const problems: DatasetProblem[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(
      at(parsed, file, '', "must be an object with a 'checks' list. Fix: start the file with `checks:`."),
    );
    return { valid: false, problems };
  }
  for (const key of ['name', 'description'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string')
      problems.push(at(parsed, file, `/${key}`, 'must be a string.'));
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
    return { valid: false, problems };
  }
  value.checks.forEach((check: unknown, i) => {
    const path = `/checks/${i}`;
    if (check === null || typeof check !== 'object' || Array.isArray(check)) {
      problems.push(at(parsed, file, path, 'must be an object { type, criteria }.'));
      return;
    }
    const { type, criteria } = check as { type?: unknown; criteria?: unknown };
    if (type !== 'llm_judge') {
      problems.push(
        at(
          parsed,
          file,
          type === undefined ? path : `${path}/type`,
          `must have type 'llm_judge', got ${JSON.stringify(type)}. Only LLM judge checks are supported.`,
        ),
      );
    }
    if (typeof criteria !== 'string' || criteria.trim() === '') {
      problems.push(
        at(
          parsed,
          file,
          criteria === undefined ? path : `${path}/criteria`,
          `needs 'criteria': a non-empty text the judges score against, got ${JSON.stringify(criteria)}.`,
        ),
      );
    }
  });
  if (problems.length > 0) return { valid: false, problems };
  return { valid: true, rubric: value as Rubric, problems };
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
 * The LLM judge criteria of the rubric a question names in `rubric_ref`, for
 * `gradeQuestion({ rubricCriteria })`. The rubric is `rubrics/<ref>.yaml` (or `.rubric.yaml`,
 * `.yml`, `.json`) next to the dataset, in a dataset directory, or under the root. Throws an
 * `AiEvalError` (`INVALID_RUBRIC`) naming the file, line and path when the rubric is missing or
 * malformed: a question must not be graded without the rubric it asks for.
 *
 * @example
 * ```ts
 * const rubricCriteria = question.rubric_ref ? loadRubricCriteria(question.rubric_ref, { datasetFile }) : [];
 * await gradeQuestion({ question, response, graders, rubricCriteria });
 * ```
 */
export function loadRubricCriteria(ref: string, lookup: RubricLookup = {}): string[] {
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
      ? { valid: false, problems: [read.problem] }
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
      `Rubric '${ref}' is invalid:\n${result.problems.map(formatProblem).join('\n')}`,
    );
  }
  return result.rubric.checks.map((check) => check.criteria);
}
