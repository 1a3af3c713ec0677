import { afterEach, describe, expect, it } from 'vitest';
import { formatProblem, validateDataset } from '../../src/datasets/validate.js';
import { defineStateCheck, unregisterStateCheck } from '../../src/graders/state/state-checks.js';

afterEach(() => unregisterStateCheck('node_status'));

const dataset = (assertion: string) =>
  `questions:\n  - id: q1\n    input: Publish it\n    metadata:\n      state:\n        assertions:\n          - ${assertion}\n`;

describe('metadata.state in the dataset schema', () => {
  it('checks the params of a registered kind at load time, with file, line and path', () => {
    defineStateCheck('node_status', {
      schema: { type: 'object', required: ['node'], properties: { node: { type: 'integer' } } },
      check: () => ({ pass: true, reason: 'ok' }),
    });
    const result = validateDataset(dataset('{ id: published, kind: node_status, node: one }'), {
      file: 'd.yaml',
    });
    expect(result.problems.map(formatProblem)).toEqual([
      "d.yaml:7:13: /questions/0/metadata/state/assertions/0: params do not match the schema of state check kind 'node_status': /node must be integer. Fix the assertion's params.",
    ]);
    expect(
      validateDataset(dataset('{ id: published, kind: node_status, node: 1 }'), { file: 'd.yaml' }).valid,
    ).toBe(true);
  });

  it('leaves kinds open: an undefined kind is valid at load (state_grader fails it when it runs)', () => {
    expect(validateDataset(dataset('{ id: a, kind: anything_goes, x: 1 }'), { file: 'd.yaml' }).valid).toBe(
      true,
    );
  });

  it('needs an id and a kind on each assertion and a non-empty assertions list', () => {
    const noKind = validateDataset(dataset('{ id: a }'), { file: 'd.yaml' });
    expect(noKind.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      "/questions/0/metadata/state/assertions/0: is missing the required key 'kind'. Fix: add it.",
    ]);
    const empty = validateDataset(
      'questions:\n  - id: q1\n    input: x\n    metadata: { state: { assertions: [] } }\n',
      { file: 'd.yaml' },
    );
    expect(empty.problems.map((p) => p.path)).toEqual(['/questions/0/metadata/state/assertions']);
  });
});
