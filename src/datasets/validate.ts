import { extname } from 'node:path';
import { parseText, type ParsedText } from './parse.js';
import { semanticIssues } from './question-checks.js';
import { translateErrors, validators, type SchemaIssue } from './schema.js';
import { walkJson } from './json-scan.js';
import { MAX_DEPTH, readDocumentText, tooDeepMessage } from './text-input.js';
import type { DatasetDocument, DatasetProblem } from './types.js';

/**
 * The outcome of validating a dataset: `valid` with the document, or the problems found. An invalid
 * document is refused whole.
 *
 * @example
 * ```ts
 * const { valid, document, problems } = validateDataset(text, { file: 'support.yaml' });
 * if (!valid) console.error(problems.map(formatProblem).join('\n'));
 * ```
 */
export interface DatasetValidation {
  valid: boolean;
  /** The document, present only when it is valid. */
  document?: DatasetDocument;
  problems: DatasetProblem[];
}

/**
 * Options of {@link validateDataset}.
 *
 * @example
 * ```ts
 * validateDataset(text, { file: 'support.json', json: true });
 * ```
 */
export interface ValidateDatasetOptions {
  /** The file name (or source label) that problems name. Default `dataset`. */
  file?: string;
  /** Parse text as strict JSON (default: when `file` ends in `.json`). */
  json?: boolean;
}

/**
 * Formats a problem as `file:line:column: /json/path: message`, the way the CLI prints it.
 *
 * @example
 * ```ts
 * formatProblem({ file: 'a.yaml', line: 3, column: 5, path: '/questions/0/id', message: 'must be a string.' });
 * // 'a.yaml:3:5: /questions/0/id: must be a string.'
 * ```
 */
export function formatProblem(problem: DatasetProblem): string {
  const where =
    problem.line !== undefined ? `${problem.file}:${problem.line}:${problem.column ?? 1}` : problem.file;
  return `${where}: ${problem.path === '' ? '(document)' : problem.path}: ${problem.message}`;
}

function problemAt(
  parsed: ParsedText | undefined,
  file: string,
  path: string,
  message: string,
): DatasetProblem {
  const at = parsed?.locate(path);
  return { file, ...(at ? { line: at.line, column: at.column } : {}), path, message };
}

/** Ids up to this mean length are checked for repeats by sorting them (see {@link anyRepeated}). */
const SORT_MEAN_LENGTH = 64;

/**
 * Whether some string id appears twice. Sorting the ids and comparing neighbours is 4-5x faster
 * than a Set for the short ids of a real dataset: a Set hashes every id `JSON.parse` made, and
 * those are fresh strings. Long ids with a shared prefix make the sort's comparisons long, so a
 * list of long ids goes through the Set.
 */
