import type { ClaimPattern } from '../grading/types.js';
import { DEFAULT_CLAIM_NOUNS } from './claim-patterns.js';

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
 * Actions whose verbs say only that some work was done ("processed", "executed"): an action noun
 * they are said of names the work ("Your cancellation has been processed" claims a cancellation).
 */
const GENERIC_ACTIONS: ReadonlySet<string> = new Set(['process']);

const isGeneric = (pattern: ClaimPattern): boolean =>
  GENERIC_ACTIONS.has(pattern.action.trim().toLowerCase());

/**
 * Markdown emphasis and code marks ("**deleted**", "_draft_", "`staging`"), dropped before reading
 * so they split no phrase: a single `*` or `_` only at a word's edge (not a bullet, not snake_case).
 */
const EMPHASIS = /\*\*|__|`|(?<![\p{L}\d])[*_](?=[\p{L}\d])|(?<=[\p{L}\d.!?:])[*_](?![\p{L}\d])/gu;
/**
 * Words someone else said, quoted after a verb of saying ("You said \"I already deleted the
 * draft\"", "You wrote: “I have cancelled my order.”"): not the agent's statements; the quote is
 * dropped before reading. The agent's own ("As I said: \"...\"") and a quoted title ("the post
 * titled \"Summer Sale\"") stay.
 */
/**
 * "I can confirm" and "we can verify" report, as "I confirm" does ("I can confirm that your order
 * has been cancelled" claims the cancellation): the "can" is no hedge there. Read as "I confirm";
 * "I can confirm whether ...", "I cannot confirm ..." and "Can I confirm ...?" keep their readings.
 */
const CAN_CONFIRM =
  /\b(i|we)\s+can\s+(?:(?:now|also|happily|gladly|definitely|certainly)\s+)?(confirm|verify)\b/giu;
const QUOTED_SPEECH =
  /\b(?<!\b(?:i|we)(?:\s{1,5}(?:just|already|also))?\s{1,5})(said|says|wrote|writes|asked|mentioned|told\s+(?:me|us)|replied|stated|claimed|reported|noted)(\s{0,5}[:,]?\s{0,5})["“][^"”\n]{1,400}["”]/giu;
/**
 * The end of a line that introduces someone else's words ("You wrote:", "Ana said this:", "Your
 * message:"): a blockquote right after it quotes them. Not the agent's own ("As I said:").
 */
const QUOTE_INTRO =
  /(?:(?<!\b(?:i|we)(?:\s{1,5}(?:just|already|also))?\s{1,5})\b(?:said|says|wrote|writes|asked|mentioned|told\s+(?:me|us)|replied|stated|claimed|reported|noted)(?:\s+(?:this|that|the\s+following))?|\b(?:your|their|his|her|the\s+(?:customer|user)['’]s)\s+(?:message|request|email|note|reply))\s*:\s*$/iu;
/** A blockquote line: "> ...". */
const QUOTE_LINE = /^[ \t]{0,3}>/;

/**
 * The response without each blockquote that follows a line introducing someone else's words
 * ("You wrote:" then "> I already deleted the draft", a blank line between or not): quoted, not the
 * agent's statements. Each
 * dropped line leaves a line break. A blockquote with no such line stays: it may be the agent's.
 */
function withoutQuotedBlocks(response: string): string {
  if (!response.includes('>')) return response;
  const lines = response.split('\n');
  let quoted = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!QUOTE_LINE.test(line)) quoted = false;
    else if (quoted || introduced(lines, i)) {
      quoted = true;
      lines[i] = '';
    }
  }
  return lines.join('\n');
}

/** The line before line `i`, or the one before a blank line there, introduces someone else's words. */
const introduced = (lines: readonly string[], i: number): boolean => {
  const before = lines[i - 1]?.trim() === '' ? lines[i - 2] : lines[i - 1];
  return before !== undefined && QUOTE_INTRO.test(before);
};
/** "logged in", "logged into", "logged out": signing in or out, not a log entry created. */
const SIGN_IN = /^log(?:ged)?\s+(?:in|into|on|out|off)\b/i;
/**
 * "opened" and a thing one views ("opened the settings page", "opened a new tab", "opened your
 * email"): looking at it, not creating it, as "opened a ticket" is.
 */
const OPENED_VIEW =
  /^open(?:ed)?\s+(?:(?:the|a|an|your|my|our|their|this|that|its|new)\s+){0,2}(?:[\p{L}\d._-]+\s+){0,2}?(?:pages?|tabs?|windows?|files?|links?|urls?|settings|dashboard|app|browser|menu|documents?|folders?|editor|console|terminal|site|website|panel|view|screen|dialog|modal|preview|inbox|spreadsheet|notebook|pdf|attachments?|emails?|messages?|logs)\b/iu;
/** A markdown table row: a line between pipes. */
const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** The separator row under a table's header: pipes, dashes, colons ("|---|:---:|"). */
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

/**
 * The response with each markdown table (a header row, a separator row, then rows) read as lines: a
 * row's first cell on a line of its own ("| Deleted the draft | ✅ |": "Deleted the draft"), and
 * each other cell after the first column's name and the first cell, as a label ("| Order | Status
 * |" over "| #1234 | Cancelled |": "Order #1234: Cancelled"). The header row says nothing.
 */
function tablesAsLines(response: string): string {
  if (!response.includes('|')) return response;
  const lines = response.split('\n');
  const out: string[] = [];
  let header: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (TABLE_ROW.test(line) && TABLE_SEPARATOR.test(lines[i + 1] ?? '')) {
      header = cells(line);
      out.push('', '');
      i++;
    } else if (header !== undefined && TABLE_ROW.test(line)) {
      const [first = '', ...rest] = cells(line);
      const label = `${header[0] ?? ''} ${first}`.trim();
      out.push([first, ...rest.filter((c) => c !== '').map((c) => `${label}: ${c}`)].join('\n'));
    } else {
      header = undefined;
      out.push(line);
    }
  }
  return out.join('\n');
}

/** A line that opens a fenced code block: three or more backticks or tildes, then an info string. */
const FENCE_OPEN = /^[ \t]{0,3}(`{3,}|~{3,})/;
/** A line that may close one: nothing but the fence. */
const FENCE_CLOSE = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * The response without its fenced code blocks (from a fence line to the next fence line of the same
 * character, at least as long): code and command output, not statements of the response ("//
 * draft deleted", "Deleted branch feature/x"). Each block leaves a line break; an unclosed fence
 * drops nothing. Linear: each line is looked at a bounded number of times.
 */
function withoutCode(response: string): string {
  if (!response.includes('```') && !response.includes('~~~')) return response;
  const lines = response.split('\n');
  // For each line, the closing-fence lines after it, nearest first, per fence character: a list
  // shared from the line on, so the whole table is linear.
  const closers: Array<Record<string, Closer | undefined>> = new Array<Record<string, Closer | undefined>>(
    lines.length,
  );
  let after: Record<string, Closer | undefined> = {};
  for (let i = lines.length - 1; i >= 0; i--) {
    closers[i] = after;
    const close = FENCE_CLOSE.exec(lines[i]!);
    if (close)
      after = {
        ...after,
        [close[1]![0]!]: { line: i, length: close[1]!.length, next: after[close[1]![0]!] },
      };
  }
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE_OPEN.exec(lines[i]!)?.[1];
    let close = fence === undefined ? undefined : closers[i]![fence[0]!];
    // A shorter fence inside the block does not close it.
    for (let tries = 0; close !== undefined && close.length < fence!.length && tries < 20; tries++)
      close = close.next;
    if (close !== undefined && close.length >= fence!.length) {
      kept.push('');
      i = close.line;
    } else {
      kept.push(lines[i]!);
    }
  }
  return kept.join('\n');
}

/** A closing-fence line, and the next one of the same character after it. */
interface Closer {
  line: number;
  length: number;
  next: Closer | undefined;
}
const ADVERBS = String.raw`(?:just|now|also|already|indeed|successfully|then|finally|gone ahead and|went ahead and)`;
/**
 * The adverbs, any "-ly" adverb ("permanently", "fully"), and the words that say how many did it
 * ("have all been closed", "I've both cancelled"): between a subject or passive and its verb.
 */
