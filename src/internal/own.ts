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
