import { getConfig } from '../config.js';
import { AiEvalError } from '../errors.js';
import { buildContext, hasInput, inputOf } from '../grading/context.js';
import { resultOfSafeReason, type GradeHelpers, type Grader } from '../grading/define-grader.js';
import { hasSafeReason } from '../internal/reason.js';
import { resolveGrader, type GraderId } from '../registry/graders.js';
import { normalizeToolCatalog, type ToolCatalogInput } from '../grading/tool-catalog.js';
import { recordOf } from '../grading/tool-calls.js';
import type {
  ClaimPattern,
  Gradable,
  GradeResult,
  GradingContext,
  Question,
  ToolCall,
} from '../grading/types.js';
import { questionVerdict } from '../grading/verdict.js';
import { errorMessage } from '../internal/text.js';
import { isThenable } from '../internal/thenable.js';
import { loadRubric } from '../datasets/rubrics.js';
import type { ResolvedRubric } from '../grading/rubric-types.js';

/**
 * What {@link gradeQuestion} takes.
 *
 * @example
 * ```ts
 * const options: GradeQuestionOptions = {
 *   question: { id: 'q1', input: 'List the drafts', expected_tools: ['list_nodes'] },
 *   response: { output: 'Two drafts.', toolCalls: [{ function_name: 'list_nodes', arguments: {} }] },
 *   graders: ['tool_usage_grader'],
 * };
 * await gradeQuestion(options);
 * ```
 */
export interface GradeQuestionOptions {
  /** The dataset row, or the parts of it the graders read. */
  question: Partial<Question>;
  /** The response text or agent run to grade. */
  response: Gradable;
  /** The graders to run: ids or grader objects. */
  graders: ReadonlyArray<GraderId | Grader>;
  /**
   * Target settings that apply: its response char limit, pass threshold, tool catalog (graders see
   * it as `context.tools`) and claim patterns (`context.claim_patterns`).
   */
  target?:
    | {
        responseCharLimit?: number | undefined;
        passThreshold?: number | undefined;
        tools?: ToolCatalogInput | undefined;
        claimPatterns?: ClaimPattern[] | undefined;
      }
    | undefined;
  /** A tool-call record given beside a plain-string response (any shape the adapters accept). */
  toolCalls?: unknown;
  /** The input text, when the question has neither `input` nor `messages`. */
  input?: string | undefined;
  /** Criteria from the question's rubric, merged into `context.criteria`. */
  rubricCriteria?: readonly string[] | undefined;
  /**
   * The rubric the question's `rubric_ref` names, already read (`evalSuite` passes it); graders see
   * it as `context.rubric`. When absent and the question has a `rubric_ref`, it is looked up as
   * suites do (`rubrics/<ref>.yaml` under the configured root), and a missing or invalid rubric is
   * carried as the reason `rubric_checks` errors with.
   */
  rubric?: ResolvedRubric | undefined;
  /** The trial number (1-based) when a question runs several times. */
  trial?: number | undefined;
  /** Aborted when the test times out. */
  signal?: AbortSignal | undefined;
}

/**
 * The graded question: every grade, the composite and the verdict.
 *
 * @example
 * ```ts
 * const result: QuestionResult = await gradeQuestion({ question, response, graders: ['read_only_run'] });
 * if (!result.passed) console.log(result.grades.map((g) => `${g.grader}: ${g.reason}`));
 * ```
 */
export interface QuestionResult {
  /** The question id, or `''` when the question has none. */
  questionId: string;
  grades: GradeResult[];
  /** Mean of the non-null composites; `null` when every grader skipped or errored (unscored). */
  composite: number | null;
  /** The threshold applied. */
  passThreshold: number;
  /** Composite at or above the threshold. An unscored question never passes. */
  passed: boolean;
  /** Some grader errored. */
  degraded: boolean;
  /** Nothing scored the question. */
  unscored: boolean;
  /** The record the graders saw; undefined when there was none. */
  toolCalls: ToolCall[] | undefined;
  /** The context the graders saw. */
  context: GradingContext;
}

