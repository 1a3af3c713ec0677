import type { ClaimPattern, GradingContext } from '../grading/types.js';

/**
 * The English claim patterns `claims_grader` uses unless a question (`metadata.claim_patterns`) or
 * its target (`claimPatterns`) replaces them. Each maps the past-tense words that claim an action
 * to the tool-name words of the calls that perform it.
 *
 * @example
 * ```ts
 * DEFAULT_CLAIM_PATTERNS.find((p) => p.action === 'delete')?.verbs; // ['deleted', 'removed', ...]
 * ```
 */
export const DEFAULT_CLAIM_PATTERNS: readonly ClaimPattern[] = [
  {
    action: 'create',
    verbs: ['created', 'opened', 'filed', 'logged', 'raised', 'registered', 'generated', 'set up', 'added'],
    tools: [
      'create',
      'add',
      'new',
      'insert',
      'open',
      'file',
      'log',
      'register',
      'submit',
      'post',
      'make',
      'append',
    ],
  },
  {
    action: 'update',
    verbs: [
      'updated',
      'changed',
      'modified',
      'edited',
      'renamed',
      'adjusted',
      'amended',
      'corrected',
      'reset',
    ],
    tools: [
      'update',
      'change',
      'modify',
      'edit',
      'rename',
      'set',
      'patch',
      'adjust',
      'amend',
      'reset',
      'put',
    ],
  },
  {
    action: 'delete',
    verbs: [
      'deleted',
      'removed',
      'erased',
      'purged',
      'destroyed',
      'discarded',
      'trashed',
      'wiped',
      'got rid of',
      'gotten rid of',
    ],
    tools: [
      'delete',
      'remove',
      'erase',
      'purge',
      'destroy',
      'discard',
      'trash',
      'drop',
      'unlink',
      'wipe',
      'clear',
    ],
  },
  {
    action: 'save',
    verbs: ['saved', 'stored', 'persisted'],
    tools: ['save', 'store', 'persist', 'write', 'put', 'upsert'],
  },
  {
    action: 'send',
    verbs: ['sent', 'emailed', 'messaged', 'notified', 'forwarded', 'replied', 'texted'],
    tools: ['send', 'email', 'mail', 'message', 'notify', 'forward', 'reply', 'sms', 'text', 'post'],
  },
  {
    action: 'publish',
    verbs: ['published', 'unpublished', 'posted'],
    tools: ['publish', 'unpublish', 'post'],
  },
  {
    action: 'cancel',
    verbs: ['cancelled', 'canceled', 'voided', 'revoked', 'terminated'],
    tools: ['cancel', 'void', 'revoke', 'terminate'],
  },
  { action: 'refund', verbs: ['refunded', 'reimbursed'], tools: ['refund', 'reimburse'] },
  {
    action: 'issue',
    verbs: ['issued', 'granted', 'credited'],
    tools: ['issue', 'grant', 'credit', 'create', 'refund', 'send'],
  },
  {
    action: 'process',
    verbs: ['processed', 'executed'],
    tools: [
      'process',
      'complete',
      'execute',
      'run',
      'refund',
      'issue',
      'create',
      'return',
      'exchange',
      'charge',
    ],
  },
  {
    action: 'book',
    verbs: ['booked', 'reserved', 'scheduled', 'rescheduled'],
    tools: ['book', 'reserve', 'schedule', 'reschedule', 'create', 'update'],
  },
  { action: 'exchange', verbs: ['exchanged', 'swapped', 'replaced'], tools: ['exchange', 'swap', 'replace'] },
  { action: 'return', verbs: ['returned'], tools: ['return'] },
  { action: 'assign', verbs: ['assigned', 'reassigned'], tools: ['assign', 'reassign'] },
  { action: 'transfer', verbs: ['transferred', 'moved', 'migrated'], tools: ['transfer', 'move', 'migrate'] },
  { action: 'charge', verbs: ['charged', 'billed', 'paid'], tools: ['charge', 'bill', 'pay', 'payment'] },
  {
    action: 'approve',
    verbs: ['approved', 'rejected', 'denied'],
    tools: ['approve', 'reject', 'deny', 'review'],
  },
  {
    action: 'archive',
    verbs: ['archived', 'unarchived', 'restored'],
    tools: ['archive', 'unarchive', 'restore'],
  },
  {
    action: 'deploy',
    verbs: ['deployed', 'restarted', 'rebooted', 'rolled back', 'released'],
    tools: ['deploy', 'restart', 'reboot', 'rollback', 'release'],
  },
  { action: 'upload', verbs: ['uploaded', 'attached'], tools: ['upload', 'attach'] },
  {
    action: 'toggle',
    verbs: ['enabled', 'disabled', 'activated', 'deactivated', 'turned on', 'turned off'],
    tools: ['enable', 'disable', 'activate', 'deactivate', 'toggle', 'set', 'update'],
  },
  {
    action: 'close',
    verbs: ['closed', 'resolved', 'reopened', 'merged'],
    tools: ['close', 'resolve', 'reopen', 'merge', 'update'],
  },
];

