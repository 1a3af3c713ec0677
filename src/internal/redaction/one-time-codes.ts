/**
 * One-time codes in prose: `Your OTP is 482913`, `verification code: X7K9QP`, `2FA: 482913`,
 * `use code 482913 to sign in`, and a text message's `482913 is your verification code` or `482913
 * is your Instagram code`.
 */

import { LETTER, REDACTED } from './values.js';

/**
 * A one-time code in prose, right after a word that says it is one: `Your OTP is 482913`,
 * `verification code: 482913`, `2FA code 482 913`, `the passcode is 9021`,
 * `"verification_code": "482913"`, `2FA: 482913` (`2FA` or `MFA` alone, then `:`, `=` or `is`),
 * and `use code 482913` or `enter code ...` when `to sign in` (or `log in`, `verify`, `confirm`,
 * ...) follows (see {@link ONE_TIME_PURPOSE}). A credential needs a letter elsewhere, so that ids
 * and counts are kept; here a number is the secret, and only here (`order 482913`, `error code
 * 500`, `status code 200`, `zip code 94107` are kept). The words and separators (1) and a quote or
 * `**` (2) are kept; the code (3) goes: 4 to 10 digits or `482 913`, maybe after a letter and a
 * dash (Google's `G-482913`), when no digit or word goes on after it (`2024-05-01`, `1234.5`), or
 * 4 to 10 letters and digits, with both (`X7K9QP`), when no word or dash goes on after it (see
 * {@link isOneTimeCode}).
 */
const ONE_TIME_CODE = new RegExp(
  [
    '(',
    String.raw`\b(?:(?:one[- ]time|verification|security|2fa|mfa|t?otp|login|sign[- ]?in|authentication|access)[ \t_-]{1,4}(?:pass)?code|t?otp|passcode|one[- ]time[ \t]{1,4}(?:password|pin))`,
    // the key's closing quote, and `is`, `was`, `:` or `=` before the code
    String.raw`["']?[ \t]{0,4}(?:(?:is|was)(?:[ \t]{1,4}(?:now|still))?[ \t]{1,4}|[:=#][ \t]{0,4})?`,
    // `2FA` or `MFA` alone, and then a separator
    String.raw`|\b(?:2fa|mfa)["']?[ \t]{0,4}(?:(?:is|was)[ \t]{1,4}|[:=#][ \t]{0,4})`,
    String.raw`|\b(?:use|enter|type)[ \t]{1,4}(?:(?:the|this|your)[ \t]{1,4})?code[ \t]{1,4}`,
    String.raw`)(["'\x60*]{0,2})(`,
    String.raw`(?:[A-Z]-)?(?:\d{3}[ -]\d{3}(?!\d)|\d{4,10})(?!\w|[.,:/-]\d)`,
    String.raw`|(?=[A-Z]{0,9}\d)(?=\d{0,9}[A-Z])[A-Z0-9]{4,10}(?![\w-]|[.,:/]\w)`,
    ')',
  ].join(''),
  'gi',
);
/** The code that opens a text message's `<code> is your ... code`, (1): `482913`, `G-482913`, `123-456`. */
const CODE_FIRST = String.raw`\b((?:[A-Z]-)?(?:\d{3}[ -]\d{3}|\d{4,10}))`;

/**
 * A one-time code the other way round, as text messages write it: `482913 is your verification
 * code`, `G-482913 is your Google verification code` (up to three words, a brand's, before the
 * words that say what it is), and `Use 482913 as your Slack verification code` (`as` (2) only
 * after `use`, `enter` or `type`: see {@link USE_BEFORE}). The code (1) goes.
 */
