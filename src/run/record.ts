import { getConfig } from '../config.js';
import type { Grader } from '../grading/define-grader.js';
import { capReason, safeReason, safeReasonOf } from '../internal/reason.js';
import { redactText, redactValue } from '../internal/redact.js';
import { displayArguments } from '../grading/tool-calls.js';
import { resolveGrader } from '../registry/graders.js';
import { judgeRecordIdentity } from '../registry/judge-identity.js';
import { FALLBACK_MARKER } from '../grading/markers.js';
import type { Gradable, GradeResult, ToolArguments } from '../grading/types.js';
import {
  RECORD_VERSION,
  type AiEvalRecord,
  type DisabledQuestionRecord,
  type EvalRecord,
  type FilterSkipRecord,
  type LoadFailureRecord,
  type RecordedEvidence,
  type RecordedToolCall,
  type RecordTarget,
} from './record-types.js';
import { responseText, type QuestionResult } from './grade-question.js';
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
  /**
   * The response that was graded, when known: its text and the result's tool-call record go on the
   * first record as its `evidence`. `null`: the agent gave none (its run failed).
   */
  response?: Gradable | null;
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
  // One test and dataset object for the question's records: they cross to the reporter once.
  const test = { file: scope.identity.file, name: scope.identity.name };
  const dataset = scope.dataset ? { ref: scope.dataset.ref, hash: scope.dataset.hash } : undefined;
  const toolCallRecord = result.toolCalls !== undefined;
  return result.grades.map((grade, index) => {
    const grader = graders.find((g) => g.id === grade.grader) ?? graders[index];
    // Per grade where the grader says so (rubric_checks observes only through tool_usage and state checks).
    const observesActions = grade.observesActions ?? grader?.observesActions ?? false;
    // Built in place, keys in the order of recordedGrade(), with the rare keys where it puts them.
    const record = {
      v: RECORD_VERSION,
      kind: 'grade',
      test,
      target: scope.target,
      question: scope.question,
      grader: grade.grader,
      label: grader?.displayLabel ?? grade.grader,
      trial: scope.trial,
      score: grade.score,
      min: grade.min,
      max: grade.max,
      composite: grade.composite,
      reason: safeReasonOf(grade),
      error: grade.error,
      skipped: grade.skipped,
      llm: grader?.llm ?? false,
      observesActions,
      toolCallRecord,
    } as EvalRecord;
    if (grade.usage) record.usage = { ...grade.usage };
    if (grade.judgeCall) record.judgeCall = { ...grade.judgeCall };
    if (scope.negated) record.negated = true;
    if (grade.queriedState !== true && unverifiedObservation(grade, observesActions, toolCallRecord))
      record.unverified = true;
    if (grade.queriedState) record.queriedState = true;
    if (grade.rubric) record.rubric = { ...grade.rubric };
    record.passThreshold = result.passThreshold;
    record.at = at;
    if (dataset) record.dataset = dataset;
    // Only an LLM grader has a judge identity (and only it is worth reading the environment for).
    const judge = grader?.llm ? judgeIdentityOf(grader) : undefined;
    if (judge) Object.assign(record, judge);
    if (index === 0 && scope.response !== undefined) record.evidence = evidenceOf(scope.response, result);
    BUILT_SAFE.add(record);
    return record;
  });
}

/**
 * Records {@link toRecords} built, whose reasons and evidence it redacted as it built them: the
 * runner channels send them as they are instead of copying each again ({@link safeRecords}).
 */
const BUILT_SAFE = new WeakSet<object>();

/** The most tool calls a record's evidence keeps. */
const EVIDENCE_CALLS = 100;

/** What the graders were shown, as the report keeps it: capped, shortened and redacted. */
function evidenceOf(response: Gradable | null, result: QuestionResult): RecordedEvidence {
  let text: string | null = null;
  if (response !== null) {
    try {
      text = redactText(capReason(responseText(response)));
    } catch {
      text = null;
    }
  }
  const calls = result.toolCalls;
  const evidence: RecordedEvidence = {
    response: text,
    toolCalls:
      calls === undefined
        ? null
        : calls.slice(0, EVIDENCE_CALLS).map((c) => {
            const shown: RecordedToolCall = { name: c.function_name, arguments: safeArguments(c.arguments) };
            if (c.status !== undefined) shown.status = c.status;
            if (c.kind !== undefined) shown.kind = c.kind;
            return shown;
          }),
  };
  if (calls !== undefined && calls.length > EVIDENCE_CALLS)
    evidence.omittedCalls = calls.length - EVIDENCE_CALLS;
  return evidence;
}

/**
 * Whether a grade breaks the `observesActions` contract: the grader declares it, the response had
 * no tool-call record, and yet it returned a score whose reason does not name the fallback
 * (`no tool-call record available`). Such a grader claimed evidence it did not have. An error or a
 * skip keeps the contract (it degraded honestly).
 *
 * @example
 * ```ts
 * unverifiedObservation(myObserver.result(1, 'looks read-only'), true, false); // true
 * unverifiedObservation(toolUsage.result(1, 'no tool-call record available, ...'), true, false); // false
 * ```
 */
