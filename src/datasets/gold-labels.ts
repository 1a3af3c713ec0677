import { extname } from 'node:path';
import { documentValidator } from '../internal/lazy-modules.js';
import goldSchemaJson from '../../schema/gold.json' with { type: 'json' };
import { isJudge, type Judge } from '../judge/define-judge.js';
import { listGraders } from '../registry/graders.js';
import type { ChatMessage } from '../grading/types.js';
import type { DatasetProblem } from './types.js';
import { parseText, type ParsedText } from './parse.js';
import { translateErrors } from './schema.js';

/**
 * The gold-label JSON Schema (draft 2020-12), also published as `ai-eval/schema/gold.json`.
 *
 * @example
 * ```ts
 * goldSchema.$id; // 'https://unpkg.com/ai-eval/schema/gold.json'
 * ```
 */
export const goldSchema: Readonly<Record<string, unknown>> = goldSchemaJson;

/**
 * One gold label: a response a person labelled `pass` or `fail` for one LLM judge (by grader id
 * or dimension), with what the judge needs to score it again.
 *
 * @example
 * ```ts
 * const item: GoldLabel = { id: 'refund-1', judge: 'accuracy_grader', input: 'Refund window?',
 *   response: 'Thirty days.', expected_facts: ['30 days'], label: 'pass', score: 5 };
 * ```
 */
export interface GoldLabel {
  id: string;
  /** The judge's grader id (`accuracy_grader`) or dimension (`accuracy`). */
  judge: string;
  input?: string;
  messages?: ChatMessage[];
  response: string;
  /** The response's tool-call record, in any shape the adapters accept. */
  tool_calls?: unknown[];
  criteria?: string;
  expected_facts?: string[];
  label: 'pass' | 'fail';
  /** The person's score on the judge's scale. */
  score?: number;
  notes?: string;
}

/**
 * A gold-label file: `items: [...]`, with an optional name and description.
 *
 * @example
 * ```ts
 * const gold: GoldFile = { items: [item] };
 * ```
 */
export interface GoldFile {
  name?: string;
  description?: string;
  items: GoldLabel[];
}

/**
 * The outcome of {@link validateGoldLabels}: the items (only when there is no problem) and every
 * problem, each with file, line, column and JSON path.
 *
 * @example
 * ```ts
 * const { items, problems }: GoldValidation = validateGoldLabels(text, 'gold/accuracy.yaml');
 * ```
 */
export interface GoldValidation {
  items: GoldLabel[];
  problems: DatasetProblem[];
}

const validator = documentValidator(goldSchemaJson);

/**
 * The LLM judge a gold item names, by grader id first, then by dimension; `undefined` with a
 * sentence saying why when none (or several) match. Looks among the registered graders.
 *
 * @example
 * ```ts
 * findJudge('accuracy').judge?.id; // 'accuracy_grader'
 * ```
 */
export function findJudge(name: string): { judge?: Judge; problem?: string } {
  const judges = listGraders().filter(isJudge);
  const byId = judges.find((j) => j.id === name);
  if (byId) return { judge: byId };
  const byDimension = judges.filter((j) => j.judge.dimension === name);
  if (byDimension.length === 1) return { judge: byDimension[0]! };
  if (byDimension.length > 1) {
    return {
      problem: `names dimension '${name}', which ${byDimension.length} judges share (${byDimension.map((j) => j.id).join(', ')}). Fix: name the judge by its grader id.`,
    };
  }
  const known = judges.map((j) => j.id).join(', ') || 'none';
  return {
    problem: `names judge '${name}', which is no registered LLM judge (by grader id or dimension; registered: ${known}). Fix: correct the name, or load the module that registers the judge with --setup <file>.`,
  };
}

function at(parsed: ParsedText, file: string, path: string, message: string): DatasetProblem {
  const pos = parsed.locate(path);
  return { file, ...(pos ? { line: pos.line, column: pos.column } : {}), path, message };
}

/**
 * Validates the text of a gold-label file (YAML, or JSON for `.json`) against the gold schema:
 * `items`, each `{ id, judge, input | messages, response, tool_calls?, criteria?, expected_facts?,
 * label: pass | fail, score?, notes? }`; ids unique in the file; every `judge` a registered LLM
 * judge (grader id or dimension). Every problem names the file, line, column and JSON path.
 * Never throws.
 *
 * @example
 * ```ts
 * validateGoldLabels('items:\n  - { id: a, judge: relevance_grader, input: Hi?, response: Hello., label: pass }\n', 'gold.yaml').problems; // []
 * ```
 */
export function validateGoldLabels(text: string, file = 'gold'): GoldValidation {
  return validateParsedGoldLabels(
    parseText(text, file, { json: extname(file).toLowerCase() === '.json' }),
    file,
  );
}

/** {@link validateGoldLabels} of a text already parsed (the CLI parses each file once). */
export function validateParsedGoldLabels(parsed: ParsedText, file: string): GoldValidation {
  if (parsed.problems.length > 0) return { items: [], problems: parsed.problems };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      items: [],
      problems: [
        at(parsed, file, '', "must be an object with an 'items' list. Fix: start the file with `items:`."),
      ],
    };
  }
  const validate = validator();
  const issues = validate(value) ? [] : translateErrors(validate.errors ?? []);
  const items = (value as { items?: unknown }).items;
  if (Array.isArray(items)) {
    const first = new Map<string, number>();
    items.forEach((item: unknown, i) => {
      if (item === null || typeof item !== 'object') return;
      const { id, judge } = item as { id?: unknown; judge?: unknown };
      if (typeof id === 'string') {
        const seen = first.get(id);
        if (seen === undefined) first.set(id, i);
        else {
          const line = parsed.locate(`/items/${seen}/id`)?.line;
          issues.push({
            path: `/items/${i}/id`,
            message: `duplicate item id '${id}'; it is first used ${line !== undefined ? `on line ${line} ` : ''}(/items/${seen}/id). Fix: ids must be unique, rename one of them.`,
          });
        }
      }
      if (typeof judge === 'string' && judge.trim() !== '') {
        const found = findJudge(judge);
        if (found.problem) issues.push({ path: `/items/${i}/judge`, message: found.problem });
      }
    });
  }
  parsed.prepare?.(issues.map((i) => i.path));
  const problems = issues.map((i) => at(parsed, file, i.path, i.message));
  return { items: problems.length > 0 ? [] : (items as GoldLabel[]), problems };
}
