/**
 * The claim of a verb that leans on another: a base form after "I was able to" or "managed to",
 * a verb joined by "and" to a claim, to another verb of "I" or "we", or to a passive participle
 * ("I found your order and cancelled it", "Your order was shipped and cancelled").
 */

import type { ClaimPattern } from '../../grading/types.js';
import type { Found } from './claim.js';
import {
  DETERMINED_OBJECT,
  DETERMINERS,
  GENERIC,
  HEDGE,
  NONE,
  NO_VERB,
  STOP,
  SUBORDINATE,
  WORDS,
  hedged,
  negatedNoun,
} from './lexicon.js';
import { isHabit, readBack } from './non-claims.js';
import { made, nounBefore, objectAfter } from './noun-phrases.js';
import { agent } from './object-lists.js';
import {
  ABLE,
  ABLE_THEN,
  CONTINUED_VERB,
  JOIN,
  NOUN_CLAIM_END,
  ONLY_ADVERBS,
  OPENING_VERB,
  PASSIVE_AND,
  SUBJECT_VERB,
  TO_BASE,
  isHistory,
} from './verb-lexicon.js';

/**
 * The claim of a verb's base form after "I was able to", "we've been able to" or "I managed to":
 * "I was able to cancel your order" claims the cancellation, as "I cancelled your order" does.
 */
export function ableAt(clause: string, at: number, length: number, pattern: ClaimPattern): Found | undefined {
  const before = clause.slice(0, at);
  const able = ABLE.exec(before);
  if (able === null || hedged(before) || NONE.test(clause.slice(at + length))) return undefined;
  return { ...agent(clause, pattern, able.index, at + length), able: true };
}

/**
 * The claim of a verb's base form joined by "and" to another verb after "I was able to" or "I
 * managed to" ("I was able to find your order and cancel it"), quoted from the verb.
 */
export function ableThen(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
): Found | undefined {
  const before = clause.slice(0, at);
  if (!ABLE_THEN.test(before) || hedged(before) || NONE.test(clause.slice(at + length))) return undefined;
  return { ...agent(clause, pattern, at, at + length), able: true };
}

/**
 * The claim of a verb's base form after "proceeded to", "managed to" or "was able to" with no
 * subject of their own, read as one past verb from there: joined by "and" to the claim or the verb
 * of "I" before it ("I deleted the draft and proceeded to cancel the order", "I found your order
 * and proceeded to cancel it"), as {@link coordinated} and {@link afterOtherVerb} read a past verb.
 */
export function toBase(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  seen: readonly { at: number; found: Found | undefined }[],
  subjectBefore: boolean,
  unhedged: boolean,
): Found | undefined {
  const to = TO_BASE.exec(clause.slice(0, at));
  if (to === null) return undefined;
  const from = to.index;
  const span = at + length - from;
  const last = seen.findLast((s) => s.at < from);
  return (
    (last?.found ? coordinated(clause, from, span, pattern, last.found) : undefined) ??
    afterOtherVerb(clause, from, span, pattern, subjectBefore, unhedged)
  );
}
/**
 * The verb at `at` as a second claim of the same subject, joined to the claim just before it by
 * "and", "and then", "as well as" or "plus": "I deleted the draft and updated the homepage" claims
 * an update too, and "Your order has been cancelled and refunded" a refund of the order. An
 * `agent` claim lends its subject and takes its own object; a `patient` claim lends its noun, and
 * only with nothing but the joining words between the two verbs.
 */
export function coordinated(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  previous: Found,
): Found | undefined {
  if (previous.kind === 'agent') return joined(clause, at, length, pattern, previous.verbEnd);
  const between = clause.slice(previous.verbEnd, at);
  const join = JOIN.exec(between);
  if (join === null || HEDGE.test(between)) return undefined;
  const after = clause.slice(at + length);
  const verbEnd = at + length;
  if (!ONLY_ADVERBS.test(between.slice(0, join.index))) return undefined;
  if (previous.past ? isHistory(after) : !NOUN_CLAIM_END.test(after)) return undefined;
  const claim = made(clause, pattern, at, previous.claim.objects, verbEnd);
  return { ...previous, claim, claims: [claim], verbEnd };
}

/** The first clause of a sentence has "I" or "we" and a verb of theirs, with no negation or condition. */
export function subjectLeads(sentence: readonly string[]): boolean {
  const first = sentence[0] ?? '';
  if (hedged(first)) return false;
  return [...first.matchAll(SUBJECT_VERB)].some((m) => !NO_VERB.has(m[1]!.toLowerCase()));
}

