/**
 * What makes a passive or a participle no claim: a state the agent read back ("It looks like the
 * order was already cancelled"), a habit ("Refunds are processed in 5–7 business days"), a request
 * to the user ("Please make sure the order is cancelled"), a record's metadata ("Last updated: May
 * 3").
 */

import type { Found } from './claim.js';
import { nounBefore } from './noun-phrases.js';
import { BY_ME } from './verb-lexicon.js';

/**
 * Words that say the agent saw a thing's state, not that it did the work: "it looks like", "it
 * seems (that)", "it appears", "apparently", "seemingly".
 */
const EVIDENTIAL = String.raw`(?:(?:it|this|that)\s+)?(?:looks|looked|seems|seemed|appears|appeared)(?:\s+(?:like|as\s+if|as\s+though))?(?:\s+that)?|apparently|seemingly`;
/** An evidential right before a passive's subject: "It looks like [the order] was cancelled". */
const READ_BACK_BEFORE = new RegExp(String.raw`(?:^|[^\p{L}\d'’])(?:${EVIDENTIAL})\s*,?\s*$`, 'iu');
/** A time the agent looked: "when I checked", "by the time we looked", "when I first searched". */
const LOOKED = String.raw`(?:when|by\s+the\s+time)\s+(?:i|we)\s+(?:(?:first|just|last)\s+)?(?:checked|looked|searched|pulled)`;
/**
 * A clause that is nothing but an evidential ("Apparently, [your order was cancelled]"), or a time
 * the agent looked ("When I checked, [the order had already been cancelled]", "When I looked up
 * your order, ..."): what follows is what it saw.
 */
export const READ_BACK_CLAUSE = new RegExp(
  String.raw`^(?:${EVIDENTIAL}|${LOOKED}(?:\s+(?!and\b|then\b)[\p{L}\d#'’-]+){0,4})$`,
  'iu',
);
/**
 * A clause that opens with a time the agent looked, no comma after it ("When I checked the order had
 * already been cancelled", "When I looked up your order it was already cancelled"): a passive after
 * it is what the agent saw, as after {@link READ_BACK_CLAUSE}.
 */
const READ_BACK_OPENING = new RegExp(
  String.raw`^(?:[\s\-*•>]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:and|but|so|then)\s+)?${LOOKED}(?![\p{L}\d'’-])`,
  'iu',
);
/** An evidential among a passive's adverbs: "Your order has apparently been cancelled". */
const READ_BACK_ADVERB = /\b(?:apparently|seemingly)\b/i;

/**
 * A passive about a thing (or "you") after an evidential is a state the agent read back, not a claim
 * of its work ("It looks like the order was already cancelled", "It seems your order has been
 * cancelled", "Apparently, you were refunded", "When I checked the order had been cancelled"),
 * unless it says the agent did it ("by me"). The
 * agent's own work after one is still claimed ("It looks like I cancelled it": {@link SUBJECT}).
 * `start` is where the subject's noun phrase starts in `head`, the words before the passive.
 */
export function readBack(
  head: string,
  start: number,
  passive: string,
  after: string,
  previous: readonly string[],
): boolean {
  if (BY_ME.test(after)) return false;
  if (READ_BACK_ADVERB.test(passive)) return true;
  // "It looks like the draft and the homepage have been deleted": before the first of the two.
  const and = /\s+(?:and|&)\s+$/i.exec(head.slice(0, start));
  const first = and === null ? undefined : nounBefore(head.slice(0, and.index));
  const before = head.slice(0, first !== undefined && first.words.length > 0 ? first.start : start);
  if (READ_BACK_BEFORE.test(before) || READ_BACK_OPENING.test(head)) return true;
  const last = previous[previous.length - 1];
  return before.trim() === '' && last !== undefined && READ_BACK_CLAUSE.test(last.trim());
}

/**
 * Words that say how a thing is done as a rule, not that it was done: "usually", "automatically",
 * "every Monday", "nightly", a time it takes ("in 5–7 business days", "within 24 hours", "after 30
 * days").
 */
const HABIT = String.raw`(?:usually|normally|typically|generally|always|often|regularly|routinely|ordinarily|automatically|by\s+default|(?:in|within|after)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|up\s+to\s+|less\s+than\s+)?(?:\d[\d.,]*(?:\s*(?:[–—-]|to)\s*\d[\d.,]*)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|few)\s*(?:(?:business|working|calendar|banking)\s+|-)?(?:minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?)\b|(?:every|each)\s+(?:\d+\s+|other\s+|few\s+|couple\s+of\s+)?(?:day|night|week|month|year|morning|evening|hour|minute|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend)s?\b|daily\b|weekly\b|nightly\b|monthly\b|hourly\b|yearly\b|annually\b|once\s+a\s+(?:day|week|month|year)\b|on\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekdays|weekends)\b)`;
/** The habits that are a time it takes: "in 5–7 business days", "within 24 hours", "after 30 days". */
const DURATION = /^(?:in|within|after)\s/i;
/**
 * After a present passive's verb, a habit: right after it, after another participle joined by
 * "and" ("are cancelled and refunded within 5 days"), or after a short phrase of where to ("are
 * refunded to your card within 5 days").
 */
