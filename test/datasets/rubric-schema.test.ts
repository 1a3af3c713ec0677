import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { formatProblem, validateRubric } from '../../src/datasets/index.js';
import { ROOT } from '../helpers/paths.js';

const shipped = JSON.parse(readFileSync(join(ROOT, 'schema', 'rubric.json'), 'utf8')) as Record<
  string,
  unknown
>;

const full = `id: refund_reply
version: 1.2.0
label: Refund reply
description: What a refund answer must do.
applicable_bundles: [billing]
scoring: { combine: weighted_avg, pass_threshold: 0.7 }
checks:
  - { type: llm_judge, criteria: Names the 30-day window. }
  - { id: says_refund, type: must_contain_any, values: [refund], weight: 2 }
  - { id: no_blame, type: must_not_contain, values: [your fault] }
  - { id: ticket, type: regex, pattern: 'ticket #\\\\d+', flags: i }
  - { id: shape, type: json_schema, schema: { type: object } }
  - { id: fmt, type: format, format: markdown }
  - { id: close, type: target_match, path: expected.reference, mode: chrf, threshold: 0.5 }
  - { id: refunded, type: tool_usage, expected_tools: [{ name: refund_order, succeeded: true }] }
  - { id: stored, type: state, kind: order_refunded, order: 42 }
`;

describe('the rubric document and its shipped schema', () => {
  it('accepts every shipped check kind and the llm_judge-only files of today', () => {
    const result = validateRubric(full, 'refund_reply.yaml');
    expect(result.problems).toEqual([]);
    expect(result.valid).toBe(true);
    expect(
      validateRubric('name: tone\nchecks:\n  - type: llm_judge\n    criteria: Friendly.\n', 't.yaml').valid,
    ).toBe(true);
  });

  it('is a JSON Schema an editor can use: it compiles and agrees on the example', () => {
    const validate = new Ajv2020({ strict: false, allowUnionTypes: true }).compile(shipped);
    const doc = { id: 'r', version: '1.0.0', checks: [{ id: 'a', type: 'regex', pattern: 'x' }] };
    expect(validate(doc)).toBe(true);
    expect(validate({ ...doc, version: 'v1' })).toBe(false);
    expect(validate({ ...doc, scoring: { combine: 'average' } })).toBe(false);
  });

  it('names file, line and path for each problem, schema and semantic alike', () => {
    const text = `id: Refund-Reply
version: "1.0"
scoring: { combine: all_pass, pass_threshold: 0.5 }
checks:
  - { id: a, type: regex, pattern: '^(\\w+\\s?)*$' }
  - { id: a, type: must_contain_any, values: [] }
  - { id: c, type: target_match, mode: chrf }
`;
    const lines = validateRubric(text, 'r.yaml').problems.map(formatProblem);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^r\.yaml:1:5: \/id: must be a snake_case id such as mentions_refund/),
        expect.stringMatching(/^r\.yaml:2:10: \/version: must be a semver version such as 1\.0\.0/),
        expect.stringMatching(/^r\.yaml:6:46: \/checks\/1\/values: must have at least 1 item/),
        expect.stringMatching(/^r\.yaml:7:5: \/checks\/2: is missing the required key 'threshold'/),
        expect.stringMatching(/^r\.yaml:5:36: \/checks\/0\/pattern: pattern .* repeats a group/),
        expect.stringMatching(/^r\.yaml:6:11: \/checks\/1\/id: repeats the id 'a' of \/checks\/0/),
        expect.stringMatching(/^r\.yaml:3:47: \/scoring\/pass_threshold: applies only to the numeric modes/),
      ]),
    );
    expect(lines).toHaveLength(7);
  });
});
