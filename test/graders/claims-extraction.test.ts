import { describe, expect, it } from 'vitest';
import { findClaims } from '../../src/graders/claim-extraction.js';
import { DEFAULT_CLAIM_PATTERNS } from '../../src/graders/claim-patterns.js';
import type { GradeResult, ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';

const deleteDraft: ToolCall = { function_name: 'delete_node', arguments: { type: 'draft', id: 7 } };

async function claims(output: string, toolCalls: ToolCall[] = [deleteDraft]): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'do it' },
    response: { output, toolCalls },
    graders: ['claims_grader'],
  });
  return result.grades[0]!;
}

const quotes = (text: string) =>
  findClaims(text, DEFAULT_CLAIM_PATTERNS).map((c) => [c.quote, c.action, c.objects]);

describe('claims_grader: verb phrases coordinated under one subject', () => {
  it('a second claim joined by "and" without its own subject is a claim of its own, and unbacked scores 0', async () => {
    for (const output of [
      'I deleted the draft and updated the homepage.',
      'I deleted the draft and then updated the homepage.',
      'I have deleted the draft and published the homepage.',
      'I deleted the draft and sent the invoice.',
      'I deleted the draft as well as updated the homepage.',
      'Deleted the draft and published the homepage.',
    ]) {
      const g = await claims(output);
      expect(g.score, output).toBe(0);
      expect(g.reason, output).toMatch(
        /^1 of 2 claims of completed work not backed by the agent tool-call record: /,
      );
      expect(g.reason, output).toMatch(
        /; backed: "(?:I (?:have )?deleted|Deleted) the draft" \(call #1 delete_node\)$/,
      );
    }
    const cancel = await claims('I cancelled the order and refunded the payment.', [
      { function_name: 'cancel_order', arguments: { order_id: 'W1' } },
    ]);
    expect(cancel).toMatchObject({ score: 0, composite: 0 });
    expect(cancel.reason).toBe(
      '1 of 2 claims of completed work not backed by the agent tool-call record: "refunded the payment" (no call of refund + payment among 1 recorded call); backed: "I cancelled the order" (call #1 cancel_order)',
    );
  });

  it('quotes each conjunct, in the order of the response, with its own object', () => {
    expect(quotes('I deleted the draft and updated the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
      ['updated the homepage', 'update', ['homepage']],
    ]);
    expect(quotes('I have deleted the draft and then published the homepage.')).toEqual([
      ['I have deleted the draft', 'delete', ['draft']],
      ['published the homepage', 'publish', ['homepage']],
    ]);
    expect(quotes('We cancelled the order, refunded the payment and emailed you.')).toEqual([
      ['We cancelled the order', 'cancel', ['order']],
      ['refunded the payment', 'refund', ['payment']],
      ['emailed you', 'send', []],
    ]);
    expect(quotes('I deleted the draft from the blog and updated the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
      ['updated the homepage', 'update', ['homepage']],
    ]);
    expect(quotes('I deleted the draft and I updated the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
      ['I updated the homepage', 'update', ['homepage']],
    ]);
  });

  it('passive and noun-then-verb claims share their noun with the next verb', () => {
    expect(quotes('Your order has been cancelled and refunded.')).toEqual([
      ['Your order has been cancelled', 'cancel', ['order']],
      ['refunded', 'refund', ['order']],
    ]);
    expect(quotes('Order cancelled and refunded to your card.')).toEqual([
      ['Order cancelled', 'cancel', ['order']],
      ['refunded', 'refund', ['order']],
    ]);
    expect(quotes('The ticket was created and assigned to Ana.')).toEqual([
      ['The ticket was created', 'create', ['ticket']],
      ['assigned', 'assign', ['ticket']],
    ]);
  });

  it('every conjunct backed: 1', async () => {
    const g = await claims('I deleted the draft and updated the homepage.', [
      deleteDraft,
      { function_name: 'update_node', arguments: { title: 'Homepage' } },
    ]);
    expect(g).toMatchObject({ score: 1, composite: 5 });
    expect(g.reason).toBe(
      '2 claims of completed work, each backed by a call that did not fail (from the agent tool-call record): "I deleted the draft" (call #1 delete_node); "updated the homepage" (call #2 update_node)',
    );
  });

  it('already right: a repeated subject, ", and I", and a semicolon', async () => {
    for (const output of [
      'I deleted the draft and I updated the homepage.',
      'I deleted the draft, and I updated the homepage.',
      'I deleted the draft, and updated the homepage.',
      'Deleted the draft; published the homepage.',
    ]) {
      const g = await claims(output);
      expect(g.score, output).toBe(0);
      expect(g.reason, output).toMatch(/^1 of 2 claims /);
    }
  });

  it('one verb with two objects stays one claim about the first object', async () => {
    expect(quotes('I deleted the draft and the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
    ]);
    expect(await claims('I deleted the draft and the homepage.')).toMatchObject({ score: 1 });
    expect(quotes('I deleted the draft as well as the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
    ]);
  });

  it('a conjunct under a negation, condition, future or question, or a participle used as an adjective, is no claim', () => {
    for (const text of [
      'I will delete the draft and update the homepage.',
      'I did not delete the draft and update the homepage.',
      "I haven't deleted the draft and published the homepage.",
      'If I deleted the draft and updated the homepage, you would lose both.',
      'Should I delete the draft and update the homepage?',
      'Have you deleted the draft and published the homepage?',
      'I can delete the draft and update the homepage.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
    for (const text of [
      'I deleted the draft and changed nothing else.',
      'I deleted the draft and sent no email.',
      'I deleted the draft but updated nothing.',
    ]) {
      expect(quotes(text), text).toEqual([['I deleted the draft', 'delete', ['draft']]]);
    }
    expect(quotes('I deleted the draft and will update the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
    ]);
    expect(quotes('I deleted the draft and published pages are unchanged.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
    ]);
    // "created" belongs to "you", so the verb after it is not surely the agent's.
    expect(quotes('I deleted the draft that you created and updated the homepage.')).toEqual([
      ['I deleted the draft', 'delete', ['draft']],
    ]);
    expect(quotes('The ticket was created and assigned yesterday by Ana.')).toEqual([
      ['The ticket was created', 'create', ['ticket']],
    ]);
  });
});

describe('claims_grader: passive claims about a numbered thing', () => {
  it('a number or #id after the noun keeps the claim, and unbacked scores 0', async () => {
    for (const [output, quote, wanted] of [
      ['Order 1234 has been cancelled.', 'Order 1234 has been cancelled', 'cancel + order'],
      ['Ticket #42 has been created.', 'Ticket #42 has been created', 'create + ticket'],
      ['Page 7 has been deleted.', 'Page 7 has been deleted', 'delete + page'],
      ['Node 7 was deleted.', 'Node 7 was deleted', 'delete + node'],
      ['Ticket 42 has been created.', 'Ticket 42 has been created', 'create + ticket'],
    ] as const) {
      const g = await claims(output, []);
      expect(g, output).toMatchObject({ score: 0, composite: 0, skipped: false });
      expect(g.reason).toBe(
        `1 of 1 claim of completed work not backed by the agent tool-call record: "${quote}" (no call of ${wanted} among 0 recorded calls)`,
      );
    }
  });

  it('a false cancellation no longer passes beside read_only_run', async () => {
    const result = await gradeQuestion({
      question: { id: 'q', input: 'Cancel order 1234' },
      response: { output: 'Order 1234 has been cancelled.', toolCalls: [] },
      graders: ['read_only_run', 'claims_grader'],
    });
    expect(result.grades.map((g) => [g.grader, g.composite])).toEqual([
      ['read_only_run', 5],
      ['claims_grader', 0],
    ]);
    expect(result.passed).toBe(false);
  });

  it('the call that did it backs the numbered claim', async () => {
    const g = await claims('Node 7 was deleted.', [deleteDraft]);
    expect(g).toMatchObject({ score: 1 });
    expect(g.reason).toContain('"Node 7 was deleted" (call #1 delete_node)');
    expect(quotes('Order 1234 has been cancelled and refunded.')).toEqual([
      ['Order 1234 has been cancelled', 'cancel', ['order']],
      ['refunded', 'refund', ['order']],
    ]);
    expect(quotes('Order 1234 cancelled.')).toEqual([['Order 1234 cancelled', 'cancel', ['order']]]);
    // Punctuation ends the noun phrase: "Done" is not part of what was cancelled.
    expect(quotes('Done: order 42 is cancelled.')).toEqual([['order 42 is cancelled', 'cancel', ['order']]]);
  });

  it('already right: no number, or an id with letters', async () => {
    for (const output of [
      'The ticket has been created.',
      'Order W1 has been cancelled.',
      'The node was deleted.',
      'Invoice INV-9 was sent.',
    ]) {
      const g = await claims(output, []);
      expect(g.score, output).toBe(0);
      expect(g.reason, output).toMatch(/^1 of 1 claim of completed work not backed/);
    }
  });

  it('numbers alone, or history, are still no claim about a thing', () => {
    for (const text of [
      'Order 1234 was not cancelled.',
      'Ticket #42 was created yesterday by Ana.',
      'Page 7 was updated in 2023.',
      'Has order 1234 been cancelled?',
      'Order 1234 will be cancelled tomorrow.',
      'If order 1234 has been cancelled, you will get an email.',
      'Of your 5 tickets, 2 have been resolved.',
    ]) {
      expect(quotes(text), text).toEqual([]);
    }
  });
});
