import type { ClaimPattern } from '../grading/types.js';

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
}

const ADVERBS = String.raw`(?:just|now|also|already|successfully|then|finally|gone ahead and|went ahead and)`;
/** "I", "we", optionally "have"/"'ve", then adverbs, right before the verb. */
const SUBJECT = new RegExp(String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS})*\s+$`, 'i');
/** "has been", "was", "is now" right before the verb: a passive claim about the noun before it. */
const PASSIVE = new RegExp(
  String.raw`\s+(?:(?:has|have|had)(?:\s+${ADVERBS})*\s+been|(?:was|were|is|are)(?:\s+${ADVERBS})*)(?:\s+successfully)?\s+$`,
  'i',
);
/** Nothing but a bullet, a "Done:" or a joining word before a clause-initial verb ("Deleted the draft."). */
const LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:done|ok|okay|great|success|all set|sure|and|then|also|plus)[\s,:!.\-–—]+)*(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** What may follow a "noun verb" claim ("Refund issued.", "ticket created for you"). */
const NOUN_CLAIM_END = /^\s*(?:[.!,;:)]|$|(?:successfully|for|to|with|and)\b)/i;
/** After a past passive, what makes it a report of history, not a claim ("was created by Ana", "on May 3"). */
const HISTORY =
  /^\s+(?:by\s+(?!me\b|us\b)|on\b|in\s+(?:\d|january|february|march|april|may|june|july|august|september|october|november|december)|yesterday\b|last\b|earlier\b|previously\b|before\b|\d)/i;
/** Words in the clause before the verb that make it no claim: negation, condition, future, modality. */
const HEDGE =
  /\b(?:not|never|no|cannot|unable|if|whether|would|could|should|will|can|may|might|unless|once|until)\b|n['’]t\b/i;
/** Words that end the object phrase after a verb, or the noun phrase before one. */
const STOP = new Set(
  'for to on in at with and or but from by so because as which who using via into of onto than then since while per'.split(
    ' ',
  ),
);
const DETERMINERS = new Set(
  'the a an your my our their his its this that these those all both each every some any new old requested following existing selected same'.split(
    ' ',
  ),
);
/** Object words that name nothing a tool name could match: the claim then names no object. */
const GENERIC = new Set(
  'it them that this those these they everything all you me us something anything one ones'.split(' '),
);
/** Words that cannot end the noun phrase of a claim about a thing: people and auxiliaries. */
const NOT_THINGS = new Set('i we you he she me us him her has have had was were is are been be'.split(' '));

/**
 * Finds the statements of a response that claim a completed action, by the patterns' verbs in four
 * forms: first person ("I've created the ticket", "we deleted it"), passive ("the ticket has been
 * created", "your refund was issued"), a clause that starts with the verb ("Deleted the draft.",
 * "Done: sent the email") and noun then verb ("Refund issued."). Questions, and clauses with a
 * negation, a condition or a future or modal word before the verb ("I haven't deleted", "if I
 * delete", "I will create") are not claims. Each claim carries the object it names, if any.
 *
 * @example
 * ```ts
 * findClaims("I've deleted the draft. Anything else?", DEFAULT_CLAIM_PATTERNS);
 * // [{ quote: "I've deleted the draft", action: 'delete', objects: ['draft'], pattern }]
 * ```
 */
export function findClaims(response: string, patterns: readonly ClaimPattern[]): Claim[] {
  const claims: Claim[] = [];
  for (const clause of clauses(response)) {
    const taken = new Set<number>();
    for (const pattern of patterns) {
      for (const verb of pattern.verbs) {
        const re = new RegExp(
          String.raw`\b${verb
            .trim()
            .split(/\s+/)
            .map(escape)
            .join(String.raw`\s+`)}\b`,
          'gi',
        );
        for (const match of clause.matchAll(re)) {
          if (taken.has(match.index)) continue;
          const claim = claimAt(clause, match.index, match[0].length, pattern);
          if (claim) {
            taken.add(match.index);
            claims.push(claim);
          }
        }
      }
    }
  }
  return claims;
}

/** Sentences split at . ! ? ; and line breaks, then at commas; questions dropped. */
function clauses(response: string): string[] {
  return response
    .split(/(?<=[.!?])\s+|[;\n]+/)
    .filter((sentence) => !sentence.trim().endsWith('?'))
    .flatMap((sentence) => sentence.split(/,\s*/))
    .map((clause) => clause.trim())
    .filter((clause) => clause !== '');
}

function claimAt(clause: string, at: number, length: number, pattern: ClaimPattern): Claim | undefined {
  const before = clause.slice(0, at);
  const after = clause.slice(at + length);
  if (HEDGE.test(before)) return undefined;
  const made = (start: number, objects: string[], end: number): Claim => ({
    quote: clause.slice(start, end).trim(),
    action: pattern.action,
    pattern,
    objects: objects.filter((w) => !GENERIC.has(w)),
  });
  const subject = SUBJECT.exec(before);
  if (subject) {
    const { words, consumed } = objectAfter(after);
    return made(subject.index, words, at + length + consumed);
  }
  const passive = PASSIVE.exec(before);
  if (passive && !(/\b(?:was|were)\b/i.test(passive[0]) && HISTORY.test(after))) {
    // "The ticket has been created"; "You have been refunded" claims a refund to a person.
    const head = before.slice(0, passive.index);
    const noun = nounBefore(head) ?? personBefore(head);
    return noun ? made(noun.start, noun.words, at + length) : undefined;
  }
  if (LEAD.test(before)) {
    const { words, consumed } = objectAfter(after);
    return made(at, words, at + length + consumed);
  }
  if (!passive && NOUN_CLAIM_END.test(after)) {
    const noun = nounBefore(before);
    return noun ? made(noun.start, noun.words, at + length) : undefined;
  }
  return undefined;
}

/** The object phrase right after the verb: up to three content words, up to a stop word or punctuation. */
function objectAfter(after: string): { words: string[]; consumed: number } {
  const words: string[] = [];
  let consumed = 0;
  const re = /\s*([^\s.,;:!?()]+)/y;
  for (let m = re.exec(after); m && words.length < 3; m = re.exec(after)) {
    const word = m[1]!.toLowerCase().replace(/^['"“]|['"”]$/g, '');
    if (STOP.has(word)) break;
    consumed = re.lastIndex;
    if (DETERMINERS.has(word) || /[\d#$€£%]/.test(word) || !/\p{L}/u.test(word)) continue;
    words.push(word);
  }
  return { words, consumed };
}

/**
 * The noun phrase that ends right where `before` ends ("the ticket", "Order #W1", "it"): up to
 * three words back, to a determiner, a stop word or a person. Undefined when the words before are
 * a person or an auxiliary ("I was", "you"), so the verb is no claim about a thing.
 */
function nounBefore(before: string): { words: string[]; start: number } | undefined {
  const tokens = [...before.matchAll(/[^\s.,;:!?()]+/g)];
  const last = tokens[tokens.length - 1];
  if (last === undefined || before.slice(last.index + last[0].length).trim() !== '') return undefined;
  const words: string[] = [];
  let start = -1;
  for (let i = tokens.length - 1; i >= 0 && i >= tokens.length - 4; i--) {
    const token = tokens[i]!;
    const word = token[0].toLowerCase();
    if (DETERMINERS.has(word) && start >= 0) {
      start = token.index;
      break;
    }
    if (STOP.has(word) || NOT_THINGS.has(word) || DETERMINERS.has(word) || !/\p{L}/u.test(word)) break;
    start = token.index;
    if (!/[\d#$€£%]/.test(word)) words.unshift(word);
    if (GENERIC.has(word)) break;
  }
  return start < 0 ? undefined : { words, start };
}

function personBefore(before: string): { words: string[]; start: number } | undefined {
  const person = /\b(?:you|he|she|they|we)\s*$/i.exec(before);
  return person ? { words: [], start: person.index } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