/**
 * The verb at `at` joined by "and" to a verb of "I" or "we" that claims nothing itself: "I found
 * your order and cancelled it" claims the cancellation. Not under a negation, condition or future
 * before it ("I did not find your order and cancelled it" claims nothing). A clause that opens with
 * a past verb ("Fixed the typo and published the page") counts as the writer's when no clause
 * before it in the sentence (`unhedged`) is negated ("I didn't touch the draft, reviewed ...").
 */
export function afterOtherVerb(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  subjectBefore: boolean,
  unhedged: boolean,
): Found | undefined {
  const before = clause.slice(0, at);
  // "When I checked the order had been cancelled and refunded": a participle joined to a passive
  // shares the passive's subject, not the "I" before it (see afterOtherParticiple).
  if (hedged(before) || PASSIVE_AND.test(before)) return undefined;
  let lead: RegExpExecArray | undefined;
  for (const m of before.matchAll(SUBJECT_VERB)) lead = m;
  // "I created a branch, pushed the fix and opened a PR": the clause goes on the first one's subject.
  // "Fixed the typo and published the page": a clause-initial past verb is the writer's too.
  const continued = lead === undefined && subjectBefore ? CONTINUED_VERB.exec(before) : null;
  if (continued !== null) return joined(clause, at, length, pattern, continued[0].length);
  // Only before a determined object or a pronoun: "Based on the logs and deleted records" and
  // "Compared the old and updated versions" describe a noun.
  const opening = lead === undefined && unhedged ? OPENING_VERB.exec(before) : null;
  if (opening !== null && DETERMINED_OBJECT.test(clause.slice(at + length))) {
    return joined(clause, at, length, pattern, opening[0].length);
  }
  if (lead === undefined) return undefined;
  const verb = lead[1]!.toLowerCase();
  if (NO_VERB.has(verb) || STOP.has(verb) || DETERMINERS.has(verb) || GENERIC.has(verb)) return undefined;
  return joined(clause, at, length, pattern, lead.index + lead[0].length);
}

/**
 * The verb at `at` joined by "and" to a passive participle that claims nothing itself: "Your order
 * was shipped and cancelled" claims the cancellation of the order, as "Your order was cancelled"
 * does (and, as there, "was shipped and cancelled last week by Ana" is history). `next` is the
 * clause after.
 */
export function afterOtherParticiple(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  previous: readonly string[] = [],
  next = '',
): Found | undefined {
  const before = clause.slice(0, at);
  const m = PASSIVE_AND.exec(before);
  if (m === null || hedged(before)) return undefined;
  const participle = m[2]!.toLowerCase();
  if (NO_VERB.has(participle) || STOP.has(participle) || DETERMINERS.has(participle)) return undefined;
  const past = /\b(?:was|were)\b/i.test(m[1]!);
  const verbEnd = at + length;
  if (past && isHistory(clause.slice(verbEnd))) return undefined;
  if (isHabit(m[1]!, clause.slice(verbEnd), true, next)) return undefined;
  const head = before.slice(0, m.index);
  const noun = nounBefore(head);
  if (noun === undefined || negatedNoun(head, noun.start)) return undefined;
  if (readBack(head, noun.start, m[1]!, clause.slice(verbEnd), previous)) return undefined;
  const claim = made(clause, pattern, noun.start, noun.words, verbEnd);
  return { claim, claims: [claim], kind: 'patient', past, verbEnd };
}

/**
 * The verb at `at` as a claim of the subject of the verb that ends at `previousEnd`, when "and"
 * joins the two: it takes its own object ("... and updated the homepage").
 */
function joined(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  previousEnd: number,
): Found | undefined {
  const between = clause.slice(previousEnd, at);
  const join = JOIN.exec(between);
  if (join === null || HEDGE.test(between)) return undefined;
  const after = clause.slice(at + length);
  // The words between the first object and "and" continue it ("the draft from the blog"), and
  // must not open a clause of their own ("the draft that you wrote and ...").
  const carried = between.slice(0, join.index).match(WORDS) ?? [];
  if (carried.length > 8 || carried.some((w) => SUBORDINATE.has(w.toLowerCase()))) return undefined;
  if (NONE.test(after)) return undefined;
  const { consumed } = objectAfter(after);
  // "and published pages are unchanged": the participle describes a noun, it claims nothing.
  if (/\b(?:is|are|was|were|remain|remains|stay|stays|has|have|had)\b/i.test(after.slice(0, consumed))) {
    return undefined;
  }
  return agent(clause, pattern, at, at + length);
}
