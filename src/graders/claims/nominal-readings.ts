/**
 * The claims of actions named by a noun or a gerund and said to be done ("Cancellation complete.",
 * "I finished cancelling your order"), and of one joined to another by "and".
 */

import type { Claim } from './claim.js';
import { NONE, SUBORDINATE, WORDS, hedged, negatedNoun, perceivedFrom } from './lexicon.js';
import {
  DONE_AFTER,
  REPORT,
  claimEnds,
  doneBefore,
  nounPhraseStarts,
  ownerAfter,
} from './nominal-phrases.js';
import type { Nominal, NominalTable } from './nominal-table.js';
import { READ_BACK_CLAUSE, isHabit } from './non-claims.js';
import { made } from './noun-phrases.js';
import { agent } from './object-lists.js';
import { DONE_BY_ANOTHER, LABELLED_LEAD, LEAD, OPENED_VIEW, SIGN_IN, isHistory } from './verb-lexicon.js';

/**
 * The claims of actions named by a noun or gerund in a clause, each with where it starts:
 *
 * - an action noun said to be done after it ("Cancellation complete.", "Your refund went through",
 *   "The cancellation of your order was successful", "Order cancellation successful"), the noun
 *   phrase opening the clause (after a bullet, "Done:", "Good news:") or following a claim that
 *   opens it and "and" ("Your order was cancelled and the refund went through"), and
 * - an action noun or gerund after a completion verb of "I" or "we", or one opening the clause
 *   ("I completed the cancellation of your order", "I just finished cancelling your order", "I have
 *   initiated a refund", "Took care of deleting the draft").
 *
 * The claim's action is the noun's or gerund's pattern; its object is the "of" or "for" owner ("the
 * cancellation of your order": order), or the words before the noun ("Order cancellation": order),
 * or the gerund's object ("cancelling your order": order); a determiner ("Your refund") names none.
 * Not after a negation, condition or hedge (as {@link claimAt} reads a verb), not when someone else
 * did it or a past one reports history ("was completed by Ana yesterday"), and not where a verb of
 * the patterns already claimed (`taken`, each verb's place with whether it is a generic one: "Your
 * refund was issued" keeps its reading), unless that verb is generic ("Your refund has been
 * processed": the noun's claim takes the verb's over, `absorbs`).
 */
export function nominalClaims(
  clause: string,
  table: NominalTable,
  taken: ReadonlyMap<number, boolean>,
  verbSpans: readonly Span[],
  next = '',
  last = '',
): { claim: Claim; at: number; end: number; absorbs: boolean }[] {
  const out: { claim: Claim; at: number; end: number; absorbs: boolean }[] = [];
  // Where the claims made so far are, the verbs' and these: "Your refund has been processed and the
  // cancellation is complete" claims both.
  const spans = [...verbSpans];
  const { re, forms } = table;
  // The completion verb the last action noun or gerund was claimed by, and where that word ended:
  // "I completed the refund and cancellation" claims both, as "I finished cancelling and refunding
  // your order" does.
  let shared: { by: number; end: number } | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(clause); m !== null; m = re.exec(clause)) {
    const entry = forms.get(m[0].toLowerCase().replace(/\s+/g, ' '));
    if (entry === undefined) continue;
    const at = m.index;
    const end = at + m[0].length;
    const joined =
      shared !== undefined && JOINED_NOMINAL.test(clause.slice(shared.end, at)) ? shared.by : undefined;
    const found =
      (entry.noun
        ? nounDone(clause, at, end, entry, next, spans, last)
        : gerundDone(clause, at, end, entry)) ??
      (joined === undefined ? undefined : joinedDone(clause, joined, end, entry));
    shared = found?.by === undefined ? undefined : { by: found.by, end };
    if (found === undefined) continue;
    // A verb of the patterns inside it already made its claim ("Your refund was issued"), unless
    // the verb is a generic one, whose claim this one takes over ("Your refund has been processed").
    const inside = [...taken].filter(([t]) => t >= found.at && t < found.end);
    if (inside.some(([, generic]) => !generic)) continue;
    spans.push({ start: found.at, end: found.end });
    out.push(
      ...found.claims.map((claim) => ({ claim, at: found.at, end: found.end, absorbs: inside.length > 0 })),
    );
  }
  return out;
}

/** What joins a second action noun or gerund to the one before it: "refund and [the] cancellation". */
const JOINED_NOMINAL = /^\s*,?\s+(?:and|&|as\s+well\s+as)\s+(?:(?:the|a|an|your|my|our|its|their)\s+)?$/i;

/**
 * An action noun or gerund joined by "and" to one a completion verb claimed ("I completed the refund
 * and cancellation of your order", "I finished cancelling and refunding your order"): claimed by the
 * same verb, from `by`, about its own owner or objects.
 */
function joinedDone(
  clause: string,
  by: number,
  end: number,
  entry: Nominal,
): { claims: Claim[]; at: number; end: number; by: number } | undefined {
  if (entry.noun) {
    const owner = ownerAfter(clause, end);
    if (!claimEnds(clause.slice(owner.end))) return undefined;
    return { claims: [made(clause, entry.pattern, by, owner.words, owner.end)], at: by, end: owner.end, by };
  }
  return gerundFrom(clause, by, end, entry);
}

/** Words that open a clause of a time to come or a condition after a claim: "when", "once", "if". */
const TIME_TO_COME =
  /^\s*(?:when(?:ever)?|once|after|as\s+soon\s+as|by\s+the\s+time|if|unless|until|till|before)\b/i;

/** "and" (and "then", "also", "now") ending the words before a noun phrase. */
const AND_BEFORE = /\s(?:and|&)(?:\s+(?:then|also|now))?\s+$/i;

