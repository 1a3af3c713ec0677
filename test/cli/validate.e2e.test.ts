import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir, ROOT } from '../helpers/paths.js';
import { runNode } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const validate = (args: string[], cwd: string) => runNode(bin(), ['validate', ...args], cwd);

describe('ai-eval validate', () => {
  it('exits 0 and lists each valid file with its kind', async () => {
    const result = await validate(
      ['support.yaml', 'rubrics/cites-policy.yaml'],
      join(ROOT, 'fixtures', 'datasets'),
    );
    expect(result.stdout).toBe(
      [
        'ok support.yaml (dataset, 5 question(s), 1 disabled)',
        'ok rubrics/cites-policy.yaml (rubric, 2 check(s))',
        '',
        '2 file(s) valid.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
  });

  it('prints every problem as file:line:col: path: message and exits 1', async () => {
    const result = await validate(['invalid.yaml', 'support.yaml'], join(ROOT, 'fixtures', 'datasets'));
    expect(result.stdout).toBe(
      [
        'FAIL invalid.yaml (dataset): 6 problem(s)',
        "  invalid.yaml:4:9: /questions/1/id: must be a string, got number 42. Fix the value of 'id'.",
        "  invalid.yaml:5:12: /questions/1/input: must be a string, got a list. Fix the value of 'input'.",
        "  invalid.yaml:6:5: /questions/2: is missing the required key 'id'. Fix: add `id: <a unique name>` to it.",
        "  invalid.yaml:7:5: /questions/3: needs either 'input' (the question text) or 'messages' (a list of { role, content }). Fix: add one of them.",
        '  invalid.yaml:8:11: /questions/3/tags: must be a list, got the string "billing". Fix the value of \'tags\'.',
        "  invalid.yaml:9:9: /questions/4/id: duplicate question id 'ok' on line 9; it is first used on line 2 (/questions/0/id). Fix: ids must be unique, rename one of them.",
        'ok support.yaml (dataset, 5 question(s), 1 disabled)',
        '',
        '1 of 2 file(s) have problems.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(1);
  });

  it('recognises rubrics and gold labels by name and by shape, and checks each kind', async () => {
    const dir = scratch({
      'tone.rubric.yaml': 'checks:\n  - { type: llm_judge }\n',
      'shape-rubric.yaml': 'checks:\n  - { type: llm_judge, criteria: Polite. }\n',
      'gold-relevance.yaml': 'labels:\n  - { question_id: a, score: high }\n',
      'judge.labels.json':
        '{\n  "labels": [{ "question_id": "a", "dimension": "relevance", "score": 4 }]\n}\n',
      'by-shape.yaml': 'labels:\n  - { question_id: b, score: 3 }\n',
      'data.yaml': 'questions:\n  - { id: a, input: x, rubric_ref: missing }\nsplits:\n  s: [a, ghost]\n',
    });
    const result = await validate(['.'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('ok by-shape.yaml (gold-labels, 1 label(s))');
    expect(lines).toContain('FAIL data.yaml (dataset): 1 problem(s)');
    expect(
      lines.find((l) => l.startsWith('  data.yaml:2:36: /questions/0/rubric_ref: No rubric named')),
    ).toBeDefined();
    expect(lines).toContain(
      "  warning: data.yaml: /splits/s: names question id 'ghost', which the dataset does not have.",
    );
    expect(lines).toContain('FAIL gold-relevance.yaml (gold-labels): 1 problem(s)');
    expect(lines).toContain(
      "  gold-relevance.yaml:2:30: /labels/0/score: needs 'score': a number on the judge's scale, got \"high\".",
    );
    expect(lines).toContain('ok judge.labels.json (gold-labels, 1 label(s))');
    expect(lines).toContain('ok shape-rubric.yaml (rubric, 1 check(s))');
    expect(lines).toContain('FAIL tone.rubric.yaml (rubric): 1 problem(s)');
    expect(lines).toContain(
      "  tone.rubric.yaml:2:5: /checks/0: needs 'criteria': a non-empty text the judges score against, got undefined.",
    );
    expect(lines).toContain('3 of 6 file(s) have problems.');
  });

  it('refuses an alias bomb, and reports a missing file and a missing argument', async () => {
    const dir = scratch({
      'bomb.yaml': [
        'a: &a [x, x, x, x, x, x, x, x, x, x]',
        'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
        'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
        'questions: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      ].join('\n'),
    });
    const bomb = await validate(['bomb.yaml', 'nope.yaml'], dir);
    expect(bomb.code).toBe(1);
    expect(bomb.stdout).toContain(
      '  bomb.yaml:2:8: (document): uses YAML aliases that expand more than 100 times',
    );
    expect(bomb.stdout).toContain('  nope.yaml: (document): does not exist. Fix the path.');
    const none = await validate([], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: ai-eval validate [--tools <catalog>] <file or directory...>');
  });
});
