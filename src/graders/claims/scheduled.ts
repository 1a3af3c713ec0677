/**
 * The readings of "scheduled": said of work in the present, a plan and no claim ("The update is
 * scheduled for next week"); before "for" and an action noun, a claim of the noun's action too
 * ("Your account is scheduled for deletion").
 */

import type { ClaimPattern } from '../../grading/types.js';
import { DEFAULT_CLAIM_NOUNS } from '../claim-patterns.js';
import type { Claim, Found } from './claim.js';
import type { NominalTable } from './nominal-table.js';
import { ON_REQUEST } from './verb-lexicon.js';
import { plural } from './word-forms.js';

/**
 * The nouns of work done at a time, by the action they name ('' for none of the patterns'): the
 * patterns' action nouns and a few more ("maintenance", "backup").
 */
const SCHEDULED_WORK: ReadonlyMap<string, string> = new Map(
  [
    ...Object.entries(DEFAULT_CLAIM_NOUNS).flatMap(([action, nouns]) =>
      nouns.map((n) => [n, action] as const),
    ),
    ...'maintenance upgrade backup downtime outage job run sync rollout launch delivery shipment renewal'
      .split(' ')
      .map((n) => [n, ''] as const),
  ].flatMap(([noun, action]) => [
    [noun, action],
    [plural(noun), action],
  ]),
);
/** A present passive, with adverbs that say nothing was just done: "is", "are already", "'s currently". */
const PRESENT_PASSIVE =
  /^(?:\s+(?:is|are)|['’](?:s|re))(?:\s+(?:already|also|all|both|currently|tentatively))*\s+$/i;

/**
 * "scheduled" in the present, said of work ("The update is scheduled for next week", "The
 * maintenance is scheduled for Sunday", "Backups are scheduled to run nightly"): the work is planned,
 * to be done at a time; no claim that the agent booked anything. A thing one books ("Your
 * appointment is scheduled for Friday", "Your booking is scheduled ..."), the perfect ("has been
 * scheduled"), "is now scheduled" and the user's request after it ("..., as you asked") are claims.
 */
export function isPlan(
  verb: string,
  passive: string,
  words: readonly string[],
  pattern: ClaimPattern,
  after: string,
  next: string,
): boolean {
  if (!/^scheduled$/i.test(verb) || !PRESENT_PASSIVE.test(passive)) return false;
  if (ON_REQUEST.test(after) || ON_REQUEST.exec(next)?.index === 0) return false;
  const own = pattern.action.trim().toLowerCase();
  return words.some((w) => {
    const action = SCHEDULED_WORK.get(w);
    return action !== undefined && action !== own;
  });
}

/**
 * "for" and an action noun after "scheduled" ("is scheduled for deletion", "I scheduled your
 * account for permanent removal"): 1 a modifier or the noun, 2 the noun or the word after it.
 */
const SCHEDULED_FOR =
  /^\s+for\s+(?:(?:the|a|an|its|their|your|his|her|our|my)\s+)?(?:(\p{L}+)\s+)?(\p{L}+)(?![\p{L}\d'’-])/iu;

/**
 * A claim of "scheduled" before "for" and an action noun ("Your account is scheduled for deletion")
 * with the noun's action as another reading of each of its claims, about the same objects: a
 * `delete_account` call backs it, as a booking call does; the last claim is quoted to the noun.
 * "for" is read in `objects` (the clause of the last object) from `from`: by default where the verb's objects end in its clause; for a
 * list that goes on in the clauses after, where its last item ends ("I scheduled the draft, the
 * homepage and the FAQ for deletion": a deletion of each).
 */
export function scheduledFor(
  clause: string,
  at: number,
  length: number,
  found: Found,
  table: NominalTable,
  objects = clause,
  from = found.objectsEnd ?? found.verbEnd,
): Found {
  if (!/^(?:re)?scheduled$/i.test(clause.slice(at, at + length))) return found;
  const m = SCHEDULED_FOR.exec(objects.slice(from, from + 120));
  if (m === null) return found;
  const whole = m[0];
  const first = m[1];
  const second = m[2]!;
  const pattern = found.claim.pattern;
  const nounOf = (word: string | undefined) => {
    const entry = word === undefined ? undefined : table.forms.get(word.toLowerCase());
    return entry?.noun === true && entry.pattern !== pattern ? entry : undefined;
  };
  const last = nounOf(second);
  const entry = last ?? nounOf(first);
  if (entry === undefined) return found;
  const end = from + (last !== undefined ? whole.length : whole.length - second.length);
  // Only a call that schedules ("schedule_deletion") backs the scheduling itself: the booking's other
  // tool words ("create", "update") would let update_account back "scheduled for deletion".
  const scheduling = pattern.tools.filter((t) => /^(?:re)?schedul/i.test(t.trim()));
  const claims = found.claims.map((claim, i): Claim => {
    const quote =
      i === found.claims.length - 1 ? `${claim.quote}${objects.slice(from, end)}`.trim() : claim.quote;
    const booking: Claim[] =
      scheduling.length === 0 ? [] : [{ ...claim, quote, pattern: { ...pattern, tools: scheduling } }];
    return {
      quote,
      action: entry.pattern.action,
      pattern: entry.pattern,
      objects: claim.objects,
      alternatives: [...booking, ...(claim.alternatives ?? [])],
    };
  });
  const own = found.claims.indexOf(found.claim);
  return { ...found, claim: claims[own < 0 ? 0 : own]!, claims };
}
