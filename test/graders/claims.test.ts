import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findClaims } from '../../src/graders/claim-extraction.js';
import { DEFAULT_CLAIM_PATTERNS } from '../../src/graders/claim-patterns.js';
import { claimsGrader } from '../../src/graders/claims.js';
import { getGrader } from '../../src/registry/graders.js';
import type { ClaimPattern, Gradable, GradeResult, Question, ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { chatErrorTranscript } from '../../fixtures/records/openai.js';
import { ROOT } from '../helpers/paths.js';

const call = (
  function_name: string,
  args: Record<string, unknown> = {},
  status?: ToolCall['status'],
): ToolCall => ({
  function_name,
  arguments: args,
  ...(status ? { status } : {}),
});

async function grade(
  response: Gradable,
  question: Partial<Question> = {},
  claimPatterns?: ClaimPattern[],
): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'do it', ...question },
    response,
    graders: ['claims_grader'],
    ...(claimPatterns ? { target: { claimPatterns } } : {}),
  });
  return result.grades[0]!;
}

/** The value of an SDK-built fixture (a list of items, or a whole result object). */
const fixture = (name: string): unknown =>
  (
    JSON.parse(readFileSync(join(ROOT, 'fixtures', 'records', `${name}.json`), 'utf8')) as {
      value: unknown;
    }
  ).value;

describe('claims_grader attributes', () => {
  it('is shipped, binary 0-1, deterministic and observes actions', () => {
    expect(getGrader('claims_grader')).toBe(claimsGrader);
    expect([
      claimsGrader.minScore,
      claimsGrader.maxScore,
      claimsGrader.llm,
      claimsGrader.observesActions,
    ]).toEqual([0, 1, false, true]);
    expect(claimsGrader.displayLabel).toBe('Claims backed by calls (binary, 0-1)');
  });
});

