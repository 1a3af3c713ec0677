/**
 * The two orders reports sort names in, each an `Intl.Collator` made on first use: making the
 * first collator of a process loads ICU's collation data (about 10 ms), which a test worker that
 * imports the report code but never sorts should not pay at import.
 */
let plain: Intl.Collator | undefined;
let natural: Intl.Collator | undefined;

/**
 * `a.localeCompare(b)`, through one collator made on first use.
 *
 * @example
 * ```ts
 * ['b', 'a'].sort(comparePlain); // ['a', 'b']
 * ```
 */
export function comparePlain(a: string, b: string): number {
  plain ??= new Intl.Collator();
  return plain.compare(a, b);
}

/**
 * `a.localeCompare(b, 'en', { numeric: true })` (natural order), through one collator made on first use.
 *
 * @example
 * ```ts
 * ['q10', 'q2'].sort(compareNatural); // ['q2', 'q10']
 * ```
 */
export function compareNatural(a: string, b: string): number {
  natural ??= new Intl.Collator('en', { numeric: true });
  return natural.compare(a, b);
}

/**
 * Makes both collators now, if not made yet: a reporter calls it while the workers run, so that the
 * first sort of the report at the end does not load ICU's collation data then.
 *
 * @example
 * ```ts
 * warmCollators(); // in onTestCaseResult, once
 * ```
 */
export function warmCollators(): void {
  plain ??= new Intl.Collator();
  natural ??= new Intl.Collator('en', { numeric: true });
}