const ONE_TIME_CODE_FIRST = new RegExp(
  [
    CODE_FIRST,
    String.raw`(?=[ \t]{1,4}(is|as)[ \t]{1,4}your[ \t]{1,4}(?:[A-Za-z0-9][\w.&'-]{0,24}[ \t]{1,4}){0,3}`,
    String.raw`(?:(?:verification|security|login|sign[- ]?in|one[- ]time|authentication|2fa|mfa|access)[ \t_-]{1,4}(?:pass)?code|t?otp|passcode|one[- ]time[ \t]{1,4}(?:password|pin))\b)`,
  ].join(''),
  'gi',
);
/**
 * A one-time code before `is your <Brand> code`, as a service's text message writes it without a
 * word that says it is one: `482913 is your Instagram code`, `123-456 is your WhatsApp code` (up to
 * three words before `code`, the last one (3) capitalized: a brand's name), also with `confirmation`
 * between the brand and `code` (`123456 is your Facebook confirmation code`: a confirmation code
 * without a brand, `1234 is your confirmation code`, is a booking's, and is kept), and after `use`
 * as `Use 482913 as your Slack code` (`as` (2), see {@link USE_BEFORE}). The code (1) goes, unless
 * the brand's last word says the code is no secret (see {@link NOT_ONE_TIME}): `94107 is your ZIP
 * code`, `1234 is your Order code`, `1234 is your Booking confirmation code`. Case-sensitive: `1234
 * is your order code` is kept.
 */
const BRAND_CODE_FIRST = new RegExp(
  [
    CODE_FIRST,
    String.raw`(?=[ \t]{1,4}([IiAa]s)[ \t]{1,4}[Yy]our[ \t]{1,4}`,
    String.raw`((?:[A-Za-z0-9][\w.&'-]{0,24}[ \t]{1,4}){0,2}[A-Z][\w.&'-]{0,24})[ \t]{1,4}(?:confirmation[ \t]{1,4})?[Cc]ode\b)`,
  ].join(''),
  'g',
);
/** The last word before `code` in {@link BRAND_CODE_FIRST} that makes the number no one-time code. */
const NOT_ONE_TIME = new Set(
  'zip postal post area dialing dial country error exit status order tracking product item sku promo promotion promotional discount coupon voucher referral invite invitation gift booking reservation confirmation reference account customer member membership client user employee student color colour source'.split(
    ' ',
  ),
);
/** What every match of {@link ONE_TIME_CODE} and {@link ONE_TIME_CODE_FIRST} contains. */
export const ONE_TIME_WORD = /code|otp|one[- ]time|2fa|mfa/i;
/** What every match of {@link ONE_TIME_CODE_FIRST} and {@link BRAND_CODE_FIRST} contains. */
const IS_YOUR = /[ia]s[ \t]{1,4}your/i;
/**
 * What goes before a code that `as your` follows when it is one (`Use 482913 as your Slack
 * confirmation code`); elsewhere (`I filed 2024 as your access code year`) the number is kept.
 */
const USE_BEFORE = /\b(?:use|enter|type)[ \t]{1,4}$/i;
/** True when the code at `offset` of `text`, before `verb your`, is one ({@link USE_BEFORE}). */
const isCodeBefore = (verb: string, text: string, offset: number): boolean =>
  verb.toLowerCase() === 'is' || USE_BEFORE.test(text.slice(Math.max(0, offset - 16), offset));
/** Where `use code 482913` goes on to say what the code is for: signing in, not a discount. */
const ONE_TIME_PURPOSE =
  /^[ \t]{1,4}to[ \t]{1,4}(?:sign|log|verify|confirm|complete|finish|reset|authenticate|access|continue|activate|unlock)/i;
/** The start of the `use code` or `enter code` form of {@link ONE_TIME_CODE}. */
const USE_CODE = /^(?:use|enter|type)\b/i;
/** The start of the `2FA: 482913` form of {@link ONE_TIME_CODE}: `2FA` or `MFA` without `code`. */
const FACTOR_ALONE = /^(?:2fa|mfa)(?![ \t_-]{1,4}(?:pass)?code)/i;
/** A code of 6 to 8 digits (`482913`, `482 913`): what a second factor sends. */
const FACTOR_CODE = /^(?:\d{3}[ -]\d{3}|\d{6,8})$/;
/**
 * A word of letters then digits that names a standard or an encoding (`base64`, `sha256`, `UTF8`,
 * `RFC6238`, `HS256`, `IPv6`, `v2`): not a code, though it has both (`X7K9QP` and `ABC123` are).
 */
