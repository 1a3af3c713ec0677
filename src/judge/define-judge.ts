import type { JudgeMessage } from '../config.js';
import { AiEvalError, isAiEvalError } from '../errors.js';
import {
  defineGrader,
  judgeObservesActionsError,
  type Grader,
  type ResultFactory,
} from '../grading/define-grader.js';
import { charLimitFromTarget } from '../grading/context.js';
import { formatNumber } from '../internal/numbers.js';
import { errorMessage, shorten } from '../internal/text.js';
import type { GradeResult, GradingContext, JudgeCallInfo } from '../grading/types.js';
import { callJudgeNow, type JudgeReply } from './client.js';
import { redactText } from '../internal/redact.js';
import { DEFAULT_JUDGE_CHAR_LIMIT, fence, fenceTag, truncateForJudge } from './fence.js';
import { parseJudgeAnswer, type JudgeAnswer } from './parse.js';
import { unfinishedProblem } from './reply.js';
import { judgeSettings, type JudgeSettings } from './settings.js';
import { checkTemplate, DEFAULT_TEMPLATE, fillTemplate, resolveTemplate } from './template.js';
import { renderToolCalls, toolCallLines } from './tool-block.js';

/**
 * An extra field a judge asks for in its JSON answer, beside `score` and `reason`.
 *
 * @example
 * ```ts
 * const evasive: JudgeAnswerField = { type: 'boolean', description: 'true when the response avoids answering' };
 * ```
 */
export interface JudgeAnswerField {
  type: 'boolean' | 'string' | 'number';
  description: string;
}

/**
 * What {@link defineJudge} takes.
 *
 * @example
 * ```ts
 * const options: JudgeOptions = { id: 'house_tone', label: 'House tone', dimension: 'house_tone', dimensionDescription: 'house tone', scoringGuidance: '5: plain' };
 * defineJudge(options);
 * ```
 */
export interface JudgeOptions {
  /** A stable snake_case grader id. */
  id: string;
  label: string;
  /** What the judge measures, when to use it and when not. */
  description?: string;
  /** A stable token that gold labels and judge validation key on. Do not change it once labels exist. */
  dimension: string;
  /** The first template value: what the judge scores, in a phrase. */
  dimensionDescription: string;
  /** Follows the criteria in the third template value: what each score means. */
  scoringGuidance: string;
  /** Default 0. */
  minScore?: number;
  /** Default 5. */
  maxScore?: number;
  /** Show the judge the tool-call record (names and arguments) in the criteria slot. */
  seesToolCalls?: boolean;
  /** The prompt template: exactly four `%s` (see {@link DEFAULT_TEMPLATE}). */
  template?: string;
  /** Extra fields asked for in the JSON answer (structured output requires them). */
  answerFields?: Record<string, JudgeAnswerField>;
  /** Turns the judge's number into a score; `null` marks the answer unusable (an error). Default clamps. */
  interpretScore?: (raw: number, answer: JudgeAnswer) => number | null;
  /** Returns a skip reason when the judge does not apply to the question. */
  skip?: (context: GradingContext) => string | undefined;
  /** Material folded into the criteria slot before the question's criteria (e.g. ground truth). */
  criteriaPrefix?: (context: GradingContext) => string | undefined;
  /** Adjusts an interpreted score (caps); runs after `interpretScore`. */
  adjust?: (
    grade: { score: number; reason: string },
    details: { answer: JudgeAnswer; response: string; context: GradingContext },
  ) => { score: number; reason: string };
}

/**
 * A judge: a grader (`llm: true`) that also exposes its prompt parts.
 *
 * @example
 * ```ts
 * const judge: Judge = defineJudge(options);
 * judge.judge.buildPrompt('Question?', 'Answer.', buildContext({ input: 'Question?' }));
 * ```
 */
export interface Judge extends Grader {
  readonly judge: {
    readonly dimension: string;
    readonly dimensionDescription: string;
    readonly scoringGuidance: string;
    /** The judge's own template (before any override). */
    readonly template: string;
    /**
     * Builds the prompt for a question, overrides applied, its fences marked with `tag`: by default
     * the stable tag derived from the fenced text (the form the replay cache keys on and records).
     * Each call to the model sends the same prompt with a fresh random tag instead.
     */
    readonly buildPrompt: (input: string, response: string, context: GradingContext, tag?: string) => string;
  };
}

/**
 * True when a grader was made by {@link defineJudge}.
 *
 * @example
 * ```ts
 * listGraders().filter(isJudge).map((j) => j.judge.dimension);
 * ```
 */
export function isJudge(grader: Grader): grader is Judge {
  return typeof (grader as Partial<Judge>).judge?.buildPrompt === 'function';
}

