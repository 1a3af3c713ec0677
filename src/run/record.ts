import type { Grader } from '../grading/define-grader.js';
import { capReason } from '../internal/reason.js';
import { resolveGrader } from '../registry/graders.js';
import { judgeRecordIdentity } from '../registry/judge-identity.js';
import { RECORD_VERSION, recordedGrade, type EvalRecord, type RecordTarget } from './record-types.js';
import type { QuestionResult } from './grade-question.js';
import type { Target } from './target.js';
import type { TestIdentity } from './channel.js';

/** The record target of a full {@link Target}. */
export function targetRecord(target: Target, passThreshold: number): RecordTarget {
  const graders = target.graders.map(resolveGrader);
  return {
    name: target.name,
    mode: target.mode,
    graders: graders.map((g) => g.id),
    actionObserving: graders.filter((g) => g.observesActions).map((g) => g.id),
    passThreshold,
    ...(target.scoreBy ? { scoreBy: target.scoreBy } : {}),
    ...(target.gate ? { gate: { ...target.gate } } : {}),
  };
}

/**
 * The record target of a matcher's `target` option: a full target, or a bare name that stands for
 * a target graded by this one grader, in agent mode for an agent run and chat mode for a string.
 */
export function matcherTargetRecord(
  target: Target | string | undefined,
  grader: Grader,
  received: unknown,
  passThreshold: number,
): RecordTarget | null {
  if (target === undefined) return null;
  if (typeof target !== 'string') return targetRecord(target, passThreshold);
  return {
    name: target,
    mode: typeof received === 'string' ? 'chat' : 'agent',
    graders: [grader.id],
    actionObserving: grader.observesActions ? [grader.id] : [],
    passThreshold,
  };
}

/** What every record of one graded question shares. */
export interface RecordScope {
  identity: TestIdentity;
  target: RecordTarget | null;
  question: string;
  trial: number;
  /** The grades come from a negated assertion (`.not`). */
  negated?: boolean;
  /** The dataset the question came from (`evalSuite`): its ref and a hash of its content. */
  dataset?: { ref: string; hash: string };
}

/**
 * One {@link EvalRecord} per grade of `result`: JSON only, so it crosses worker boundaries as is.
 *
 * @example
 * ```ts
 * const records = toRecords(result, graders, { identity, target: null, question: 'q1', trial: 1 });
 * ```
 */
export function toRecords(
  result: QuestionResult,
  graders: readonly Grader[],
  scope: RecordScope,
): EvalRecord[] {
  const at = Date.now();
  return result.grades.map((grade, index) => {
    const grader = graders.find((g) => g.id === grade.grader) ?? graders[index];
    const record: EvalRecord = {
      v: RECORD_VERSION,
      test: { file: scope.identity.file, name: scope.identity.name },
      target: scope.target,
      question: scope.question,
      ...recordedGrade({
        ...grade,
        reason: capReason(grade.reason),
        label: grader?.displayLabel ?? grade.grader,
        trial: scope.trial,
        llm: grader?.llm ?? false,
        observesActions: grader?.observesActions ?? false,
        toolCallRecord: result.toolCalls !== undefined,
        ...(scope.negated ? { negated: true } : {}),
      }),
      passThreshold: result.passThreshold,
      at,
    };
    if (scope.dataset) record.dataset = { ...scope.dataset };
    const judge = grader ? judgeIdentityOf(grader) : undefined;
    if (judge) Object.assign(record, judge);
    return record;
  });
}

/** The judge model and prompt hash of an LLM grader; a judge misconfiguration already errored its grade. */
function judgeIdentityOf(grader: Grader): { judgeModel: string; promptHash: string } | undefined {
  try {
    return judgeRecordIdentity(grader);
  } catch {
    return undefined;
  }
}
