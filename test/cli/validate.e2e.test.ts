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
      'gold-relevance.yaml':
        'items:\n  - { id: a, judge: relevance, input: q, response: r, label: pass, score: high }\n',
      'judge.labels.json':
        '{\n  "items": [{ "id": "a", "judge": "relevance_grader", "input": "q", "response": "r", "label": "pass" }]\n}\n',
      'by-shape.yaml': 'items:\n  - { id: b, judge: accuracy, input: q, response: r, label: fail }\n',
      'data.yaml': 'questions:\n  - { id: a, input: x, rubric_ref: missing }\nsplits:\n  s: [a, ghost]\n',
    });
    const result = await validate(['.'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('ok by-shape.yaml (gold-labels, 1 item(s))');
    expect(lines).toContain('FAIL data.yaml (dataset): 1 problem(s)');
    expect(
      lines.find((l) => l.startsWith('  data.yaml:2:36: /questions/0/rubric_ref: No rubric named')),
    ).toBeDefined();
    expect(lines).toContain(
      "  warning: data.yaml: /splits/s: names question id 'ghost', which the dataset does not have.",
    );
    expect(lines).toContain('FAIL gold-relevance.yaml (gold-labels): 1 problem(s)');
    expect(lines).toContain(
      '  gold-relevance.yaml:2:75: /items/0/score: must be a number, got the string "high". Fix the value of \'score\'.',
    );
    expect(lines).toContain('ok judge.labels.json (gold-labels, 1 item(s))');
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
    // A file that cannot be read is an input error (exit 2, on stderr); the others are checked.
    expect(bomb.code).toBe(2);
    expect(bomb.stdout).toContain(
      '  bomb.yaml:2:8: (document): uses YAML aliases that expand more than 100 times',
    );
    expect(bomb.stderr).toBe('ai-eval validate: nope.yaml: does not exist. Fix the path.\n');
    expect(bomb.stdout).toContain('1 of 1 file(s) have problems. 1 file(s) could not be read: nope.yaml.');
    const none = await validate([], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      'Usage: ai-eval validate [--tools <catalog>] [--setup <module>...] <file or directory...>',
    );
  });

  it('reports a dataset nested 1,000 deep as a problem with its line, and exits 1 (not 134)', async () => {
    const deep = `{"questions":[{"id":"a","input":"x","metadata":{"a":${'['.repeat(1000)}${']'.repeat(1000)}}}]}`;
    const result = await validate(['deep.json'], scratch({ 'deep.json': deep }));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'FAIL deep.json (dataset): 1 problem(s)',
        '  deep.json:1:149: (document): nests lists and maps more than 100 levels deep here; refused (nesting that deep can exhaust the stack of the tools that read it). Fix: flatten the structure.',
        '',
        '1 of 1 file(s) have problems.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(1);
  });

  it('refuses what a run would fail on, as the loader does, and reads BOMs and CR line ends', async () => {
    const q = (extra: string) => `questions:\n  - id: a\n    input: x\n${extra}`;
    const dir = scratch({
      'blank-tool.yaml': q('    expected_tools: [" "]\n'),
      'format.yaml': q('    expected: { format: jsn }\n'),
      'regex.yaml': q('    expected: { pattern: "(x" }\n'),
      'schema.yaml': q('    expected: { schema: { type: nope } }\n'),
      'timeout.yaml': q('    timeout: 2147483648\n'),
      'split.yaml': `splits:\n  s: [" "]\n${q('')}`,
      'tag.yaml': q('    criteria: !!js/function "f"\n'),
      'nul.yaml': q('    criteria: a\u0000b\n'),
      'bom.json': '\ufeff{"questions": [{"id": "a", "input": "x"}]}',
      'cr.yaml': 'questions:\r  - id: a\r    input: 1\r',
    });
    const result = await validate(['.'], dir);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    const problemOf = (file: string) => lines[lines.indexOf(`FAIL ${file} (dataset): 1 problem(s)`) + 1];
    expect(problemOf('blank-tool.yaml')).toMatch(
      /^ {2}blank-tool\.yaml:4:22: \/questions\/0\/expected_tools\/0: must be a non-empty string/,
    );
    expect(problemOf('format.yaml')).toMatch(
      /^ {2}format\.yaml:4:25: \/questions\/0\/expected\/format: must be one of 'json', 'markdown'/,
    );
    expect(problemOf('regex.yaml')).toMatch(
      /^ {2}regex\.yaml:4:26: \/questions\/0\/expected\/pattern: expected\.pattern "\(x" is not a valid regular expression/,
    );
    expect(problemOf('schema.yaml')).toMatch(
      /^ {2}schema\.yaml:4:25: \/questions\/0\/expected\/schema: expected\.schema is not a valid JSON Schema/,
    );
    expect(problemOf('timeout.yaml')).toMatch(
      /^ {2}timeout\.yaml:4:14: \/questions\/0\/timeout: must be at most 2147483647/,
    );
    expect(problemOf('split.yaml')).toMatch(
      /^ {2}split\.yaml:2:7: \/splits\/s\/0: must be a non-empty string/,
    );
    expect(problemOf('tag.yaml')).toMatch(
      /^ {2}tag\.yaml:4:15: \(document\): uses the YAML tag !!js\/function/,
    );
    expect(problemOf('nul.yaml')).toMatch(
      /^ {2}nul\.yaml:4:16: \(document\): contains the raw control character U\+0000 \(NUL\)/,
    );
    expect(problemOf('cr.yaml')).toBe(
      "  cr.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    );
    expect(lines).toContain('ok bom.json (dataset, 1 question(s))');
    expect(lines).toContain('9 of 10 file(s) have problems.');
  });
});