/**
 * Grades one response with every grader: the one grading pipeline, which matchers and generated
 * suites both call. Builds the context once, runs the graders concurrently, turns a throwing grader
 * into an errored grade (never a zero) and combines the composites.
 *
 * @example
 * ```ts
 * const result = await gradeQuestion({
 *   question: { id: 'q1', input: 'List the articles', expected_tools: ['list_nodes'] },
 *   response: { output: 'Here they are', toolCalls: [{ function_name: 'list_nodes', arguments: {} }] },
 *   graders: ['tool_usage_grader', 'read_only_run'],
 * });
 * result.composite; // 5
 * ```
 */
export async function gradeQuestion(options: GradeQuestionOptions): Promise<QuestionResult> {
  return gradeQuestionNow(options);
}

/**
 * {@link gradeQuestion}, with the result itself when every grader answered at once (deterministic
 * graders), and a promise only when one returned a promise: a generated suite's trial takes the
 * grades of its deterministic graders without a promise. Throws what `gradeQuestion` rejects with.
 *
 * @example
 * ```ts
 * const graded = gradeQuestionNow({ question, response, graders: ['read_only_run'] });
 * const result = graded instanceof Promise ? await graded : graded;
 * ```
 */
export function gradeQuestionNow(options: GradeQuestionOptions): QuestionResult | Promise<QuestionResult> {
  const { question, response } = options;
  const output = responseText(response);
  const graders = options.graders.map(resolveGrader);
  const toolCalls = recordOf(response, options.toolCalls);
  const context = buildContext(question, {
    toolCalls,
    responseCharLimit: options.target?.responseCharLimit,
    rubricCriteria: options.rubricCriteria,
    input: options.input,
    tools: options.target?.tools !== undefined ? normalizeToolCatalog(options.target.tools) : undefined,
    claimPatterns: options.target?.claimPatterns,
    rubric: resolveRubric(question, options.rubric),
  });
  // The question's own input or messages win; options.input is the fallback for a bare question.
  const input = hasInput(question) ? inputOf(question) : (options.input ?? inputOf(question));
  const graded = graders.map((grader) => runGrader(grader, input, output, context, options));
  const passThreshold = options.target?.passThreshold ?? getConfig().passThreshold;
  const finish = (grades: readonly GradeResult[]): QuestionResult => {
    // Built key by key: on Node 20 an object spread costs several times what this does.
    const verdict = resultOf(grades, passThreshold);
    return {
      questionId: question.id ?? '',
      grades: verdict.grades,
      composite: verdict.composite,
      passThreshold,
      passed: verdict.passed,
      degraded: verdict.degraded,
      unscored: verdict.unscored,
      toolCalls,
      context,
    };
  };
  // Deterministic graders answer at once: only a grader that returned a promise is waited for.
  if (graded.some((g) => g instanceof Promise))
    return Promise.all(graded.map((g) => Promise.resolve(g))).then(finish);
  return finish(graded as GradeResult[]);
}

/** The question's rubric: the one given, else looked up by its `rubric_ref`, else none. */
function resolveRubric(
  question: Partial<Question>,
  given: ResolvedRubric | undefined,
): ResolvedRubric | undefined {
  if (given !== undefined) return given;
  const ref = question.rubric_ref;
  if (typeof ref !== 'string') return undefined;
  try {
    return loadRubric(ref);
  } catch (error) {
    return { ref, error: errorMessage(error) };
  }
}

/**
 * The grades of a question with its verdict, as {@link QuestionResult} holds them.
 *
 * @example
 * ```ts
 * resultOf([readOnly.result(1, 'ok')], 3.5).passed; // true
 * ```
 */
export function resultOf(
  grades: readonly GradeResult[],
  passThreshold: number,
): Pick<QuestionResult, 'grades' | 'composite' | 'passThreshold' | 'passed' | 'degraded' | 'unscored'> {
  const { composite, passed, degraded, unscored } = questionVerdict(grades, passThreshold);
  return { grades: grades.slice(), composite, passThreshold, passed, degraded, unscored };
}

