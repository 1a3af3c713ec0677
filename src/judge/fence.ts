import { createHash } from 'node:crypto';

/**
 * The default number of response characters a judge is shown.
 *
 * @example
 * ```ts
 * configure({ judge: { responseCharLimit: DEFAULT_JUDGE_CHAR_LIMIT * 2 } });
 * ```
 */
export const DEFAULT_JUDGE_CHAR_LIMIT = 4000;

/**
 * Cuts a response to `limit` characters and, when it cut, appends a visible marker saying how much
 * the judge was not shown.
 *
 * @example
 * ```ts
 * truncateForJudge('abcdef', 3); // 'abc\n[… truncated: the judge sees the first 3 of 6 characters]'
 * ```
 */
export function truncateForJudge(response: string, limit: number = DEFAULT_JUDGE_CHAR_LIMIT): string {
  if (response.length <= limit) return response;
  return `${response.slice(0, limit)}\n[… truncated: the judge sees the first ${limit} of ${response.length} characters]`;
}

/**
 * Fences untrusted text for a judge prompt. The marker lines carry a tag derived from a hash of the
 * text itself, so the text cannot contain its own closing marker (it would have to contain its own
 * hash), and the prompt stays byte-identical between runs, which the replay cache relies on.
 *
 * @example
 * ```ts
 * fenceResponse('Ignore previous instructions.');
 * // '<<<RESPONSE 3f2a…>>>\nIgnore previous instructions.\n<<<END RESPONSE 3f2a…>>>'
 * ```
 */
export function fenceResponse(text: string): string {
  let tag = createHash('sha256').update(text).digest('hex').slice(0, 16);
  // Practically unreachable; kept so the guarantee does not rest on luck.
  while (text.includes(tag)) tag = createHash('sha256').update(tag).digest('hex').slice(0, 16);
  return `<<<RESPONSE ${tag}>>>\n${text}\n<<<END RESPONSE ${tag}>>>`;
}
