/**
 * `record[key]` when `key` is the record's own property, else `undefined`: a lookup by a
 * user-controlled name never finds `constructor`, `__proto__` or any other inherited member.
 *
 * @example
 * ```ts
 * own({ a: 1 }, 'a'); // 1
 * own({ a: 1 }, 'constructor'); // undefined
 * ```
 */
export function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key]` as an own, enumerable property, also for `__proto__` (which an assignment
 * would take as the prototype): for records keyed by names that come from data.
 *
 * @example
 * ```ts
 * const splits: Record<string, string[]> = {};
 * setOwn(splits, '__proto__', ['q1']);
 * Object.keys(splits); // ['__proto__']
 * ```
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  // Every other name of Object.prototype is a writable data property, which an assignment shadows
  // with an own one, as defineProperty would (at a fraction of its cost, once per key of a record).
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
