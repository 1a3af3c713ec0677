/**
 * Whether a value is a promise or any thenable (an object or function with a `then` method), the
 * way `await` and `Promise.resolve` tell. Reading `then` may throw (a proxy, a getter): the caller
 * treats that as a throw of whoever returned the value.
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * isThenable({ then: (resolve: (v: number) => void) => resolve(1) }); // true
 * isThenable(1); // false
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
