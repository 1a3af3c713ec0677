import { setFlagsFromString } from 'node:v8';

// V8's own answer, through its natives syntax, switched on for this test worker only: the flag is
// read when a function is parsed, so the checking function is made after it is set.
setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in a function made after the flag is set
const check = new Function('value', 'return %HasFastProperties(value);') as (value: object) => boolean;

/**
 * Whether V8 keeps `value`'s properties in its shape (fast mode), not in a hash table. An object
 * that `Object.assign({}, big)` fills with more than about a dozen properties becomes a hash table:
 * several times its size, for as long as it lives, and slower to serialise.
 */
export function hasFastProperties(value: object): boolean {
  return check(value);
}