export function unverifiedObservation(
  grade: Pick<GradeResult, 'score' | 'reason'>,
  observesActions: boolean,
  toolCallRecord: boolean,
): boolean {
  return (
    observesActions && !toolCallRecord && grade.score !== null && !grade.reason.includes(FALLBACK_MARKER)
  );
}

/** Where a suite record comes from: its test, target and suite. */
export interface SuiteRecordScope {
  test: { file: string; name: string };
  target: RecordTarget;
  suite: string;
  /** The dataset's load label, for example `file:evals/support.yaml`. */
  ref: string;
}

/**
 * The record of a suite whose dataset gave nothing to evaluate.
 *
 * @example
 * ```ts
 * loadFailureRecord({ test, target, suite: 'support', ref: 'file:x.yaml' }, ['x.yaml does not exist']);
 * ```
 */
export function loadFailureRecord(scope: SuiteRecordScope, problems: readonly string[]): LoadFailureRecord {
  return {
    v: RECORD_VERSION,
    kind: 'load-failure',
    test: { ...scope.test },
    target: scope.target,
    suite: scope.suite,
    dataset: { ref: scope.ref },
    problems: [...problems],
    at: Date.now(),
  };
}

/**
 * The record of a suite the environment filters left without a question.
 *
 * @example
 * ```ts
 * filterSkipRecord({ test, target, suite: 'billing', ref: 'file:billing.yaml' }, { ids: ['list-drafts'] });
 * ```
 */
export function filterSkipRecord(
  scope: SuiteRecordScope,
  filters: FilterSkipRecord['filters'],
): FilterSkipRecord {
  return {
    v: RECORD_VERSION,
    kind: 'filter-skip',
    test: { ...scope.test },
    target: scope.target,
    suite: scope.suite,
    dataset: { ref: scope.ref },
    filters: JSON.parse(JSON.stringify(filters)) as FilterSkipRecord['filters'],
    at: Date.now(),
  };
}

/**
 * The record of a disabled question of a suite.
 *
 * @example
 * ```ts
 * disabledRecord({ test, target, suite: 'support', ref: 'file:support.yaml' }, 'old-question');
 * ```
 */
export function disabledRecord(scope: SuiteRecordScope, question: string): DisabledQuestionRecord {
  return {
    v: RECORD_VERSION,
    kind: 'disabled',
    test: { ...scope.test },
    target: scope.target,
    suite: scope.suite,
    dataset: { ref: scope.ref },
    question,
    at: Date.now(),
  };
}

type JudgeRecordIdentity = { judgeModel: string; promptHash: string } | undefined;

/** Each grader's judge identity, with the configuration it was worked out under. */
const identities = new WeakMap<
  Grader,
  { config: object; model: string | undefined; identity: JudgeRecordIdentity }
>();

/**
 * The judge model and prompt hash of an LLM grader (a judge misconfiguration already errored its
 * grade). Worked out once per grader while the configuration (configure() makes a new one) and
 * `AI_EVAL_JUDGE_MODEL` stay the same, not for every record: it hashes the prompt template.
 */
function judgeIdentityOf(grader: Grader): JudgeRecordIdentity {
  const config = getConfig();
  const model = process.env.AI_EVAL_JUDGE_MODEL;
  const known = identities.get(grader);
  if (known?.config === config && known.model === model) return known.identity;
  let identity: JudgeRecordIdentity;
  try {
    identity = judgeRecordIdentity(grader);
  } catch {
    identity = undefined;
  }
  identities.set(grader, { config, model, identity });
  return identity;
}

/**
 * Records as they may leave the worker: every grade reason redacted and capped (suite records carry
 * no reason). The runner channels send only these. A record {@link toRecords} built is one already
 * and comes back as it is; any other grade record is copied with its reason and evidence redacted.
 *
 * @example
 * ```ts
 * appendRecords(safeRecords(records));
 * ```
 */
export function safeRecords(records: readonly AiEvalRecord[]): AiEvalRecord[] {
  return records.map((r) => {
    if (r.kind !== 'grade' || BUILT_SAFE.has(r)) return r;
    // A spread, not Object.assign({}, r): V8 makes the target of an Object.assign that adds 20 or
    // more properties a hash table (a record has 21 or 22), several times its size, for as long as
    // the runner keeps it, and slower to serialise. A spread copies the record's shape.
    const safe = { ...r };
    safe.reason = safeReason(r.reason);
    if (r.evidence) safe.evidence = safeEvidence(r.evidence);
    return safe;
  });
}

/** Evidence with secrets redacted: the response text, and each call's arguments by key and value. */
function safeEvidence(evidence: RecordedEvidence): RecordedEvidence {
  const safe = Object.assign({}, evidence);
  safe.response = evidence.response === null ? null : redactText(evidence.response);
  safe.toolCalls =
    evidence.toolCalls?.map((c) => {
      const call = Object.assign({}, c);
      call.arguments = redactValue(c.arguments) as ToolArguments;
      return call;
    }) ?? null;
  return safe;
}

/**
 * A tool call's arguments as evidence keeps them: long strings shortened, then redacted
 * (`redactValue` takes a string argument as text, anything else by key and value).
 */
function safeArguments(args: ToolArguments): ToolArguments {
  return redactValue(displayArguments(args)) as ToolArguments;
}
