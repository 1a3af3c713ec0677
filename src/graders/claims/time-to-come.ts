/**
 * A verb in a clause about a time to come is no claim ("When the refund is processed, you'll get an
 * email"): the time words, the tenses of a clause and of the main clause it is about.
 */

import { DETERMINERS, STOP, WORDS } from './lexicon.js';

/** Words that open a clause about a time: "when", "after", "as soon as", "before", "once", "until". */
const TEMPORAL = /\b(?:when(?:ever)?|after|as\s+soon\s+as|before|once|until|till|by\s+the\s+time)\b/gi;
/** An auxiliary of the present or the present perfect: "is", "are", "has (been)", "'s", "'ve". */
const PRESENT_AUX = /\b(?:is|are|am|has|have)\b|['’](?:s|re|ve|m)\b/i;
/** An auxiliary of the past: "was", "were", "had", "did", "'d". */
const PAST_AUX = /\b(?:was|were|had|did)\b|['’]d\b/i;
/** Bullets and joining words before a clause's first word. */
const LEADING_JOIN =
  /^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:and|then|so|but|also|plus|now|just|right|shortly|soon|only|even)\s+)*/iu;
/** A main clause about what will or may happen: "you'll get", "we will send", "you can". */
const FUTURE_MAIN =
  /\b(?:will|shall|won['’]t|going\s+to|gonna|can|could|may|might|must|should|would|need\s+to|needs\s+to|have\s+to|has\s+to)\b|['’]ll\b/i;
/** A main clause that asks the user to do something: "check your inbox", "please let us know". */
const IMPERATIVE_MAIN =
  /^(?:(?:and|then|so|just)\s+)*(?:please|kindly|let|check|contact|expect|feel|reach|keep|make|watch|look|wait|note|allow|give|visit|call|reply|log|sign|click|go|try|use|remember|do|don['’]t|see|be|refresh|open)\b/i;
/** A main clause in the present: "you get an email", "the order disappears", "it's gone". */
const PRESENT_MAIN =
  /\b(?:is|are|am|has|have|do|does|don['’]t|doesn['’]t|isn['’]t|aren['’]t|get|gets|receive|receives|take|takes|need|needs|see|sees|show|shows|appear|appears|disappear|disappears|go|goes|come|comes|become|becomes|remain|remains|stay|stays|arrive|arrives|return|returns|move|moves|start|starts|begin|begins|happen|happens|reflect|reflects|expire|expires|lose|loses|mean|means)\b|['’](?:re|m)\b|\b(?:it|that|this|there|he|she|what)['’]s\b/i;
/** A main clause in the past: "you got an email", "I refunded it", "it was". */
const PAST_MAIN =
  /\b(?:was|were|had|did|didn['’]t|wasn['’]t|weren['’]t|got|went|came|saw|received|became|took|found|made|sent)\b|['’]d\b|\b(?:i|we|you|they|he|she|it)\s+\p{L}+ed\b/iu;

/** Pronouns of people: a subject of their own. */
const PEOPLE = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'it']);

/**
 * The words between a time word and its clause's auxiliary are a subject ("the refund", "your
 * order", "I"), not a phrase of the time word ("After review your refund has been approved": a
 * determiner after "review" starts another phrase; "After that your order has been cancelled").
 */
function opensSubject(inner: string): boolean {
  const words = (inner.match(WORDS) ?? []).map((w) => w.toLowerCase());
  // "After that your order has been cancelled": "after that" is a time of its own.
  if (
    /^(?:that|this|which)$/.test(words[0] ?? '') &&
    (DETERMINERS.has(words[1] ?? '') || PEOPLE.has(words[1] ?? ''))
  )
    return false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (PRESENT_AUX.test(word) && !/^\p{L}+['’]s$/u.test(word)) return true;
    const prev = words[i - 1];
    if (prev !== undefined && DETERMINERS.has(word) && !DETERMINERS.has(prev) && !STOP.has(prev))
      return false;
  }
  return true;
}

/**
 * The verb at `at` is inside a clause about a time to come: opened by "when", "after", "as soon
 * as", "before" (or "once", "until"), its verb in the present or the present perfect ("When the
 * refund is processed", "after your order has been cancelled"), and the clause it is about says
 * what will or does happen, or asks the user for something ("you'll get an email", "you get an
 * email", "check your inbox"), in the same clause or the one after (`next`), or the one before
 * (`previous`) when neither says anything. After "before", "until" or "till" a present is to come
 * whatever the main clause says ("I cancelled your order before the refund is issued" claims no
 * refund). A past is a claim: "After I cancelled the order, I refunded it" claims both, "When your
 * order was cancelled, you got an email" the cancellation.
 */
export function aboutTimeToCome(
  clause: string,
  at: number,
  verbEnd: number,
  next = '',
  previous = '',
): boolean {
  const before = clause.slice(0, at);
  let conj: RegExpExecArray | undefined;
  TEMPORAL.lastIndex = 0;
  for (let m = TEMPORAL.exec(before); m !== null; m = TEMPORAL.exec(before)) conj = m;
  if (conj === undefined) return false;
  const inner = clause.slice(conj.index + conj[0].length, at);
  if (!PRESENT_AUX.test(inner) || PAST_AUX.test(inner) || !opensSubject(inner)) return false;
  // "I cancelled your order before the refund is issued": what comes before or until a present has
  // not happened yet, whatever the main clause says.
  if (/^(?:before|until|till)$/i.test(conj[0])) return true;
  const pre = clause.slice(0, conj.index).replace(LEADING_JOIN, '').trim();
  let parts: string[];
  if (pre !== '') {
    parts = [pre];
  } else {
    // The rest of the clause, up to another clause joined by "and", and the clause after.
    const rest = clause.slice(verbEnd);
    const join = rest.search(/\b(?:and|but|or|so|then)\b|&/i);
    parts = [(join < 0 ? rest : rest.slice(0, join)).trim(), next.trim()].filter((p) => /\p{L}/u.test(p));
    if (parts.length === 0 && /\p{L}/u.test(previous)) parts = [previous.trim()];
  }
  if (parts.length === 0) return false;
  const main = parts.join(', ');
  const future = FUTURE_MAIN.test(main);
  if (PAST_MAIN.test(main) && !future) return false;
  return future || PRESENT_MAIN.test(main) || parts.some((p) => IMPERATIVE_MAIN.test(p));
}
