import { patternProblem } from '../graders/patterns.js';
import { compileSchema } from '../graders/schema-cache.js';
import type { SchemaIssue } from './schema.js';
import { createSplitter } from './splits.js';
import { getStateCheck } from '../graders/state/state-checks.js';

/**
 * The params of each `metadata.state` assertion whose kind is defined in this process, checked by
 * the kind's schema (kinds are open: an undefined kind is left to `state_grader`, which fails it
 * as a setup failure when it runs).
 */
function stateIssues(
  question: unknown,
  index: number,
  schemaIssues: readonly SchemaIssue[],
  issues: SchemaIssue[],
): void {
  const metadata = (question as { metadata?: unknown } | null)?.metadata;
  const state = (metadata as { state?: unknown } | null | undefined)?.state;
  const assertions = (state as { assertions?: unknown } | null | undefined)?.assertions;
  if (!Array.isArray(assertions)) return;
  const base = `/questions/${index}/metadata/state`;
  if (schemaIssues.some((i) => i.path === base || i.path.startsWith(`${base}/`))) return;
  assertions.forEach((entry: unknown, i) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
    const { id: _id, kind, ...params } = entry as Record<string, unknown>;
    const check = typeof kind === 'string' ? getStateCheck(kind) : undefined;
    const problem = check?.paramsProblem(params);
    if (problem !== undefined)
      issues.push({
        path: `${base}/assertions/${i}`,
        message: `params do not match the schema of state check kind '${String(kind)}': ${problem}. Fix the assertion's params.`,
      });
  });
}

/**
 * The checks a JSON Schema cannot make, run on every validated dataset (the loader, `validate`,
 * the inline and http sources alike), so that nothing that passes validation fails later for a
 * reason known now: `expected.pattern` and `expected.flags` must compile and not have the shape
 * that backtracks exponentially, `expected.schema` must compile as a JSON Schema, a schema needs
 * format json, and the splits block must be usable by the splitter. Values of the wrong type are
 * left to the schema's own messages.
 */
export function semanticIssues(
  document: { questions?: unknown; splits?: unknown },
  schemaIssues: readonly SchemaIssue[],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!schemaIssues.some((i) => i.path === '/splits' || i.path.startsWith('/splits/'))) {
    for (const p of createSplitter(document.splits).problems) issues.push(p);
  }
  if (!Array.isArray(document.questions)) return issues;
  const questions = document.questions as unknown[];
  for (let index = 0; index < questions.length; index++) {
    const question = questions[index];
    stateIssues(question, index, schemaIssues, issues);
    const expected = (question as { expected?: unknown } | null)?.expected;
    if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) continue;
    const path = `/questions/${index}/expected`;
    const { pattern, flags, schema, format } = expected as Record<string, unknown>;
    if (
      typeof pattern === 'string' &&
      pattern !== '' &&
      (flags === undefined || (typeof flags === 'string' && /^[imsu]*$/.test(flags)))
    ) {
      const problem = patternProblem(pattern, flags);
      if (problem !== undefined) {
        issues.push({
          path: problem.startsWith('expected.flags') ? `${path}/flags` : `${path}/pattern`,
          message: `${problem}.`,
        });
      }
    }
    if (
      schema !== undefined &&
      (typeof schema === 'boolean' || (schema !== null && typeof schema === 'object'))
    ) {
      if (format === 'markdown') {
        issues.push({
          path: `${path}/schema`,
          message:
            'applies only to format json, and this question asks for markdown. Fix: remove the schema or use `format: json`.',
        });
      } else {
        const compiled = compileSchema(schema);
        if (!compiled.ok)
          issues.push({
            path: `${path}/schema`,
            message: `${compiled.message}. Fix the schema (JSON Schema draft 2020-12).`,
          });
      }
    }
  }
  return issues;
}
