import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { runNode } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');

describe('ai-eval validate on extended rubrics', () => {
  it('checks rubrics against the rubric schema, naming file:line:column and path, and warns on unknown kinds', async () => {
    const dir = scratch({
      'rubrics/good.yaml': [
        'id: refund_reply',
        'version: 1.0.0',
        'scoring: { combine: weighted_avg, pass_threshold: 0.6 }',
        'checks:',
        '  - { id: says, type: must_contain_any, values: [refund], weight: 2 }',
        '  - { id: near, type: target_match, mode: chrf, threshold: 0.5 }',
        '  - { id: custom, type: word_budget, max: 30 }',
        '',
      ].join('\n'),
      'rubrics/bad.yaml': [
        'id: bad_rubric',
        'version: one',
        'scoring: { combine: average }',
        'checks:',
        '  - { id: ticket, type: regex, pattern: "(a+)+$" }',
        '  - { id: ticket, type: json_schema }',
        '',
      ].join('\n'),
    });
    const result = await runNode(bin(), ['validate', 'rubrics'], dir);
    expect(result.stdout.split('\n')).toEqual([
      'FAIL rubrics/bad.yaml (rubric): 5 problem(s)',
      '  rubrics/bad.yaml:2:10: /version: must be a semver version such as 1.0.0 (a major bump means old and new scores are not comparable), got the string "one". Fix the value of \'version\'.',
      "  rubrics/bad.yaml:6:5: /checks/1: is missing the required key 'schema'. Fix: add it.",
      "  rubrics/bad.yaml:3:21: /scoring/combine: must be one of 'all_pass', 'any_pass', 'weighted_avg', 'min', 'max', 'median', got the string \"average\". Fix the value of 'combine'.",
      expect.stringMatching(
        /^ {2}rubrics\/bad\.yaml:5:41: \/checks\/0\/pattern: pattern "\(a\+\)\+\$" repeats a group/,
      ),
      "  rubrics/bad.yaml:6:11: /checks/1/id: repeats the id 'ticket' of /checks/0. Fix: give each check its own id.",
      'ok rubrics/good.yaml (rubric, 3 check(s))',
      expect.stringMatching(
        /^ {2}warning: rubrics\/good\.yaml: \/checks\/2: check type 'word_budget' is not a shipped kind/,
      ),
      '',
      '1 of 2 file(s) have problems.',
      '',
    ]);
    expect(result.code).toBe(1);
  });
});
