/**
 * The regexes of the claim extraction that read the words around a verb: its subject ("I've"),
 * a passive ("has been"), "I was able to", a clause-initial lead ("Done:"), what may follow a
 * claim, history ("by Ana", "on May 3"), the user's request, sign-ins and things one views.
 */

import { AND_WORDS } from './lexicon.js';

/** "logged in", "logged into", "logged out": signing in or out, not a log entry created. */
export const SIGN_IN = /^log(?:ged)?\s+(?:in|into|on|out|off)\b/i;
/**
 * "opened" and a thing one views ("opened the settings page", "opened a new tab", "opened your
 * email"): looking at it, not creating it, as "opened a ticket" is.
 */
export const OPENED_VIEW =
  /^open(?:ed)?\s+(?:(?:the|a|an|your|my|our|their|this|that|its|new)\s+){0,2}(?:[\p{L}\d._-]+\s+){0,2}?(?:pages?|tabs?|windows?|files?|links?|urls?|settings|dashboard|app|browser|menu|documents?|folders?|editor|console|terminal|site|website|panel|view|screen|dialog|modal|preview|inbox|spreadsheet|notebook|pdf|attachments?|emails?|messages?|logs)\b/iu;
/** Adverbs between a subject or a passive and its verb ("just", "already", "went ahead and"). */
export const ADVERBS = String.raw`(?:just|now|also|already|indeed|successfully|then|finally|gone ahead and|went ahead and)`;
/**
 * The adverbs, any "-ly" adverb ("permanently", "fully"), and the words that say how many did it
 * ("have all been closed", "I've both cancelled"): between a subject or passive and its verb.
 */
