import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  datasetSchema,
  formatProblem,
  validateDataset,
  validateDatasetFile,
} from '../../src/datasets/index.js';
import { validators } from '../../src/datasets/schema.js';
import { ROOT } from '../helpers/paths.js';

const FIXTURES = join(ROOT, 'fixtures', 'datasets');
const messages = (text: string, file = 'd.yaml') =>
  validateDataset(text, { file }).problems.map(formatProblem);

describe('the dataset schema', () => {
  // That the packed package ships it as ai-eval/schema/dataset.json: schema.e2e.test.ts.
  it('is draft 2020-12', () => {
    expect(datasetSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('is compiled once', () => {
    expect(validators()).toBe(validators());
    expect(validators().document).toBe(validators().document);
  });

  it('accepts the full example dataset, with extra keys', () => {
    const result = validateDatasetFile(join(FIXTURES, 'support.yaml'));
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.document?.questions.map((q) => q.id)).toEqual([
      'refund',
      'greeting',
      'invoice',
      'cancel',
      'upgrade',
    ]);
    expect(
      validateDataset('questions:\n  - id: a\n    input: x\n    my_domain_key: { any: thing }\n').valid,
    ).toBe(true);
  });

  it('names file, line, column, JSON path and the expectation of every problem', () => {
    const result = validateDatasetFile(join(FIXTURES, 'invalid.yaml'), 'invalid.yaml');
    expect(result.valid).toBe(false);
    expect(result.document).toBeUndefined();
    expect(result.problems.map(formatProblem)).toEqual([
      "invalid.yaml:4:9: /questions/1/id: must be a string, got number 42. Fix the value of 'id'.",
      "invalid.yaml:5:12: /questions/1/input: must be a string, got a list. Fix the value of 'input'.",
      "invalid.yaml:6:5: /questions/2: is missing the required key 'id'. Fix: add `id: <a unique name>` to it.",
      "invalid.yaml:7:5: /questions/3: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
      'invalid.yaml:8:11: /questions/3/tags: must be a list, got the string "billing". Fix the value of \'tags\'.',
      "invalid.yaml:9:9: /questions/4/id: duplicate question id 'ok' on line 9; it is first used on line 2 (/questions/0/id). Fix: ids must be unique, rename one of them.",
    ]);
  });

  it('finds every repeated id among many, short ids and long ones alike', () => {
    // Short ids are checked by sorting, long ones (mean over 64 characters) through a Set.
    for (const prefix of ['q', `q${'x'.repeat(100)}`]) {
      const ids = Array.from({ length: 500 }, (_, i) => `${prefix}${(i * 7919) % 500}`);
      const unique = { questions: ids.map((id) => ({ id, input: 'x' })) };
      expect(validateDataset(JSON.stringify(unique), { file: 'd.json' }).valid).toBe(true);
      ids.push(ids[123]!, ids[7]!);
      const repeated = { questions: ids.map((id) => ({ id, input: 'x' })) };
      const problems = validateDataset(JSON.stringify(repeated), { file: 'd.json' }).problems;
      expect(problems.map((p) => p.path)).toEqual(['/questions/500/id', '/questions/501/id']);
      expect(problems[0]!.message).toContain(`duplicate question id '${ids[123]!}'`);
      expect(problems[0]!.message).toContain('(/questions/123/id)');
      expect(problems[1]!.message).toContain('(/questions/7/id)');
    }
  });

  it('finds a repeated id among ids written in order, and in order up to the repeat', () => {
    // Ids in order (each longer than the one before, or as long and greater) cannot repeat: that
    // is seen in one pass. A list that breaks the order anywhere is checked in full.
    const dataset = (ids: string[]) => JSON.stringify({ questions: ids.map((id) => ({ id, input: 'x' })) });
    const inOrder = Array.from({ length: 120 }, (_, i) => `q${i + 1}`); // q1 ... q9, q10 ... q120
    expect(validateDataset(dataset(inOrder), { file: 'd.json' }).valid).toBe(true);
    const padded = Array.from({ length: 120 }, (_, i) => `case-${String(i).padStart(3, '0')}`);
    expect(validateDataset(dataset(padded), { file: 'd.json' }).valid).toBe(true);
    for (const ids of [
      [...inOrder, 'q120'], // the last one again: equal, not greater
      [...inOrder, 'q5'], // shorter than the one before
      ['q1', 'q2', 'q2', 'q3'], // equal neighbours
      ['a', 'b', 'c', 'b', 'd'], // smaller than the one before, as long
    ]) {
      const problems = validateDataset(dataset(ids), { file: 'd.json' }).problems;
      expect(problems.map((p) => p.message.match(/duplicate question id '([^']+)'/)?.[1])).toEqual([
        ids.find((id, i) => ids.indexOf(id) !== i),
      ]);
    }
  });

  it('refuses a blank or empty id, saying it needs some text', () => {
    expect(messages('questions:\n  - id: "  "\n    input: x\n  - id: ""\n    input: y\n')).toEqual([
      'd.yaml:2:9: /questions/0/id: must be a non-empty string, got the string "  ". Fix: give it some text.',
      'd.yaml:4:9: /questions/1/id: must be a non-empty string, got the string "". Fix: give it some text.',
    ]);
  });

  it('refuses a document without questions, or that is not an object', () => {
    expect(messages('name: x\n')).toEqual([
      "d.yaml:1:1: (document): is missing the required key 'questions'. Fix: add it.",
    ]);
    expect(messages('- id: a\n')).toEqual([
      "d.yaml:1:1: (document): must be an object with a 'questions' list, got a list. Fix: start the document with `questions:`.",
    ]);
    expect(messages('')).toEqual([
      "d.yaml: (document): must be an object with a 'questions' list, got nothing. Fix: start the document with `questions:`.",
    ]);
  });

  it('folds anyOf branches into the branch that matches, or into one message', () => {
    const text = [
      'questions:',
      '  - id: a',
      '    input: x',
      '    expected_tools:',
      '      - search',
      '      - { args: { q: 1 } }',
      '      - 7',
      '    timeout: -5',
      '    messages: []',
    ].join('\n');
    expect(messages(text)).toEqual([
      "d.yaml:6:9: /questions/0/expected_tools/1: is missing the required key 'name'. Fix: add it.",
      'd.yaml:7:9: /questions/0/expected_tools/2: must be a tool name or { name, args?, after?, times?, succeeded?, critical? }, got number 7.',
      'd.yaml:8:14: /questions/0/timeout: must be greater than 0, got -5.',
      'd.yaml:9:15: /questions/0/messages: must have at least 1 item(s), got an empty list. Fix: add one or remove the key.',
    ]);
  });

  it('refuses an expected tool with an unknown key, and an empty expected_tools list', () => {
    const text = [
      'questions:',
      '  - id: q1',
      '    input: hi',
      '    expected_tools:',
      '      - name: search',
      '        arg: { q: x }',
      '  - id: q2',
      '    input: hi',
      '    expected_tools: []',
    ].join('\n');
    expect(messages(text)).toEqual([
      "d.yaml:5:9: /questions/0/expected_tools/0: has an unknown key 'arg'. Fix: use only 'name', 'args', 'after', 'times', 'succeeded', 'critical'.",
      'd.yaml:9:21: /questions/1/expected_tools: must have at least 1 item(s), got an empty list. Fix: add one or remove the key.',
    ]);
  });

  it('checks the shape of the splits block', () => {
    const text =
      'splits:\n  smoke: [a, 3]\n  holdout: { fraction: 2 }\nquestions:\n  - { id: a, input: x }\n';
    expect(messages(text)).toEqual([
      "d.yaml:2:14: /splits/smoke/1: must be a string, got number 3. Fix the value of '1'.",
      "d.yaml:3:12: /splits/holdout: is missing the required key 'seed'. Fix: add it.",
      'd.yaml:3:24: /splits/holdout/fraction: must be at most 1, got 2.',
    ]);
  });

  it('maps problems of JSON files to their lines too, and reports JSON syntax errors with a position', () => {
    const json = '{\n  "questions": [\n    { "id": "a", "input": 1 }\n  ]\n}\n';
    expect(messages(json, 'd.json')).toEqual([
      "d.json:3:27: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    ]);
    expect(messages('{\n  "questions": [],\n  "questions": []\n}\n', 'd.json')).toEqual([
      "d.json:3:3: (document): repeats the key 'questions' in the same object (JSON.parse would silently keep the last). Fix: remove one.",
    ]);
    const broken = '{\n  "questions": [\n    { "id": "a", }\n  ]\n}\n';
    const [problem] = messages(broken, 'd.json');
    expect(problem).toMatch(
      /^d\.json:3:18: \(document\): is not valid JSON: .+Fix the syntax at this position/,
    );
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    expect(messages('questions:\n  - id: a\n    input: "x\n')).toEqual([
      'd.yaml:4:1: (document): is not valid YAML: Missing closing "quote. Fix the syntax here.',
    ]);
    expect(messages('questions:\n  - id: a\n   input: x\n')[0]).toBe(
      'd.yaml:3:1: (document): is not valid YAML: Sequence item without - indicator. Fix the syntax here.',
    );
    expect(messages('questions: []\nquestions: []\n')[0]).toMatch(
      /^d\.yaml:2:1: \(document\): is not valid YAML: the key 'questions' is repeated in the same mapping/,
    );
  });

  it('refuses a YAML alias bomb without expanding it', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'questions: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
    ].join('\n');
    expect(messages(bomb)).toEqual([
      'd.yaml:2:8: (document): uses YAML aliases that expand more than 100 times; refused, not expanded (a possible resource-exhaustion attack). Fix: write the repeated values out or use fewer aliases.',
    ]);
    // A few aliases are fine.
    expect(validateDataset('base: &b { input: hi }\nquestions:\n  - { id: a, input: hi }\n').valid).toBe(
      true,
    );
  });

  it('validates parsed objects without positions', () => {
    const result = validateDataset({ questions: [{ id: 'a' }] }, { file: 'inline:x' });
    expect(result.problems.map(formatProblem)).toEqual([
      "inline:x: /questions/0: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
    ]);
  });
});
