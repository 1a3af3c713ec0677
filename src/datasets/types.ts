import type { Question } from '../grading/types.js';

/**
 * Which dataset to load: a source id and a source-relative ref, or a file path.
 *
 * @example
 * ```ts
 * const bySource: DatasetSelector = { source: 'file', ref: 'support.yaml' };
 * const byPath: DatasetSelector = { path: 'evals/support.yaml' };
 * ```
 */
export interface DatasetSelector {
  /** The dataset source id. Default `file`. */
  source?: string;
  /** The source-relative ref, for example a bare file name for the `file` source. */
  ref?: string;
  /** A file path, absolute or relative to `process.cwd()`: an alternative to `source` + `ref`. */
  path?: string;
}

/**
 * Which questions of a dataset to keep. Every given filter must match.
 *
 * @example
 * ```ts
 * const filter: DatasetFilter = { split: 'holdout', tags: ['billing'] };
 * ```
 */
export interface DatasetFilter {
  /** Keep only the question with this id. */
  questionId?: string;
  /** Keep only the questions in this split (the `splits` block or per-question `split` labels). */
  split?: string;
  /** Keep only the questions that carry at least one of these tags. */
  tags?: string[];
  /** Keep only the questions with these ids. */
  ids?: string[];
  /** Also return disabled questions (a suite shows them as skipped). Default false. */
  includeDisabled?: boolean;
}

/**
 * The result of {@link loadDatasetSync}: the questions, every warning logged while loading, and a
 * label naming the dataset.
 *
 * @example
 * ```ts
 * const { questions, warnings, label } = loadDatasetSync({ path: 'datasets/support.yaml' });
 * if (questions.length === 0) throw new Error(`${label}: ${warnings.join('\n')}`);
 * ```
 */
export interface DatasetLoad {
  questions: Question[];
  warnings: string[];
  /** For example `file:support.yaml`. */
  label: string;
  /** The absolute path of the dataset file, when the dataset came from one (for rubric lookup). */
  file?: string;
}

/**
 * One problem found in a dataset, rubric or gold-label document: where it is and what to do.
 *
 * @example
 * ```ts
 * const problem: DatasetProblem = {
 *   file: 'support.yaml', line: 4, column: 12, path: '/questions/0/input',
 *   message: 'must be a string, got number. Fix: quote the question text.',
 * };
 * ```
 */
export interface DatasetProblem {
  /** The file (or source label, for documents that are not files). */
  file: string;
  /** 1-based line, when the document came from text. */
  line?: number;
  /** 1-based column, when the document came from text. */
  column?: number;
  /** JSON Pointer of the offending value (`''` for the whole document). */
  path: string;
  /** What is wrong, what was expected and how to fix it. */
  message: string;
}

/**
 * A split in the `splits` block: a list of question ids, or a deterministic held-out fraction.
 *
 * @example
 * ```ts
 * const smoke: SplitDefinition = ['refund', 'greeting'];
 * const holdout: SplitDefinition = { fraction: 0.2, seed: 7 };
 * ```
 */
export type SplitDefinition = string[] | { fraction: number; seed: string | number };

/**
 * A dataset document, as the file has it (snake_case keys).
 *
 * @example
 * ```ts
 * const doc: DatasetDocument = { name: 'support', questions: [{ id: 'q1', input: 'Hi' }] };
 * ```
 */
export interface DatasetDocument {
  name?: string;
  label?: string;
  description?: string;
  version?: string | number;
  splits?: Record<string, SplitDefinition>;
  questions: Question[];
  [key: string]: unknown;
}
