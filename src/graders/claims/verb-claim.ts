/**
 * The claim of a verb of the patterns on its own: after "I" or "we", after a passive's noun
 * phrase (or a person, or an aside), opening its clause, after a noun or a label ("Refund issued",
 * "Refund: issued").
 */

import type { ClaimPattern } from '../../grading/types.js';
import type { Claim, Found } from './claim.js';
import {
  DETERMINED,
  DETERMINED_OBJECT,
  DETERMINERS,
  FIELDS,
  FINITE,
  NONE,
  STOP,
  WORDS,
  hedged,
  negatedNoun,
} from './lexicon.js';
import { isHabit, isMetadata, readBack } from './non-claims.js';
import { made, nounBefore, objectAfter, personBefore, relativeNoun } from './noun-phrases.js';
import { agent, listedBefore } from './object-lists.js';
import { isPlan } from './scheduled.js';
import {
  CONTRACTED_IS,
  HISTORY_ADVERB,
  LABEL,
  LABELLED_LEAD,
  LEAD,
  NOUN_CLAIM_END,
  PASSIVE,
  SUBJECT,
  isHistory,
} from './verb-lexicon.js';

/**
 * The claim of the verb at `at` on its own: after "I" or "we" ("I deleted the draft"), a passive
 * after its noun phrase, a person or an aside ("The ticket has been created"), opening its clause
 * ("Deleted the draft") or after a noun or a label ("Refund issued", "Refund: issued"). Undefined
 * under a negation, condition or hedge, and for history, a habit, a plan or a state read back.
 * `next` is the clause after, `previous` the clauses before.
 */
