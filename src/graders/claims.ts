import { defineGrader } from '../grading/define-grader.js';
import { backsWork } from '../grading/tool-calls.js';
import type { ToolCall } from '../grading/types.js';
import { findClaims, type Claim } from './claim-extraction.js';
import { claimPatternsFor } from './claim-patterns.js';

/**
 * `claims_grader` (binary, 0-1, observes actions): does every completed action the response claims
 * have a call behind it?
 *
 * Finds the statements that claim completed work ("I've created the ticket", "Deleted the draft.",
 * "Your refund has been issued", "Refund issued.") by the claim patterns: the question's
 * `metadata.claim_patterns`, else the target's `claimPatterns`, else {@link DEFAULT_CLAIM_PATTERNS}
 * (English). A claim is backed by a call whose tool name has one of its pattern's `tools` words and,
 * when the claim names an object ("the ticket"), mentions that object in its name or arguments, and
 * that did not fail and was answered: its `status` is neither `error` nor `unknown` (no result came
 * back for it: a call awaiting a human's approval never ran). A call without a `status` (the record
 * holds no results at all) backs a claim. Score 1 when every claim is backed, 0 when any is not;
 * the reason quotes each unbacked claim and says why (no such call, only failed ones, or calls no
 * result came back for).
 *
 * No claim in the response: skip. No tool-call record: an error, never a pass. Malformed patterns:
 * an error naming them.
 *
 * Use it on agent targets whose answers report what they did. Do not use it to check that the
 * right work was done (that is `tool_usage_grader`), or on prose that narrates other people's
 * actions.
 *
 * @example
 * ```ts
 * await gradeQuestion({
 *   question: { id: 'q1', input: 'Remove the draft' },
 *   response: { output: "I've deleted the draft.", toolCalls: [] },
 *   graders: ['claims_grader'],
 * }); // composite 0: "I've deleted the draft" has no delete call behind it
 * ```
 */
export const claimsGrader = defineGrader({
  id: 'claims_grader',
  label: 'Claims backed by calls',
  description:
    'Deterministic: is every completed action the response claims ("I\'ve created the ticket") backed by a call in the tool-call record that did not fail and whose result came back?',
  minScore: 0,
  maxScore: 1,
  observesActions: true,
  grade(_input, response, context, { result }) {
    if (context.tool_calls === undefined || !Array.isArray(context.tool_calls)) {
      return result(null, 'no tool-call record available, cannot check the claims in the response', true);
    }
    const patterns = claimPatternsFor(context);
    if (!patterns.ok) return result(null, `malformed claim patterns: ${patterns.problems.join('; ')}`, true);
    const claims = findClaims(response, patterns.patterns);
    if (claims.length === 0) return result(null, 'no claim of completed work in the response, skipping');
    const calls = context.tool_calls;
    const checked = claims.map((claim) => ({ claim, ...backing(claim, calls) }));
    const unbacked = checked.filter((c) => c.call === undefined);
    const among = `among ${calls.length} recorded call${calls.length === 1 ? '' : 's'}`;
    const backed = checked
      .filter((c) => c.call !== undefined)
      .map((c) => `"${c.claim.quote}" (call #${c.call! + 1} ${calls[c.call!]!.function_name})`);
    if (unbacked.length === 0) {
      return result(
        1,
        `${claims.length} claim${claims.length === 1 ? '' : 's'} of completed work, each backed by a call that did not fail (from the agent tool-call record): ${backed.join('; ')}`,
      );
    }
    const missing = unbacked.map((c) => `"${c.claim.quote}" (${c.why} ${among})`);
    return result(
      0,
      `${unbacked.length} of ${claims.length} claim${claims.length === 1 ? '' : 's'} of completed work not backed by the agent tool-call record: ${missing.join('; ')}${
        backed.length > 0 ? `; backed: ${backed.join('; ')}` : ''
      }`,
    );
  },
});

