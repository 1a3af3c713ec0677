import { FALLBACK_MARKER } from '../grading/markers.js';
import { abbreviate, plural } from '../internal/text.js';
import type { Advisory, QuestionReport } from './model.js';

/** What {@link advisoriesFor} needs to know about a target. */
export interface AdvisoryInput {
  name: string;
  mode: 'agent' | 'chat' | null;
  actionObserving: readonly string[];
  questions: readonly QuestionReport[];
}

/**
 * The advisories of one target, each with a code and a plain sentence:
 * - `NO_ACTION_OBSERVER`: an agent-mode target that no action-observing grader scores;
 * - `NO_TOOL_CALL_RECORD`: grades whose reason carries the fallback marker
 *   `no tool-call record available` (one advisory per grader, naming the questions);
 * - `GRADER_ALWAYS_SKIPPED`: a grader every one of whose grades was skipped.
 *
 * @example
 * ```ts
 * advisoriesFor({ name: 'bot', mode: 'agent', actionObserving: [], questions: [] })[0].message;
 * // 'bot is scored by nothing that can see what the agent did.'
 * ```
 */
export function advisoriesFor(target: AdvisoryInput): Advisory[] {
  const advisories: Advisory[] = [];
  const name = target.name;
  if (target.mode === 'agent' && target.actionObserving.length === 0) {
    advisories.push({
      code: 'NO_ACTION_OBSERVER',
      target: name,
      message: `${name} is scored by nothing that can see what the agent did.`,
    });
  }
  const fallback = new Map<string, Set<string>>();
  const byGrader = new Map<string, { total: number; skipped: number }>();
  for (const q of target.questions) {
    for (const g of q.grades) {
      if (g.reason.includes(FALLBACK_MARKER)) {
        const set = fallback.get(g.grader) ?? new Set<string>();
        set.add(q.id);
        fallback.set(g.grader, set);
      }
      const count = byGrader.get(g.grader) ?? { total: 0, skipped: 0 };
      count.total += 1;
      if (g.skipped) count.skipped += 1;
      byGrader.set(g.grader, count);
    }
  }
  for (const [grader, ids] of fallback) {
    const list = [...ids];
    advisories.push({
      code: 'NO_TOOL_CALL_RECORD',
      target: name,
      message: `${name}: ${grader} had no tool-call record available for ${plural(list.length, 'question')} (${abbreviate(list)}), so it could not see what the agent did.`,
    });
  }
  for (const [grader, { total, skipped }] of byGrader) {
    if (total > 0 && skipped === total) {
      advisories.push({
        code: 'GRADER_ALWAYS_SKIPPED',
        target: name,
        message: `${name}: every grade of ${grader} was skipped (${plural(total, 'grade')}), so it scored nothing.`,
      });
    }
  }
  return advisories;
}
