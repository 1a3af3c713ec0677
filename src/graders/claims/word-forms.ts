/**
 * The forms of the patterns' words: each verb's regex (kept by verb), the base forms and gerunds of
 * a past verb, a noun's plural.
 */

/** The base forms of the irregular past verbs of the default patterns. */
const IRREGULAR_BASE: Readonly<Record<string, string>> = {
  sent: 'send',
  paid: 'pay',
  reset: 'reset',
  set: 'set',
  got: 'get',
  gotten: 'get',
};

/**
 * Each verb's whole-word regex, made once: findClaims runs for every response, and a pattern list
 * may be edited between runs, so regexes are kept by verb, not by list. Bounded, for lists made
 * per question.
 */
const verbRegexes = new Map<string, RegExp>();

/** The whole-word regex of `verb`, kept in {@link verbRegexes}. */
export function verbRegex(verb: string): RegExp {
  let re = verbRegexes.get(verb);
  if (re === undefined) {
    if (verbRegexes.size >= 2000) verbRegexes.clear();
    re = verbPattern(verb);
    verbRegexes.set(verb, re);
  }
  return re;
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
 * The base forms a past verb may have ("cancelled": "cancel"; "deleted": "delete"; "sent":
 * "send"), the first word changed; candidates that are no word match nothing.
 */
export function baseForms(verb: string): string[] {
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

/** `text` with the characters a regex reads specially escaped. */
export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A noun's plural ("refund": "refunds", "fix": "fixes", "delivery": "deliveries"). */
export function plural(noun: string): string {
  if (/(?:s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/**
 * The gerunds a past verb may have, from its base forms ("cancelled": "cancelling", "canceling";
 * "deleted": "deleting"; "denied": "denying"; "got rid of": "getting rid of"); candidates that are
 * no word match nothing.
 */
export function gerunds(verb: string): string[] {
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