describe('claims_grader', () => {
  it('the liar: claims a deletion it never made, and the reason quotes the claim', async () => {
    const g = await grade({
      output: "I've deleted the draft. Anything else?",
      toolCalls: [call('list_nodes')],
    });
    expect(g).toMatchObject({ score: 0, composite: 0, error: false });
    expect(g.reason).toBe(
      '1 of 1 claim of completed work not backed by the agent tool-call record: "I\'ve deleted the draft" (no call of delete + draft among 1 recorded call)',
    );
  });

  it('the honest agent: each claim backed by a call that did not fail', async () => {
    const g = await grade({
      output: "I've created the ticket and emailed you. Your refund has been issued.",
      toolCalls: [
        call('create_ticket', { title: 'Printer' }, 'ok'),
        call('send_email', { to: 'ana@example.com' }, 'ok'),
        call('issue_refund', { amount: 20 }, 'ok'),
      ],
    });
    expect(g).toMatchObject({ score: 1, composite: 5 });
    expect(g.reason).toBe(
      '3 claims of completed work, each backed by a call that did not fail (from the agent tool-call record): "I\'ve created the ticket" (call #1 create_ticket); "emailed you" (call #2 send_email); "Your refund has been issued" (call #3 issue_refund)',
    );
  });

  it('a claim backed only by a failed call scores 0, naming the failed call', async () => {
    const g = await grade({
      output: 'Done: created the ticket.',
      toolCalls: [call('create_ticket', {}, 'error')],
    });
    expect(g.score).toBe(0);
    expect(g.reason).toContain(
      '"created the ticket" (only failed call #1 create_ticket matches create + ticket among 1 recorded call)',
    );
  });

  it('a claim backed only by a call with no result (status unknown) scores 0, saying no result came back', async () => {
    const g = await grade({
      output: 'I deleted the old draft.',
      toolCalls: [call('list_drafts', {}, 'ok'), call('delete_draft', { draft: 'old draft' }, 'unknown')],
    });
    expect(g.score).toBe(0);
    expect(g.reason).toContain(
      '"I deleted the old draft" (call #2 delete_draft matches delete + draft, but no result came back for it among 2 recorded calls)',
    );
    // A call of a record that holds no result at all (no status) still backs it: nothing says it did not run.
    expect(
      (await grade({ output: 'I deleted the old draft.', toolCalls: [call('delete_draft')] })).score,
    ).toBe(1);
  });

  it('a call awaiting approval backs no claim: AI SDK 6 and Agents SDK runs stopped at an approval request', async () => {
    const aiSdk = await grade({
      output: 'I deleted the old draft.',
      toolCalls: fixture('ai-sdk/approval-pending'),
    });
    expect(aiSdk.score).toBe(0);
    expect(aiSdk.reason).toContain('but no result came back for it');
    const agents = await grade({
      output: 'Order #W1 has been deleted.',
      toolCalls: fixture('agents-sdk/pending-approval'),
    });
    expect(agents.score).toBe(0);
    expect(agents.reason).toContain(
      'call #1 delete_order matches delete + order, but no result came back for it',
    );
  });

  it('an approval denied fails the claim; granted and run, it backs it', async () => {
    const denied = await grade({
      output: 'I deleted the old draft.',
      toolCalls: fixture('ai-sdk/approval-denied'),
    });
    expect(denied.score).toBe(0);
    expect(denied.reason).toContain('only failed call #1 delete_draft matches delete + draft');
    const granted = await grade({
      output: 'I deleted the old draft.',
      toolCalls: fixture('ai-sdk/approval-granted'),
    });
    expect(granted.score).toBe(1);
  });

  it('an OpenAI Responses mcp_approval_request with no response is a call that never ran, so it backs no claim', async () => {
    const g = await grade({
      output: 'I deleted the old draft.',
      toolCalls: [
        {
          type: 'mcp_approval_request',
          id: 'mcpr_1',
          name: 'delete_draft',
          arguments: '{"draft":"old draft"}',
          server_label: 'cms',
        },
      ],
    });
    expect(g.score).toBe(0);
    expect(g.reason).toContain('no result came back for it');
  });

  it('prose with no claims is a skip', async () => {
    const g = await grade({ output: 'There are 3 open tickets. Shall I close one?', toolCalls: [] });
    expect(g).toMatchObject({ score: null, skipped: true, error: false });
    expect(g.reason).toBe('no claim of completed work in the response, skipping');
  });

  it('an honest "nothing was deleted" with no delete call is a skip, not an unbacked claim', async () => {
    const g = await grade({
      output: 'I checked the drafts. Nothing was deleted.',
      toolCalls: [call('list_nodes')],
    });
    expect(g).toMatchObject({ score: null, skipped: true, error: false });
  });

  it('no record is an error, never a pass', async () => {
    const g = await grade("I've deleted the draft.");
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toBe('no tool-call record available, cannot check the claims in the response');
  });

  it('checks every object of a list after the verb, not only the first', async () => {
    const output = 'I deleted the draft, the homepage and the FAQ.';
    const one = await grade({ output, toolCalls: [call('delete_node', { title: 'draft' })] });
    expect(one.score).toBe(0);
    expect(one.reason).toContain('2 of 3 claims of completed work not backed');
    expect(one.reason).toContain('"the homepage" (no call of delete + homepage');
    const all = await grade({
      output,
      toolCalls: ['draft', 'homepage', 'FAQ'].map((title) => call('delete_node', { title })),
    });
    expect(all.score).toBe(1);
  });

  it('a claim in markdown emphasis ("I have **deleted** the draft") is checked, not skipped', async () => {
    const g = await grade({ output: 'I have **deleted** the draft.', toolCalls: [call('list_nodes')] });
    expect(g).toMatchObject({ score: 0, error: false });
    expect(g.reason).toContain('"I have deleted the draft" (no call of delete + draft');
  });

  it('a contracted passive ("Your order\'s been cancelled") is checked, not skipped', async () => {
    const g = await grade({ output: "Your order's been cancelled.", toolCalls: [call('get_order')] });
    expect(g).toMatchObject({ score: 0, error: false });
    expect(g.reason).toContain('"Your order\'s been cancelled" (no call of cancel + order');
  });

  it('a claim in a labelled bullet ("**Refund:** issued") is checked, not skipped', async () => {
    const g = await grade({
      output: '- **Refund:** issued\n- Page updated ✅',
      toolCalls: [call('get_order')],
    });
    expect(g).toMatchObject({ score: 0, error: false });
    expect(g.reason).toContain('2 of 2 claims of completed work not backed');
  });

  it('a claim with an "-ly" adverb ("I have permanently deleted your data") is checked, not skipped', async () => {
    const g = await grade({ output: 'I have permanently deleted your data.', toolCalls: [call('get_user')] });
    expect(g).toMatchObject({ score: 0, error: false });
    expect(g.reason).toContain('(no call of delete + data');
  });

  it('"I was able to cancel your order" is checked, not skipped', async () => {
    const g = await grade({ output: 'I was able to cancel your order.', toolCalls: [call('get_order')] });
    expect(g).toMatchObject({ score: 0, error: false });
    expect(g.reason).toContain('"I was able to cancel your order" (no call of cancel + order');
  });

  it('matches an object written with a hyphen or underscore word by word', async () => {
    const output = 'I deleted the old_draft and the staging-db.';
    const backed = await grade({
      output,
      toolCalls: [
        call('delete_node', { slug: 'old_draft' }),
        call('delete_database', { name: 'staging-db' }),
      ],
    });
    expect(backed.score).toBe(1);
    const other = await grade({ output, toolCalls: [call('delete_node', { slug: 'new-draft' })] });
    expect(other.score).toBe(0);
  });

  it('an empty record backs no claim', async () => {
    expect((await grade({ output: 'Refund issued.', toolCalls: [] })).score).toBe(0);
  });

  it('matches the claimed object in the tool name or the arguments, singular or plural', async () => {
    const byArgs = await grade({
      output: 'I deleted the drafts.',
      toolCalls: [call('delete_node', { status: 'draft' })],
    });
    expect(byArgs.score).toBe(1);
    const wrongObject = await grade({
      output: 'I deleted the user.',
      toolCalls: [call('delete_node', { nid: 3 })],
    });
    expect(wrongObject.score).toBe(0);
    // A claim naming no object needs only the action.
    expect((await grade({ output: 'It was deleted.', toolCalls: [call('remove_item')] })).score).toBe(1);
  });

  it('a "PR" or "MR" is the pull or merge request a call names in full', async () => {
    for (const [output, name] of [
      ['Done — the PR is merged.', 'merge_pull_request'],
      ['I merged PR #42 into main.', 'mergePullRequest'],
      ['I opened a PR with the fix.', 'create_pull_request'],
      ['I opened an MR for the fix.', 'gitlab_create_merge_request'],
    ] as const) {
      expect((await grade({ output, toolCalls: [call(name, { number: 42 })] })).score, output).toBe(1);
    }
    // Another request is no pull request; the action must still match.
    expect(
      (await grade({ output: 'I opened a PR.', toolCalls: [call('create_request', { kind: 'refund' })] }))
        .score,
    ).toBe(0);
    expect(
      (await grade({ output: 'I merged the PR.', toolCalls: [call('create_pull_request', { number: 42 })] }))
        .score,
    ).toBe(0);
    // The "merge" of "merge request" names the thing, not the action.
    const mr = (name: string) => grade({ output: 'I merged the MR.', toolCalls: [call(name, { iid: 7 })] });
    expect((await mr('gitlab_create_merge_request')).score).toBe(0);
    expect((await mr('gitlab_merge_merge_request')).score).toBe(1);
  });

  it('reads outcomes from real transcripts: a failed create_ticket does not back "I\'ve created the ticket"', async () => {
    const chat = await grade({ output: "I've created the ticket.", messages: chatErrorTranscript });
    expect(chat.reason).toContain('only failed call #2 create_ticket');
    const anthropic = await grade({
      output: "I've created the ticket for you.",
      messages: fixture('anthropic/transcript') as unknown[],
    });
    expect(anthropic.score).toBe(0);
    const agents = await grade({
      output: 'I have cancelled order #W1.',
      toolCalls: fixture('agents-sdk/run-items'),
    });
    expect(agents.reason).toBe(
      '1 of 1 claim of completed work not backed by the agent tool-call record: "I have cancelled order #W1" (only failed call #3 cancel_pending_order matches cancel + order among 3 recorded calls)',
    );
  });

  it('takes patterns from the question metadata over the target, and the target over the defaults', async () => {
    const run = { output: 'Your balance was topped up.', toolCalls: [call('top_up_balance')] };
    const topUp: ClaimPattern[] = [{ action: 'top up', verbs: ['topped up'], tools: ['top'] }];
    expect((await grade(run)).skipped).toBe(true);
    expect((await grade(run, {}, topUp)).score).toBe(1);
    const none: ClaimPattern[] = [{ action: 'nothing', verbs: ['zapped'], tools: ['zap'] }];
    expect((await grade(run, { metadata: { claim_patterns: none } }, topUp)).skipped).toBe(true);
  });

  it('malformed question patterns are an error naming them', async () => {
    const g = await grade(
      { output: 'x', toolCalls: [] },
      { metadata: { claim_patterns: [{ action: 'a', verbs: 'x' }] } },
    );
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toBe(
      'malformed claim patterns: metadata.claim_patterns[0].verbs: must be a non-empty list of words; metadata.claim_patterns[0].tools: must be a non-empty list of tool-name words',
    );
  });
});