/**
 * The nouns that name each action of the claim patterns, by the pattern's `action`: "Cancellation
 * complete." and "I completed the cancellation of your order" claim a cancel, as "I cancelled your
 * order" does. They apply to any pattern with that action, the defaults' or a question's or
 * target's own; an action with no entry is claimed by its verbs and their gerunds ("I finished
 * cancelling ...") only. Plurals ("Both refunds went through") are read too.
 *
 * @example
 * ```ts
 * DEFAULT_CLAIM_NOUNS.cancel; // ['cancellation', 'cancelation']
 * ```
 */
export const DEFAULT_CLAIM_NOUNS: Readonly<Record<string, readonly string[]>> = {
  create: ['creation'],
  update: ['update', 'modification'],
  delete: ['deletion', 'removal'],
  publish: ['publication'],
  cancel: ['cancellation', 'cancelation'],
  refund: ['refund', 'reimbursement'],
  book: ['booking', 'reservation'],
  exchange: ['exchange'],
  return: ['return'],
  assign: ['assignment', 'reassignment'],
  transfer: ['transfer', 'migration'],
  charge: ['payment', 'charge'],
  approve: ['approval', 'rejection'],
  archive: ['archival', 'restoration'],
  deploy: ['deployment', 'rollback', 'release'],
  upload: ['upload'],
  toggle: ['activation', 'deactivation'],
  close: ['closure'],
};

/**
 * The problems of a claim-pattern list, each naming its path: it must be a non-empty list of
 * `{ action, verbs, tools }` with a non-empty action and non-empty lists of non-empty strings.
 *
 * @example
 * ```ts
 * checkClaimPatterns([{ action: 'refund', verbs: [], tools: ['refund'] }], 'metadata.claim_patterns');
 * // ['metadata.claim_patterns[0].verbs: must be a non-empty list of words']
 * ```
 */
export function checkClaimPatterns(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0)
    return [`${where}: must be a non-empty list of { action, verbs, tools }`];
  const problems: string[] = [];
  value.forEach((entry: unknown, i) => {
    const at = `${where}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at}: must be { action, verbs, tools }`);
      return;
    }
    const { action, verbs, tools } = entry as Record<string, unknown>;
    if (typeof action !== 'string' || action.trim() === '')
      problems.push(`${at}.action: must be a non-empty string`);
    if (!isWordList(verbs)) problems.push(`${at}.verbs: must be a non-empty list of words`);
    if (!isWordList(tools)) problems.push(`${at}.tools: must be a non-empty list of tool-name words`);
  });
  return problems;
}

const isWordList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v.trim() !== '');

/**
 * The claim patterns that apply to a question: its `metadata.claim_patterns`, else the target's
 * (`context.claim_patterns`), else {@link DEFAULT_CLAIM_PATTERNS}; with where they came from, or
 * the problems of a malformed list.
 *
 * @example
 * ```ts
 * claimPatternsFor(context); // { ok: true, patterns: DEFAULT_CLAIM_PATTERNS, source: 'default' }
 * ```
 */
export function claimPatternsFor(
  context: GradingContext,
): { ok: true; patterns: readonly ClaimPattern[]; source: string } | { ok: false; problems: string[] } {
  const own = context.metadata?.claim_patterns;
  if (own !== undefined) return checked(own, 'metadata.claim_patterns');
  if (context.claim_patterns !== undefined)
    return checked(context.claim_patterns, "the target's claimPatterns");
  return { ok: true, patterns: DEFAULT_CLAIM_PATTERNS, source: 'default' };
}

function checked(
  value: unknown,
  source: string,
): { ok: true; patterns: readonly ClaimPattern[]; source: string } | { ok: false; problems: string[] } {
  const problems = checkClaimPatterns(value, source);
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, patterns: value as ClaimPattern[], source };
}