function anyRepeated(questions: readonly unknown[]): boolean {
  const ids: string[] = [];
  let length = 0;
  for (let index = 0; index < questions.length; index++) {
    const id = (questions[index] as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    ids.push(id);
    length += id.length;
  }
  if (inOrder(ids)) return false;
  if (length > SORT_MEAN_LENGTH * ids.length) return new Set(ids).size !== ids.length;
  ids.sort();
  for (let index = 1; index < ids.length; index++) if (ids[index] === ids[index - 1]) return true;
  return false;
}

/**
 * Whether each id is longer than the one before it, or as long and greater: ids written in order
 * (`q1` ... `q10`, `case-001` ... `case-120`), which cannot repeat, found so in one pass.
 */
function inOrder(ids: readonly string[]): boolean {
  for (let index = 1; index < ids.length; index++) {
    const before = ids[index - 1]!;
    const id = ids[index]!;
    if (before.length > id.length || (before.length === id.length && before >= id)) return false;
  }
  return true;
}

/** Duplicate question ids: the issue at the repeat, and the pointer of the first use. */
function duplicateIds(value: { questions?: unknown }): Array<{ here: string; there: string; id: string }> {
  const found: Array<{ here: string; there: string; id: string }> = [];
  if (!Array.isArray(value.questions)) return found;
  const questions = value.questions as unknown[];
  if (!anyRepeated(questions)) return found;
  const seen = new Set<string>();
  for (let index = 0; index < questions.length; index++) {
    const id = (questions[index] as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    if (!seen.has(id)) {
      seen.add(id);
      continue;
    }
    const previous = questions.findIndex((q) => (q as { id?: unknown } | null)?.id === id);
    found.push({ here: `/questions/${index}/id`, there: `/questions/${previous}/id`, id });
  }
  return found;
}

/**
 * Validates an already parsed value (with positions when it came from text): the schema
 * (precompiled), unique question ids, and the checks a schema cannot make (patterns, JSON Schemas,
 * splits). The one validation behind the loader, `validateDataset` and `ai-eval validate`.
 */
export function validateValue(value: unknown, file: string, parsed?: ParsedText): DatasetValidation {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const got = Array.isArray(value)
      ? 'a list'
      : value === null || value === undefined
        ? 'nothing'
        : typeof value;
    return {
      valid: false,
      problems: [
        problemAt(
          parsed,
          file,
          '',
          `must be an object with a 'questions' list, got ${got}. Fix: start the document with \`questions:\`.`,
        ),
      ],
    };
  }
  const validate = validators().document;
  const issues: SchemaIssue[] = validate(value) ? [] : translateErrors(validate.errors ?? []);
  // One by one: a huge document can have more issues than push() takes as arguments.
  for (const issue of semanticIssues(value, issues)) issues.push(issue);
  const duplicates = duplicateIds(value);
  if (issues.length === 0 && duplicates.length === 0) {
    return { valid: true, document: value as DatasetDocument, problems: [] };
  }
  // Positions are looked up only now, all in one pass.
  parsed?.prepare?.([...issues.map((i) => i.path), ...duplicates.flatMap((d) => [d.here, d.there])]);
  const problems = issues.map((i) => problemAt(parsed, file, i.path, i.message));
  for (const { here, there, id } of duplicates) {
    const hereLine = parsed?.locate(here)?.line;
    const thereLine = parsed?.locate(there)?.line;
    const lines =
      hereLine !== undefined && thereLine !== undefined
        ? ` on line ${hereLine}; it is first used on line ${thereLine} (${there})`
        : `; it is first used at ${there}`;
    problems.push(
      problemAt(
        parsed,
        file,
        here,
        `duplicate question id '${id}'${lines}. Fix: ids must be unique, rename one of them.`,
      ),
    );
  }
  const line = (p: DatasetProblem) => p.line ?? 0;
  return { valid: false, problems: problems.sort((a, b) => line(a) - line(b)) };
}

/**
 * Validates a dataset against the schema and checks that question ids are unique. `input` is the
 * YAML or JSON text of a document, or an already parsed document. Every problem names the file, the
 * line and column (for text) and the JSON path, and says what was expected. Never throws.
 *
 * @example
 * ```ts
 * const { valid, problems } = validateDataset('questions:\n  - id: q1\n', { file: 'a.yaml' });
 * valid; // false
 * problems.map(formatProblem);
 * // ["a.yaml:2:5: /questions/0: needs either 'input' (the question text) or 'messages' ..."]
 * ```
 */
export function validateDataset(
  input: string | object,
  options: ValidateDatasetOptions = {},
): DatasetValidation {
  const file = options.file ?? 'dataset';
  if (typeof input !== 'string') {
    // An object from code can nest as deep as it likes, or refer to itself.
    if (walkJson(input, MAX_DEPTH).tooDeep) {
      return { valid: false, problems: [{ file, path: '', message: tooDeepMessage() }] };
    }
    return validateValue(input, file);
  }
  const parsed = parseText(input, file, { json: options.json ?? extname(file).toLowerCase() === '.json' });
  if (parsed.problems.length > 0) return { valid: false, problems: parsed.problems };
  return validateValue(parsed.value, file, parsed);
}

/**
 * Reads and validates a dataset file. Problems name `file` as given. Never throws: an unreadable
 * file is a problem too.
 *
 * @example
 * ```ts
 * const { valid, problems } = validateDatasetFile('datasets/support.yaml');
 * ```
 */
export function validateDatasetFile(file: string, label: string = file): DatasetValidation {
  const read = readDocumentText(file, label);
  if ('problem' in read) return { valid: false, problems: [read.problem] };
  const parsed = parseText(read.text, label, {
    json: extname(file).toLowerCase() === '.json',
    ascii: read.ascii,
    noDelOrC1: read.noDelOrC1,
  });
  if (parsed.problems.length > 0) return { valid: false, problems: parsed.problems };
  return validateValue(parsed.value, label, parsed);
}