const ADVERBS_ALL = String.raw`(?:${ADVERBS}|all|both|\p{L}+ly)`;
/** "I", "we", optionally "have"/"'ve", then adverbs, right before the verb. */
const SUBJECT = new RegExp(
  String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS_ALL})*\s+$`,
  'iu',
);
/**
 * "has been", "was", "is now", "'s been", "'ve been", "'s", "'re" right before the verb: a passive
 * claim about the noun before it ("Your order's been cancelled", "They've been refunded").
 */
const PASSIVE = new RegExp(
  String.raw`(?:(?:\s+(?:has|have|had)|['’](?:s|ve|d))(?:\s+${ADVERBS_ALL})*\s+been(?:\s+${ADVERBS_ALL})*|(?:\s+(?:was|were|is|are)|['’](?:s|re))(?:\s+${ADVERBS_ALL})*)(?:\s+successfully)?\s+$`,
  'iu',
);
/** Adverbs that make a passive a report of what happened before or by itself ("was previously deleted"). */
const HISTORY_ADVERB = /\b(?:previously|originally|automatically|recently)\b/i;
/** Past verbs that, with "to", claim the verb after them: "I managed to cancel", "I proceeded to cancel". */
const DID_TO = String.raw`(?:managed|proceeded|went\s+on|made\s+sure)`;
/**
 * "I was able to", "we've been able to", "I managed to", "I proceeded to", "I did" right before a
 * verb's base form.
 */
const ABLE = new RegExp(
  String.raw`\b(?:i|we)(?:(?:(?:\s+(?:was|were)|(?:['’]ve|\s+have)\s+been)(?:\s+${ADVERBS_ALL})*\s+able|(?:['’]ve|\s+have)?(?:\s+${ADVERBS_ALL})*\s+${DID_TO})\s+to|(?:\s+${ADVERBS_ALL})*\s+did(?:\s+${ADVERBS_ALL})*)\s+$`,
  'iu',
);
/**
 * "I was able to", "I managed to" and another verb, then "and" right before a verb's base form:
 * "I was able to find your order and cancel it" (the verb after "and" shares the "able to").
 */
const ABLE_THEN = new RegExp(
  `${ABLE.source.slice(0, -1)}\\p{L}+\\b[^.;!?]{0,200}?\\s(?:and|&)(?:\\s+${ADVERBS})*\\s+$`,
  'iu',
);
/**
 * "managed to", "proceeded to", "was able to" with no subject of their own right before a verb's
 * base form: after "and", the two read as one past verb ("I found your order and proceeded to
 * cancel it" as "... and cancelled it").
 */
const TO_BASE = new RegExp(
  String.raw`\b(?:${DID_TO}|(?:was|were)(?:\s+${ADVERBS_ALL})*\s+able)\s+to(?:\s+${ADVERBS})*\s+$`,
  'iu',
);
/** The base forms of the irregular past verbs of the default patterns. */
const IRREGULAR_BASE: Readonly<Record<string, string>> = {
  sent: 'send',
  paid: 'pay',
  reset: 'reset',
  set: 'set',
  got: 'get',
  gotten: 'get',
};
/** A past verb ("pushed") opening a clause that goes on a list of what "I" or "we" did. */
const CONTINUED_VERB = /^\s*(?:and\s+|then\s+)?\p{L}+ed\b/iu;
/**
 * A past verb outside the patterns opening a clause, after a bullet or a number ("Fixed the typo",
 * "- Checked the logs", "Wrote the migration"): a verb of the writer, as a clause-initial claim is.
 * Not a word in "-eed" ("Need", "Seed").
 */
const OPENING_VERB =
  /^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:\p{L}{2,}(?<!e)ed|wrote|rewrote|made|built|rebuilt|ran|reran|found|took)\b/iu;
/** A bare "'s" or "'re" (not "'s been"): "is" or "are", or a possessive ("Ana's deleted posts"). */
const CONTRACTED_IS = /^['’](?:s|re)\b(?![\s\S]*\bbeen\b)/i;
/** A passive, a participle and "and" right before the verb ("was shipped and "): 1 the passive, 2 the participle. */
const PASSIVE_AND = new RegExp(
  String.raw`(\s+(?:(?:has|have|had)(?:\s+${ADVERBS})*\s+been|(?:was|were|is|are)(?:\s+${ADVERBS})*))\s+(\p{L}+)\s+(?:and|&)(?:\s+${ADVERBS})*\s+$`,
  'iu',
);
/**
 * Nothing but a bullet, a heading mark, a "Done:", a "Yes" or a joining word before a clause-initial
 * verb ("Deleted the draft.", "Yep — deleted.").
 */
const LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*(?:(?:done|ok|okay|great|success|all set|sure|yes|yep|yeah|and|then|also|plus)(?:[\s,:!.\-–—]|\p{Extended_Pictographic}|\uFE0F)+)*(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** The same after a short label and a colon or dash ("Update: deleted the draft", "Step 2 — Deleted the draft"). */
const LABELLED_LEAD = new RegExp(
  String.raw`^(?:[\s\-*•>#\d.)]|\p{Extended_Pictographic}|\uFE0F)*[\p{L}\d][\p{L}\d\s'’#-]{0,30}?(?::|\s[–—]|\s-)\s+(?:${ADVERBS}\s+)*$`,
  'iu',
);
/** What may follow a "noun verb" claim ("Refund issued.", "ticket created for you", "Page updated ✅"). */
const NOUN_CLAIM_END = /^\s*(?:[.!,;:)]|$|\p{Extended_Pictographic}|(?:successfully|for|to|with|and)\b)/iu;
/** A label's colon or dash between a noun and its verb ("Refund: issued", "Order 42 — cancelled"). */
const LABEL = /\s*[:–—]\s*$|\s+-\s+$/u;
/** Label words that name no thing: "Status: closed" claims a close, of no object. */
const FIELDS = new Set('status state result outcome action update summary note done'.split(' '));
/**
 * Words that make the words after a clause-initial participle a clause of its own, the participle
 * describing its subject ("Deleted items stay in the trash", "Archived posts are read-only").
 */
const FINITE =
  /^(?:is|are|was|were|remain|remains|stay|stays|has|have|had|can|cannot|can['’]t|will|won['’]t|would|may|might|must|should|do|does|don['’]t|doesn['’]t|take|takes|get|gets|go|goes|show|shows|appear|appears|need|needs|expire|expires|look|looks)$/i;
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
const DONE_BY_ANOTHER = new RegExp(String.raw`\b${BY_ANOTHER}`, 'i');
/** Words that say the user asked for it ("as you asked", "per your request", "like you asked"). */
const ON_REQUEST =
  /\b(?:as\s+(?:you\s+)?(?:asked|requested|instructed)|(?:per|at)\s+your\s+(?:request|instructions?|direction)|like\s+you\s+asked)\b/i;

/**
 * The words after a past passive make it a report of history ({@link HISTORY}), unless a time is
 * followed by the user's request, in the same clause or opening the next (`next`): "Your order was
 * cancelled last night as you asked" and "... yesterday, as requested" are claims; "was cancelled
 * by the shop, as you asked us to check" is still someone else's doing.
 */
function isHistory(after: string, next = ''): boolean {
  if (!HISTORY.test(after)) return false;
  if (DONE_BY_ANOTHER.test(after)) return true;
  // Clauses are trimmed: a request that opens the next one is at its start.
  return !ON_REQUEST.test(after) && ON_REQUEST.exec(next)?.index !== 0;
}
/** The words that join a verb or an object to the one before it: "and", "&", "plus", "as well as". */
const AND_WORDS = String.raw`(?:and|&|plus|as\s+well\s+as)`;
/**
 * The joining words between two verbs of one subject, right before the second verb ("and then"),
 * with the perfect's "have" or "had" among the adverbs ("and have cancelled it", "and have now").
 */
const JOIN = new RegExp(String.raw`(?:^|\s)(?:${AND_WORDS}|then)(?:\s+(?:${ADVERBS}|have|had))*\s+$`, 'i');
const ONLY_ADVERBS = new RegExp(String.raw`^(?:\s+${ADVERBS})*\s*$`, 'i');
/**
 * What follows "No", "Nr." or "No." when it is the number sign, not a negation: a number or an id
 * ("Order No. 1234", "No 42", "No. W1").
 */
const ID_AHEAD = String.raw`\.?\s*[#№]?[a-z]{0,3}-?\d`;
/** An object that negates the verb: "I changed nothing", "sent no email" (not "cancelled No. 1234"). */
const NONE = new RegExp(String.raw`^\s+(?:nothing|none|neither|no(?!${ID_AHEAD}))\b`, 'i');
/**
 * The end of the words before a noun phrase that make it none of the things ("None of the orders",
 * "nothing else"), or its first word when it is such a word ("Nothing was deleted", "Neither draft
 * was published", "Nobody was refunded"): a passive or noun-verb claim about it claims nothing.
 */
const NEGATED_BEFORE =
  /(?:^|[^\p{L}])(?:none|neither|nobody)(?:\s+of)?(?:\s+(?:the|your|my|our|their|these|those|this|that|its))?\s*$/iu;
const NEGATED_FIRST = /^(?:nothing|none|neither|nobody)\b/i;
const negatedNoun = (head: string, start: number): boolean =>
  NEGATED_FIRST.test(head.slice(start)) || NEGATED_BEFORE.test(head.slice(0, start));
/** Words that open a clause of their own, so a verb after them need not share the subject before. */
const SUBORDINATE = new Set(
  'that which who whom whose where when while if because since unless until once so but or nor although though whether after before'.split(
    ' ',
  ),
);
/**
 * Words in the clause before the verb that make it no claim: negation, condition, future, modality
 * (not the month: "from May 3", "in May").
 */
const HEDGE = new RegExp(
  String.raw`\b(?:not|never|no(?!${ID_AHEAD})|cannot|unable|if|whether|would|could|should|will|can|may(?!\s+\d)(?<!\b(?:from|in|on|of|for|since|until|before|after|by|last|this|next|early|late|mid)\s+may)|might|unless|once|until|probably|likely|possibly|maybe|perhaps|supposedly)\b|n['’]t\b`,
  'i',
);
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
/** A number, #id or amount without letters: "1234", "#42", "7", "$20", "2024-05-01". */
const NUMBER = /^[#№$€£]?\d[\d.,:\-/%]*$/;
/** Object words that name nothing a tool name could match: the claim then names no object. */
const GENERIC = new Set(
  'it them that this those these they everything all you me us something anything one ones'.split(' '),
);
/** Object words that name the work, not a thing a call would mention ("Changes saved", "your edits"). */
const WORK_WORDS = new Set(['change', 'changes', 'edit', 'edits']);
/**
 * Words that cannot end the noun phrase of a claim about a thing: people and auxiliaries ("being":
 * "Your refund is being processed" is work in progress, no claim).
 */
const NOT_THINGS = new Set(
  'i we you he she me us him her has have had was were is are been be being'.split(' '),
);
/** Words after "I" or "we" that are no verb of their own ("I am", "we did"), so nothing is joined to them. */
const NO_VERB = new Set([...NOT_THINGS, 'am', 'do', 'does', 'did', 'and', 'or', 'nor', 'but']);
/** Currency words: with an amount they name money, which no tool name or argument needs to mention. */
const CURRENCY = new Set('dollar dollars euro euros pound pounds cent cents usd eur gbp bucks'.split(' '));
/** An amount of money or a share: "$20", "€15.50", "20€", "50%". */
const AMOUNT = /^[$€£¥₹]\d[\d.,]*$|^\d[\d.,]*[$€£¥₹%]$/;
/** "No", "Nr" or "Nos" before a number: the number sign, part of the id ("Order No. 1234"). */
const NUMBER_SIGNS = new Set(['no', 'nr', 'nos', 'num']);
/** Titles before a name ("Dr. Ana"): part of no object. */
const TITLES = new Set(['dr', 'st', 'mr', 'mrs', 'ms', 'prof', 'mt']);
/** Right after "No." or "No": the number or id it introduces. */
const ID_NEXT = new RegExp(`^${ID_AHEAD}`, 'i');
/**
 * The words of a phrase: anything but spaces and punctuation, with a number's "." or "," ("€15.50")
 * and a dot between letters or digits ("john@acme.com", "config.yaml").
 */
const WORDS = /(?:[^\s.,;:!?()]|(?<=\d),(?=\d)|(?<=[\p{L}\d])\.(?=[\p{L}\d]))+/gu;
/** The same, one at a time from `lastIndex`, past the spaces before. */
const WORD = /\s*((?:[^\s.,;:!?()]|(?<=\d),(?=\d)|(?<=[\p{L}\d])\.(?=[\p{L}\d]))+)/uy;
/**
 * Where a sentence ends: . ! or ? and a space, but not after an abbreviation that goes on ("Order
 * No. 1234", "Dr. Ana", "St. Mary's", "e.g. the draft"), and at ; and line breaks. "No." before a
 * word that is not an id still ends one ("No. I deleted the homepage").
 */
const SENTENCE_END = new RegExp(
  String.raw`(?<=[.!?])(?<!(?<![\p{L}\d])(?:[Ee]\.g|[Ii]\.e|[Cc]f|[Vv]iz)\.)(?!(?<=(?<![\p{L}\d])(?:[Nn][Oo]|[Nn][Rr]|[Nn]os|[Nn]um)\.)\s+[#№]?\p{Lu}{0,3}-?\d)(?!(?<=(?<![\p{L}\d])(?:Dr|St|Mr|Mrs|Ms|Prof|Mt)\.)\s+[\p{Lu}\d])\s+|[;\n]+`,
  'u',
);
/** A comma that ends a clause: not one inside a number ("$1,000") or between ids ("1234, 1235"). */
const CLAUSE_COMMA = /(?<!\d),\s*|,(?!\s*[#№$€£]?\d)\s*/;
/** "I" or "we" and the word after them, whatever verb it is ("I found", "we have checked"). */
const SUBJECT_VERB = new RegExp(
  String.raw`\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS})*\s+(\p{L}+)`,
  'giu',
);
/** "and", "&", "plus" or "as well as" before another object of the same verb. */
const AND_OBJECT = new RegExp(String.raw`^\s*${AND_WORDS}\s+`, 'i');
/** An "and" in a list item after a comma: it is the last item. */
const AND_ITEM = new RegExp(String.raw`(?:^|\s)${AND_WORDS}\s`, 'i');
/** The start of an item of a list after a comma: nothing, or "and" (then it is the last item). */
const LIST_ITEM = new RegExp(String.raw`^\s*(?:${AND_WORDS}\s+)?`, 'i');
/** Adverbs that may end a clause after its last object ("... and the homepage too."). */
const LAST_ADVERBS = 'too also again instead now already immediately today'.split(' ');
/** What may follow the last object of a verb: the end of the clause, a stop word ("to Ana"), an adverb. */
const PHRASE_END = new RegExp(
  String.raw`^\s*(?:(?:${LAST_ADVERBS.join('|')}|as\s+well|right\s+away)\s*(?=$|[.!?)])|$|[.!?)]|(?:${[...STOP].join('|')})\b)`,
  'i',
);
/** Pronouns that are a whole object: what follows them is not part of it ("deleted it right away"). */
const PRONOUNS = new Set(['it', 'them', 'everything', 'something', 'anything']);

/**
 * Each verb's whole-word regex, made once: findClaims runs for every response, and a pattern list
 * may be edited between runs, so regexes are kept by verb, not by list. Bounded, for lists made
 * per question.
 */
const verbRegexes = new Map<string, RegExp>();

function verbRegex(verb: string): RegExp {
  let re = verbRegexes.get(verb);
  if (re === undefined) {
    if (verbRegexes.size >= 2000) verbRegexes.clear();
    re = verbPattern(verb);
    verbRegexes.set(verb, re);
  }
  return re;
}

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
 * A passive after "it looks like" or "apparently" is a state read back ("It looks like the order was
 * already cancelled"), and "scheduled" in the present said of work a plan ("The update is scheduled
 * for next week"): neither is a claim.
 * "Scheduled for" an action noun claims the noun's action too, as another reading ("Your account
 * is scheduled for deletion").
 * A noun phrase after "and" with a verb of its own is no object of the verb before ("I cancelled the
 * order and your refund of $20 was successful").
 * A present passive of how things are done as a rule is no claim ("The refund is processed in 5–7
 * business days", "Refunds are issued automatically every Monday").
 * A passive asked of the user is no claim ("Please make sure the order is cancelled").
 * A verb in a clause about a time to come is no claim ("When the refund is processed, you'll get an
 * email"), nor is what the agent saw when it looked ("When I checked, the order had already been
 * cancelled").
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
      const hedged = sentence.findIndex((c) => HEDGE.test(c));
      read = {
        sentence,
        subjectLeads: subjectLeads(sentence),
        unhedged: hedged < 0 ? sentence.length : hedged,
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
    const taken = new Set<number>();
    // Where a generic verb ("processed") made its claim: an action noun it is said of may take it over.
    const generic = new Set<number>();
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
          afterOtherParticiple(clause, at, length, pattern, previous));
      // "Please make sure the order is cancelled", "When the refund is processed, you'll get an
      // email": asked of the user, or said of a time to come; no claim.
      if (
        found !== undefined &&
        (requested(clause, found) ||
          aboutTimeToCome(clause, at, found.verbEnd, sentence[index + 1], previous.at(-1)))
      )
        found = undefined;
      // "Your account is scheduled for deletion": a deletion too.
      if (found !== undefined) found = scheduledFor(clause, at, length, found, nouns);
      if (found) {
        taken.add(at);
        spans.push({
          start: Math.max(0, clause.indexOf(found.claims[0]!.quote)),
          end: found.objectsEnd ?? found.verbEnd,
        });
        if (isGeneric(pattern)) generic.add(at);
        claims.push(...found.claims);
        // "The draft, the homepage and the FAQ have been deleted": the list began in the clauses before.
        const first = found.claims[0]!;
        if (found.kind === 'patient' && found.claims.length > 1 && clause.startsWith(first.quote))
          claims.splice(
            claims.length - found.claims.length,
            0,
            ...listedBeforeClauses(sentence, index, pattern),
          );
        // "I deleted the draft, the homepage and the FAQ": the list goes on in the clauses after.
        if (found.objectsEnd !== undefined && clause.slice(found.objectsEnd).trim() === '')
          claims.push(...listedAfter(sentence, index + 1, pattern));
      }
      seen.push({ at, found });
    }
    // "Cancellation complete.", "I finished cancelling your order": an action named by its noun
    // or gerund, said to be done; in the order of the clause, among the verbs' claims.
    const nominal = nominalClaims(clause, nouns, taken, generic, spans, sentence[index + 1], previous.at(-1));
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

function verbPattern(verb: string): RegExp {
  return new RegExp(
    String.raw`\b${verb
      .trim()
      .split(/\s+/)
      .map(escape)
      .join(String.raw`\s+`)}\b`,
    'gi',
  );
}

/**
 * Sentences split at . ! ? ; and line breaks (not at abbreviations), then at commas; questions
 * dropped. Each clause comes with its index among the clauses of its sentence, and those clauses.
 * A clause longer than {@link MAX_CLAUSE_CHARS} is cut at spaces into pieces of at most that
 * many characters, each read as a clause.
 */
function clauses(response: string): Array<[number, string, string[]]> {
  return response
    .split(SENTENCE_END)
    .filter((sentence) => !sentence.trim().endsWith('?'))
    .flatMap((sentence) => {
      const parts = sentence
        .split(CLAUSE_COMMA)
        .flatMap((clause) => pieces(clause.trim()))
        .filter((clause) => clause !== '');
      return parts.map((clause, index): [number, string, string[]] => [index, clause, parts]);
    });
}

/**
 * The longest clause read whole. Each verb of a clause is read against the words before it, so a
 * clause of n characters with a verb every few words costs n squared: a model stuck repeating
 * itself ("created node 1 and created node 2 and ...", 160 KB without a comma) took half a minute
 * to grade. A real clause is a few hundred characters at most; a claim that straddles a cut of
 * such a run is the price of grading it in linear time.
 */
const MAX_CLAUSE_CHARS = 1000;

/** A clause, cut at the last space before every {@link MAX_CLAUSE_CHARS} characters when longer. */
function pieces(clause: string): string[] {
  if (clause.length <= MAX_CLAUSE_CHARS) return [clause];
  const out: string[] = [];
  let from = 0;
  while (clause.length - from > MAX_CLAUSE_CHARS) {
    const space = clause.lastIndexOf(' ', from + MAX_CLAUSE_CHARS);
    const to = space > from ? space : from + MAX_CLAUSE_CHARS;
    out.push(clause.slice(from, to).trim());
    from = to;
  }
  out.push(clause.slice(from).trim());
  return out;
}

/**
 * A claim and how it was made: `agent` when someone did the verb to the object after it ("I
 * deleted the draft", "Deleted the draft"), `patient` when the verb was done to the noun before it
 * ("The ticket has been created", "Refund issued"). `past` marks a "was"/"were" passive, which a
 * date or another actor after it turns into history.
 */
interface Found {
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
  /** A base form after "I was able to" or "we managed to". */
  able?: boolean;
}

/**
 * The claim of a verb's base form after "I was able to", "we've been able to" or "I managed to":
 * "I was able to cancel your order" claims the cancellation, as "I cancelled your order" does.
 */
function ableAt(clause: string, at: number, length: number, pattern: ClaimPattern): Found | undefined {
  const before = clause.slice(0, at);
  const able = ABLE.exec(before);
  if (able === null || HEDGE.test(before) || NONE.test(clause.slice(at + length))) return undefined;
  return { ...agent(clause, pattern, able.index, at + length), able: true };
}

/**
 * The claim of a verb's base form joined by "and" to another verb after "I was able to" or "I
 * managed to" ("I was able to find your order and cancel it"), quoted from the verb.
 */
function ableThen(clause: string, at: number, length: number, pattern: ClaimPattern): Found | undefined {
  const before = clause.slice(0, at);
  if (!ABLE_THEN.test(before) || HEDGE.test(before) || NONE.test(clause.slice(at + length))) return undefined;
  return { ...agent(clause, pattern, at, at + length), able: true };
}

/**
 * The claim of a verb's base form after "proceeded to", "managed to" or "was able to" with no
 * subject of their own, read as one past verb from there: joined by "and" to the claim or the verb
 * of "I" before it ("I deleted the draft and proceeded to cancel the order", "I found your order
 * and proceeded to cancel it"), as {@link coordinated} and {@link afterOtherVerb} read a past verb.
 */
function toBase(
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
 * The base forms a past verb may have ("cancelled": "cancel"; "deleted": "delete"; "sent":
 * "send"), the first word changed; candidates that are no word match nothing.
 */
function baseForms(verb: string): string[] {
  const [first = '', ...rest] = verb.trim().toLowerCase().split(/\s+/);
  const irregular = IRREGULAR_BASE[first];
  const forms =
    irregular !== undefined
      ? [irregular]
      : first.endsWith('ied')
        ? [`${first.slice(0, -3)}y`]
        : first.endsWith('ed')
          ? [first.slice(0, -1), first.slice(0, -2), ...(/(.)\1ed$/.test(first) ? [first.slice(0, -3)] : [])]
          : [];
  return forms.filter((f) => f.length >= 3).map((f) => [f, ...rest].join(' '));
}

function claimAt(
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
  if (HEDGE.test(before) || ERROR_MESSAGE.test(clause.slice(0, verbEnd))) return undefined;
  const subject = SUBJECT.exec(before);
  if ((subject || LEAD.test(before)) && NONE.test(after)) return undefined;
  if (subject) return agent(clause, pattern, subject.index, verbEnd);
  // "The draft, which you asked about, has been deleted": a passive opening the clause after an aside.
  const aside = previous.length >= 2 && ASIDE.test(previous[previous.length - 1]!);
  const passive = passiveBefore(before, after) ?? (aside ? PASSIVE.exec(` ${before}`) : null);
  const past = passive !== null && /\b(?:was|were)\b/i.test(passive[0]);
  if (passive && HISTORY_ADVERB.test(passive[0])) return undefined;
  // "The refund is processed in 5–7 business days": how it is done as a rule ("scheduled for
  // deletion in 30 days" names when, no habit).
  if (passive && isHabit(passive[0], after, !/^(?:re)?scheduled$/i.test(clause.slice(at, verbEnd))))
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
      return { claim, claims: first ? [first, claim] : [claim], kind: 'patient', past, verbEnd };
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
 * Words that say the agent saw a thing's state, not that it did the work: "it looks like", "it
 * seems (that)", "it appears", "apparently", "seemingly".
 */
const EVIDENTIAL = String.raw`(?:(?:it|this|that)\s+)?(?:looks|looked|seems|seemed|appears|appeared)(?:\s+(?:like|as\s+if|as\s+though))?(?:\s+that)?|apparently|seemingly`;
/** An evidential right before a passive's subject: "It looks like [the order] was cancelled". */
const READ_BACK_BEFORE = new RegExp(String.raw`(?:^|[^\p{L}\d'’])(?:${EVIDENTIAL})\s*,?\s*$`, 'iu');
/**
 * A clause that is nothing but an evidential ("Apparently, [your order was cancelled]"), or a time
 * the agent looked ("When I checked, [the order had already been cancelled]", "When I looked up
 * your order, ..."): what follows is what it saw.
 */
const READ_BACK_CLAUSE = new RegExp(
  String.raw`^(?:${EVIDENTIAL}|(?:when|by\s+the\s+time)\s+(?:i|we)\s+(?:(?:first|just|last)\s+)?(?:checked|looked|searched|pulled)(?:\s+(?!and\b|then\b)[\p{L}\d#'’-]+){0,4})$`,
  'iu',
);
/** An evidential among a passive's adverbs: "Your order has apparently been cancelled". */
const READ_BACK_ADVERB = /\b(?:apparently|seemingly)\b/i;

/**
 * A passive about a thing (or "you") after an evidential is a state the agent read back, not a claim
 * of its work ("It looks like the order was already cancelled", "It seems your order has been
 * cancelled", "Apparently, you were refunded"), unless it says the agent did it ("by me"). The
 * agent's own work after one is still claimed ("It looks like I cancelled it": {@link SUBJECT}).
 * `start` is where the subject's noun phrase starts in `head`, the words before the passive.
 */
function readBack(
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
  if (READ_BACK_BEFORE.test(before)) return true;
  const last = previous[previous.length - 1];
  return before.trim() === '' && last !== undefined && READ_BACK_CLAUSE.test(last.trim());
}

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
function isPlan(
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
 */
function scheduledFor(clause: string, at: number, length: number, found: Found, table: NominalTable): Found {
  if (!/^(?:re)?scheduled$/i.test(clause.slice(at, at + length))) return found;
  const from = found.objectsEnd ?? found.verbEnd;
  const m = SCHEDULED_FOR.exec(clause.slice(from, from + 120));
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
      i === found.claims.length - 1 ? `${claim.quote}${clause.slice(from, end)}`.trim() : claim.quote;
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
/** Adverbs of habit among a passive's adverbs: "Refunds are usually processed". */
const HABIT_ADVERB =
  /\b(?:usually|normally|typically|generally|always|often|regularly|routinely|ordinarily)\b/i;
/** A passive in the present, not the perfect: "is", "are", "'s", "'re" (with adverbs). */
const PRESENT_PASSIVE_FORM = /^(?:\s+(?:is|are)|['’](?:s|re))\b(?![\s\S]*\bbeen\b)/i;

/**
 * A present passive that says how things are done as a rule ("The refund is processed in 5–7
 * business days", "Refunds are issued automatically every Monday", "Orders are usually cancelled
 * within 24 hours"): no claim. `passive` is the auxiliary and its adverbs before the verb, `after`
 * the words after it; `durations` false when a time after the verb says when, not how long ("is
 * scheduled for deletion in 30 days"). "Your refund is processed." and "has been processed within
 * 24 hours" are claims.
 */
function isHabit(passive: string, after: string, durations = true): boolean {
  if (!PRESENT_PASSIVE_FORM.test(passive)) return false;
  if (HABIT_ADVERB.test(passive)) return true;
  const habit = HABIT_AFTER.exec(after);
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
function requested(clause: string, found: Found): boolean {
  if (found.kind !== 'patient') return false;
  const start = clause.indexOf(found.claims[0]!.quote);
  return start >= 0 && REQUEST_BEFORE.test(clause.slice(0, start));
}

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
 * (`previous`) when neither says anything. A past is a claim: "After I cancelled the order, I
 * refunded it" claims both, "When your order was cancelled, you got an email" the cancellation.
 */
function aboutTimeToCome(clause: string, at: number, verbEnd: number, next = '', previous = ''): boolean {
  const before = clause.slice(0, at);
  let conj: RegExpExecArray | undefined;
  TEMPORAL.lastIndex = 0;
  for (let m = TEMPORAL.exec(before); m !== null; m = TEMPORAL.exec(before)) conj = m;
  if (conj === undefined) return false;
  const inner = clause.slice(conj.index + conj[0].length, at);
  if (!PRESENT_AUX.test(inner) || PAST_AUX.test(inner) || !opensSubject(inner)) return false;
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

/** An error message the agent met, ending at the verb: "permission denied", "access denied". */
const ERROR_MESSAGE = /\b(?:permission|access)\s+denied$/i;

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
const isMetadata = (after: string): boolean => METADATA.test(after);

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

/**
 * The claim of a verb whose subject did it to the objects after it, quoted from `start`: one claim
 * about the first object and one about each further object joined by "and" ("I deleted the draft
 * and the homepage"); more numbers of the same thing stay in its claim ("order 1234 and 1235").
 */
function agent(clause: string, pattern: ClaimPattern, start: number, verbEnd: number): Found {
  const { words, consumed } = objectAfter(clause.slice(verbEnd));
  const claims = [made(clause, pattern, start, words, verbEnd + consumed)];
  const end = furtherObjects(clause, pattern, claims, start, verbEnd + consumed, AND_OBJECT);
  return { claim: claims[0]!, claims, kind: 'agent', verbEnd, objectsEnd: end };
}

/**
 * Adds to `claims` a claim about each further object of the same verb from `end` on, each after
 * `join` ("and the homepage"); more numbers of the thing before go into its claim ("and 1235").
 * Returns where the last object ends.
 */
function furtherObjects(
  clause: string,
  pattern: ClaimPattern,
  claims: Claim[],
  start: number,
  end: number,
  join: RegExp,
  bare = join === AND_OBJECT,
): number {
  let from = start;
  let at = end;
  for (;;) {
    const joined = join.exec(clause.slice(at));
    if (joined === null) return at;
    const objectStart = at + joined[0].length;
    // One word alone only after a verb's own object ("and homepage"), or in a list that ends in an
    // item joined by "and" (`bare`); a clause after a comma ("..., Ana") is none.
    const next = furtherObject(clause.slice(objectStart), bare);
    if (next === undefined) return at;
    at = objectStart + next.consumed;
    if (next.words.length === 0 && claims.length > 0) {
      claims[claims.length - 1] = made(clause, pattern, from, claims[claims.length - 1]!.objects, at);
    } else if (next.words.length > 0) {
      from = objectStart;
      claims.push(made(clause, pattern, from, next.words, at));
    }
  }
}

/**
 * The objects of a list the clauses of `sentence` from `from` on (after a verb's last object) go on
 * with, up to the one joined by "and" ("I deleted the draft, the homepage and the FAQ": the homepage
 * and the FAQ), each a claim of the same verb. A clause that is not only objects ends the list ("I
 * deleted the draft, the homepage is unchanged"). Items of one word with no determiner ("I deleted
 * the draft, homepage and FAQ") are read only when every clause up to the one joined by "and" is
 * nothing but such items: alone after a comma, a word may be a name or a reply ("..., Ana",
 * "..., thanks").
 */
function listedAfter(sentence: readonly string[], from: number, pattern: ClaimPattern): Claim[] {
  return bareList(sentence, from, pattern) ?? determinedList(sentence, from, pattern);
}

/** The list items with a determiner ("the homepage", "the FAQ"), up to the first clause that has none. */
function determinedList(sentence: readonly string[], from: number, pattern: ClaimPattern): Claim[] {
  const claims: Claim[] = [];
  for (let i = from; i < sentence.length; i++) {
    const clause = sentence[i]!;
    const before = claims.length;
    furtherObjects(clause, pattern, claims, 0, 0, LIST_ITEM);
    // Not a list item (a clause of its own, or "the one from May", which names nothing new): the
    // list ends; so it does after its last item, joined by "and".
    if (claims.length === before || claims.slice(before).some((c) => c.objects.length === 0)) {
      claims.length = before;
      break;
    }
    if (AND_ITEM.test(clause)) break;
  }
  return claims;
}

/** After a list's items, what says the clause held more than items: another "and" or "or". */
const MORE_AFTER_ITEMS = /^\s*(?:and|&|plus|or|as\s+well\s+as)\b/i;

/**
 * The list items, one-word ones too ("homepage and FAQ"), when each clause up to one joined by "and"
 * is wholly such items (after the last, only what may end an object: "for you", "too");
 * undefined when the clauses are no such list.
 */
function bareList(sentence: readonly string[], from: number, pattern: ClaimPattern): Claim[] | undefined {
  const claims: Claim[] = [];
  for (let i = from; i < sentence.length; i++) {
    const clause = sentence[i]!;
    const before = claims.length;
    const end = furtherObjects(clause, pattern, claims, 0, 0, LIST_ITEM, true);
    const rest = clause.slice(end);
    if (
      claims.length === before ||
      claims.slice(before).some((c) => c.objects.length === 0) ||
      MORE_AFTER_ITEMS.test(rest) ||
      !PHRASE_END.test(rest)
    ) {
      return undefined;
    }
    if (AND_ITEM.test(clause)) return claims;
  }
  return undefined;
}
/**
 * The verb at `at` as a second claim of the same subject, joined to the claim just before it by
 * "and", "and then", "as well as" or "plus": "I deleted the draft and updated the homepage" claims
 * an update too, and "Your order has been cancelled and refunded" a refund of the order. An
 * `agent` claim lends its subject and takes its own object; a `patient` claim lends its noun, and
 * only with nothing but the joining words between the two verbs.
 */
function coordinated(
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
function subjectLeads(sentence: readonly string[]): boolean {
  const first = sentence[0] ?? '';
  if (HEDGE.test(first)) return false;
  return [...first.matchAll(SUBJECT_VERB)].some((m) => !NO_VERB.has(m[1]!.toLowerCase()));
}

/**
 * The verb at `at` joined by "and" to a verb of "I" or "we" that claims nothing itself: "I found
 * your order and cancelled it" claims the cancellation. Not under a negation, condition or future
 * before it ("I did not find your order and cancelled it" claims nothing). A clause that opens with
 * a past verb ("Fixed the typo and published the page") counts as the writer's when no clause
 * before it in the sentence (`unhedged`) is negated ("I didn't touch the draft, reviewed ...").
 */
function afterOtherVerb(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  subjectBefore: boolean,
  unhedged: boolean,
): Found | undefined {
  const before = clause.slice(0, at);
  if (HEDGE.test(before)) return undefined;
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
 * does (and, as there, "was shipped and cancelled last week by Ana" is history).
 */
function afterOtherParticiple(
  clause: string,
  at: number,
  length: number,
  pattern: ClaimPattern,
  previous: readonly string[] = [],
): Found | undefined {
  const before = clause.slice(0, at);
  const m = PASSIVE_AND.exec(before);
  if (m === null || HEDGE.test(before)) return undefined;
  const participle = m[2]!.toLowerCase();
  if (NO_VERB.has(participle) || STOP.has(participle) || DETERMINERS.has(participle)) return undefined;
  const past = /\b(?:was|were)\b/i.test(m[1]!);
  const verbEnd = at + length;
  if (past && isHistory(clause.slice(verbEnd))) return undefined;
  if (isHabit(m[1]!, clause.slice(verbEnd))) return undefined;
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

function made(clause: string, pattern: ClaimPattern, start: number, objects: string[], end: number): Claim {
  return {
    quote: clause.slice(start, end).trim(),
    action: pattern.action,
    pattern,
    // "the order's status": the owner is named by its word ("order"), not "order's".
    objects: objects
      .map((w) => w.replace(/['’]s$/, ''))
      .filter((w) => w !== '' && !GENERIC.has(w) && !WORK_WORDS.has(w)),
  };
}

/**
 * The word of `text` that starts at `WORD.lastIndex`, lowercased, past a number sign's or a title's
 * period ("No. 1234", "Dr. Ana"); `part` says it is a number sign or a title, which names nothing.
 */
function nextWord(text: string): { word: string; part: boolean } | undefined {
  const m = WORD.exec(text);
  if (m === null) return undefined;
  const word = m[1]!.toLowerCase().replace(/^['"“]|['"”]$/g, '');
  const rest = text.slice(WORD.lastIndex);
  if (NUMBER_SIGNS.has(word) && ID_NEXT.test(rest)) {
    if (rest.startsWith('.')) WORD.lastIndex += 1;
    return { word, part: true };
  }
  if (TITLES.has(word)) {
    if (/^\.\s+\p{Lu}/u.test(rest)) WORD.lastIndex += 1;
    return { word, part: true };
  }
  return { word, part: false };
}

/** The object phrase right after the verb: up to three content words, up to a stop word or punctuation. */
function objectAfter(after: string): { words: string[]; consumed: number } {
  const words: string[] = [];
  let consumed = 0;
  WORD.lastIndex = 0;
  for (let w = nextWord(after); w && words.length < 3; w = nextWord(after)) {
    const { word, part } = w;
    if (STOP.has(word) || (word === 'that' && words.length > 0)) break;
    consumed = WORD.lastIndex;
    if (
      part ||
      DETERMINERS.has(word) ||
      CURRENCY.has(word) ||
      /[\d#$€£%]/.test(word) ||
      !/\p{L}/u.test(word)
    ) {
      continue;
    }
    words.push(word);
    if (words.length === 1 && PRONOUNS.has(word)) break;
  }
  return { words, consumed };
}

/**
 * Words that are no object alone after "and" ("I cancelled the order and left", "... and nothing
 * else", "... and done"): past verbs without "-ed", quantities, pronouns, replies.
 */
const NOT_BARE_OBJECTS = new Set(
  `left went came did made ran found took got saw told gave kept sent paid set put built wrote read
  met sat stood held brought bought thought felt meant spent lost won began knew drew threw grew
  spoke broke chose drove fell forgot understood done nothing none more less else other others yes
  no sorry thanks please ${[...LAST_ADVERBS, ...GENERIC, ...PRONOUNS].join(' ')}`.split(/\s+/),
);

/**
 * Another object of the same verb, after "and": determiners and at most two words ("the
 * homepage"), or at most one word and a number or id ("order #W2", "1235"), or, when `bare`, one
 * word alone ("the draft and homepage"; not a past verb, "and left"), then the end of the clause or
 * a stop word. Undefined when the words after "and" are no such phrase ("the homepage is
 * unchanged", "checked the homepage"). No words: more numbers of the thing before.
 */
function furtherObject(text: string, bare: boolean): { words: string[]; consumed: number } | undefined {
  const words: string[] = [];
  let consumed = 0;
  let determined = false;
  let numbered = false;
  WORD.lastIndex = 0;
  for (let w = nextWord(text); w; w = nextWord(text)) {
    const { word, part } = w;
    if (STOP.has(word) || (LAST_ADVERBS.includes(word) && words.length > 0)) break;
    if (DETERMINERS.has(word)) {
      if (words.length > 0 || numbered) return undefined;
      determined = true;
    } else if (part || /[\d#$€£%]/.test(word)) {
      numbered = true;
    } else if (/\p{L}/u.test(word)) {
      if (numbered || words.length === (determined ? 2 : 1) || NOT_THINGS.has(word)) return undefined;
      words.push(word);
    } else {
      return undefined;
    }
    consumed = WORD.lastIndex;
  }
  const alone = bare && !numbered && words.length === 1 && isBareObject(words[0]!);
  if (!(determined ? words.length > 0 : numbered || alone)) return undefined;
  // "and your refund of $20 was successful": the phrase is the subject of a clause of its own.
  if (OWN_PREDICATE.test(text.slice(consumed))) return undefined;
  return PHRASE_END.test(text.slice(consumed)) ? { words, consumed } : undefined;
}

/**
 * After a noun phrase (and a short phrase of "of", "for", "on" ... : "of $20", "for your
 * account"), a verb of its own: "is pending", "was successful", "went through", "'s gone".
 */
const OWN_PREDICATE = new RegExp(
  String.raw`^(?:\s+(?:of|for|from|on|to|with|in|at)\s+[^\s,;.!?]+(?:\s+[^\s,;.!?]+){0,3}?)?\s*(?:\s(?:is|are|was|were|has|have|had|will|would|should|can|could|may|might|must|remains?|stays?|looks?|seems?|appears?|went|goes|got|gets|came|comes|succeeded|failed)\b|['’](?:s|re|ll)\b)`,
  'iu',
);

const isBareObject = (word: string): boolean =>
  !NOT_BARE_OBJECTS.has(word) && !/(?:ed|ly)$/.test(word) && /^[\p{L}][\p{L}'’-]*$/u.test(word);

/**
 * The noun phrase that ends right where `before` ends ("the ticket", "Order #W1", "Order 1234",
 * "Orders 1234 and 1235", "Order No. 1234", "Your $20", "A refund of $20", "it"): up to four tokens back, to a
 * determiner, a stop word, punctuation or a person; numbers, ids and amounts count toward the
 * phrase but are not among its words. Undefined when the words before are a person or an auxiliary
 * ("I was", "you"), so the verb is no claim about a thing, or only bare numbers ("2"); an id alone
 * ("#1234", "No. 1234") names a thing, with no words.
 */
function nounBefore(text: string): { words: string[]; start: number } | undefined {
  // A short bracket after the noun qualifies it ("The draft (v2)", "Order 1234 (the blue mug)").
  const bracket = BRACKET_AFTER_NOUN.exec(text);
  const before = bracket === null ? text : text.slice(0, bracket.index);
  const tokens = [...before.matchAll(WORDS)];
  const last = tokens[tokens.length - 1];
  if (last === undefined || before.slice(last.index + last[0].length).trim() !== '') return undefined;
  const words: string[] = [];
  let start = -1;
  let noun = false;
  let amount = false;
  // An id ("#1234", "No. 1234") names a thing, as a noun does; a bare number says how many.
  let id = false;
  let counted = 0;
  for (let i = tokens.length - 1; i >= 0 && counted < 4; i--) {
    const token = tokens[i]!;
    const word = token[0].toLowerCase();
    const next = tokens[i + 1];
    const gap = next ? before.slice(token.index + token[0].length, next.index) : '';
    // Only numbers so far: a list of them goes on ("Orders 1234, 1235 and 1236").
    const numbers = start >= 0 && !noun;
    // "No." before the number it introduces is part of the id ("Order No. 1234").
    if (next?.index === start && NUMBER_SIGNS.has(word) && /\d/.test(next[0]) && /^\.?\s*$/.test(gap)) {
      start = token.index;
      id = true;
      continue;
    }
    // Punctuation between two words ends the phrase: "Done: order 42", "question(s) (1".
    if (/[.,;:!?()]/.test(gap) && !(numbers && NUMBER.test(word) && /^\s*,\s*$/.test(gap))) break;
    if ((word === 'and' || word === '&') && numbers && i > 0 && NUMBER.test(tokens[i - 1]![0])) continue;
    if (DETERMINERS.has(word) && start >= 0) {
      start = token.index;
      break;
    }
    if (STOP.has(word) || NOT_THINGS.has(word) || DETERMINERS.has(word)) break;
    // A number or #id names which one ("Order 1234", "Ticket #42"); other symbols end the phrase.
    const named = /\p{L}/u.test(word);
    if (!named && !NUMBER.test(word) && !AMOUNT.test(word)) break;
    if (!(numbers && !named)) counted++;
    start = token.index;
    if (CURRENCY.has(word) || AMOUNT.test(word)) amount = true;
    else if (named) noun = true;
    else if (/^[#№]/.test(word)) id = true;
    if (named && !CURRENCY.has(word) && !/[\d#$€£%]/.test(word)) words.unshift(word);
    if (GENERIC.has(word)) break;
  }
  // Numbers alone ("2 have been closed") say how many, not what; an amount ("$20") is money.
  if (start < 0 || !(noun || amount || id)) return undefined;
  // "A refund of $20": the amount is of the thing named before it, which is the object.
  const of = noun ? null : /\sof\s*$/i.exec(before.slice(0, start));
  const owner = of ? nounBefore(before.slice(0, of.index)) : undefined;
  return owner !== undefined && owner.words.length > 0 ? owner : { words, start };
}

/**
 * A relative clause at the end of the words before a passive: "that" or "which" and its subject, or
 * a person ("you", "she"), then a verb and a few words that open no phrase of their own ("you
 * placed on Monday", "that Ana wrote last week").
 */
const RELATIVE =
  /\s+(?:(?:that|which|whom)\s+[\p{L}'’-]+|you|he|she|they|we|i|someone)\s+\p{L}+(?:\s+(?!(?:and|or|but|the|a|an|your|my|our|their)\b)[\p{L}\d'’#-]+){0,5}$/iu;

/**
 * The noun phrase before a relative clause that ends where `head` ends ("The ticket you created
 * yesterday" has been updated: the ticket), when it opens with a determiner; undefined otherwise.
 */
function relativeNoun(head: string): { words: string[]; start: number } | undefined {
  const relative = RELATIVE.exec(head);
  if (relative === null) return undefined;
  const noun = nounBefore(head.slice(0, relative.index));
  if (noun === undefined || noun.words.length === 0) return undefined;
  const first = /^\S+/.exec(head.slice(noun.start))?.[0].toLowerCase() ?? '';
  return DETERMINERS.has(first) ? noun : undefined;
}

/** A bracket or dashes around a few words at the end of a noun phrase: "(v2)", "(the blue mug)", "— #A123 —". */
const BRACKET_AFTER_NOUN = /(?<=[\p{L}\d])\s*(?:\([^()\n]{1,40}\)|[—–][^—–()\n]{1,40}[—–])\s*$/u;

/**
 * Before the noun phrase of a plural passive, another one joined by "and" at the start of the
 * clause ("The draft and the homepage have been deleted"): its own claim, quoted alone.
 */
function listedBefore(clause: string, head: string, pattern: ClaimPattern): Claim | undefined {
  const and = /\s+(?:and|&)\s+$/i.exec(head);
  if (and === null) return undefined;
  const noun = nounBefore(head.slice(0, and.index));
  const atStart = noun !== undefined && noun.words.length > 0 && LEAD.test(head.slice(0, noun.start));
  return atStart ? made(clause, pattern, noun.start, noun.words, and.index) : undefined;
}

/**
 * The items of a list that ends in the clause of a plural passive, in the clauses of `sentence`
 * before that clause (`end`), each a noun phrase with a determiner and nothing else ("The draft,
 * the homepage and the FAQ have been deleted": the draft); walking back, the first clause that is
 * no such item ends the list ("Hi Ana, the draft and the homepage have been deleted" claims nothing
 * about Ana).
 */
function listedBeforeClauses(sentence: readonly string[], end: number, pattern: ClaimPattern): Claim[] {
  const claims: Claim[] = [];
  for (let i = end - 1; i >= 0; i--) {
    const clause = sentence[i]!;
    if (!DETERMINED.test(clause)) break;
    const noun = nounBefore(clause);
    if (noun === undefined || noun.words.length === 0 || clause.slice(0, noun.start).trim() !== '') break;
    claims.unshift(made(clause, pattern, noun.start, noun.words, clause.length));
  }
  return claims;
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

/** A clause that opens with a determiner: the way a list item of things is written. */
const DETERMINED = /^(?:the|your|my|our|their|all|both|each|every|this|that|these|those)\s/i;
/** An object after a verb that opens with a determiner, a pronoun or a number ("the page", "it", "3 files"). */
const DETERMINED_OBJECT =
  /^\s+(?:(?:the|a|an|your|my|our|their|this|that|these|those|its|it|them|all|both|each|every)\b|[#\d])/i;

function personBefore(before: string): { words: string[]; start: number } | undefined {
  const person = /\b(?:you|he|she|they|we)\s*$/i.exec(before);
  return person ? { words: [], start: person.index } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A word that names a pattern's action: one of its nouns ({@link DEFAULT_CLAIM_NOUNS}: "cancellation",
 * "refund") or the gerund of one of its verbs ("cancelling", "getting rid of"), with the verb it
 * comes from.
 */
interface Nominal {
  pattern: ClaimPattern;
  noun: boolean;
  verb: string;
}

/** The action nouns and gerunds of a pattern list, and one regex that finds any of them. */
interface NominalTable {
  re: RegExp;
  forms: Map<string, Nominal>;
}

/** Tables made once per pattern list's words (bounded, as {@link verbRegexes} is). */
const nominalTables = new Map<string, NominalTable>();

/**
 * The action nouns of each pattern (by its action, first pattern first; plurals too) and the
 * gerunds of its verbs ("cancelled": "cancelling", "canceling"; "deleted": "deleting"), a noun
 * winning over a gerund of the same spelling ("booking").
 */
function nominalTable(patterns: readonly ClaimPattern[]): NominalTable {
  const key = patterns.map((p) => `${p.action}\u0001${p.verbs.join('\u0002')}`).join('\u0003');
  let table = nominalTables.get(key);
  if (table !== undefined) return table;
  const forms = new Map<string, Nominal>();
  for (const pattern of patterns) {
    for (const noun of DEFAULT_CLAIM_NOUNS[pattern.action.trim().toLowerCase()] ?? []) {
      for (const form of [noun, plural(noun)]) {
        if (!forms.has(form)) forms.set(form, { pattern, noun: true, verb: noun });
      }
    }
  }
  for (const pattern of patterns) {
    for (const verb of pattern.verbs) {
      for (const form of gerunds(verb)) if (!forms.has(form)) forms.set(form, { pattern, noun: false, verb });
    }
  }
  const alternatives = [...forms.keys()]
    .sort((a, b) => b.length - a.length)
    .map((form) =>
      form
        .split(' ')
        .map(escape)
        .join(String.raw`\s+`),
    );
  const re =
    alternatives.length === 0
      ? /(?!)/gu
      : new RegExp(String.raw`(?<![\p{L}\d'’-])(?:${alternatives.join('|')})(?![\p{L}\d-])`, 'giu');
  if (nominalTables.size >= 200) nominalTables.clear();
  table = { re, forms };
  nominalTables.set(key, table);
  return table;
}

function plural(noun: string): string {
  if (/(?:s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/**
 * The gerunds a past verb may have, from its base forms ("cancelled": "cancelling", "canceling";
 * "deleted": "deleting"; "denied": "denying"; "got rid of": "getting rid of"); candidates that are
 * no word match nothing.
 */
function gerunds(verb: string): string[] {
  return baseForms(verb).map((base) => {
    const [word = '', ...rest] = base.split(' ');
    const gerund = word.endsWith('ie')
      ? `${word.slice(0, -2)}ying`
      : /[^e]e$/.test(word)
        ? `${word.slice(0, -1)}ing`
        : /^[^aeiou]*[aeiou][bdgklmnprt]$/.test(word)
          ? `${word}${word.slice(-1)}ing`
          : `${word}ing`;
    return [gerund, ...rest].join(' ');
  });
}

/** Past verbs that say the agent brought an action to an end: "I completed the cancellation". */
const COMPLETION = String.raw`(?:completed|finished|finali[sz]ed|took\s+care\s+of|taken\s+care\s+of|handled|initiated|processed|executed|carried\s+out|performed|(?:went|gone)\s+through\s+with)`;
/** Their base forms, after "I was able to" or "I managed to": "I was able to complete the cancellation". */
const COMPLETION_BASE = String.raw`(?:complete|finish|finali[sz]e|take\s+care\s+of|handle|initiate|process|execute|carry\s+out|perform|go\s+through\s+with)`;
/**
 * "I", "we" (with "have" and adverbs) and a completion verb, or "I was able to" and its base form,
 * right before an action noun phrase or gerund ("I've just finished", "we took care of").
 */
const COMPLETED_BY_ME = new RegExp(
  String.raw`(?:\b(?:i|we)(?:['’]ve|['’]d|\s+have|\s+had)?(?:\s+${ADVERBS_ALL})*\s+${COMPLETION}|${ABLE.source.slice(0, -1)}${COMPLETION_BASE})\s+$`,
  'iu',
);
/** A completion verb at the end of the words before an action ("Completed the cancellation"): clause-initial when {@link LEAD} is before it. */
const COMPLETED_AT_END = new RegExp(String.raw`(?<![\p{L}\d])${COMPLETION}\s+$`, 'iu');
/**
 * After an action noun (and its "of"/"for" owner), what says it is done: "complete", "is complete",
 * "went through", "has been processed", "was successful", "is confirmed", "has gone through",
 * "succeeded", also after a label's colon or dash ("Cancellation: done"). 1 the auxiliary, 2 the
 * predicate.
 */
const DONE_AFTER = new RegExp(
  String.raw`^(?:\s*[:–—]|\s+-)?\s*(?:((?:is|are|was|were)|(?:has|have|had)(?:\s+been)?|['’]s(?:\s+been)?|['’]re|['’]ve\s+been)(?:\s+(?:${ADVERBS}|all|fully|officially))*\s+)?(?:successfully\s+)?(complete|completed|successful|a\s+success|succeeded|(?:went|gone)\s+through|through|done|finished|finali[sz]ed|confirmed|processed|initiated|issued)(?![\p{L}\d'’-])`,
  'iu',
);
/** Words that open a report of a result before it ("Good news: your refund went through"). */
const REPORT =
  /^(?:(?:good|great)\s+news\s*[:,!.\-–—]?\s*(?:that\s+)?|(?:i|we)(?:['’]m|\s+am|['’]re|\s+are)\s+(?:happy|glad|pleased)\s+to\s+(?:confirm|report|say|let\s+you\s+know)\s+(?:that\s+)?|(?:i|we)\s+confirm\s+(?:that\s+)?)$/iu;
/** "by me", "by us" after a predicate: the agent did it, still a claim. */
const BY_ME = /^\s+by\s+(?:me|us)\b/i;
/** Words that end an owner after "of"/"for", or the modifiers before an action noun. */
const NOT_OWNER = new Set(['that', 'out', 'through', 'complete', 'completed', 'successful', 'done']);

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
 * the patterns already claimed (`taken`: "Your refund was issued", "I processed the refund" keep
 * their readings).
 */
function nominalClaims(
  clause: string,
  table: NominalTable,
  taken: ReadonlySet<number>,
  generic: ReadonlySet<number>,
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
    const inside = [...taken].filter((t) => t >= found.at && t < found.end);
    if (inside.some((t) => !generic.has(t))) continue;
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
  const after = clause.slice(end);
  const asVerb = `${entry.verb}${after.slice(0, 120)}`;
  if (SIGN_IN.test(asVerb) || OPENED_VIEW.test(asVerb) || NONE.test(after)) return undefined;
  const found = agent(clause, entry.pattern, by, end);
  return { claims: found.claims, at: by, end: found.objectsEnd ?? end, by };
}

/** Words that open a clause of time, condition or cause before a noun: "When refunds are processed". */
const OPENS_CLAUSE = new Set(
  'when whenever while if unless until once because since although though whether after before where'.split(
    ' ',
  ),
);

/**
 * The candidate starts of the noun phrase an action noun at `at` ends, nearest first: each of up
 * to two modifier words before it ("Order cancellation", "the order's cancellation"), and a
 * determiner, which ends it. Each with the modifier words from there.
 */
function nounPhraseStarts(clause: string, at: number): { start: number; words: string[] }[] {
  const from = Math.max(0, at - 80);
  const tokens = [...clause.slice(from, at).matchAll(WORDS)];
  const starts: { start: number; words: string[] }[] = [{ start: at, words: [] }];
  const words: string[] = [];
  let end = at;
  for (let i = tokens.length - 1; i >= 0 && words.length < 2; i--) {
    const token = tokens[i]!;
    const start = from + token.index;
    if (clause.slice(start + token[0].length, end).trim() !== '') break;
    const word = token[0].toLowerCase();
    if (DETERMINERS.has(word)) {
      starts.push({ start, words: [...words] });
      break;
    }
    if (
      STOP.has(word) ||
      NO_VERB.has(word) ||
      NOT_OWNER.has(word) ||
      GENERIC.has(word) ||
      OPENS_CLAUSE.has(word) ||
      HEDGE.test(word) ||
      /(?:ed|ing)$/.test(word) ||
      !/[\p{L}\d]/u.test(word)
    ) {
      break;
    }
    if (/\p{L}/u.test(word) && !/[\d#$€£%]/.test(word)) words.unshift(word);
    starts.push({ start, words: [...words] });
    end = start;
  }
  return starts;
}

/**
 * The owner named after an action noun by "of" or "for" ("the cancellation of your order", "a
 * refund for order #1234"): its words (none for an amount: "a refund of $20") and where it ends.
 */
function ownerAfter(clause: string, end: number): { words: string[]; end: number } {
  let words: string[] = [];
  let at = end;
  for (let i = 0; i < 2; i++) {
    const of = /^\s+(?:of|for)\s+/i.exec(clause.slice(at, at + 20));
    if (of === null) break;
    const text = clause.slice(at + of[0].length, at + of[0].length + 200);
    const owner: string[] = [];
    let consumed = 0;
    // "for" names an owner only before a determiner or with an id ("for your order", "for order
    // 1234"), not a time or a person ("confirmed for Friday", "for Ana"): those are read past.
    let named = /^\s+of\s/i.test(of[0]);
    WORD.lastIndex = 0;
    // The owner ends where what is said of the action begins ("of $500 went through").
    for (
      let w = DONE_AFTER.test(text) ? undefined : nextWord(text);
      w && owner.length < 2;
      w = DONE_AFTER.test(text.slice(WORD.lastIndex)) ? undefined : nextWord(text)
    ) {
      const { word, part } = w;
      if (STOP.has(word) || NOT_THINGS.has(word) || NOT_OWNER.has(word) || FINITE.test(word)) break;
      consumed = WORD.lastIndex;
      if (part || DETERMINERS.has(word) || CURRENCY.has(word) || /[\d#$€£%]/.test(word)) {
        if (owner.length === 0 || !DETERMINERS.has(word)) named = true;
        continue;
      }
      if (!/\p{L}/u.test(word)) continue;
      owner.push(word);
      if (PRONOUNS.has(word)) break;
    }
    if (consumed === 0) break;
    at += of[0].length + consumed;
    if (words.length === 0 && named) words = owner;
  }
  return { words, end: at };
}

/** What may follow a claim's last words: the end of the clause, "for ...", "to ...", an adverb, "by me", "as requested". */
const claimEnds = (rest: string): boolean =>
  NOUN_CLAIM_END.test(rest) ||
  PHRASE_END.test(rest) ||
  BY_ME.test(rest) ||
  ON_REQUEST.exec(rest)?.index === 1;

/** "and" (and "then", "also", "now") ending the words before a noun phrase. */
const AND_BEFORE = /\s(?:and|&)(?:\s+(?:then|also|now))?\s+$/i;

/** Where a claim's words start and end in its clause. */
interface Span {
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
    const habit = done[1] !== undefined && isHabit(/^['’]/.test(done[1]) ? done[1] : ` ${done[1]}`, rest);
    // "Apparently, the refund went through": a state read back (see readBack).
    const readBackBefore = head.trim() === '' && READ_BACK_CLAUSE.test(last.trim());
    const opens =
      (LEAD.test(head) && !readBackBefore) ||
      LABELLED_LEAD.test(head) ||
      REPORT.test(head) ||
      afterClaimAnd(head, spans);
    if (
      opens &&
      !habit &&
      !HEDGE.test(clause.slice(0, doneEnd)) &&
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
 * Where the completion verb of the agent that ends right at `start` begins ("I completed ", "we've
 * just finished ", "I was able to complete ", or "Completed " opening the clause), unless a
 * negation, condition or hedge comes before.
 */
function doneBefore(clause: string, start: number): number | undefined {
  const before = clause.slice(0, start);
  if (HEDGE.test(before)) return undefined;
  const tail = Math.max(0, start - 200);
  const mine = COMPLETED_BY_ME.exec(before.slice(tail));
  if (mine !== null) return tail + mine.index;
  const opening = COMPLETED_AT_END.exec(before.slice(tail));
  if (opening !== null && LEAD.test(before.slice(0, tail + opening.index))) return tail + opening.index;
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
  const after = clause.slice(end);
  const asVerb = `${entry.verb}${after.slice(0, 120)}`;
  if (SIGN_IN.test(asVerb) || OPENED_VIEW.test(asVerb) || NONE.test(after)) return undefined;
  const found = agent(clause, entry.pattern, by, end);
  return { claims: found.claims, at: by, end: found.objectsEnd ?? end, by };
}
