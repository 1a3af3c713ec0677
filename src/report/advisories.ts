import { FALLBACK_MARKER } from '../grading/markers.js';
import { abbreviate, plural } from '../internal/text.js';
import type { Advisory, GradeReport, QuestionReport } from './model.js';

/** What {@link advisoriesFor} needs to know about a target. */
export interface AdvisoryInput {
  name: string;
  /** `null` when no target was declared (the target is named after the test file). */
  mode: 'agent' | 'chat' | null;
  actionObserving: readonly string[];
  questions: readonly QuestionReport[];
}

/**
 * The advisories of one target, each with a code and a plain sentence:
 * - `NO_ACTION_OBSERVER`: an agent-mode target that no action-observing grader scores (a grader
 *   declares the flag, or its grades carry it one by one: `rubric_checks` observes actions only
 *   in the grades where a `tool_usage` or `state` check ran);
 * - `NO_TOOL_CALL_RECORD`: grades whose reason carries the fallback marker
 *   `no tool-call record available` (one advisory per grader, naming the questions);
 * - `GRADER_ALWAYS_SKIPPED`: a grader every one of whose grades was skipped;
 * - `UNVERIFIED_OBSERVER`: a grader that declares `observesActions` scored responses without a
 *   tool-call record and without the fallback marker (one advisory per grader);
 * - `DUPLICATE_QUESTION`: one question id from several test files (kept apart, never averaged);
 * - `NO_ACTION_OBSERVER` for assertions without a target (a target named after its test file):
 *   agent runs (a tool-call record or a transcript) that no action-observing grader scored.
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
  const observedPerGrade = target.questions.some((q) => q.grades.some((g) => g.observesActions));
  if (target.mode === 'agent' && target.actionObserving.length === 0 && !observedPerGrade) {
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
  advisories.push(...unverifiedObservers(target), ...duplicates(target));
  if (target.mode === null) advisories.push(...unobservedRuns(target));
  return advisories;
}

/** Grades of observers that scored without a record and without saying so, per grader. */
function unverifiedObservers(target: AdvisoryInput): Advisory[] {
  const byGrader = new Map<string, Set<string>>();
  for (const q of target.questions)
    for (const g of q.grades) {
      if (g.unverified !== true) continue;
      const set = byGrader.get(g.grader) ?? new Set<string>();
      set.add(q.id);
      byGrader.set(g.grader, set);
    }
  return [...byGrader].map(([grader, ids]) => {
    const list = [...ids];
    return {
      code: 'UNVERIFIED_OBSERVER',
      target: target.name,
      message: `${target.name}: ${grader} declares observesActions but scored ${plural(list.length, 'question')} (${abbreviate(list)}) that had no tool-call record, without saying so (\`${FALLBACK_MARKER}\`), so it claimed evidence it did not have; those grades do not count as seeing what the agent did.`,
    };
  });
}

/** Question ids that came from more than one test file. */
function duplicates(target: AdvisoryInput): Advisory[] {
  const files = new Map<string, string[]>();
  for (const q of target.questions) {
    // Pushed in place: a copy per question made an id shared by many tests quadratic.
    const list = files.get(q.id);
    if (list) list.push(q.test.file);
    else files.set(q.id, [q.test.file]);
  }
  return [...files]
    .filter(([, list]) => list.length > 1)
    .map(([id, list]) => ({
      code: 'DUPLICATE_QUESTION',
      target: target.name,
      message: `${target.name}: question ${id} comes from ${list.length} test files (${list.join(', ')}); they are reported apart, never averaged. Give each its own question id or its own target.`,
    }));
}

/** Whether a grade saw what the agent did: an observer's score from a real record. */
function observed(g: GradeReport): boolean {
  return (
    g.observesActions && g.composite !== null && g.unverified !== true && !g.reason.includes(FALLBACK_MARKER)
  );
}

/** Agent runs graded without a target that no action-observing grader scored, per test file. */
function unobservedRuns(target: AdvisoryInput): Advisory[] {
  const tests = target.questions
    .filter((q) => q.grades.some((g) => g.toolCallRecord) && !q.grades.some(observed))
    .map((q) => q.test.name);
  if (tests.length === 0) return [];
  const runs = plural(tests.length, 'agent run');
  return [
    {
      code: 'NO_ACTION_OBSERVER',
      target: target.name,
      message: `${target.name}: ${runs} graded without a target (${abbreviate([...new Set(tests)])}) ${tests.length === 1 ? 'was' : 'were'} scored by nothing that can see what the agent did. Grade ${tests.length === 1 ? 'it' : 'them'} with an action-observing grader too (read_only_run, tool_usage_grader), or give the assertion a target.`,
    },
  ];
}
