/**
 * Secrets known by their shape: `Bearer` and `Basic` credentials, and key-shaped strings (`sk-…`,
 * `ghp_…`, `AKIA…`, JWTs, webhook paths and the like), each pattern behind a cheap literal test.
 */

import { REDACTED } from './values.js';

const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/-]{8,8192}=*/gi;
const BASIC = /\b(Basic)\s+([A-Za-z0-9+/]{8,8192}={0,2})/gi;

/** What every match of {@link BEARER} contains. */
export const BEARER_WORD = /bearer/i;
/** What every match of {@link BASIC} contains. */
export const BASIC_WORD = /basic/i;

/**
 * Key-shaped secrets, each with the literal texts one of which every match contains (a cheap test
 * first). The test costs more the more often the literal's first character is in a text, so each
 * literal is the part of the prefix whose first character is rarest in prose (`yJ` of a JWT's
 * `eyJ`, `m_` of `npm_`, `k.com/` of `hooks.slack.com/`), and tokens whose prefix ends in `_` share
 * one test.
 */
const KEY_SHAPED: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  // An `sk-` key from 10 characters on when it has a capital, a digit or a `*` (a masked key) in
  // its first 12, as every real key does (`sk-learn` and `sk-learn-docs` are words); any from 12.
  [
    /\bsk-(?=[A-Za-z0-9_*.-]{0,11}[A-Z0-9*])[A-Za-z0-9_*.-]{9,511}[A-Za-z0-9*]|\b(?:sk|rk|pk)-[A-Za-z0-9_*.-]{11,511}[A-Za-z0-9*]/g,
    ['k-'],
  ],
  // Stripe (`sk_live_`, `rk_test_`, ...), Groq (`gsk_` and 52), Pinecone (`pcsk_`).
  [
    /\b(?:(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,512}|gsk_[A-Za-z0-9]{40,255}|pcsk_[A-Za-z0-9_]{40,255})/g,
    ['k_'],
  ],
  [/\bgh[pousr]_[A-Za-z0-9]{20,255}/g, ['gh']],
  [/\bgithub_pat_[A-Za-z0-9_]{20,255}/g, ['_pat_']],
  // Slack bot, user, legacy, configuration (`xoxe.xoxp-`) and refresh (`xoxe-`) tokens, and
  // app-level tokens (`xapp-1-...`).
  [/\b(?:xox[abeposr]|xapp-\d)-[A-Za-z0-9-]{10,255}/g, ['xox', 'xapp-']],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, ['AKIA', 'ASIA']],
  [/\bAIza[0-9A-Za-z_-]{35}/g, ['AIza']],
  [/\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{0,4096}/g, ['yJ']],
  // npm (`npm_` and 36 characters), GitLab (`glpat-`, routable ones with their `.01.abc` tail,
  // deploy, trigger, runner, CI job, feed, mail, agent, SCIM and feature flag tokens, OAuth app
  // secrets), Hugging Face (`hf_` and 30 or more letters and digits: `hf_hub_download` is a word),
  // Stripe webhook secrets (`whsec_`), SendGrid (`SG.<id>.<secret>`), Google OAuth access tokens
  // (`ya29.`), Twilio API key SIDs (`SK` and 32 hex digits).
  [/\bnpm_[A-Za-z0-9]{36}\b/g, ['m_']],
  [
    /\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,300}(?:\.[A-Za-z0-9]{1,16}){0,2}/g,
    ['gl'],
  ],
  [/\bhf_[A-Za-z0-9]{30,255}\b/g, ['f_']],
  [/\bwhsec_[A-Za-z0-9+/=]{20,255}/g, ['whsec_']],
  [/\bSG\.[A-Za-z0-9_-]{16,64}\.[A-Za-z0-9_-]{16,128}/g, ['SG.']],
  [/\bya29\.[A-Za-z0-9_-]{20,4096}/g, ['ya29.']],
  [/\bSK[0-9a-fA-F]{32}\b/g, ['SK']],
  // The secret path of a Slack or Discord webhook URL (anyone holding it can post): the host and
  // the kind of hook are kept.
  [/(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{20,255}/g, ['k.com/']],
  [/(?<=discord(?:app)?\.com\/api\/webhooks\/)[0-9]{5,32}\/[A-Za-z0-9_-]{20,255}/g, ['/api/webhooks/']],
  // Tokens whose prefix ends in `_`, one pattern behind one test (`_` is rare in prose): Replicate
  // (`r8_`), Hugging Face organization tokens (`api_org_`), LangSmith (`lsv2_pt_`, `lsv2_sk_`),
  // Shopify (`shpat_`, `shpca_`, `shppa_`, `shpss_` and 32 hex digits), DigitalOcean (`dop_v1_`,
  // `doo_v1_`, `dor_v1_`), Linear (`lin_api_`), Sentry (`sntrys_`, `sntryu_`), Notion (`ntn_`,
  // and `secret_` and 43 letters and digits).
  [
    /\b(?:r8_[A-Za-z0-9]{30,255}|api_org_[A-Za-z0-9]{30,255}|lsv2_(?:pt|sk)_[A-Za-z0-9]{32,255}(?:_[A-Za-z0-9]{6,64})?|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b|do[opr]_v1_[a-f0-9]{64}\b|lin_api_[A-Za-z0-9]{40,64}\b|sntry[su]_[A-Za-z0-9+/=_]{40,512}|ntn_[A-Za-z0-9]{40,255}|secret_[A-Za-z0-9]{43}\b)/g,
    ['_'],
  ],
  // PyPI upload tokens (`pypi-AgE...`: a macaroon, whose base64 always starts so), xAI (`xai-`),
  // Perplexity (`pplx-`), Tavily (`tvly-`), Google OAuth client secrets (`GOCSPX-`) and refresh
  // tokens (`1//0...`), Atlassian API tokens (`ATATT3`), age secret keys, Postman (`PMAK-`),
  // Databricks (`dapi` and 32 hex digits), Vault service and batch tokens (`hvs.`, `hvb.`),
  // Mailgun's private keys (`key-` and 32 hex digits).
  [/\bpypi-AgE[A-Za-z0-9_-]{50,4096}/g, ['AgE']],
  [/\b(?:xai|pplx)-[A-Za-z0-9]{40,255}/g, ['xai-', 'x-']],
  [/\btvly-(?:dev-|prod-)?[A-Za-z0-9]{24,255}/g, ['vly-']],
  [/\bGOCSPX-[A-Za-z0-9_-]{20,64}/g, ['GOCSPX-']],
  [/(?<![\w+/])1\/\/0[A-Za-z0-9_-]{40,1024}(?![\w+/=-])/g, ['1//']],
  [/\bATATT3[A-Za-z0-9_=-]{100,400}/g, ['ATATT3']],
  [/\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g, ['AGE-SECRET-KEY-1']],
  [/\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g, ['PMAK-']],
  [/\bdapi[a-f0-9]{32}(?:-\d)?\b/g, ['dapi']],
  [/\bhv[sb]\.[A-Za-z0-9_-]{90,512}/g, ['vs.', 'vb.']],
  [/\bkey-[a-f0-9]{32}\b/g, ['key-']],
  // An Azure AD (Entra ID) client secret: three characters, a digit, `Q~`, and 31 to 34 more (a
  // full stop after them ends a sentence).
  [/(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~-])/g, ['Q~']],
  // A Telegram bot token, `<bot id>:AA...` (35 characters after the colon), also in the API's
  // URLs (`https://api.telegram.org/bot<token>/sendMessage`).
  [/(?:(?<![\w:])|(?<=\bbot))\d{5,16}:A[A-Za-z0-9_-]{32,40}(?![\w-])/g, [':A']],
];