/**
 * Builds the criteria slot: the prefix (ground truth), the question's criteria, the fenced
 * tool-call block when the judge sees tool calls, then the scoring guidance after a newline.
 */
function criteriaSlot(options: JudgeOptions, context: GradingContext, tag: string): string {
  const parts = [
    options.criteriaPrefix?.(context),
    context.criteria ? `Criteria:\n${context.criteria}` : undefined,
    options.seesToolCalls ? renderToolCalls(context.tool_calls, tag) : undefined,
  ].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  const criteria = parts.length > 0 ? parts.join('\n\n') : 'Criteria: none beyond the dimension itself.';
  return `${criteria}\n${options.scoringGuidance}`;
}

/** The JSON Schema of a judge's answer; frozen all the way down, so its cache text is written once. */
function answerSchema(fields: Record<string, JudgeAnswerField> = {}): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    score: Object.freeze({ type: 'number' }),
    reason: Object.freeze({ type: 'string' }),
  };
  for (const [name, field] of Object.entries(fields))
    properties[name] = Object.freeze({ type: field.type, description: field.description });
  return Object.freeze({
    type: 'object',
    properties: Object.freeze(properties),
    required: Object.freeze(Object.keys(properties)),
    additionalProperties: false,
  });
}

/** Turns a judge reply into a grade: strict parse, interpretScore, then adjust. */
function gradeReply(
  reply: JudgeReply,
  ctx: {
    options: JudgeOptions;
    result: ResultFactory;
    interpret: (raw: number, answer: JudgeAnswer) => number | null;
    response: string;
    context: GradingContext;
  },
): GradeResult {
  const { options, result } = ctx;
  const min = options.minScore ?? 0;
  const max = options.maxScore ?? 5;
  const parsed = parseJudgeAnswer(reply.content, reply.refusal);
  // The result factory makes a fresh grade: the call's outcome is set on it (no spread, Node 20).
  const called = (grade: GradeResult, outcome: JudgeCallInfo['outcome']): GradeResult => {
    grade.judgeCall = { source: reply.source, outcome };
    return grade;
  };
  // Filtered or cut off: whatever the content says is not the judge's verdict. A filtered answer
  // counts as refused and a cut-off one as unparseable (not the whole answer asked for).
  if (reply.unfinished !== undefined) {
    return called(
      result(null, unfinishedProblem(reply.unfinished), true),
      reply.unfinished === 'content_filter' ? 'refused' : 'unparseable',
    );
  }
  const refused = typeof reply.refusal === 'string' && reply.refusal.trim() !== '';
  if (!parsed.ok) return called(result(null, parsed.problem, true), refused ? 'refused' : 'unparseable');
  const { answer } = parsed;
  const score = ctx.interpret(answer.score, answer);
  if (score === null || !Number.isFinite(score)) {
    return called(
      result(
        null,
        `the judge answered ${formatNumber(answer.score)}, which is not usable on this judge's ${formatNumber(min)}-${formatNumber(max)} scale ("${shorten(answer.reason, 100)}")`,
        true,
      ),
      'unusable',
    );
  }
  const clampNote =
    !options.interpretScore && score !== answer.score
      ? ` (the judge answered ${formatNumber(answer.score)}, clamped to ${formatNumber(score)})`
      : '';
  const final = options.adjust
    ? options.adjust(
        { score, reason: answer.reason },
        { answer, response: ctx.response, context: ctx.context },
      )
    : { score, reason: answer.reason };
  return called(result(final.score, `${final.reason}${clampNote}`), clampNote ? 'clamped' : 'scored');
}

/**
 * Defines an LLM judge: a grader (`llm: true`) that fills a four-slot prompt, asks the configured
 * model (temperature 0, seed, structured JSON output), parses the answer strictly and maps it onto
 * the declared scale. A reply that is not JSON, has no numeric score or is a refusal is an errored
 * grade naming what came back; a call that still fails after retries is an errored grade naming the
 * cause. Never a zero. Token usage of live calls is recorded on the grade.
 *
 * @example
 * ```ts
 * export const houseTone = defineJudge({
 *   id: 'house_tone',
 *   label: 'House tone',
 *   dimension: 'house_tone',
 *   dimensionDescription: 'adherence to the house tone: plain, direct, second person',
 *   scoringGuidance: '5: plain and direct throughout\n3: several lapses\n0: reads as marketing copy',
 * });
 * registerGrader(houseTone);
 * ```
 */
