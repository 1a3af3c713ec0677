/**
 * The one redaction of ai-eval: everything that leaves the process (judge prompts and cache
 * entries, grade reasons and so records, reports, failure messages and annotations, log lines,
 * error messages) goes through {@link redactText} or {@link redactValue} first.
 *
 * What is redacted:
 * - values under secret-looking keys ({@link isSecretKey}: `api_key`, `apiKey`, `x-api-key`,
 *   `token`, `access_token`, `password`, `passwd`, `passphrase`, `secret`, `client_secret`,
 *   `private_key`, `authorization`, `auth`, `cookie`, `set-cookie`, `credential(s)`, `session_id`,
 *   `AccountKey`, `PGPASSWORD`, `jwt`, `Ocp-Apim-Subscription-Key`, `RAILS_MASTER_KEY`,
 *   `LICENSE_KEY`, `ENCRYPTION_KEY`, `APP_KEY`, `ADMIN_KEY`, any case and any of `snake_case`,
 *   `camelCase`, `kebab-case`, a secret word written together with another in lower case,
 *   `identitytoken`, `authtoken`, `secretkey`, and in text also two words with a space, `api key`,
 *   `Session ID`, `secret key`; and in text `PWD` whose value is no path, an ODBC password),
 *   in objects and in text (`key=value`,
 *   `key: value`, `"key": "value"`, header lines, an auth scheme in any case taken with its value:
 *   `authorization: bearer abc` loses `bearer abc`; a YAML key whose value is on the lines below,
 *   a block scalar `secret: |` or `>-` or an indented value, loses all those lines); a file
 *   position `name:<line>:<col>` (`evals/cookie-policy.yaml:3:12`) is not a `key: value`; a
 *   `Cookie:` header loses its whole line, and a session cookie (`PHPSESSID`, `JSESSIONID`,
 *   `connect.sid`, `sid`, `<app>_session`) its value elsewhere (`curl -b 'sid=…'`); in code,
 *   `env["API_KEY"] = "…"`, `:=`, `=>` and `password == "…"`; Python's `auth=('admin', 'pw')`
 *   tuple, and the password of an HTTP auth object (`HTTPBasicAuth('admin', 'pw')`,
 *   `HTTPDigestAuth`, `BasicAuth`); command-line flags are keys (`--password=…`, `--api-key …`),
 *   and curl's `-u user:password` loses the password, and so does a setting a CLI sets by name
 *   (`aws configure set aws_secret_access_key …`, `npm config set …:_authToken …`, `git config`,
 *   `poetry config`, `dotnet user-secrets set`); in prose, `my password is hunter2` loses a
 *   value that looks like a credential, and `Your OTP is 482913`, `verification code: X7K9QP`,
 *   `2FA: 482913` or `G-482913 is your Google verification code` a one-time code;
 * - `Bearer <token>` and `Basic <base64 user:pass>` credentials, whole;
 * - key-shaped strings: `sk-…` / `rk-…` / `pk-…` (OpenAI, Anthropic; an `sk-` key from 10
 *   characters on when it has a capital, a digit or a `*`, `sk-learn` being a word), `sk_live_…`
 *   (Stripe), `ghp_…` / `github_pat_…` (GitHub), `xox?-…` / `xapp-…` (Slack), `AKIA…` (AWS),
 *   `AIza…`, `GOCSPX-…`, `ya29.…`, `1//0…` (Google), `npm_…`, `pypi-AgE…`, `glpat-…` and GitLab's
 *   other tokens, `hf_…`, `whsec_…`, `SG.…`, Twilio `SK…`, Mailgun `key-…`, Shopify `shpat_…`,
 *   Telegram bot tokens, Azure AD client secrets (`…8Q~…`), the AI providers' `gsk_…`, `xai-…`,
 *   `pplx-…`, `r8_…`, `tvly-…`, `lsv2_…`, `pcsk_…`, and DigitalOcean, Vault, Atlassian, age,
 *   Linear, Sentry, Databricks, Notion and Postman tokens; Slack and Discord webhook paths, JWTs,
 *   PEM and PGP private key blocks (cut short too), and a private key block in base64
 *   (Kubernetes' `client-key-data: LS0tLS1CRUdJTi…`);
 * - URL userinfo: `https://user:pass@host` becomes `https://[redacted]@host` (to the last `@`), and
 *   query parameters that are credentials by name (`?sig=`, `&X-Amz-Signature=`, `?key=`), and
 *   `code=` in the URL of an auth flow (`/oauth/callback?code=…`, `/verify?code=…`, or beside
 *   `state=`; `?code=US` is kept);
 * - any literal secret passed in (the configured API key) that is at least
 *   {@link MIN_LITERAL_SECRET_CHARS} characters long: a shorter one is a placeholder (Ollama's
 *   `ollama`), and redacting it would blank ordinary words and make judge cache keys depend on it.
 *
 * The rules live in src/internal/redaction/: the key-name lexicon (secret-keys.ts, and the trie of
 * its words in literal-trie.ts), `key=value` pairs (key-values.ts), YAML blocks (yaml-blocks.ts),
 * name/value pairs (named-values.ts), prose (prose.ts), command lines (command-line.ts), URLs
 * (urls.ts), session cookies (session-cookies.ts), one-time codes (one-time-codes.ts), token shapes
 * (token-shapes.ts), private key blocks (private-keys.ts), what replaces a secret (values.ts), and
 * the engine that runs them in order behind their cheap literal tests, with its memo (engine.ts).
 * This module is what the rest of the package imports.
 */

export { MIN_LITERAL_SECRET_CHARS, redactText, redactValue } from './redaction/engine.js';
export { isSecretKey, SECRET_PAIRS, SECRET_WORDS } from './redaction/secret-keys.js';
export { REDACTED } from './redaction/values.js';