/**
 * A Discord bot token written bare, outside a key that names it (`client.login('...')`):
 * `<base64 of the bot's user id>.<base64 timestamp, 6>.<HMAC, 27 to 38>`, as detect-secrets'
 * Discord rule shapes it (gitleaks has none but under a `discord` key). The first part (1) decodes
 * to the 17 to 20 digits of a user id (see {@link isBase64UserId}), which a method chain or a
 * dotted name of the same shape (`ModelContextProtocolServer.client.listResources...`) does not.
 */
const DISCORD_BOT_TOKEN =
  /(?<![\w-])([MNO][A-Za-z0-9_-]{23,25})\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![\w-])/g;
/** True when the first part of a Discord bot token decodes to a user id (a snowflake's digits). */
const isBase64UserId = (part: string): boolean =>
  /^\d{17,20}$/.test(Buffer.from(part, 'base64url').toString('latin1'));
/**
 * True when the text has two `.` seven characters apart, as every {@link DISCORD_BOT_TOKEN} has
 * around its 6 character middle part: the cheap test before it (a text's few dots are found fast).
 */
function hasDotsSevenApart(text: string): boolean {
  for (let at = text.indexOf('.'); at !== -1 && at + 7 < text.length; at = text.indexOf('.', at + 1)) {
    if (text.charCodeAt(at + 7) === 46) return true;
  }
  return false;
}

