/**
 * Redaction for reports: the package's one redaction (src/internal/redact.ts), under the names the
 * report code uses.
 */
export { REDACTED, redactText, redactValue as redactArguments } from '../internal/redact.js';
