import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../src/config.js';
import { formatGrader } from '../../src/graders/format.js';
import { catastrophicPart } from '../../src/graders/pattern-shape.js';
import { compiledSchemaCount } from '../../src/graders/schema-cache.js';
import { getGrader } from '../../src/registry/graders.js';
import type { Expected, GradeResult } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';

async function grade(expected: unknown, response: string, responseCharLimit?: number): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'answer', expected: expected as Expected },
    response,
    graders: ['format_grader'],
    target: { responseCharLimit },
  });
  return result.grades[0]!;
}

afterEach(() => resetConfig());

describe('format_grader', () => {
  it('is shipped on a 0-5 scale and does not claim to observe actions', () => {
    expect(getGrader('format_grader')).toBe(formatGrader);
    expect([formatGrader.minScore, formatGrader.maxScore, formatGrader.observesActions]).toEqual([
      0,
      5,
      false,
    ]);
  });

  it('skips when the question states no format, schema or pattern', async () => {
    expect(await grade(undefined, '{}')).toMatchObject({ score: null, skipped: true, error: false });
    const g = await grade({ reference: 'Paris' }, '{}');
    expect(g).toMatchObject({ score: null, skipped: true });
    expect(g.reason).toContain('no expected.format');
  });

  describe('json', () => {
    it('passes JSON that parses, and counts the length cap as a second check', async () => {
      const g = await grade({ format: 'json' }, ' {"ok": true}\n');
      expect(g.score).toBe(5);
      expect(g.reason).toBe(
        '2/2 format checks passed: passed: json (parses); passed: length (14 chars, within the 4000 char limit)',
      );
    });

    it('accepts one code fence around the whole response', async () => {
      expect((await grade({ format: 'json' }, '```json\n{"ok": true}\n```')).score).toBe(5);
    });

    it('fails a response that does not parse, saying why', async () => {
      const g = await grade({ format: 'json' }, 'Sure! {"ok": true}');
      expect(g.score).toBe(2.5);
      expect(g.reason).toContain('failed: json (does not parse:');
    });

    it('validates against expected.schema with ajv (draft 2020-12)', async () => {
      const schema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['items'],
        properties: { items: { type: 'array', prefixItems: [{ type: 'string' }] } },
      };
      expect((await grade({ format: 'json', schema }, '{"items": ["a", 2]}')).score).toBe(5);
      const bad = await grade({ format: 'json', schema }, '{"items": [1]}');
      expect(bad.score).toBeCloseTo(10 / 3);
      expect(bad.reason).toContain('failed: schema (/items/0 must be string)');
      const notJson = await grade({ format: 'json', schema }, 'nope');
      expect(notJson.score).toBeCloseTo(5 / 3);
      expect(notJson.reason).toContain('failed: schema (not checked: the response is not JSON)');
    });

    it('treats format keywords as annotations and accepts any JSON value without a schema', async () => {
      const schema = { type: 'object', properties: { mail: { type: 'string', format: 'email' } } };
      expect((await grade({ format: 'json', schema }, '{"mail": "not an address"}')).score).toBe(5);
      expect((await grade({ format: 'json' }, '"just a string"')).score).toBe(5);
    });

    it('errors on a schema given with format markdown', async () => {
      const g = await grade({ format: 'markdown', schema: { type: 'object' } }, '# Title');
      expect(g).toMatchObject({ score: null, error: true });
      expect(g.reason).toContain('expected.schema only applies to format json');
    });

    it('treats a schema without a format as json', async () => {
      const g = await grade({ schema: { type: 'array' } }, '[1]');
      expect(g.score).toBe(5);
      expect(g.reason).toContain('passed: schema');
    });

    it('compiles each schema once and reuses it', async () => {
      const schema = { type: 'object', properties: { unique_key_for_cache_test: { type: 'number' } } };
      await grade({ format: 'json', schema }, '{}');
      const after = compiledSchemaCount();
      await grade({ format: 'json', schema: structuredClone(schema) }, '{"unique_key_for_cache_test": 1}');
      expect(compiledSchemaCount()).toBe(after);
      await grade({ format: 'json', schema: { ...schema, required: ['x'] } }, '{}');
      expect(compiledSchemaCount()).toBe(after + 1);
    });

    it('errors on an invalid schema instead of scoring', async () => {
      const g = await grade({ format: 'json', schema: { type: 'no-such-type' } }, '{}');
      expect(g).toMatchObject({ score: null, error: true });
      expect(g.reason).toContain('expected.schema is not a valid JSON Schema');
      expect((await grade({ format: 'json', schema: 'object' }, '{}')).error).toBe(true);
    });
  });

  describe('markdown', () => {
    it.each([
      ['heading', '# Title\ntext'],
      ['list', 'Steps:\n- one\n- two'],
      ['list', '1. first\n2. second'],
      ['table', '| a | b |\n|---|---|\n| 1 | 2 |'],
      ['code block', '```\ncode\n```'],
      ['blockquote', '> quoted'],
    ])('finds a %s', async (kind, response) => {
      const g = await grade({ format: 'markdown' }, response);
      expect(g.score).toBe(5);
      expect(g.reason).toContain(`found ${kind}`);
    });

    it('fails plain prose, even with emphasis', async () => {
      const g = await grade({ format: 'markdown' }, 'Just **one** paragraph with a [link](x).');
      expect(g.score).toBe(2.5);
      expect(g.reason).toContain('failed: markdown (no heading, list, table, code block or blockquote)');
    });
  });

  describe('pattern', () => {
    it('matches an unanchored regex, with optional flags', async () => {
      expect((await grade({ pattern: 'ticket #\\d+' }, 'Opened ticket #42.')).score).toBe(5);
      expect((await grade({ pattern: '^opened' }, 'Opened ticket')).score).toBe(2.5);
      expect((await grade({ pattern: '^opened', flags: 'i' }, 'Opened ticket')).score).toBe(5);
    });

    it('errors on an invalid regex rather than throwing', async () => {
      const g = await grade({ pattern: '(unclosed' }, 'x');
      expect(g).toMatchObject({ score: null, error: true });
      expect(g.reason).toContain('expected.pattern "(unclosed" is not a valid regular expression');
      expect((await grade({ pattern: 'a', flags: 'g' }, 'a')).error).toBe(true);
      expect((await grade({ pattern: 7 }, 'a')).error).toBe(true);
    });

    it('refuses the pattern shape that backtracks exponentially, naming it, without running it', async () => {
      const g = await grade({ pattern: '^(\\w+\\s?)*$' }, `${'a'.repeat(40)}!`);
      expect(g).toMatchObject({ score: null, error: true });
      expect(g.reason).toContain(
        'expected.pattern "^(\\\\w+\\\\s?)*$" repeats a group that can match the same text in more than one way ((\\w+\\s?)*)',
      );
    });

    it('stops any other pattern that does not finish within its time budget: an errored grade naming it', async () => {
      // (\w|\w\w)* is exponential too, but not the shape refused up front: the budget stops it.
      const g = await grade({ pattern: '^(\\w|\\w\\w)*$' }, `${'a'.repeat(41)}!`);
      expect(g).toMatchObject({ score: null, error: true });
      expect(g.reason).toBe(
        'expected.pattern /^(\\w|\\w\\w)*$/ did not finish within 1000 ms on the response (42 chars) and was stopped: it backtracks catastrophically on this text. Fix the pattern so that each part matches unambiguously',
      );
      // The next pattern runs on a fresh worker.
      expect((await grade({ pattern: 'ticket #\\d+' }, 'Opened ticket #42.')).score).toBe(5);
    });

    it('keeps its budget under fake timers', async () => {
      vi.useFakeTimers();
      try {
        const g = await grade({ pattern: '^(\\w|\\w\\w)*$' }, `${'a'.repeat(41)}!`);
        expect(g.reason).toContain('did not finish within 1000 ms');
      } finally {
        vi.useRealTimers();
      }
    });

    it('runs many patterns at once, each answered for its own response', async () => {
      const grades = await Promise.all(
        Array.from({ length: 20 }, (_, i) => grade({ pattern: `^n${i}$` }, i % 2 === 0 ? `n${i}` : 'no')),
      );
      expect(grades.map((g) => g.score)).toEqual(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 5 : 2.5)),
      );
    });

    it('checks format and pattern together', async () => {
      const g = await grade({ format: 'json', pattern: '"status"' }, '{"status": "ok"}');
      expect(g.reason).toContain('3/3 format checks passed');
    });
  });

  describe('response_char_limit', () => {
    it('fails the length check over the limit, still checking the whole response', async () => {
      const long = JSON.stringify({ text: 'x'.repeat(50) });
      const g = await grade({ format: 'json' }, long, 20);
      expect(g.score).toBe(2.5);
      expect(g.reason).toContain('passed: json (parses)');
      expect(g.reason).toContain(`failed: length (${long.length} chars, over the 20 char limit)`);
    });

    it('passes exactly at the limit', async () => {
      expect((await grade({ pattern: 'a' }, 'aaaa', 4)).score).toBe(5);
    });
  });

  it('errors on an unknown format, naming it', async () => {
    const g = await grade({ format: 'yaml' }, 'a: 1');
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toContain('expected.format "yaml" is not supported');
  });
});

describe('catastrophicPart (the pattern shape refused at load)', () => {
  it.each([
    ['^(\\w+\\s?)*$', '(\\w+\\s?)*'],
    ['(a+)+b', '(a+)+'],
    ['(?:x*)*y', '(?:x*)*'],
    ['(a|b+)*c', '(a|b+)*'],
    ['((a+)?){10}z', '((a+)?){10}'],
    ['(?<name>\\d+[,]?)+$', '(?<name>\\d+[,]?)+'],
    ['(?=(a+)+$)', '(a+)+'],
  ])('finds %s', (pattern, part) => {
    expect(catastrophicPart(pattern)).toBe(part);
  });

  it.each([
    '^(\\w+\\s)*\\w*$',
    '(?:,\\s*\\w+)*',
    'ticket #\\d+',
    '(a+){1,3}',
    '[(a+)+]',
    '\\(a+\\)+',
    '(ab)*',
    '"count":\\s*\\d+',
  ])('leaves %s alone', (pattern) => {
    expect(catastrophicPart(pattern)).toBeUndefined();
  });
});
