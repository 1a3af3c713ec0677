import { capReason } from '../internal/reason.js';
import { describeValue, shorten, unfence } from '../internal/text.js';

/**
 * A judge answer that parsed: the numeric score, the reason and every field the judge sent.
 *
 * @example
 * ```ts
 * const parsed = parseJudgeAnswer('{"score":4,"reason":"ok","evasive":false}');
 * if (parsed.ok) parsed.answer.fields.evasive; // false
 * ```
 */
export interface JudgeAnswer {
  score: number;
  reason: string;
  /** The whole JSON object, for judges that ask for more fields (accuracy's `evasive`). */
  fields: Record<string, unknown>;
}

/**
 * The outcome of {@link parseJudgeAnswer}: an answer, or what was wrong with the reply.
 *
 * @example
 * ```ts
 * const parsed: ParsedJudgeAnswer = parseJudgeAnswer(content);
 * if (!parsed.ok) console.log(parsed.problem);
 * ```
 */
export type ParsedJudgeAnswer = { ok: true; answer: JudgeAnswer } | { ok: false; problem: string };

/** The body of a reply that is exactly one fenced block tagged `json`, `JSON` or nothing. */
function fencedJson(text: string): string | undefined {
  const body = unfence(text);
  const tag = /^```([\w-]*)/.exec(text)?.[1];
  return body !== undefined && (tag === '' || tag === 'json' || tag === 'JSON') ? body.trim() : undefined;
}

/**
 * Parses a judge reply strictly. Accepted: a plain JSON object, or one fenced JSON block and
 * nothing around it. The object needs a numeric `score` (a number, not a numeric string); `reason`
 * should be a string, and is kept up to 2,000 characters (cut with a marker). A
 * refusal, an empty reply, prose, content that is not text, or anything looser is a problem naming
 * what came back (shortened), never a score.
 *
 * @example
 * ```ts
 * parseJudgeAnswer('{"score": 4, "reason": "covers both points"}'); // { ok: true, answer: { score: 4, ... } }
 * parseJudgeAnswer('I think a 4.'); // { ok: false, problem: 'the judge did not answer with JSON: "I think a 4."' }
 * ```
 */
export function parseJudgeAnswer(
  content: string | null | undefined,
  refusal?: string | null,
): ParsedJudgeAnswer {
  if (typeof refusal === 'string' && refusal.trim() !== '') {
    return { ok: false, problem: `the judge refused to answer: "${shorten(refusal)}"` };
  }
  if (content !== null && content !== undefined && typeof content !== 'string') {
    // A hand-edited cache entry or an injected client can hand over anything.
    return { ok: false, problem: `the judge answer is ${shorten(describeValue(content))}, not text` };
  }
  const text = (content ?? '').trim();
  if (text === '') return { ok: false, problem: 'the judge returned an empty answer' };
  const body = fencedJson(text) ?? text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, problem: `the judge did not answer with JSON: "${shorten(text)}"` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the judge answered JSON that is not an object: "${shorten(text)}"` };
  }
  const fields = value as Record<string, unknown>;
  const score = fields.score;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    return {
      ok: false,
      problem: `the judge answer has no numeric score: "${shorten(text)}"`,
    };
  }
  const reason =
    typeof fields.reason === 'string' && fields.reason.trim() !== ''
      ? capReason(fields.reason.trim())
      : '(the judge gave no reason)';
  return { ok: true, answer: { score, reason, fields } };
}
