/**
 * Name/value pairs whose name is a secret key: in text (`"name": "DB_PASSWORD", "value": "x"`, and
 * as two lines of YAML) and in objects (`{ name: 'API_TOKEN', value: '…' }`, see
 * {@link namesSecretValue}).
 */

import { isSecretKey } from './secret-keys.js';
import { quoted, REDACTED } from './values.js';

/**
 * A name/value pair in text whose name is a secret key: in JSON or a flow map (`"name":
 * "DB_PASSWORD", "value": "x"`) or as two lines of YAML (`- name: API_TOKEN` then `value: x` on the
 * next line). 1 the name's key and the name, up to the value's key and separator; 2 the name; 3
 * the value.
 */
const NAMED_VALUE = new RegExp(
  [
    String.raw`((?<![\w.-])["']?(?:name|key)["']?[ \t]{0,8}[:=][ \t]{0,8}["']?`,
    String.raw`([A-Za-z_][\w.-]{0,127})`,
    String.raw`["']?[ \t]{0,8}(?:,[ \t]{0,8}|\r?\n[ \t]{0,64}(?:-[ \t]+)?)["']?value["']?[ \t]{0,8}[:=][ \t]{0,8})`,
    String.raw`("(?:[^"\\\n]|\\.){0,8192}"|'(?:[^'\\\n]|\\.){0,8192}'|[^\s,;&{}\[\]'"<>\\]{1,8192})`,
  ].join(''),
  'gi',
);
/** What every match of {@link NAMED_VALUE} contains. */
export const VALUE_WORD = /value/i;

/** Text with the value of each name/value pair whose name is a secret key redacted. */
export function redactNamedValues(text: string): string {
  return text.replace(NAMED_VALUE, (match, head: string, name: string, value: string) =>
    isSecretKey(name) && value !== REDACTED && value !== `"${REDACTED}"` ? `${head}${quoted(value)}` : match,
  );
}

/** The keys that name the entry of a name/value pair, and those that hold its value. */
const NAME_KEYS = ['name', 'Name', 'key', 'Key'];
export const VALUE_KEYS = new Set(['value', 'Value']);

/** True when the object is a name/value pair whose name is a secret key (`{ name: 'DB_PASSWORD', value }`). */
export function namesSecretValue(value: Record<string, unknown>): boolean {
  for (const key of NAME_KEYS) {
    const name = Object.hasOwn(value, key) ? value[key] : undefined;
    if (typeof name === 'string' && name.length <= 128 && isSecretKey(name)) return true;
  }
  return false;
}