/**
 * The first call that backs the claim, or why none does. A call backs it unless it failed
 * (`error`) or no result came back for it (`unknown`: awaiting approval, still running, or its
 * result is not in the record); a call of a record that holds no results (no status) backs it.
 */
function backing(claim: Claim, calls: readonly ToolCall[]): { call?: number; why?: string } {
  const readings = [claim, ...(claim.alternatives ?? [])];
  const matching = calls.flatMap((call, i) => (readings.some((r) => performs(call, r)) ? [i] : []));
  const ok = matching.find((i) => backsWork(calls[i]!));
  if (ok !== undefined) return { call: ok };
  const wanted = [claim.action, ...claim.objects].join(' + ');
  if (matching.length === 0) return { why: `no call of ${wanted}` };
  const named = (list: number[]) => list.map((i) => `#${i + 1} ${calls[i]!.function_name}`).join(', ');
  const unanswered = matching.filter((i) => calls[i]!.status === 'unknown');
  const failed = matching.filter((i) => calls[i]!.status === 'error');
  if (unanswered.length === 0) {
    const one = failed.length === 1;
    return { why: `only failed call${one ? '' : 's'} ${named(failed)} match${one ? 'es' : ''} ${wanted}` };
  }
  const one = unanswered.length === 1;
  const also = failed.length === 0 ? '' : `, and ${named(failed)} failed`;
  return {
    why: `call${one ? '' : 's'} ${named(unanswered)} match${one ? 'es' : ''} ${wanted}, but no result came back for ${one ? 'it' : 'them'}${also}`,
  };
}

/**
 * Other names a call gives a claimed thing, each as its words: a "PR" is a pull request and an "MR"
 * a merge request; an email is what a `gmail.send` or `send_message` call sends, a meeting what
 * `create_event` schedules, a table what `create_reservation` books, a ticket what `create_issue`
 * files. Only the thing's name is widened: the call must still perform the claimed action.
 */
const OTHER_NAMES: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  pr: [['pull', 'request']],
  mr: [['merge', 'request']],
  email: [['mail'], ['gmail'], ['message']],
  mail: [['email'], ['gmail'], ['message']],
  message: [['email'], ['mail'], ['gmail'], ['sms'], ['chat']],
  meeting: [['event'], ['calendar'], ['appointment']],
  appointment: [['event'], ['calendar'], ['meeting'], ['booking'], ['reservation']],
  event: [['meeting'], ['calendar']],
  table: [['reservation'], ['booking']],
  reservation: [['booking']],
  booking: [['reservation']],
  invite: [['invitation']],
  invitation: [['invite']],
  ticket: [['issue']],
};

/** The call's tool-name words hold one of the pattern's tool words, and it mentions the claimed object. */
function performs(call: ToolCall, claim: Claim): boolean {
  const nameWords = words(`${call.function_name} ${call.plugin_id ?? ''}`);
  const tools = claim.pattern.tools.map((t) => t.toLowerCase());
  // The "merge" of "merge_request" names the thing: create_merge_request merges nothing.
  const actionWords = nameWords.filter((w, i) => !(w === 'merge' && nameWords[i + 1] === 'request'));
  if (!actionWords.some((w) => tools.includes(w))) return false;
  if (claim.objects.length === 0) return true;
  const mentioned = new Set([...nameWords, ...words(argumentText(call.arguments))].map(singular));
  // An object written with a hyphen or underscore ("staging-db", "old_draft") is matched word by word.
  const named = (parts: readonly string[]): boolean =>
    parts.length > 0 && parts.every((part) => mentioned.has(part));
  return claim.objects.some((o) => {
    const parts = words(o).map(singular);
    const others = parts.length === 1 ? OTHER_NAMES[parts[0]!] : undefined;
    return named(parts) || (others !== undefined && others.some(named));
  });
}

/** Lowercase words of a name or text: split at non-letters and at camelCase humps. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** The argument keys and string values, as one text to find an object's name in. */
function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(argumentText).join(' ');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => `${k} ${argumentText(v)}`)
      .join(' ');
  }
  return '';
}

function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:ses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}
