import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { translateErrors, validators } from './schema.js';
import type { DatasetDocument, DatasetProblem } from './types.js';
import { parseText, type ParsedText } from './yaml-positions.js';

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

function duplicateIds(
  value: { questions?: unknown },
  file: string,
  parsed: ParsedText | undefined,
): DatasetProblem[] {
  const first = new Map<string, number>();
  const problems: DatasetProblem[] = [];
  if (!Array.isArray(value.questions)) return problems;
  value.questions.forEach((question: { id?: unknown } | null, index) => {
    if (typeof question?.id !== 'string') return;
    const previous = first.get(question.id);
    if (previous === undefined) {
      first.set(question.id, index);
      return;
    }
    const here = `/questions/${index}/id`;
    const there = `/questions/${previous}/id`;
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
        `duplicate question id '${question.id}'${lines}. Fix: ids must be unique, rename one of them.`,
      ),
    );
  });
  return problems;
}

/** Validates an already parsed value (with positions when it came from text). */
export function validateValue(value: unknown, file: string, parsed?: ParsedText): DatasetValidation {
  const validate = validators().document;
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
  const problems = validate(value)
    ? []
    : translateErrors(validate.errors ?? []).map((i) => problemAt(parsed, file, i.path, i.message));
  problems.push(...duplicateIds(value, file, parsed));
  if (problems.length > 0) {
    const line = (p: DatasetProblem) => p.line ?? 0;
    return { valid: false, problems: problems.sort((a, b) => line(a) - line(b)) };
  }
  return { valid: true, document: value as DatasetDocument, problems };
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
  if (typeof input !== 'string') return validateValue(input, file);
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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'could not be read';
    return {
      valid: false,
      problems: [
        { file: label, path: '', message: `${reason} (${(error as Error).message}). Fix the path.` },
      ],
    };
  }
  return validateDataset(text, { file: label, json: extname(file).toLowerCase() === '.json' });
}