export function claimAt(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  next = '',
  previous: readonly string[] = [],
): Found | undefined {
  const before = clause.slice(0, at);
  const after = clause.slice(at + length);
  const verbEnd = at + length;
  if (hedged(before) || ERROR_MESSAGE.test(clause.slice(0, verbEnd))) return undefined;
  const subject = SUBJECT.exec(before);
  if ((subject || LEAD.test(before)) && NONE.test(after)) return undefined;
  if (subject)
    return (
      relative(clause, pattern, subject.index, verbEnd) ?? agent(clause, pattern, subject.index, verbEnd)
    );
  // "The draft, which you asked about, has been deleted": a passive opening the clause after an aside.
  const aside = previous.length >= 2 && ASIDE.test(previous[previous.length - 1]!);
  const passive = passiveBefore(before, after) ?? (aside ? PASSIVE.exec(` ${before}`) : null);
  const past = passive !== null && /\b(?:was|were)\b/i.test(passive[0]);
  if (passive && HISTORY_ADVERB.test(passive[0])) return undefined;
  // "The refund is processed in 5–7 business days": how it is done as a rule ("scheduled for
  // deletion in 30 days" names when, no habit).
  if (passive && isHabit(passive[0], after, !/^(?:re)?scheduled$/i.test(clause.slice(at, verbEnd)), next))
    return undefined;
  if (passive && !(past && isHistory(after, next))) {
    // "The ticket has been created"; "You have been refunded" claims a refund to a person.
    const head = before.slice(0, passive.index);
    const noun = relativeNoun(head) ?? nounBefore(head);
    if (noun && negatedNoun(head, noun.start)) return undefined;
    if (noun && isPlan(clause.slice(at, verbEnd), passive[0], noun.words, pattern, after, next))
      return undefined;
    if (noun && readBack(head, noun.start, passive[0], after, previous)) return undefined;
    if (noun) {
      const claim = made(clause, pattern, noun.start, noun.words, verbEnd);
      // "The draft and the homepage have been deleted": a claim about each.
      const plural = /\b(?:have|were|are)\b|['’](?:ve|re)\b/i.test(passive[0]);
      const first = plural ? listedBefore(clause, head.slice(0, noun.start), pattern) : undefined;
      return { claim, claims: first ? [first, claim] : [claim], kind: 'patient', past, plural, verbEnd };
    }
    if (head.trim() === '') {
      const aside = asideNoun(previous, clause, pattern, verbEnd);
      if (aside) return { claim: aside, claims: [aside], kind: 'patient', past, verbEnd };
    }
    const person = personBefore(head);
    if (person === undefined || negatedNoun(head, person.start)) return undefined;
    if (readBack(head, person.start, passive[0], after, previous)) return undefined;
    const claim = made(clause, pattern, person.start, person.words, verbEnd);
    return { claim, claims: [claim], kind: 'patient', past, verbEnd };
  }
  if (LEAD.test(before))
    return describes(after) || isMetadata(after) ? undefined : agent(clause, pattern, at, verbEnd);
  const patient = passive ? undefined : nounThenVerb(clause, pattern, before, after, verbEnd);
  if (patient !== undefined) return patient;
  // "Ticket: created by Ana on May 3" is a record's history, not a claim.
  if (LABELLED_LEAD.test(before) && !isHistory(after) && !describes(after)) {
    return agent(clause, pattern, at, verbEnd);
  }
  return undefined;
}

/**
 * The claim of a verb of "I" or "we" in a relative clause, about the noun phrase before it ("You'll
 * see the drafts I deleted in the trash", "Here are the drafts that I deleted"), quoted from it: the
 * noun phrase opens with a determiner, and the verb has no object of its own after it (no
 * determiner, pronoun or number; at the start of the clause no word at all: "The drafts I deleted
 * are in the trash", not "The next day I deleted drafts"). Undefined otherwise, or after a word
 * that makes the noun phrase no object ("After the call I deleted ...").
 */
function relative(
  clause: string,
  pattern: ClaimPattern,
  subjectAt: number,
  verbEnd: number,
): Found | undefined {
  const head = clause.slice(0, subjectAt).replace(/(?:that|which)\s+$/i, '');
  const noun = nounBefore(head);
  if (noun === undefined || noun.words.length === 0 || !DETERMINED.test(head.slice(noun.start)))
    return undefined;
  const lead = head.slice(0, noun.start).match(WORDS) ?? [];
  const after = clause.slice(verbEnd);
  if (lead.length === 0 ? objectAfter(after).words.length > 0 : DETERMINED_OBJECT.test(after))
    return undefined;
  // "After the call I deleted ...": the noun phrase is no object; "the list of pages I deleted" it is.
  const last = lead[lead.length - 1]?.toLowerCase();
  if (last !== undefined && last !== 'of' && STOP.has(last)) return undefined;
  const claim = made(clause, pattern, noun.start, noun.words, verbEnd);
  return { claim, claims: [claim], kind: 'agent', verbEnd };
}

/** An error message the agent met, ending at the verb: "permission denied", "access denied". */
const ERROR_MESSAGE = /\b(?:permission|access)\s+denied$/i;

/**
 * The claim of a verb after the noun it was done to, the clause ending there ("Refund issued."),
 * or after a label's colon or dash at the start of the clause ("Refund: issued", "Order 42 —
 * cancelled"); a label that names a field names no object ("Status: closed").
 */
function nounThenVerb(
  clause: string,
  pattern: ClaimPattern,
  before: string,
  after: string,
  verbEnd: number,
): Found | undefined {
  if (!NOUN_CLAIM_END.test(after) || isMetadata(after)) return undefined;
  const label = LABEL.exec(before);
  const head = label ? before.slice(0, label.index) : before;
  const noun = nounBefore(head);
  if (noun === undefined || negatedNoun(head, noun.start)) return undefined;
  if (label && !LEAD.test(head.slice(0, noun.start))) return undefined;
  const words = label ? noun.words.filter((w) => !FIELDS.has(w)) : noun.words;
  const claim = made(clause, pattern, noun.start, words, verbEnd);
  return { claim, claims: [claim], kind: 'patient', verbEnd };
}

/**
 * The words after a clause-initial participle are a noun without a determiner and a verb of its
 * own, so the participle describes the noun and claims nothing ("Deleted items stay in the trash",
 * "Archived posts and deleted drafts are listed below").
 */
function describes(after: string): boolean {
  const words = after.match(WORDS) ?? [];
  const first = words[0]?.toLowerCase();
  if (first === undefined || DETERMINERS.has(first) || /\d/.test(first)) return false;
  // "Archived posts and deleted drafts are listed below": another participle and noun go on the subject.
  const rest = /^(?:and|or)$/i.test(words[1] ?? '') && /^\p{L}+ed$/iu.test(words[2] ?? '') ? 3 : 1;
  return words.slice(rest, rest + 2).some((w) => FINITE.test(w));
}

/**
 * The passive right before a verb; a bare "'s" or "'re" only when the clause ends after the verb
 * ("Your order's cancelled"), since before a noun it is a possessive ("Ana's deleted posts").
 */
function passiveBefore(before: string, after: string): RegExpExecArray | null {
  const passive = PASSIVE.exec(before);
  if (passive && CONTRACTED_IS.test(passive[0]) && !NOUN_CLAIM_END.test(after)) return null;
  return passive;
}
/** A clause between commas that is an aside: "which you asked about", "as requested". */
const ASIDE = /^(?:which|who|whom|whose|that|as|like|per)\b/i;

/**
 * The claim of a passive that opens its clause, about the noun phrase two clauses back when an aside
 * stands between them ("The draft, which you asked about, has been deleted"): the noun phrase must
 * be the whole clause and open with a determiner; quoted from it.
 */
function asideNoun(
  previous: readonly string[],
  clause: string,
  pattern: ClaimPattern,
  verbEnd: number,
): Claim | undefined {
  const aside = previous[previous.length - 1];
  const nounClause = previous[previous.length - 2];
  if (aside === undefined || nounClause === undefined || !ASIDE.test(aside)) return undefined;
  if (!DETERMINED.test(nounClause)) return undefined;
  const noun = nounBefore(nounClause);
  if (noun === undefined || noun.start !== 0 || noun.words.length === 0) return undefined;
  const claim = made(clause, pattern, 0, noun.words, verbEnd);
  return { ...claim, quote: `${nounClause}, ${aside}, ${claim.quote}` };
}