export const ADVERBS_ALL = String.raw`(?:${ADVERBS}|all|both|\p{L}+ly)`;
/** "I", "we", optionally "have"/"'ve", then adverbs, right before the verb. */
export const SUBJECT = new RegExp(
  String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS_ALL})*\s+$`,
  'iu',
);
/**
 * "has been", "was", "is now", "'s been", "'ve been", "'s", "'re" right before the verb: a passive
 * claim about the noun before it ("Your order's been cancelled", "They've been refunded").
 */
export const PASSIVE = new RegExp(
  String.raw`(?:(?:\s+(?:has|have|had)|['’](?:s|ve|d))(?:\s+${ADVERBS_ALL})*\s+been(?:\s+${ADVERBS_ALL})*|(?:\s+(?:was|were|is|are)|['’](?:s|re))(?:\s+${ADVERBS_ALL})*)(?:\s+successfully)?\s+$`,
  'iu',
);
/** Adverbs that make a passive a report of what happened before or by itself ("was previously deleted"). */
export const HISTORY_ADVERB = /\b(?:previously|originally|automatically|recently)\b/i;
/** Past verbs that, with "to", claim the verb after them: "I managed to cancel", "I proceeded to cancel". */
const DID_TO = String.raw`(?:managed|proceeded|went\s+on|made\s+sure)`;
/**
 * "I was able to", "we've been able to", "I managed to", "I proceeded to", "I did" right before a
 * verb's base form.
 */
export const ABLE = new RegExp(
  String.raw`\b(?:i|we)(?:(?:(?:\s+(?:was|were)|(?:['’]ve|\s+have)\s+been)(?:\s+${ADVERBS_ALL})*\s+able|(?:['’]ve|\s+have)?(?:\s+${ADVERBS_ALL})*\s+${DID_TO})\s+to|(?:\s+${ADVERBS_ALL})*\s+did(?:\s+${ADVERBS_ALL})*)\s+$`,
  'iu',
);
/**
 * "I was able to", "I managed to" and another verb, then "and" right before a verb's base form:
 * "I was able to find your order and cancel it" (the verb after "and" shares the "able to").
 */
export const ABLE_THEN = new RegExp(
  `${ABLE.source.slice(0, -1)}\\p{L}+\\b[^.;!?]{0,200}?\\s(?:and|&)(?:\\s+${ADVERBS})*\\s+$`,
  'iu',
);
/**
 * "managed to", "proceeded to", "was able to" with no subject of their own right before a verb's
 * base form: after "and", the two read as one past verb ("I found your order and proceeded to
 * cancel it" as "... and cancelled it").
 */
export const TO_BASE = new RegExp(
  String.raw`\b(?:${DID_TO}|(?:was|were)(?:\s+${ADVERBS_ALL})*\s+able)\s+to(?:\s+${ADVERBS})*\s+$`,
  'iu',
);
/** A past verb ("pushed") opening a clause that goes on a list of what "I" or "we" did. */
export const CONTINUED_VERB = /^\s*(?:and\s+|then\s+)?\p{L}+ed\b/iu;
/**
 * A past verb outside the patterns opening a clause, after a bullet or a number ("Fixed the typo",
 * "- Checked the logs", "Wrote the migration"): a verb of the writer, as a clause-initial claim is.
 * Not a word in "-eed" ("Need", "Seed").
 */
export const OPENING_VERB =
  /^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:\p{L}{2,}(?<!e)ed|wrote|rewrote|made|built|rebuilt|ran|reran|found|took)\b/iu;
/** A bare "'s" or "'re" (not "'s been"): "is" or "are", or a possessive ("Ana's deleted posts"). */
export const CONTRACTED_IS = /^['’](?:s|re)\b(?![\s\S]*\bbeen\b)/i;
/** A passive, a participle and "and" right before the verb ("was shipped and "): 1 the passive, 2 the participle. */
export const PASSIVE_AND = new RegExp(
  String.raw`(\s+(?:(?:has|have|had)(?:\s+${ADVERBS})*\s+been|(?:was|were|is|are)(?:\s+${ADVERBS})*))\s+(\p{L}+)\s+(?:and|&)(?:\s+${ADVERBS})*\s+$`,
  'iu',
);
/**
 * Nothing but a bullet, a heading mark, a "Done:", a "Yes" or a joining word before a clause-initial
 * verb ("Deleted the draft.", "Yep — deleted.").
 */
export const LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:done|ok|okay|great|success|all set|sure|yes|yep|yeah|and|then|also|plus)(?:[\s,:!.\-–—]|\p{Extended_Pictographic}|\uFE0F)+)*(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** The same after a short label and a colon or dash ("Update: deleted the draft", "Step 2 — Deleted the draft"). */
export const LABELLED_LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*[\p{L}\d][\p{L}\d\s'’#-]{0,30}?(?::|\s[–—]|\s-)\s+(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** What may follow a "noun verb" claim ("Refund issued.", "ticket created for you", "Page updated ✅"). */
export const NOUN_CLAIM_END =
  /^\s*(?:[.!,;:)]|$|\p{Extended_Pictographic}|(?:successfully|for|to|with|and)\b)/iu;
/** A label's colon or dash between a noun and its verb ("Refund: issued", "Order 42 — cancelled"). */
export const LABEL = /\s*[:–—]\s*$|\s+-\s+$/u;
/** "by" and someone other than the agent ("by Ana", "by the system"; not "by me", "by us", "by email"). */
const BY_ANOTHER = String.raw`by\s+(?!me\b|us\b|e-?mail\b|sms\b)`;
/**
 * After a past passive, what makes it a report of history, not a claim ("was created by Ana", "on
 * May 3", "was assigned to Maria by the system", "was cancelled automatically"; not "by me", "by
 * email").
 */
const HISTORY = new RegExp(
  String.raw`^\s+(?:${BY_ANOTHER}|(?:to|for|from|at|with|into)\s+[^\s,;]+(?:\s+[^\s,;]+){0,2}?\s+${BY_ANOTHER}|automatically\b|on\b(?!\s+(?:your|my|our)\s+(?:request|behalf|instructions?)\b)|in\s+(?:\d|january|february|march|april|may|june|july|august|september|october|november|december)|yesterday\b|last\b|earlier\b|previously\b|before\b|\d)`,
  'i',
);
/** Someone other than the agent did it, anywhere after the verb. */
export const DONE_BY_ANOTHER = new RegExp(String.raw`\b${BY_ANOTHER}`, 'i');
/** Words that say the user asked for it ("as you asked", "per your request", "like you asked"). */
export const ON_REQUEST =
  /\b(?:as\s+(?:you\s+)?(?:asked|requested|instructed)|(?:per|at)\s+your\s+(?:request|instructions?|direction)|like\s+you\s+asked)\b/i;

/**
 * The words after a past passive make it a report of history ({@link HISTORY}), unless a time is
 * followed by the user's request, in the same clause or opening the next (`next`): "Your order was
 * cancelled last night as you asked" and "... yesterday, as requested" are claims; "was cancelled
 * by the shop, as you asked us to check" is still someone else's doing.
 */
export function isHistory(after: string, next = ''): boolean {
  if (!HISTORY.test(after)) return false;
  if (DONE_BY_ANOTHER.test(after)) return true;
  // Clauses are trimmed: a request that opens the next one is at its start.
  return !ON_REQUEST.test(after) && ON_REQUEST.exec(next)?.index !== 0;
}
/**
 * The joining words between two verbs of one subject, right before the second verb ("and then"),
 * with the perfect's "have" or "had" among the adverbs ("and have cancelled it", "and have now").
 */
export const JOIN = new RegExp(
  String.raw`(?:^|\s)(?:${AND_WORDS}|then)(?:\s+(?:${ADVERBS}|have|had))*\s+$`,
  'i',
);
/** Nothing but {@link ADVERBS}. */
export const ONLY_ADVERBS = new RegExp(String.raw`^(?:\s+${ADVERBS})*\s*$`, 'i');
/** "I" or "we" and the word after them, whatever verb it is ("I found", "we have checked"). */
export const SUBJECT_VERB = new RegExp(
  String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS})*\s+(\p{L}+)`,
  'giu',
);
/** "by me", "by us" after a predicate: the agent did it, still a claim. */
export const BY_ME = /^\s+by\s+(?:me|us)\b/i;
