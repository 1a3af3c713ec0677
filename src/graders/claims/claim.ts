/**
 * The types of claims_grader's claim extraction: a claim (re-exported by claim-extraction.ts) and
 * a reading of a verb that makes claims.
 */

import type { ClaimPattern } from '../../grading/types.js';

/**
 * One statement in a response that claims a completed action.
 *
 * @example
 * ```ts
 * const claim: Claim = { quote: "I've deleted the draft", action: 'delete', pattern, objects: ['draft'] };
 * ```
 */
export interface Claim {
  /** The words of the response that make the claim, as written. */
  quote: string;
  /** The claimed action (the pattern's `action`). */
  action: string;
  pattern: ClaimPattern;
  /** The object the claim names ("the ticket" gives `['ticket']`); empty when it names none. */
  objects: string[];
  /**
   * Other readings of the same words, any of which a call may back instead: "I processed the
   * cancellation" claims the cancellation, and also a processing of it.
   */
  alternatives?: Claim[];
}

/**
 * A claim and how it was made: `agent` when someone did the verb to the object after it ("I
 * deleted the draft", "Deleted the draft"), `patient` when the verb was done to the noun before it
 * ("The ticket has been created", "Refund issued"). `past` marks a "was"/"were" passive, which a
 * date or another actor after it turns into history.
 */
export interface Found {
  /** The claim of the verb: about its first object, or the noun right before it. */
  claim: Claim;
  /** Every claim the verb makes, in the order of the response: one per object it names. */
  claims: Claim[];
  kind: 'agent' | 'patient';
  past?: boolean;
  /** Where the verb ends in the clause. */
  verbEnd: number;
  /** Where the objects after the verb end in the clause (a verb done to the objects after it). */
  objectsEnd?: number;
  /** A passive of a plural ("have been", "were", "are"): its noun may end a list ("..., and the FAQ have been deleted"). */
  plural?: boolean;
  /** A base form after "I was able to" or "we managed to". */
  able?: boolean;
}