const TECHNICAL_WORD =
  /^(?:sha|rfc|utf|aes|rsa|hs|rs|es|ps|md|base|iso|ipv|tls|ssl|oauth|crc|fips|http|ecdsa|ed|x|v|h|mp|ec|s|t|p)\d+$/i;

/**
 * A unit of time after a number (`1000 ms`, `30s`, `5 minutes`), in lower case: a number with one
 * is a duration, a setting's value (`otp: 1000 ms`, `otp_timeout: 30 s`), not a one-time code.
 */
const TIME_UNIT = String.raw`(?:ms|msecs?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)`;
/** A duration written whole: a number and a unit, maybe in quotes (`1000 ms`, `"30s"`). */
const DURATION = new RegExp(String.raw`^(\\?["']?)\d{1,9}(?:\.\d{1,3})?[ \t]{0,2}${TIME_UNIT}\1$`);
/** A bare number: a duration when the text after it starts with a unit ({@link UNIT_AFTER}). */
const NUMBER = /^\d{1,9}(?:\.\d{1,3})?$/;
/** The text after a number when it starts with a unit of time (`ms` of `1000 ms`, not `sms`). */
const UNIT_AFTER = new RegExp(String.raw`^[ \t]{0,2}${TIME_UNIT}(?![\w-])`);
/** A key whose value may be a one-time code, or a setting about one: `otp`, `otp_timeout`, `passcode`. */
const ONE_TIME_KEY = /otp|passcode|code/i;

/**
 * True when `value` (a code, or a key's value, maybe quoted) is a duration: a number and a unit of
 * time in it (`1000 ms`, `"30s"`), or a number that `text` goes on with a unit right after `end`,
 * where the value ends (`1000` of `otp: 1000 ms`). A one-time code is never one (`482913 sms`,
 * `482913 (expires in 5 minutes)`).
 */
function isDuration(value: string, text = '', end = 0): boolean {
  return DURATION.test(value) || (NUMBER.test(value) && UNIT_AFTER.test(text.slice(end, end + 16)));
}

/**
 * True when `value` under `key` is a setting about one-time codes, not a code: a duration under a
 * one-time key (`otp: 1000 ms`, `otp_timeout: 30s`, `--otp-timeout 30s`, `{ otp: '1000 ms' }`; see
 * {@link isDuration} for `text` and `end`).
 */
export function isOneTimeSetting(key: string, value: string, text?: string, end?: number): boolean {
  return ONE_TIME_KEY.test(key) && isDuration(value, text, end);
}

/** True when `code`, after `head`, is a one-time code that goes (see {@link ONE_TIME_CODE}). */
function isOneTimeCode(head: string, code: string): boolean {
  if (FACTOR_ALONE.test(head)) return FACTOR_CODE.test(code);
  return !(LETTER.test(code) && /\d/.test(code) && !code.includes('-') && TECHNICAL_WORD.test(code));
}

/**
 * The text with each one-time code of {@link ONE_TIME_CODE}, {@link ONE_TIME_CODE_FIRST} and
 * {@link BRAND_CODE_FIRST} redacted.
 */
export function redactOneTimeCodes(text: string): string {
  const out = text.replace(
    ONE_TIME_CODE,
    (match, head: string, mark: string, code: string, offset: number) =>
      (USE_CODE.test(head) &&
        !ONE_TIME_PURPOSE.test(text.slice(offset + match.length, offset + match.length + 64))) ||
      !isOneTimeCode(head, code) ||
      isDuration(code, text, offset + match.length)
        ? match
        : `${head}${mark}${REDACTED}`,
  );
  if (!IS_YOUR.test(out)) return out;
  return out
    .replace(ONE_TIME_CODE_FIRST, (match, _code: string, verb: string, offset: number, whole: string) =>
      isCodeBefore(verb, whole, offset) ? REDACTED : match,
    )
    .replace(
      BRAND_CODE_FIRST,
      (match, _code: string, verb: string, words: string, offset: number, whole: string) =>
        NOT_ONE_TIME.has(words.slice(words.search(/\S+$/)).toLowerCase()) ||
        !isCodeBefore(verb, whole, offset)
          ? match
          : REDACTED,
    );
}
