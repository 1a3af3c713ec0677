import { extname } from 'node:path';
import type { DatasetProblem } from './types.js';
import { parseText, type ParsedText } from './parse.js';

/**
 * One gold label: the score a human gave a question's response on one judge dimension.
 *
 * @example
 * ```ts
 * const label: GoldLabel = { question_id: 'refund', dimension: 'relevance', score: 4 };
 * ```
 */
export interface GoldLabel {
  question_id: string;
  score: number;
  /** The judge dimension (or grader id) the score is for. */
  dimension?: string;
  /** The response that was scored. */
  response?: string;
  [key: string]: unknown;
}

function at(parsed: ParsedText, file: string, path: string, message: string): DatasetProblem {
  const pos = parsed.locate(path);
  return { file, ...(pos ? { line: pos.line, column: pos.column } : {}), path, message };
}

/**
 * Checks the shape of a gold-label file: `labels: [{ question_id, score, dimension?, response? }]`.
 * Every problem names the file, line, column and JSON path. Never throws.
 *
 * @example
 * ```ts
 * validateGoldLabels('labels:\n  - { question_id: q1, dimension: relevance, score: 4 }\n', 'gold.yaml').problems; // []
 * ```
 */
export function validateGoldLabels(
  text: string,
  file = 'labels',
): { labels: GoldLabel[]; problems: DatasetProblem[] } {
  return validateParsedGoldLabels(
    parseText(text, file, { json: extname(file).toLowerCase() === '.json' }),
    file,
  );
}

/** {@link validateGoldLabels} of a text already parsed (the CLI parses each file once). */
export function validateParsedGoldLabels(
  parsed: ParsedText,
  file: string,
): { labels: GoldLabel[]; problems: DatasetProblem[] } {
  if (parsed.problems.length > 0) return { labels: [], problems: parsed.problems };
  const value = parsed.value as { labels?: unknown } | null;
  if (
    value === null ||
    typeof value !== 'object' ||
    !Array.isArray(value.labels) ||
    value.labels.length === 0
  ) {
    return {
      labels: [],
      problems: [
        at(parsed, file, '', "needs a non-empty 'labels' list of { question_id, score, dimension? }."),
      ],
    };
  }
  const problems: DatasetProblem[] = [];
  value.labels.forEach((label: unknown, i) => {
    const path = `/labels/${i}`;
    if (label === null || typeof label !== 'object' || Array.isArray(label)) {
      problems.push(at(parsed, file, path, 'must be an object { question_id, score, dimension? }.'));
      return;
    }
    const { question_id: id, score, dimension } = label as Record<string, unknown>;
    if (typeof id !== 'string' || id.trim() === '') {
      problems.push(
        at(
          parsed,
          file,
          id === undefined ? path : `${path}/question_id`,
          `needs 'question_id': the id of the labelled question, got ${JSON.stringify(id)}.`,
        ),
      );
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      problems.push(
        at(
          parsed,
          file,
          score === undefined ? path : `${path}/score`,
          `needs 'score': a number on the judge's scale, got ${JSON.stringify(score)}.`,
        ),
      );
    }
    if (dimension !== undefined && (typeof dimension !== 'string' || dimension === '')) {
      problems.push(
        at(
          parsed,
          file,
          `${path}/dimension`,
          `must be a judge dimension name, got ${JSON.stringify(dimension)}.`,
        ),
      );
    }
  });
  return { labels: problems.length > 0 ? [] : (value.labels as GoldLabel[]), problems };
}