/** Where a claim's words start and end in its clause. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The words before an action noun phrase are a claim that opens the clause (one of `spans`, after
 * nothing but a bullet, "Done:" or the like), a few words that open no clause of their own ("as
 * requested", "for you") and "and": the noun phrase opens a clause of its own ("Your order was
 * cancelled and the refund went through"). Not after a claim read inside other words ("Please make
 * sure the order is cancelled and ...", "When ...").
 */
function afterClaimAnd(head: string, spans: readonly Span[]): boolean {
  const and = AND_BEFORE.exec(head);
  if (and === null) return false;
  return spans.some(({ start, end }) => {
    if (end > and.index || start > end) return false;
    const opening = head.slice(0, start);
    if (!(LEAD.test(opening) || LABELLED_LEAD.test(opening) || REPORT.test(opening))) return false;
    const tail = head.slice(end, and.index).match(WORDS) ?? [];
    return tail.length <= 4 && !tail.some((w) => SUBORDINATE.has(w.toLowerCase()));
  });
}

/**
 * An action noun at `at` said to be done, after it ("Cancellation complete", "Your refund went
 * through") or by a completion verb of the agent before it ("I completed the cancellation").
 */
function nounDone(
  clause: string,
  at: number,
  end: number,
  entry: Nominal,
  next: string,
  spans: readonly Span[] = [],
  last = '',
): { claims: Claim[]; at: number; end: number; by?: number } | undefined {
  const starts = nounPhraseStarts(clause, at);
  const owner = ownerAfter(clause, end);
  // After it: "[Your] [order] cancellation [of X] is complete".
  const done = DONE_AFTER.exec(clause.slice(owner.end, owner.end + 200));
  if (done !== null && !(done[2]!.toLowerCase() === 'through' && done[1] === undefined)) {
    const phrase = starts[starts.length - 1]!;
    const head = clause.slice(0, phrase.start);
    const doneEnd = owner.end + done[0].length;
    const rest = clause.slice(doneEnd);
    const past = done[1] === undefined || /^(?:was|were)$/i.test(done[1]);
    // "Refunds are processed within 5 days": how it is done as a rule.
    const habit =
      done[1] !== undefined && isHabit(/^['’]/.test(done[1]) ? done[1] : ` ${done[1]}`, rest, true, next);
    // "Apparently, the refund went through": a state read back (see readBack).
    const readBackBefore = head.trim() === '' && READ_BACK_CLAUSE.test(last.trim());
    // "You'll be glad to hear the refund went through": the clause after the lead is read alone, as
    // a verb's is (see hedged); not before a time to come ("... went through when you get an email").
    const lead = perceivedFrom(head);
    const opens =
      (lead > 0 && !TIME_TO_COME.test(rest)) ||
      (LEAD.test(head) && !readBackBefore) ||
      LABELLED_LEAD.test(head) ||
      REPORT.test(head) ||
      afterClaimAnd(head, spans);
    if (
      opens &&
      !habit &&
      !hedged(clause.slice(lead, doneEnd)) &&
      !negatedNoun(head, phrase.start) &&
      claimEnds(rest) &&
      !DONE_BY_ANOTHER.test(rest) &&
      !(past && isHistory(rest, next))
    ) {
      // "Refund complete for order 1234": the owner after the predicate.
      let words = owner.words.length > 0 ? owner.words : phrase.words;
      let quoteEnd = doneEnd;
      if (words.length === 0) {
        const after = ownerAfter(clause, doneEnd);
        if (/^\s+for\s/i.test(rest) && after.words.length > 0) {
          words = after.words;
          quoteEnd = after.end;
        }
      }
      return {
        claims: [made(clause, entry.pattern, phrase.start, words, quoteEnd)],
        at: phrase.start,
        end: quoteEnd,
      };
    }
  }
  // Before it: "I completed [the] [order] cancellation [of X]".
  if (!claimEnds(clause.slice(owner.end))) return undefined;
  for (const phrase of starts) {
    const by = doneBefore(clause, phrase.start);
    if (by === undefined) continue;
    const words = owner.words.length > 0 ? owner.words : phrase.words;
    return { claims: [made(clause, entry.pattern, by, words, owner.end)], at: by, end: owner.end, by };
  }
  return undefined;
}

/**
 * A gerund at `at` after a completion verb of the agent ("I just finished cancelling your order",
 * "I took care of deleting the draft"): a claim of its verb, about its objects. Not a gerund of a
 * thing one views or a sign-in ("I finished opening the settings page").
 */
function gerundDone(
  clause: string,
  at: number,
  end: number,
  entry: Nominal,
): { claims: Claim[]; at: number; end: number; by: number } | undefined {
  const by = doneBefore(clause, at);
  if (by === undefined) return undefined;
  return gerundFrom(clause, by, end, entry);
}

/**
 * The claim of a gerund ending at `end` made by the completion verb at `by`: its verb's, about its
 * objects. Not a gerund of a thing one views or a sign-in, nor one with a negated object.
 */
function gerundFrom(
  clause: string,
  by: number,
  end: number,
  entry: Nominal,
): { claims: Claim[]; at: number; end: number; by: number } | undefined {
  const after = clause.slice(end);
  const asVerb = `${entry.verb}${after.slice(0, 120)}`;
  if (SIGN_IN.test(asVerb) || OPENED_VIEW.test(asVerb) || NONE.test(after)) return undefined;
  const found = agent(clause, entry.pattern, by, end);
  return { claims: found.claims, at: by, end: found.objectsEnd ?? end, by };
}
