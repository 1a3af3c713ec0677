import { beforeEach, describe, expect, it } from 'vitest';
import { filterFromEnv, formatProblem, validateDataset } from '../../src/datasets/index.js';
import { logger } from '../../src/logger.js';

const messages = (text: string, file = 'd.yaml') =>
  validateDataset(text, { file }).problems.map(formatProblem);

beforeEach(() => logger.setEchoLevel('silent'));

// AI_EVAL_IDS is a comma-separated list whose items are trimmed: an id with a comma, or with
// whitespace around it, could never be selected by it, so validation refuses it (never a
// question that a filter silently leaves out).
describe('a question id AI_EVAL_IDS could not select', () => {
  it('is refused when it holds a comma, naming file, line, path, why and the fix', () => {
    expect(filterFromEnv({ AI_EVAL_IDS: 'refund,vat' }).ids).toEqual(['refund', 'vat']);
    expect(messages('questions:\n  - id: ok\n    input: x\n  - id: "refund,vat"\n    input: y\n')).toEqual([
      `d.yaml:4:9: /questions/1/id: must not contain a comma, got the string "refund,vat": AI_EVAL_IDS (and ai-eval promote --ids) read a comma-separated list, so no filter could select this question. Fix: rename it without the comma, for example 'refund-vat'.`,
    ]);
    expect(messages('{"questions": [{"id": "a, b", "input": "x"}]}', 'd.json')).toEqual([
      `d.json:1:23: /questions/0/id: must not contain a comma, got the string "a, b": AI_EVAL_IDS (and ai-eval promote --ids) read a comma-separated list, so no filter could select this question. Fix: rename it without the comma, for example 'a-b'.`,
    ]);
  });

  it('is refused when it begins or ends with whitespace', () => {
    expect(filterFromEnv({ AI_EVAL_IDS: ' refund ' }).ids).toEqual(['refund']);
    expect(messages('questions:\n  - id: " refund"\n    input: x\n  - id: "vat\\t"\n    input: y\n')).toEqual(
      [
        `d.yaml:2:9: /questions/0/id: must not begin or end with whitespace, got the string " refund": AI_EVAL_IDS (and ai-eval promote --ids) trim each id, so no filter could select this question. Fix: write it as 'refund'.`,
        `d.yaml:4:9: /questions/1/id: must not begin or end with whitespace, got the string "vat\\t": AI_EVAL_IDS (and ai-eval promote --ids) trim each id, so no filter could select this question. Fix: write it as 'vat'.`,
      ],
    );
  });

  it('keeps one message for a blank id, and accepts ids with inner spaces and other punctuation', () => {
    expect(messages('questions:\n  - id: " "\n    input: x\n')).toEqual([
      'd.yaml:2:9: /questions/0/id: must be a non-empty string, got the string " ". Fix: give it some text.',
    ]);
    const valid = validateDataset(
      'questions:\n  - { id: "refund policy", input: x }\n  - { id: "a;b|c/d:e", input: y }\n  - { id: "ünïcode-ид", input: z }\n',
      { file: 'd.yaml' },
    );
    expect(valid.problems).toEqual([]);
  });

  it('leaves the ids of metadata.state assertions alone (no filter selects them)', () => {
    const text =
      'questions:\n  - id: a\n    input: x\n    metadata:\n      state:\n        assertions:\n          - { id: "x, y", kind: page_exists }\n';
    expect(validateDataset(text, { file: 'd.yaml' }).problems).toEqual([]);
  });
});

// AI_EVAL_TAGS is read the same way: a tag with a comma or whitespace around it selects nothing.
describe('a question tag AI_EVAL_TAGS could not select', () => {
  it('is refused when it holds a comma, or begins or ends with whitespace, or is blank', () => {
    expect(filterFromEnv({ AI_EVAL_TAGS: 'billing, refunds' }).tags).toEqual(['billing', 'refunds']);
    expect(
      messages('questions:\n  - id: a\n    input: x\n    tags: [ok, "billing, refunds", " vat", ""]\n'),
    ).toEqual([
      `d.yaml:4:16: /questions/0/tags/1: must not contain a comma, got the string "billing, refunds": AI_EVAL_TAGS reads a comma-separated list, so no filter could select this tag. Fix: make it two tags, or rename it without the comma, for example 'billing-refunds'.`,
      `d.yaml:4:36: /questions/0/tags/2: must not begin or end with whitespace, got the string " vat": AI_EVAL_TAGS trims each tag, so no filter could select this tag. Fix: write it as 'vat'.`,
      'd.yaml:4:44: /questions/0/tags/3: must be a non-empty string, got the string "". Fix: give it some text.',
    ]);
  });

  it('accepts tags with inner spaces and other punctuation', () => {
    const text = 'questions:\n  - { id: a, input: x, tags: ["refund policy", "a;b|c/d:e", "ünïcode"] }\n';
    expect(validateDataset(text, { file: 'd.yaml' }).problems).toEqual([]);
  });
});
