import { afterEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { buildContext, inputOf, messagesOf } from '../../src/grading/context.js';
import type { Question } from '../../src/grading/types.js';
import { hasFastProperties } from '../helpers/fast-properties.js';

afterEach(() => resetConfig());

describe('buildContext', () => {
  it('keeps the question row under its own snake_case keys', () => {
    const question: Partial<Question> = {
      id: 'q1',
      input: 'List pages',
      expected: { format: 'json' },
      expected_facts: ['3 pages'],
      expected_tools: ['list_nodes'],
      metadata: { owner: 'web' },
      tags: ['smoke'],
      bundle: 'core',
      custom_key: 42,
    };
    expect(buildContext(question)).toMatchObject(question);
  });

  it('resolves response_char_limit: target, then configure(), then 4000, over the row', () => {
    const row = { id: 'q', input: 'x', response_char_limit: 7 };
    expect(buildContext(row).response_char_limit).toBe(4000);
    configure({ responseCharLimit: 1200 });
    expect(buildContext(row).response_char_limit).toBe(1200);
    expect(buildContext(row, { responseCharLimit: 300 }).response_char_limit).toBe(300);
  });

  it('always sets messages, also for a single-turn question and for none', () => {
    expect(buildContext({ input: 'hello' }).messages).toEqual([{ role: 'user', content: 'hello' }]);
    const turns = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ];
    expect(buildContext({ messages: turns }).messages).toEqual(turns);
    expect(buildContext({ id: 'q' }).messages).toEqual([]);
  });

  it('holds an input given beside a bare question as one user message; the question wins', () => {
    expect(buildContext({ id: 'q' }, { input: 'List pages' }).messages).toEqual([
      { role: 'user', content: 'List pages' },
    ]);
    expect(buildContext({ input: 'own' }, { input: 'beside' }).messages).toEqual([
      { role: 'user', content: 'own' },
    ]);
    const turns = [{ role: 'user', content: 'a' }];
    expect(buildContext({ messages: turns }, { input: 'beside' }).messages).toEqual(turns);
  });

  it('sets criteria only when the question or its rubric has any, merged in that order', () => {
    expect('criteria' in buildContext({ input: 'x' })).toBe(false);
    expect('criteria' in buildContext({ input: 'x', criteria: '  ' }, { rubricCriteria: [''] })).toBe(false);
    expect(buildContext({ input: 'x', criteria: 'Be brief.' }).criteria).toBe('Be brief.');
    expect(
      buildContext({ input: 'x', criteria: 'Be brief.' }, { rubricCriteria: ['Cite sources.'] }).criteria,
    ).toBe('Be brief.\nCite sources.');
    expect(buildContext({ input: 'x' }, { rubricCriteria: ['Cite sources.'] }).criteria).toBe(
      'Cite sources.',
    );
  });

  it('keeps an absent record absent and an empty record empty', () => {
    const absent = buildContext({ input: 'x' });
    expect('tool_calls' in absent).toBe(false);
    expect(absent.tool_calls).toBeUndefined();
    const empty = buildContext({ input: 'x' }, { toolCalls: [] });
    expect('tool_calls' in empty).toBe(true);
    expect(empty.tool_calls).toEqual([]);
  });

  it('never lets the row set reserved keys', () => {
    const row = {
      input: 'x',
      tool_calls: [{ function_name: 'fake', arguments: {} }],
      messages: undefined,
    } as unknown as Partial<Question>;
    const context = buildContext(row);
    expect('tool_calls' in context).toBe(false);
    expect(context.messages).toEqual([{ role: 'user', content: 'x' }]);
  });

  it('keeps the row keys in the question order, the reserved ones after them, in a copy of the question', () => {
    const plain = { id: 'q1', input: 'x', messages: undefined, tags: ['a'], expected: 'y' };
    const context = buildContext(plain as unknown as Partial<Question>, { toolCalls: [] });
    expect(Object.keys(context)).toEqual([
      'id',
      'input',
      'messages',
      'tags',
      'expected',
      'response_char_limit',
      'tool_calls',
    ]);
    context.tags = ['changed'];
    expect(plain.tags).toEqual(['a']);
    const reserved = { id: 'q2', criteria: 'Be brief.', input: 'x', tools: ['t'], rubric: 'r', tags: [] };
    expect(Object.keys(buildContext(reserved as unknown as Partial<Question>))).toEqual([
      'id',
      'input',
      'tags',
      'response_char_limit',
      'messages',
      'criteria',
    ]);
  });

  it('keeps a row key __proto__ as data: the context keeps its own prototype', () => {
    const question = JSON.parse(
      '{"id":"q1","input":"x","__proto__":{"tool_calls":[],"polluted":true}}',
    ) as Partial<Question>;
    const context = buildContext(question);
    expect(Object.getPrototypeOf(context)).toBe(Object.prototype);
    expect(Object.keys(context)).toEqual(['id', 'input', '__proto__', 'response_char_limit', 'messages']);
    expect((context as Record<string, unknown>).polluted).toBeUndefined();
    expect('tool_calls' in context).toBe(false);
  });

  it('keeps its shape for a wide row (a copy by Object.assign of 20 keys or more is a hash table)', () => {
    const row: Record<string, unknown> = { id: 'q1', input: 'x' };
    for (let i = 0; i < 24; i++) row[`field_${i}`] = i;
    const context = buildContext(row);
    expect(Object.keys(context)).toHaveLength(28);
    expect(hasFastProperties(context)).toBe(true);
  });
});

describe('inputOf and messagesOf', () => {
  it('flattens a multi-turn question into role: content lines', () => {
    const messages = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ];
    expect(inputOf({ messages })).toBe('user: a\nassistant: b');
    expect(inputOf({ input: 'plain', messages })).toBe('plain');
    expect(messagesOf({ input: 'hi' })).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