/**
 * Runs one grader: its grade, or the errored grade that says why there is none. A grader that
 * returns its result (not a promise) is graded without a promise or an await of its own; one that
 * returns a promise (or any thenable) is waited for, and its rejection is caught like a throw.
 */
function runGrader(
  grader: Grader,
  input: string,
  output: string,
  context: GradingContext,
  options: GradeQuestionOptions,
): GradeResult | Promise<GradeResult> {
  let grade: unknown;
  let pending: boolean;
  try {
    const helpers: GradeHelpers = { result: grader.result };
    // Read when the grader reads it: a signal given through a getter is made only if needed.
    if ('signal' in options)
      Object.defineProperty(helpers, 'signal', { get: () => options.signal, enumerable: true });
    if (options.trial !== undefined) helpers.trial = options.trial;
    grade = grader.grade(input, output, context, helpers);
    // Reading `then` may throw too (a proxy, a getter): that is the grader's throw.
    pending = isThenable(grade);
  } catch (error) {
    return threw(grader, error);
  }
  if (pending)
    return Promise.resolve(grade).then(
      (settled: unknown) => checked(grader, settled),
      (error: unknown) => threw(grader, error),
    );
  return checked(grader, grade);
}

function threw(grader: Grader, error: unknown): GradeResult {
  return grader.result(null, `grader threw: ${errorMessage(error)}`, true);
}

/** What a grader gave, as its grade: restamped, or an errored grade when it is no GradeResult. */
function checked(grader: Grader, grade: unknown): GradeResult {
  try {
    if (!isGradeResult(grade)) {
      return grader.result(
        null,
        `grader returned ${describeKind(grade)} instead of a GradeResult; build it with result(score, reason)`,
        true,
      );
    }
    return restamp(grader, grade);
  } catch (error) {
    return threw(grader, error);
  }
}

/**
 * The grade as the grader's own scale and id say it is: a result built by hand (or by another
 * grader's factory) is rebuilt with this grader's `result`, so its score is clamped, its composite
 * mapped and its id stamped. Token usage and the judge call's health are kept.
 */
function restamp(grader: Grader, grade: GradeResult): GradeResult {
  const score = typeof grade.score === 'number' || grade.score === null ? grade.score : null;
  // A grade its grader's own `result` built keeps the reason it made safe then.
  const stamped: GradeResult = hasSafeReason(grade)
    ? resultOfSafeReason(grader, score, grade.reason, grade.error === true)
    : grader.result(score, String(grade.reason), grade.error === true);
  if (grade.usage) stamped.usage = grade.usage;
  if (grade.judgeCall) stamped.judgeCall = { ...grade.judgeCall };
  // Only a grader that declares observesActions may say a grade observed actions, and only
  // rubric_checks (through its tool_usage and state checks) may say so per grade.
  if (typeof grade.observesActions === 'boolean' && (grader.observesActions || grader.id === 'rubric_checks'))
    stamped.observesActions = grade.observesActions;
  if (grade.queriedState === true) stamped.queriedState = true;
  if (isRubricStamp(grade.rubric)) stamped.rubric = { ...grade.rubric };
  return stamped;
}

function isRubricStamp(value: unknown): value is { id: string; version?: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    ['string', 'undefined'].includes(typeof (value as { version?: unknown }).version)
  );
}

function isGradeResult(value: unknown): value is GradeResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    'grader' in value &&
    'reason' in value &&
    'composite' in value
  );
}

/**
 * The text of a response: the string itself or a run's `output`. Anything else is an error.
 *
 * @example
 * ```ts
 * responseText({ output: 'done', toolCalls: [] }); // 'done'
 * ```
 */
export function responseText(response: Gradable): string {
  if (typeof response === 'string') return response;
  if (typeof response === 'object' && response !== null && typeof response.output === 'string')
    return response.output;
  throw new AiEvalError(
    'INVALID_RESPONSE',
    `Expected a response string or an agent run { output: string, toolCalls?, messages? }, got ${describeKind(response)}${
      typeof response === 'object' && response !== null
        ? ` with keys ${Object.keys(response).join(', ') || '(none)'}`
        : ''
    }.`,
  );
}

function describeKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
