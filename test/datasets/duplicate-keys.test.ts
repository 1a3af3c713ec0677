import { beforeEach, describe, expect, it } from 'vitest';
import { formatProblem, validateDataset } from '../../src/datasets/index.js';
import { validateRubric } from '../../src/datasets/rubrics.js';
import { logger } from '../../src/logger.js';

const messages = (text: string, file = 'd.yaml') =>
  validateDataset(text, { file }).problems.map(formatProblem);

beforeEach(() => logger.setEchoLevel('silent'));

describe('a repeated key', () => {
  it('is named in JSON, at the same file, line, column and (document) path as before', () => {
    expect(messages('{"questions": [{"id": "a", "id": "b", "input": "x"}]}', 'd.json')).toEqual([
      `d.json:1:28: (document): repeats the key 'id' in the same object (JSON.parse would silently keep the last). Fix: remove one.`,
    ]);
    const text =
      '{\n  "questions": [\n    { "id": "a", "input": "x", "id": "b" }\n  ],\n  "name": "n", "name": "m"\n}\n';
    expect(messages(text, 'd.json')).toEqual([
      `d.json:3:32: (document): repeats the key 'id' in the same object (JSON.parse would silently keep the last). Fix: remove one.`,
      `d.json:5:16: (document): repeats the key 'name' in the same object (JSON.parse would silently keep the last). Fix: remove one.`,
    ]);
  });

  it('is named in YAML, block and flow mappings alike, at the same position as before', () => {
    expect(messages('questions:\n  - id: a\n    id: b\n    input: x\n')).toEqual([
      `d.yaml:3:5: (document): is not valid YAML: the key 'id' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    ]);
    expect(messages('questions:\n  - { id: a, id: b, input: x }\n')).toEqual([
      `d.yaml:2:14: (document): is not valid YAML: the key 'id' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    ]);
    // A quoted key is the same key; the top level too.
    expect(messages('questions:\n  - id: a\n    "id": b\n    input: x\n')[0]).toBe(
      `d.yaml:3:5: (document): is not valid YAML: the key 'id' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    );
    expect(messages('questions: []\nquestions: []\n')).toEqual([
      `d.yaml:2:1: (document): is not valid YAML: the key 'questions' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    ]);
  });

  it('names each of several repeats, in order, and shows odd keys safely', () => {
    expect(
      messages('questions:\n  - id: a\n    input: x\n    id: b\n    metadata: { 1: a, 1: b }\n'),
    ).toEqual([
      `d.yaml:4:5: (document): is not valid YAML: the key 'id' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
      `d.yaml:5:23: (document): is not valid YAML: the key 1 is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    ]);
    // A key with a control character (escaped in JSON) or a quote is shown as a JSON string.
    expect(
      messages(
        '{"questions": [{"id": "a", "input": "x", "metadata": {"a\\u0000b": 1, "a\\u0000b": 2}}]}',
        'd.json',
      ),
    ).toEqual([
      `d.json:1:70: (document): repeats the key "a\\u0000b" in the same object (JSON.parse would silently keep the last). Fix: remove one.`,
    ]);
    expect(messages(`questions:\n  - id: a\n    input: x\n    "it's": 1\n    "it's": 2\n`)[0]).toContain(
      `the key "it's" is repeated`,
    );
  });

  it('is named in a rubric too (the same parser)', () => {
    const result = validateRubric(
      'checks:\n  - type: llm_judge\n    criteria: a\n    criteria: b\n',
      'r.rubric.yaml',
    );
    expect(result.problems.map(formatProblem)).toEqual([
      `r.rubric.yaml:4:5: (document): is not valid YAML: the key 'criteria' is repeated in the same mapping (map keys must be unique). Fix: remove one, or rename it.`,
    ]);
  });
});
