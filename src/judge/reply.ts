import { AiEvalError } from '../errors.js';
import type { TokenUsage } from '../grading/types.js';
import { redactText } from '../internal/redact.js';
import { describeValue, shorten } from '../internal/text.js';

/**
 * What a chat completion said, once its shape has been checked.
 *
 * @example
 * ```ts
 * const said: CompletionText = readCompletion(completion, settings.apiKey);
 * said.content; // '{"score": 4, "reason": "..."}'
 * ```
 */
export interface CompletionText {
  content: string | null;
  refusal: string | null;
  usage?: TokenUsage;
  /**
   * Set when the completion did not finish: `content_filter` (the provider filtered the answer) or
   * `length` (cut off at the token limit). Whatever its content says, it is not a verdict.
   */
  unfinished?: UnfinishedReason;
}

/**
 * A `finish_reason` that means the answer is not the one the model would have given.
 *
 * @example
 * ```ts
 * const why: UnfinishedReason = 'length';
 * ```
 */
export type UnfinishedReason = 'content_filter' | 'length';

/**
 * What a grade says of a completion that did not finish.
 *
 * @example
 * ```ts
 * unfinishedProblem('length'); // 'the judge answer was cut off at the token limit (finish_reason length); ...'
 * ```
 */
export function unfinishedProblem(reason: UnfinishedReason): string {
  const what =
    reason === 'content_filter' ? 'was filtered by the provider' : 'was cut off at the token limit';
  return `the judge answer ${what} (finish_reason ${reason}); whatever it holds is not a verdict`;
}

/** How a value the endpoint sent reads in a reason: its kind and a short, redacted glimpse. */
function shown(value: unknown, apiKey: string | undefined): string {
  return shorten(redactText(describeValue(value), [apiKey]), 120);
}

function malformed(what: string): AiEvalError {
  return new AiEvalError('JUDGE_FAILED', `the judge endpoint sent no usable chat completion: ${what}`);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function usageOf(value: unknown): TokenUsage | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const u = value as Record<string, unknown>;
  return {
    promptTokens: count(u.prompt_tokens),
    completionTokens: count(u.completion_tokens),
    totalTokens: count(u.total_tokens),
  };
}

/** `content` or `refusal` as text: a string, or null when absent; anything else is malformed. */
function text(value: unknown, field: string, apiKey: string | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  throw malformed(`choices[0].message.${field} is ${shown(value, apiKey)}, not text`);
}

/**
 * Checks what the judge endpoint sent and takes out the answer: a chat completion object with a
 * `choices` list whose first entry has a `message` object, whose `content` and `refusal` are each
 * a string or absent. Anything else (a `null` body, an HTML page the SDK handed over as text,
 * `choices` as an object, a number or an array as content) is an {@link AiEvalError}
 * (`JUDGE_FAILED`) saying what came back, redacted and shortened; it is never scored, retried as a
 * connection error, or taken for an empty answer. Token counts that are not numbers count 0. A
 * `finish_reason` of `content_filter` or `length` is kept as `unfinished`: such an answer is never
 * scored, even when its content parses.
 *
 * @example
 * ```ts
 * readCompletion({ choices: [{ message: { content: '{"score":4}' } }] }, key).content; // '{"score":4}'
 * readCompletion('<!doctype html>…', key); // throws: answered with text, not a chat completion JSON
 * ```
 */
export function readCompletion(value: unknown, apiKey: string | undefined): CompletionText {
  if (typeof value === 'string') {
    throw malformed(
      `it answered with text, not chat completion JSON: "${shorten(redactText(value, [apiKey]), 120)}"`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw malformed(`it answered ${shown(value, apiKey)}, not a chat completion object`);
  }
  const { choices, usage } = value as { choices?: unknown; usage?: unknown };
  if (!Array.isArray(choices)) {
    throw malformed(`choices is ${choices === undefined ? 'missing' : shown(choices, apiKey)}, not a list`);
  }
  if (choices.length === 0) throw malformed('choices is an empty list');
  const first: unknown = choices[0];
  const message =
    typeof first === 'object' && first !== null ? (first as { message?: unknown }).message : undefined;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw malformed(
      `choices[0].message is ${message === undefined ? 'missing' : shown(message, apiKey)}, not an object`,
    );
  }
  const said = message as { content?: unknown; refusal?: unknown };
  const tokens = usageOf(usage);
  const finish = (first as { finish_reason?: unknown }).finish_reason;
  return {
    content: text(said.content, 'content', apiKey),
    refusal: text(said.refusal, 'refusal', apiKey),
    ...(tokens ? { usage: tokens } : {}),
    ...(finish === 'content_filter' || finish === 'length' ? { unfinished: finish } : {}),
  };
}
