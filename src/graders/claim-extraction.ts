/**
 * The claim extraction of claims_grader: findClaims prepares the response and reads it clause by
 * clause, each verb of the patterns with the readers of ./claims/ (verb readings, object lists, the
 * readings that are no claim), then the action nouns and gerunds said to be done.
 */

import type { ClaimPattern } from '../grading/types.js';
import type { Claim, Found } from './claims/claim.js';
import {
  ableAt,
  ableThen,
  afterOtherParticiple,
  afterOtherVerb,
  coordinated,
  subjectLeads,
  toBase,
} from './claims/joined-verbs.js';
import { hedged } from './claims/lexicon.js';
import { type Span, nominalClaims } from './claims/nominal-readings.js';
import { type NominalTable, nominalTable } from './claims/nominal-table.js';
import { requested } from './claims/non-claims.js';
import { listedAfter, listedBeforeClauses } from './claims/object-lists.js';
import { scheduledFor } from './claims/scheduled.js';
import {
  CAN_CONFIRM,
  EMPHASIS,
  QUOTED_SPEECH,
  clauses,
  tablesAsLines,
  withoutCode,
  withoutQuotedBlocks,
} from './claims/text.js';
import { aboutTimeToCome } from './claims/time-to-come.js';
import { claimAt } from './claims/verb-claim.js';
import { OPENED_VIEW, SIGN_IN } from './claims/verb-lexicon.js';
import { baseForms, verbRegex } from './claims/word-forms.js';

export type { Claim } from './claims/claim.js';

/**
 * Actions whose verbs say only that some work was done ("processed", "executed"): an action noun
 * they are said of names the work ("Your cancellation has been processed" claims a cancellation).
 */
const GENERIC_ACTIONS: ReadonlySet<string> = new Set(['process']);

/** "and" opening a clause before the last item of a list: "..., and the FAQ have been deleted". */
const AND_OPENING = /^(?:and|&)\s+$/i;

const isGeneric = (pattern: ClaimPattern): boolean =>
  GENERIC_ACTIONS.has(pattern.action.trim().toLowerCase());

/**
 * Finds the statements of a response that claim a completed action, by the patterns' verbs in four
 * forms: first person ("I've created the ticket", "we deleted it"), passive ("the ticket has been
 * created", "your refund was issued", "Orders 1234 and 1235 have been cancelled", "Your $20 has
 * been refunded"), a clause that starts with the verb ("Deleted the draft.", "Done: sent the
 * email") and noun then verb ("Refund issued."). A verb joined by "and" to a claim, or to any
 * other verb of "I" or "we", is a claim of its own ("I deleted the draft and updated the homepage",
 * "I found your order and cancelled it"), and so is each further object of one verb ("I deleted the
 * draft and the homepage"). Questions, clauses with a negation, a condition, a hedge or a future or modal
 * word before the verb ("I haven't deleted", "if I delete", "I will create") and negated objects
 * ("I changed nothing") are not claims; "No." before a number is the number sign ("Order No. 1234").
 * A future or modal word before a verb of seeing or knowing hedges the seeing, not a past or perfect
 * clause with its own subject after it ("You'll see that I cancelled your order" is a claim).
 * A passive after "it looks like" or "apparently" is a state read back ("It looks like the order was
 * already cancelled"), and "scheduled" in the present said of work a plan ("The update is scheduled
 * for next week"): neither is a claim.
 * "Scheduled for" an action noun claims the noun's action too, as another reading ("Your account
 * is scheduled for deletion"), of each item of a list ("I scheduled the draft, the homepage and the
 * FAQ for deletion").
 * A noun phrase after "and" with a verb of its own is no object of the verb before ("I cancelled the
 * order and your refund of $20 was successful").
 * A present passive of how things are done as a rule is no claim ("The refund is processed in 5–7
 * business days", "Refunds are issued automatically every Monday", "Your refund is processed,
 * usually within 5 days").
 * A passive asked of the user is no claim ("Please make sure the order is cancelled").
 * A verb in a clause about a time to come is no claim ("When the refund is processed, you'll get an
 * email"), nor is what the agent saw when it looked ("When I checked, the order had already been
 * cancelled", with or without the comma).
 * Fenced code blocks are code, not statements, and speech quoted after "said" or "wrote" is someone
 * else's: nothing in them is a claim.
 * Each claim carries the object it names, if any, in the order of the response.
 *
 * @example
 * ```ts
 * findClaims("I've deleted the draft. Anything else?", DEFAULT_CLAIM_PATTERNS);
 * // [{ quote: "I've deleted the draft", action: 'delete', objects: ['draft'], pattern }]
 * ```
 */
