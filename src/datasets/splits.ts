import type { Question } from '../grading/types.js';
import { own, setOwn } from '../internal/own.js';
import type { SplitDefinition } from './types.js';
import { sha256Hex } from '../internal/sha256.js';

/**
 * A problem in a `splits` block: its JSON path and what to fix.
 *
 * @example
 * ```ts
 * createSplitter({ a: 'q1' }).problems[0]?.path; // '/splits/a'
 * ```
 */
export interface SplitProblem {
  path: string;
  message: string;
}

/**
 * What {@link createSplitter} returns.
 *
 * @example
 * ```ts
 * const splitter: Splitter = createSplitter(document.splits);
 * splitter.contains(question, 'holdout');
 * ```
 */
export interface Splitter {
  /** Problems in the block's shape. A splitter with problems places no question in any split. */
  problems: SplitProblem[];
  /** The valid splits of the block, by name. */
  splits: Record<string, SplitDefinition>;
  /** Split names known from the block and from the questions' `split` labels. */
  names(questions: readonly Question[]): string[];
  /** True when the question is in the split (listed, held out by fraction, or labelled). */
  contains(question: Question, split: string): boolean;
  /** The questions in the split, in dataset order. */
  select(questions: readonly Question[], split: string): Question[];
  /** Ids a list split names that no question has (for warnings). */
  unknownIds(questions: readonly Question[]): Array<{ split: string; id: string }>;
}

/**
 * The stable position of a question in a held-out split: a number in [0, 1) from a SHA-256 of the
 * seed and the id. The same seed and id give the same number on every machine.
 *
 * @example
 * ```ts
 * splitPosition(7, 'refund') < 0.2; // is 'refund' in a { fraction: 0.2, seed: 7 } split?
 * ```
 */
export function splitPosition(seed: string | number, id: string): number {
  const hex = sha256Hex(`${String(seed)}\u0000${id}`).slice(0, 8);
  return parseInt(hex, 16) / 0x1_0000_0000;
}

function checkSplit(name: string, value: unknown): SplitProblem[] {
  const path = `/splits/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  if (Array.isArray(value)) {
    return value.flatMap((id, i) =>
      typeof id === 'string' && id.trim() !== ''
        ? []
        : [
            {
              path: `${path}/${i}`,
              message: `must be a question id (a non-empty string), got ${JSON.stringify(id)}.`,
            },
          ],
    );
  }
  if (value === null || typeof value !== 'object') {
    return [
      {
        path,
        message: `must be a list of question ids or { fraction, seed }, got ${JSON.stringify(value)}. Fix: e.g. \`${name}: [q1, q2]\` or \`${name}: { fraction: 0.2, seed: 1 }\`.`,
      },
    ];
  }
  const { fraction, seed } = value as { fraction?: unknown; seed?: unknown };
  const problems: SplitProblem[] = [];
  if (typeof fraction !== 'number' || !(fraction > 0 && fraction <= 1)) {
    problems.push({
      path: `${path}/fraction`,
      message: `must be a number greater than 0 and at most 1 (the share of questions held out), got ${JSON.stringify(fraction)}.`,
    });
  }
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isInteger(seed)))) {
    problems.push({
      path: `${path}/seed`,
      message: `must be a string or an integer that fixes which questions are held out, got ${JSON.stringify(seed)}.`,
    });
  }
  return problems;
}

/**
 * Validates a dataset's `splits` block and answers which questions are in a split. A split is a
 * list of question ids, or `{ fraction, seed }`: the questions whose {@link splitPosition} is below
 * `fraction` (deterministic, stable as questions are added). A question's own `split` label also
 * puts it in that split.
 *
 * @example
 * ```ts
 * const splitter = createSplitter({ smoke: ['q1'], holdout: { fraction: 0.2, seed: 1 } });
 * splitter.problems; // []
 * splitter.select(questions, 'holdout');
 * ```
 */
export function createSplitter(block: unknown): Splitter {
  const problems: SplitProblem[] = [];
  const splits: Record<string, SplitDefinition> = {};
  if (block !== undefined && block !== null) {
    if (typeof block !== 'object' || Array.isArray(block)) {
      problems.push({
        path: '/splits',
        message: `must be a map of split names, got ${Array.isArray(block) ? 'a list' : JSON.stringify(block)}. Fix: \`splits: { smoke: [q1, q2] }\`.`,
      });
    } else {
      for (const [name, value] of Object.entries(block as Record<string, unknown>)) {
        const found = checkSplit(name, value);
        problems.push(...found);
        if (found.length === 0) setOwn(splits, name, value as SplitDefinition);
      }
    }
  }
  const contains = (question: Question, split: string): boolean => {
    if (problems.length > 0) return false;
    if (question.split === split) return true;
    const definition = own(splits, split);
    if (definition === undefined) return false;
    if (Array.isArray(definition)) return definition.includes(question.id);
    return splitPosition(definition.seed, question.id) < definition.fraction;
  };
  return {
    problems,
    splits,
    contains,
    names: (questions) => [
      ...new Set([
        ...Object.keys(splits),
        ...questions.map((q) => q.split).filter((s): s is string => typeof s === 'string'),
      ]),
    ],
    select: (questions, split) => questions.filter((q) => contains(q, split)),
    unknownIds(questions) {
      const ids = new Set(questions.map((q) => q.id));
      return Object.entries(splits).flatMap(([split, definition]) =>
        Array.isArray(definition) ? definition.filter((id) => !ids.has(id)).map((id) => ({ split, id })) : [],
      );
    },
  };
}