const HABIT_AFTER = new RegExp(
  String.raw`^(?:\s+(?:and|or|&)\s+\p{L}+ed)*(?:\s+(?:to|into|from|on|for|back\s+to)\s+(?:[^\s,;.!?]+\s+){0,4}?)?\s*,?\s*(${HABIT})`,
  'iu',
);
/**
 * A clause that is nothing but a habit ("usually within 5 days", "typically in 3-5 business days or
 * so"): after a comma, it says how the clause before it is done as a rule.
 */
const HABIT_CLAUSE = new RegExp(
  String.raw`^(?:${HABIT})(?:\s*,?\s*(?:${HABIT}))*(?:\s+(?:or\s+so|on\s+average|at\s+most|at\s+the\s+latest))?\s*[.!]?$`,
  'iu',
);
/** Adverbs of habit among a passive's adverbs: "Refunds are usually processed". */
const HABIT_ADVERB =
  /\b(?:usually|normally|typically|generally|always|often|regularly|routinely|ordinarily)\b/i;
/** A passive in the present, not the perfect: "is", "are", "'s", "'re" (with adverbs). */
const PRESENT_PASSIVE_FORM = /^(?:\s+(?:is|are)|['’](?:s|re))\b(?![\s\S]*\bbeen\b)/i;

/**
 * A present passive that says how things are done as a rule ("The refund is processed in 5–7
 * business days", "Refunds are issued automatically every Monday", "Orders are usually cancelled
 * within 24 hours", "Your refund is processed, usually within 5 days"): no claim. `passive` is the
 * auxiliary and its adverbs before the verb, `after` the words after it, `next` the clause after
 * (read only when it is nothing but a habit); `durations` false when a time after the verb says
 * when, not how long ("is scheduled for deletion in 30 days"). "Your refund is processed." and
 * "has been processed within 24 hours" are claims.
 */
export function isHabit(passive: string, after: string, durations = true, next = ''): boolean {
  if (!PRESENT_PASSIVE_FORM.test(passive)) return false;
  if (HABIT_ADVERB.test(passive)) return true;
  const habit =
    HABIT_AFTER.exec(after) ??
    (HABIT_CLAUSE.test(next.trim()) ? HABIT_AFTER.exec(`${after}, ${next.trim()}`) : null);
  return habit !== null && (durations || !DURATION.test(habit[1]!));
}

/**
 * What opens a request to the user, right before the noun phrase of a passive: "Please make sure
 * [the order is cancelled]", "Confirm that [the draft was deleted]", "Please check whether ...",
 * "Double-check that the draft and [the homepage were deleted]". Not the agent's own ("I made sure the order is cancelled", "Confirmed:
 * the draft was deleted", "To confirm, your order has been cancelled").
 */
const REQUEST_BEFORE = new RegExp(
  String.raw`(?:^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:and|then|so|but|also|now|just|finally|lastly|meanwhile)\s+)*|\b(?:please|kindly)\s+(?:(?:just|also|now)\s+)?)(?:(?:make|be)\s+sure(?:\s+to\s+(?:check|confirm|verify))?|ensure|confirm|check|verify|double[-\s]?check|re-?check)(?:\s+(?:again|first|once\s+more|on\s+your\s+(?:end|side)))?(?:\s*,?\s*(?:that|whether|if)(?:\s+[^,;:.!?]{1,80}?\s(?:and|&))?)?\s+$`,
  'iu',
);

/** A passive about a thing is asked of the user to see to or check, not claimed: see {@link REQUEST_BEFORE}. */
export function requested(clause: string, found: Found): boolean {
  if (found.kind !== 'patient') return false;
  const start = clause.indexOf(found.claims[0]!.quote);
  return start >= 0 && REQUEST_BEFORE.test(clause.slice(0, start));
}

/** A month's name, short or whole. */
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\\.?';
/**
 * After a participle that opens a line or follows a noun, what makes it a record's metadata, not a
 * claim: a colon and a date or time ("Last updated: May 3", "Updated: 2024-05-03", "Published at:
 * 10:00", "Last updated: yesterday"; not "today"), or who did it ("Created by Ana"; not "by me",
 * "by mistake").
 */
const METADATA = new RegExp(
  [
    String.raw`^\s*(?:(?:at|on)\s*)?:\s*(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[:/.]\d{1,2}|${MONTH}\s+\d|\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}(?:\s|$)|yesterday\b|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)`,
    String.raw`^\s+by\s+(?!me\b|us\b|mistake\b|request\b|default\b)\p{L}`,
  ].join('|'),
  'iu',
);
/** The words after a participle make it a record's metadata: see {@link METADATA}. */
export const isMetadata = (after: string): boolean => METADATA.test(after);