export function findClaims(response: string, patterns: readonly ClaimPattern[]): Claim[] {
  const claims: Claim[] = [];
  const nouns = nominalTable(patterns);
  const verbs = patterns.flatMap((pattern) =>
    pattern.verbs.flatMap((verb) => [
      { re: verbRegex(verb), pattern, base: false },
      ...baseForms(verb).map((form) => ({ re: verbRegex(form), pattern, base: true })),
    ]),
  );
  // Per sentence, read once (a sentence may hold many clauses, each with many verbs): whether its
  // first clause has a subject that leads it, and how many of its clauses from the start are free
  // of a negation, condition or hedge.
  let read: { sentence: readonly string[]; subjectLeads: boolean; unhedged: number } | undefined;
  for (const [index, clause, sentence] of clauses(
    tablesAsLines(withoutQuotedBlocks(withoutCode(response)))
      .replace(QUOTED_SPEECH, '$1$2""')
      .replace(EMPHASIS, '')
      .replace(CAN_CONFIRM, '$1 $2'),
  )) {
    if (read?.sentence !== sentence) {
      const hedgedAt = sentence.findIndex((c) => hedged(c));
      read = {
        sentence,
        subjectLeads: subjectLeads(sentence),
        unhedged: hedgedAt < 0 ? sentence.length : hedgedAt,
      };
    }
    const subjectBefore = index > 0 && read.subjectLeads;
    const unhedgedBefore = read.unhedged >= index;
    // The clauses just before this one (claimAt reads the last two: an aside and its noun).
    const previous = sentence.slice(Math.max(0, index - 2), index);
    // Every verb of every pattern, in the order of the clause; at one place the first pattern wins.
    const matches: { at: number; length: number; pattern: ClaimPattern; base: boolean }[] = [];
    for (const { re, pattern, base } of verbs) {
      re.lastIndex = 0;
      for (let m = re.exec(clause); m !== null; m = re.exec(clause)) {
        matches.push({ at: m.index, length: m[0].length, pattern, base });
      }
    }
    const before = claims.length;
    matches.sort((a, b) => a.at - b.at);
    // Where each verb made its claim, and whether the verb is a generic one ("processed"), whose
    // claim an action noun it is said of may take over.
    const taken = new Map<number, boolean>();
    // The verb met just before, and the claim it made if it made one: a verb joined to a claim by
    // "and" shares its subject ("I deleted the draft and updated the homepage").
    const seen: { at: number; found: Found | undefined }[] = [];
    // Where each claim of the clause starts and ends: an action noun said to be done after one and
    // "and" is a claim too ("Your order was cancelled and the refund went through").
    const spans: Span[] = [];
    for (const { at, length, pattern, base } of matches) {
      if (taken.has(at)) continue;
      // "I logged in to the CMS": a sign-in, no log entry created.
      // "I opened the settings page": a thing looked at, not created.
      if (SIGN_IN.test(clause.slice(at, at + length + 8)) || OPENED_VIEW.test(clause.slice(at, at + 120))) {
        seen.push({ at, found: undefined });
        continue;
      }
      const last = seen.findLast((s) => s.at < at);
      // A base form ("cancel") claims only after "I was able to", or joined to such a claim.
      let found = base
        ? (ableAt(clause, at, length, pattern) ??
          (last?.found?.able ? coordinated(clause, at, length, pattern, last.found) : undefined) ??
          ableThen(clause, at, length, pattern) ??
          toBase(clause, at, length, pattern, seen, subjectBefore, unhedgedBefore))
        : (claimAt(clause, at, length, pattern, sentence[index + 1], previous) ??
          (last?.found ? coordinated(clause, at, length, pattern, last.found) : undefined) ??
          afterOtherVerb(clause, at, length, pattern, subjectBefore, unhedgedBefore) ??
          afterOtherParticiple(clause, at, length, pattern, previous, sentence[index + 1]));
      // "Please make sure the order is cancelled", "When the refund is processed, you'll get an
      // email": asked of the user, or said of a time to come; no claim.
      if (
        found !== undefined &&
        (requested(clause, found) ||
          aboutTimeToCome(clause, at, found.verbEnd, sentence[index + 1], previous.at(-1)))
      )
        found = undefined;
      if (found) {
        const first = found.claims[0]!;
        taken.set(at, isGeneric(pattern));
        spans.push({
          start: Math.max(0, clause.indexOf(first.quote)),
          end: found.objectsEnd ?? found.verbEnd,
        });
        // "The draft, the homepage and the FAQ have been deleted", "Draft, homepage, and FAQ have
        // been deleted": the list began in the clauses before.
        const opening = clause.slice(0, Math.max(0, clause.indexOf(first.quote)));
        const listed =
          found.kind === 'patient' &&
          ((found.claims.length > 1 && opening === '') ||
            (found.plural === true && AND_OPENING.test(opening)))
            ? listedBeforeClauses(sentence, index, pattern)
            : [];
        // "I deleted the draft, the homepage and the FAQ": the list goes on in the clauses after.
        const after =
          found.objectsEnd !== undefined && clause.slice(found.objectsEnd).trim() === ''
            ? listedAfter(sentence, index + 1, pattern)
            : undefined;
        const all = { ...found, claims: [...listed, ...found.claims, ...(after?.claims ?? [])] };
        // "Your account is scheduled for deletion": a deletion too; "I scheduled the draft, the
        // homepage and the FAQ for deletion" and "The draft and the FAQ are scheduled for deletion":
        // a deletion of each.
        const end = after?.end;
        found =
          end === undefined
            ? scheduledFor(clause, at, length, all, nouns)
            : scheduledFor(clause, at, length, all, nouns, sentence[end.index], end.at);
        claims.push(...found.claims);
      }
      seen.push({ at, found });
    }
    // "Cancellation complete.", "I finished cancelling your order": an action named by its noun
    // or gerund, said to be done; in the order of the clause, among the verbs' claims.
    const nominal = nominalClaims(clause, nouns, taken, spans, sentence[index + 1], previous.at(-1));
    if (nominal.length > 0) {
      const verbs = claims
        .slice(before)
        .map((claim) => ({ claim, at: Math.max(0, clause.indexOf(claim.quote)) }));
      // "Your cancellation has been processed": the generic verb's claim (a processing of the
      // cancellation) becomes the other reading of the noun's (a cancellation).
      const kept = verbs.filter(({ claim, at }) => {
        if (!isGeneric(claim.pattern)) return true;
        const host = nominal.find((n) => n.absorbs && at >= n.at && at < n.end);
        if (host === undefined) return true;
        host.claim.alternatives = [...(host.claim.alternatives ?? []), claim];
        return false;
      });
      const mixed = [...kept, ...nominal].sort((a, b) => a.at - b.at);
      claims.splice(before, claims.length - before, ...mixed.map((c) => c.claim));
    }
  }
  return claims.map((claim) => withNounReadings(claim, nouns));
}

/**
 * A generic verb's claim about an action noun ("Your refund and cancellation have been processed":
 * processed + cancellation) with the noun's own reading as another (a cancellation), unless the
 * claim has other readings already.
 */
function withNounReadings(claim: Claim, table: NominalTable): Claim {
  if (!isGeneric(claim.pattern) || claim.alternatives !== undefined) return claim;
  const readings = claim.objects.flatMap((object) => {
    const entry = table.forms.get(object);
    if (entry === undefined || !entry.noun || entry.pattern === claim.pattern) return [];
    const objects = claim.objects.filter((o) => o !== object);
    return [{ quote: claim.quote, action: entry.pattern.action, pattern: entry.pattern, objects }];
  });
  return readings.length === 0 ? claim : { ...claim, alternatives: readings };
}