/**
 * The signature of an AWS Signature Version 4 request (`Authorization: AWS4-HMAC-SHA256
 * Credential=AKIA.../aws4_request, SignedHeaders=host;x-amz-date, Signature=<64 hex digits>`),
 * wherever the header's value is written (a request dump, curl, prose, a log line): `Signature=`
 * (1) is kept, the 64 hex digits go. The `Credential=` beside it is a secret key, and its access
 * key id a key shape (`AKIA...`, `ASIA...`).
 */
const SIGV4_SIGNATURE = new RegExp(
  [
    String.raw`\b(Signature=)(?:[0-9a-f]{64}(?![0-9a-z])`,
    // and an AWS Signature Version 2 one (see SIGV2_HEADER), maybe URL-encoded (`%2B`, `%2F`, `%3D`):
    // `?AWSAccessKeyId=...&Signature=...`, also in a form's body or a log line
    String.raw`|(?:(?:[A-Za-z0-9+/]|%2[BF]){27}|(?:[A-Za-z0-9+/]|%2[BF]){43})(?:=|%3D)(?![\w%+/=]))`,
  ].join(''),
  'gi',
);
/** What every match of {@link SIGV4_SIGNATURE} contains (in either case of its first letter). */
export const SIGNATURE_WORD = 'ignature=';

/** Text with each AWS signature of {@link SIGV4_SIGNATURE} redacted, `Signature=` kept. */
export function redactSignatures(text: string): string {
  return text.replace(SIGV4_SIGNATURE, `$1${REDACTED}`);
}

/**
 * The signature of an AWS Signature Version 2 `Authorization` header (`Authorization: AWS
 * AKIA...:frJIUN8DYpKDtOLCwo//yllqDzg=`) written where no `Authorization` key is before it (prose,
 * a log line; after the key, the header's value goes whole as a secret key's): the scheme and the
 * access key id (1) are kept (an `AKIA...` or `ASIA...` one goes by its own shape), the base64
 * HMAC after the colon goes (28 characters of HMAC-SHA1, 44 of HMAC-SHA256, ending in `=`). Each
 * match starts at the literal `AWS`, and the key id is bounded: linear time.
 */
const SIGV2_HEADER = /\b(AWS[ \t]{1,4}[\w.~+-]{1,128}:)(?:[A-Za-z0-9+/]{27}|[A-Za-z0-9+/]{43})=(?![\w+/=])/g;
/** What every match of {@link SIGV2_HEADER} contains. */
export const SIGV2_WORD = 'AWS';

/** Text with the signature of each AWS SigV2 header value of {@link SIGV2_HEADER} redacted. */
export function redactSigV2Headers(text: string): string {
  return text.replace(SIGV2_HEADER, `$1${REDACTED}`);
}

function isUserPass(base64: string): boolean {
  try {
    return Buffer.from(base64, 'base64').toString('utf8').includes(':');
  } catch {
    return false;
  }
}

/** Text with each `Bearer` credential of {@link BEARER} redacted, the scheme kept. */
export function redactBearer(text: string): string {
  return text.replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

/**
 * Text with each `Basic` credential of {@link BASIC} that decodes to `user:pass` redacted, the
 * scheme kept.
 */
export function redactBasic(text: string): string {
  return text.replace(BASIC, (match, scheme: string, credential: string) =>
    isUserPass(credential) ? `${scheme} ${REDACTED}` : match,
  );
}

/**
 * Text with each key-shaped secret of {@link KEY_SHAPED} redacted, a pattern running only where the
 * text has one of its literals, and each bare Discord bot token ({@link DISCORD_BOT_TOKEN}).
 */
export function redactKeyShapes(text: string): string {
  let out = text;
  for (const [pattern, literals] of KEY_SHAPED) {
    for (const literal of literals) {
      if (!out.includes(literal)) continue;
      out = out.replace(pattern, REDACTED);
      break;
    }
  }
  if (hasDotsSevenApart(out)) {
    out = out.replace(DISCORD_BOT_TOKEN, (match, id: string) => (isBase64UserId(id) ? REDACTED : match));
  }
  return out;
}