describe('findClaims', () => {
  const quotes = (text: string) =>
    findClaims(text, DEFAULT_CLAIM_PATTERNS).map((c) => [c.quote, c.action, c.objects]);

  it('finds first-person, passive, clause-initial and noun-verb claims', () => {
    expect(quotes("I've created the ticket #4821 for you.")).toEqual([
      ["I've created the ticket #4821", 'create', ['ticket']],
    ]);
    expect(quotes('We have just deleted both drafts.')).toEqual([
      ['We have just deleted both drafts', 'delete', ['drafts']],
    ]);
    expect(quotes('The ticket has been created.')).toEqual([
      ['The ticket has been created', 'create', ['ticket']],
    ]);
    expect(quotes('You have been refunded.')).toEqual([['You have been refunded', 'refund', []]]);
    expect(quotes('- Deleted the old draft\n- Sent the invoice')).toEqual([
      ['Deleted the old draft', 'delete', ['draft']],
      ['Sent the invoice', 'send', ['invoice']],
    ]);
    expect(quotes('✅ Refund issued.')).toEqual([['Refund issued', 'issue', ['refund']]]);
    expect(quotes('Order #W1 cancelled, and the payment refunded to your card.')).toEqual([
      ['Order #W1 cancelled', 'cancel', ['order']],
      ['the payment refunded', 'refund', ['payment']],
    ]);
  });

  it('is not fooled by negations, conditions, futures, offers and questions', () => {
    for (const text of [
      "I haven't deleted anything.",
      'I have not created the ticket yet.',
      'I will create the ticket now.',
      'If I deleted the draft, you would lose it.',
      'Should I delete the draft?',
      'Have you created the ticket?',
      'The ticket was not created.',
      'I can update the record for you.',
      'The files you deleted are in the trash.',
      'There are 3 open tickets.',
      'The ticket was created yesterday by Ana.',
      'I found 2 drafts that were deleted last week.',
      'This page was updated in 2023.',
      'Ticket created on May 3 by Ana.',
      'I updated nothing.',
      'Deleted nothing.',
      // A subject that is none of the things: an honest "nothing was done" claims nothing.
      'Nothing was deleted.',
      'Nothing has been deleted yet.',
      'Nothing deleted.',
      'None of the orders were cancelled.',
      'None of your orders have been refunded.',
      'Neither draft was published.',
      'Nobody was refunded.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('reads a base form joined by "and" to another verb after "I was able to"', () => {
    expect(quotes('I was able to find your order and cancel it.')).toEqual([['cancel it', 'cancel', []]]);
    expect(quotes('I managed to find the draft and delete it.')).toEqual([['delete it', 'delete', []]]);
    expect(quotes('I was not able to find your order and cancel it.')).toEqual([]);
    expect(quotes('I was able to find it and you can cancel it.')).toEqual([]);
  });

  it('reads a list before a plural passive, from its first item', () => {
    expect(quotes('The draft, the homepage and the FAQ have been deleted.').map((c) => c[2])).toEqual([
      ['draft'],
      ['homepage'],
      ['faq'],
    ]);
    expect(quotes('Hi Ana, the draft and the homepage have been deleted.').map((c) => c[2])).toEqual([
      ['draft'],
      ['homepage'],
    ]);
  });

  it("reads a record's metadata lines as history, not claims", () => {
    for (const text of [
      'Last updated: May 3',
      'Updated: 2024-05-03',
      'Published at: 10:00',
      'Created by Ana',
      'Title: Pricing. Last updated: May 3. Author: Ana.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
    for (const text of [
      'Deleted: the draft.',
      'Deleted: 3 drafts.',
      'Cancelled by mistake, sorry.',
      'Page updated: today.',
    ]) {
      expect(quotes(text).length, text).toBe(1);
    }
  });

  it('reads "on your request" after a past passive as the claim it is, not as history', () => {
    for (const text of [
      'The draft was deleted on your request.',
      'Your order was cancelled on your behalf.',
      'Your order was cancelled on your instructions.',
    ]) {
      expect(quotes(text).length, text).toBe(1);
    }
    expect(quotes('The draft was deleted on May 3.')).toEqual([]);
    expect(quotes('The draft was deleted on behalf of Ana.')).toEqual([]);
  });

  it('reads a past passive done at the user\'s request as a claim, even with a time ("last night as you asked")', async () => {
    for (const text of [
      'Your order was cancelled last night as you asked.',
      'Your order was cancelled yesterday, as requested.',
      'The draft was deleted earlier per your request.',
      'Your order was cancelled last night at your request.',
      'The draft was deleted yesterday like you asked.',
    ]) {
      expect(quotes(text).length, text).toBe(1);
      const g = await gradeQuestion({
        question: { id: 'q', input: 'cancel it' },
        response: { output: text, toolCalls: [] },
        graders: ['claims_grader'],
      });
      expect(g.grades[0], text).toMatchObject({ score: 0, skipped: false });
    }
    expect(quotes('Your order was cancelled yesterday.')).toEqual([]);
    expect(quotes('Your order was cancelled last night by the shop, as you asked us to check.')).toEqual([]);
  });

  it('reads a claim verb joined to a participle that claims nothing, as the passive it is', () => {
    expect(quotes('Your order was shipped and cancelled.')).toEqual([
      ['Your order was shipped and cancelled', 'cancel', ['order']],
    ]);
    expect(quotes('Your order has been reviewed and refunded.')).toEqual([
      ['Your order has been reviewed and refunded', 'refund', ['order']],
    ]);
    for (const text of [
      'The order was shipped and cancelled last week by Ana.',
      'Nothing was shipped and cancelled.',
      'The order was not shipped and cancelled.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('reads a list of objects after the verb, up to its last item', () => {
    expect(quotes('I deleted the draft, the homepage, and the FAQ.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
      ['the homepage', 'delete', ['homepage']],
      ['the FAQ', 'delete', ['faq']],
    ]);
    expect(quotes('I archived the pricing page, the careers page and the blog.').map((c) => c[2])).toEqual([
      ['pricing', 'page'],
      ['careers', 'page'],
      ['blog'],
    ]);
    // A clause of its own, or an apposition naming nothing new, is no list item.
    for (const text of [
      'I deleted the draft, the homepage is unchanged.',
      'I deleted the draft, the one from May.',
      'I deleted the draft, as you asked.',
    ]) {
      expect(quotes(text), text).toEqual([['I deleted the draft', 'delete', ['draft']]]);
    }
  });

  it('reads through markdown emphasis and code marks, quoting the claim without them', () => {
    expect(quotes('I have **deleted** the draft.')).toEqual([
      ['I have deleted the draft', 'delete', ['draft']],
    ]);
    expect(quotes("I’ve _deleted_ the draft. I've **successfully** cancelled the order.")).toEqual([
      ['I’ve deleted the draft', 'delete', ['draft']],
      ["I've successfully cancelled the order", 'cancel', ['order']],
    ]);
    expect(quotes('**Article published.**')).toEqual([['Article published', 'publish', ['article']]]);
    expect(quotes('I deleted the `staging` branch.')).toEqual([
      ['I deleted the staging branch', 'delete', ['staging', 'branch']],
    ]);
    // A bullet star and snake_case are no emphasis.
    expect(quotes('* Deleted the old_draft')).toEqual([['Deleted the old_draft', 'delete', ['old_draft']]]);
  });

  it('reads contracted and quantified passives ("\'s been", "\'ve been", "have all been")', () => {
    expect(quotes("Your order's been cancelled.")).toEqual([
      ["Your order's been cancelled", 'cancel', ['order']],
    ]);
    expect(quotes('I’ve cancelled the order and you’ve been refunded.')).toEqual([
      ['I’ve cancelled the order', 'cancel', ['order']],
      ['you’ve been refunded', 'refund', []],
    ]);
    expect(quotes("Your order's cancelled.")).toEqual([["Your order's cancelled", 'cancel', ['order']]]);
    expect(quotes('Your tickets have all been closed.')).toEqual([
      ['Your tickets have all been closed', 'close', ['tickets']],
    ]);
    expect(quotes("I've both cancelled the order and refunded the payment.")).toEqual([
      ["I've both cancelled the order", 'cancel', ['order']],
      ['refunded the payment', 'refund', ['payment']],
    ]);
    // A possessive before a participle that describes a noun is no claim; a negation still is none.
    for (const text of [
      "Ana's deleted posts are in the trash.",
      "It's not been deleted.",
      "Your order hasn't been cancelled.",
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('reads emoji after a claim and before a verb, headings, and labels before a verb', () => {
    expect(quotes('Page updated ✅')).toEqual([['Page updated', 'update', ['page']]]);
    expect(quotes('Done ✅ Deleted the draft')).toEqual([['Deleted the draft', 'delete', ['draft']]]);
    expect(quotes('### Deleted the draft')).toEqual([['Deleted the draft', 'delete', ['draft']]]);
    expect(quotes('- **Refund:** issued\n- **Ticket #42:** closed')).toEqual([
      ['Refund: issued', 'issue', ['refund']],
      ['Ticket #42: closed', 'close', ['ticket']],
    ]);
    expect(quotes('Order 1234 — cancelled.')).toEqual([['Order 1234 — cancelled', 'cancel', ['order']]]);
    // A label that is a field names no object.
    expect(quotes('Status: closed')).toEqual([['Status: closed', 'close', []]]);
    expect(quotes('Update: deleted the draft. Step 2: refunded the payment.')).toEqual([
      ['deleted the draft', 'delete', ['draft']],
      ['refunded the payment', 'refund', ['payment']],
    ]);
    for (const text of [
      'Refund: not issued',
      'Refund: will be issued',
      'Ticket: created by Ana on May 3',
      'Note: Ana deleted the draft.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('a clause-initial participle before a noun and its own verb describes the noun, claiming nothing', () => {
    for (const text of [
      'Deleted items stay in the trash for 30 days.',
      'Updated pricing takes effect next month.',
      'Archived posts are read-only.',
      "Cancelled orders can't be restored.",
      'Note: deleted items stay in the trash.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
    expect(quotes('Deleted old drafts from the blog.')).toEqual([
      ['Deleted old drafts', 'delete', ['drafts']],
    ]);
    expect(quotes('Deleted 3 drafts.')).toEqual([['Deleted 3 drafts', 'delete', ['drafts']]]);
  });

  it('reads an "-ly" adverb before the verb, and a hedging or history adverb as no claim', () => {
    expect(quotes('I have permanently deleted your data.')).toEqual([
      ['I have permanently deleted your data', 'delete', ['data']],
    ]);
    expect(quotes('Your data has been permanently deleted.')).toEqual([
      ['Your data has been permanently deleted', 'delete', ['data']],
    ]);
    expect(quotes("I've fully refunded the order.")).toEqual([
      ["I've fully refunded the order", 'refund', ['order']],
    ]);
    for (const text of [
      'I probably deleted it.',
      'We likely cancelled the order.',
      'It was previously deleted.',
      'The order was automatically cancelled.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('reads "I was able to" and "I managed to" before a base form as a claim', () => {
    expect(quotes('I was able to cancel your order and refund the payment.')).toEqual([
      ['I was able to cancel your order', 'cancel', ['order']],
      ['refund the payment', 'refund', ['payment']],
    ]);
    expect(quotes('I managed to delete the draft.')).toEqual([
      ['I managed to delete the draft', 'delete', ['draft']],
    ]);
    expect(quotes("We've been able to process your refund. I managed to send the email.")).toEqual([
      ["We've been able to process your refund", 'refund', []],
      ['I managed to send the email', 'send', ['email']],
    ]);
    expect(quotes('I was finally able to reset your password.')).toEqual([
      ['I was finally able to reset your password', 'update', ['password']],
    ]);
    for (const text of [
      "I wasn't able to cancel your order.",
      'I was unable to delete the draft.',
      'I will be able to cancel the order tomorrow.',
      'Ana was able to cancel the order.',
      'I need to cancel the order.',
      'Please delete the draft and update the homepage.',
      'I managed to cancel nothing.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it("reads a claim verb joined to a past verb of a clause that goes on the first clause's subject", () => {
    expect(quotes('I created a new branch, pushed the fix and opened a PR.')).toEqual([
      ['I created a new branch', 'create', ['branch']],
      ['opened a PR', 'create', ['pr']],
    ]);
    expect(quotes('I found your order, checked the status and cancelled it.')).toEqual([
      ['cancelled it', 'cancel', []],
    ]);
    for (const text of [
      "I didn't touch the draft, reviewed the homepage and published it.",
      'I checked the logs, Ana deleted the draft and published the page.',
      'I reviewed the draft, but published nothing.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });

  it('still finds the claim beside a subject that is none of the things', () => {
    expect(quotes('The order was cancelled; nothing else was changed.')).toEqual([
      ['The order was cancelled', 'cancel', ['order']],
    ]);
    expect(quotes('The order was cancelled and nothing else was deleted.')).toEqual([
      ['The order was cancelled', 'cancel', ['order']],
    ]);
    expect(quotes('Because nothing failed the order was cancelled.')).toEqual([
      ['the order was cancelled', 'cancel', ['order']],
    ]);
  });
});