export function defineJudge(options: JudgeOptions): Judge {
  const where = `defineJudge(${JSON.stringify(options.id)})`;
  // Not in JudgeOptions, but a JavaScript caller may pass it: a judge never observes actions.
  if ((options as { observesActions?: unknown }).observesActions === true)
    throw judgeObservesActionsError(where);
  for (const key of ['dimension', 'dimensionDescription', 'scoringGuidance'] as const) {
    if (typeof options[key] !== 'string' || options[key].trim() === '') {
      throw new AiEvalError('INVALID_GRADER', `${where}: ${key} must be a non-empty string.`);
    }
  }
  const template = checkTemplate(options.template ?? DEFAULT_TEMPLATE, `${where}.template`);
  const minScore = options.minScore ?? 0;
  const maxScore = options.maxScore ?? 5;
  const schema = answerSchema(options.answerFields);
  const interpret = options.interpretScore ?? ((raw: number) => Math.min(maxScore, Math.max(minScore, raw)));

  /**
   * The prompt of a question as a function of its fence tag. The untrusted texts (question, tool
   * calls, response) are redacted, then fenced; the filled prompt is redacted once more (criteria,
   * ground truth, the API key anywhere).
   */
  const prompter = (
    input: string,
    response: string,
    context: GradingContext,
    settings: JudgeSettings = judgeSettings(),
  ) => {
    // The seed's order: the target's limit, then the default (a judge setting, else the global
    // one), then 4000. A judge setting never overrides a target's.
    const limit = charLimitFromTarget(context)
      ? context.response_char_limit
      : (settings.responseCharLimit ?? context.response_char_limit ?? DEFAULT_JUDGE_CHAR_LIMIT);
    const { template: inForce } = resolveTemplate(options.id, template);
    const question = redactText(input);
    const shown = truncateForJudge(redactText(response), limit);
    const untrusted = [question, shown, (options.seesToolCalls && toolCallLines(context.tool_calls)) || ''];
    const fill = (tag: string): string =>
      redactText(
        fillTemplate(inForce, [
          options.dimensionDescription,
          fence('QUESTION', question, tag),
          criteriaSlot(options, context, tag),
          fence('RESPONSE', shown, tag),
        ]),
        [settings.apiKey],
      );
    return { fill, tag: (mode: 'random' | 'stable') => fenceTag(untrusted, mode) };
  };

  const buildPrompt = (input: string, response: string, context: GradingContext, tag?: string): string => {
    const prompt = prompter(input, response, context);
    return prompt.fill(tag ?? prompt.tag('stable'));
  };

  const grader = defineGrader({
    id: options.id,
    label: options.label,
    ...(options.description !== undefined ? { description: options.description } : {}),
    llm: true,
    minScore,
    maxScore,
    seesToolCalls: options.seesToolCalls ?? false,
    grade(input, response, context, helpers) {
      const { result, trial } = helpers;
      const skip = options.skip?.(context);
      if (skip) return result(null, skip);
      const failed = (error: unknown): GradeResult => {
        const message = isAiEvalError(error) ? error.message : `judge error: ${errorMessage(error)}`;
        const grade = result(null, message, true);
        grade.judgeCall = { outcome: 'failed' };
        return grade;
      };
      let replied: JudgeReply | Promise<JudgeReply>;
      let settings: JudgeSettings;
      try {
        settings = judgeSettings();
        const prompt = prompter(input, response, context, settings);
        // What is sent is built only when it is sent: a replayed call needs the stable prompt only.
        const messages = (): JudgeMessage[] => [{ role: 'user', content: prompt.fill(prompt.tag('random')) }];
        replied = callJudgeNow(
          {
            judge: options.id,
            messages,
            cacheMessages: [{ role: 'user', content: prompt.fill(prompt.tag('stable')) }],
            answerSchema: schema,
            trial: trial ?? 1,
            // Read only by a live call: a replayed one makes no AbortController.
            get signal() {
              return helpers.signal;
            },
          },
          settings,
        );
      } catch (error) {
        return failed(error);
      }
      const { apiKey } = settings;
      const graded = (reply: JudgeReply): GradeResult => {
        // A judge may echo what it was sent: the configured key never reaches a reason.
        const redacting: ResultFactory = (score, reason, error) =>
          result(score, redactText(reason, [apiKey]), error);
        const grade = gradeReply(reply, { options, result: redacting, interpret, response, context });
        if (reply.usage) grade.usage = reply.usage;
        return grade;
      };
      // A reply from the cache is graded at once: a replayed suite's judge grades wait for nothing.
      return replied instanceof Promise ? replied.then(graded, failed) : graded(replied);
    },
  });
  return Object.freeze({
    ...grader,
    judge: Object.freeze({
      dimension: options.dimension,
      dimensionDescription: options.dimensionDescription,
      scoringGuidance: options.scoringGuidance,
      template,
      buildPrompt,
    }),
  });
}
