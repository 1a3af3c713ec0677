import type { GradingContext } from '../grading/types.js';

/**
 * The question's `expected_facts` as a list of non-empty strings, or `undefined` when there are none.
 *
 * @example
 * ```ts
 * expectedFacts({ expected_facts: ['Paris', ' '] } as GradingContext); // ['Paris']
 * ```
 */
export function expectedFacts(context: GradingContext): string[] | undefined {
  const facts = Array.isArray(context.expected_facts)
    ? context.expected_facts.filter((f): f is string => typeof f === 'string' && f.trim() !== '')
    : [];
  return facts.length > 0 ? facts : undefined;
}

/**
 * Renders a ground-truth block for the criteria slot: the facts a correct response states.
 *
 * @example
 * ```ts
 * groundTruthBlock(['Paris is the capital']); // 'Ground truth (facts a correct response states):\n- Paris is the capital'
 * ```
 */
export function groundTruthBlock(facts: readonly string[]): string {
  return `Ground truth (facts a correct response states):\n${facts.map((f) => `- ${f.replace(/\s+/g, ' ').trim()}`).join('\n')}`;
}
