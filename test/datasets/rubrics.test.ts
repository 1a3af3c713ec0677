import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { AiEvalError } from '../../src/errors.js';
import { formatProblem, loadRubricCriteria, validateRubric } from '../../src/datasets/index.js';
import { ROOT } from '../helpers/paths.js';
import { scratch } from '../helpers/temp.js';

afterEach(() => resetConfig());

describe('rubrics', () => {
  it('loads the llm_judge criteria of rubrics/<ref>.yaml next to the dataset', () => {
    const datasetFile = join(ROOT, 'fixtures', 'datasets', 'support.yaml');
    expect(loadRubricCriteria('cites-policy', { datasetFile })).toEqual([
      'The answer cites the refund policy page.',
      'The answer names the 30-day window.',
    ]);
  });

  it('finds rubrics under the root and in the dataset directories, .rubric.yaml first', () => {
    const root = scratch({
      'rubrics/tone.rubric.yaml': 'checks:\n  - { type: llm_judge, criteria: Polite. }\n',
      'rubrics/tone.yaml': 'checks:\n  - { type: llm_judge, criteria: Not this one. }\n',
      'datasets/rubrics/facts.json': JSON.stringify({
        checks: [{ type: 'llm_judge', criteria: 'Correct.' }],
      }),
    });
    configure({ datasets: { root } });
    expect(loadRubricCriteria('tone')).toEqual(['Polite.']);
    expect(loadRubricCriteria('facts')).toEqual(['Correct.']);
  });

  it('throws INVALID_RUBRIC naming what is missing or malformed', () => {
    const root = scratch({ 'rubrics/bad.yaml': 'checks:\n  - type: regex\n    criteria: ""\n' });
    configure({ datasets: { root } });
    expect(() => loadRubricCriteria('none')).toThrow(
      /No rubric named 'none' \(looked for none\.yaml in .*\)\. Fix: create rubrics\/none\.yaml/,
    );
    let error: unknown;
    try {
      loadRubricCriteria('bad');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AiEvalError);
    expect((error as AiEvalError).code).toBe('INVALID_RUBRIC');
    // The error names the ref and the file, and each problem its line and path.
    expect((error as AiEvalError).message).toMatch(/^Rubric 'bad' \(.*rubrics\/bad\.yaml\) is invalid:\n/);
    expect((error as AiEvalError).message).toContain(
      "bad.yaml:2:5: /checks/0: is missing the required key 'pattern'. Fix: add it.",
    );
    expect((error as AiEvalError).message).toContain(
      "bad.yaml:2:5: /checks/0: has an unknown key 'criteria'.",
    );
    expect(() => loadRubricCriteria('../x')).toThrow(/must be a bare rubric name/);
  });

  it('gives the judges only the llm_judge criteria of a rubric with other checks', () => {
    const root = scratch({
      'rubrics/mixed.yaml': [
        'id: mixed',
        'version: 1.0.0',
        'checks:',
        '  - { type: llm_judge, criteria: Polite. }',
        '  - { id: says, type: must_contain_any, values: [refund] }',
        '  - { type: llm_judge, criteria: Names the window. }',
        '',
      ].join('\n'),
    });
    configure({ datasets: { root } });
    expect(loadRubricCriteria('mixed')).toEqual(['Polite.', 'Names the window.']);
  });

  it('validates rubric text with positions', () => {
    expect(validateRubric('checks: []\n', 'r.yaml').problems.map(formatProblem)).toEqual([
      "r.yaml:1:9: /checks: needs a non-empty 'checks' list. Fix: add `checks: [{ type: llm_judge, criteria: ... }]`.",
    ]);
    expect(validateRubric('name: 3\nchecks:\n  - just text\n', 'r.yaml').problems.map(formatProblem)).toEqual(
      [
        "r.yaml:1:7: /name: must be a string, got number 3. Fix the value of 'name'.",
        'r.yaml:3:5: /checks/0: must be an object (a map of keys), got the string "just text". Fix the value of \'0\'.',
      ],
    );
  });
});
