import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../src/config.js';
import {
  formatProblem,
  loadDatasetSync,
  validateDataset,
  validateDatasetFile,
} from '../../src/datasets/index.js';
import { logger } from '../../src/logger.js';
import { scratch } from '../helpers/temp.js';

const messages = (text: string, file = 'd.yaml') =>
  validateDataset(text, { file }).problems.map(formatProblem);
const fileMessages = (name: string, content: string | Buffer) => {
  const dir = scratch();
  writeFileSync(join(dir, name), content);
  return validateDatasetFile(join(dir, name), name).problems.map(formatProblem);
};
/** A question whose metadata nests `depth` lists, as JSON. */
const deepJson = (depth: number, input = '"x"') =>
  `{"questions":[{"id":"a","input":${input},"metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}]}`;

function deepObject(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

beforeEach(() => logger.setEchoLevel('silent'));
afterEach(() => resetConfig());

describe('deep nesting', () => {
  it('refuses a 4 KB JSON dataset nested 1,000 deep with a line, instead of running out of memory', () => {
    const text = deepJson(1000);
    expect(text.length).toBeLessThan(5000);
    expect(messages(text, 'd.json')).toEqual([
      'd.json:1:149: (document): nests lists and maps more than 100 levels deep here; refused (nesting that deep can exhaust the stack of the tools that read it). Fix: flatten the structure.',
    ]);
    const load = loadDatasetSync({ path: join(scratch({ 'deep.json': text }), 'deep.json') });
    expect(load.questions).toEqual([]);
    expect(load.warnings.join('\n')).toContain('more than 100 levels deep');
  });

  // 100,000 brackets: a second or two alone, more on a loaded machine (a timeout, not a threshold).
  it(
    'refuses YAML nested past the limit, in flow and in block style, before the parser recurses',
    { timeout: 30_000 },
    () => {
      const flow = `questions:\n  - id: a\n    input: x\n    metadata: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
      expect(messages(flow)[0]).toMatch(
        /^d\.yaml:4:\d+: \(document\): nests lists and maps more than 100 levels deep/,
      );
      let block = 'questions:\n  - id: a\n    input: x\n    metadata:\n';
      for (let i = 0; i < 300; i++) block += `${' '.repeat(6 + i)}a:\n`;
      expect(messages(block)[0]).toMatch(
        /^d\.yaml:\d+:\d+: \(document\): nests lists and maps more than 100 levels deep/,
      );
    },
  );

  it('refuses an object from code that nests too deep or refers to itself', () => {
    const cyclic: Record<string, unknown> = { id: 'a', input: 'x' };
    cyclic.metadata = { self: cyclic };
    for (const document of [
      { questions: [cyclic] },
      { questions: [{ id: 'a', input: 'x', metadata: deepObject(200) }] },
    ]) {
      expect(validateDataset(document, { file: 'inline:x' }).problems.map(formatProblem)).toEqual([
        'inline:x: (document): nests lists and maps more than 100 levels deep here; refused (nesting that deep can exhaust the stack of the tools that read it). Fix: flatten the structure.',
      ]);
    }
  });

  it('keeps every line for JSON nested deep but within the limit', () => {
    const text = deepJson(90, '1');
    expect(messages(text, 'd.json')).toEqual([
      "d.json:1:33: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    ]);
  });
});

describe('YAML that does not mean what it seems to', () => {
  it.each([
    ['!!js/function "function () {}"', '!!js/function'],
    ['!!python/str hello', '!!python/str'],
    ['!custom hello', '!custom'],
    ['!!binary aGVsbG8=', '!!binary'],
    ['!!set { a }', '!!set'],
  ])('refuses the tag in `input: %s`', (value, tag) => {
    expect(messages(`questions:\n  - id: a\n    input: ${value}\n`)).toEqual([
      `d.yaml:3:12: (document): uses the YAML tag ${tag}, which ai-eval does not resolve: the value would silently be read as plain text or a non-JSON type; refused. Fix: remove the tag (only !!str, !!int, !!float, !!bool, !!null, !!map, !!seq are allowed).`,
    ]);
  });

  it('refuses %TAG and %YAML 1.1 directives, and accepts %YAML 1.2 and plain tags', () => {
    expect(messages('%TAG !e! tag:example.com,2000:\n---\nquestions:\n  - { id: a, input: x }\n')).toEqual([
      'd.yaml:1:1: (document): uses the YAML directive "%TAG !e! tag:example.com,2000:", which changes how the rest of the text is read (tag handles, or YAML 1.1 booleans and octals); refused. Fix: remove the directive.',
    ]);
    expect(messages('%YAML 1.1\n---\nquestions: []\n')[0]).toContain('uses the YAML directive "%YAML 1.1"');
    expect(validateDataset('%YAML 1.2\n---\nquestions:\n  - { id: a, input: !!str 12 }\n').document).toEqual({
      questions: [{ id: 'a', input: '12' }],
    });
  });

  it('refuses an alias inside the value its anchor names, which would contain itself', () => {
    // Validated before, then a grader threw "Converting circular structure to JSON" in the run.
    expect(
      messages(
        'questions:\n  - id: list-drafts\n    input: x\n    expected_tools:\n      - name: list_nodes\n        args: &x\n          status: draft\n          self: *x\n',
      ),
    ).toEqual([
      'd.yaml:8:17: (document): uses the YAML alias *x inside the value its anchor &x names, so the value would contain itself; refused (JSON cannot hold it). Fix: write the value out without the alias.',
    ]);
    expect(
      messages('questions:\n  - &q\n    id: a\n    input: x\n    metadata: { self: *q }\n')[0],
    ).toContain('d.yaml:5:23: (document): uses the YAML alias *q inside the value its anchor &q names');
    // An alias of a value elsewhere stays fine.
    expect(
      validateDataset('questions:\n  - { id: a, input: &i x }\n  - { id: b, input: *i }\n').document,
    ).toEqual({
      questions: [
        { id: 'a', input: 'x' },
        { id: 'b', input: 'x' },
      ],
    });
  });

  it('refuses a list used as a key', () => {
    expect(messages('questions:\n  - id: a\n    input: x\n    metadata: { [a, b]: 1 }\n')[0]).toBe(
      'd.yaml:4:17: (document): uses a list or a map as a key, which a JSON object cannot hold (it would become a string); refused. Fix: use a plain text key.',
    );
  });
});

describe('control characters and encodings', () => {
  it('refuses raw NUL and other control characters in YAML and JSON, with their line', () => {
    expect(messages('questions:\n  - id: a\n    input: x\u0000y\n')).toEqual([
      'd.yaml:3:13: (document): contains the raw control character U+0000 (NUL); refused (an invisible character changes what graders and judges see). Fix: remove it, or if it is meant, write it as an escape (\\u0000 in JSON or a double-quoted YAML string).',
    ]);
    expect(messages('{"questions": [{"id": "a",\n "input": "x\u0001"}]}', 'd.json')[0]).toMatch(
      /^d\.json:2:13: \(document\): contains the raw control character U\+0001;/,
    );
    expect(messages('{"questions": [{"id": "a",\n "input": "x\u007f"}]}', 'd.json')[0]).toMatch(
      /^d\.json:2:13: \(document\): contains the raw control character U\+007F \(DEL\);/,
    );
    expect(messages('{"questions": [{"id": "a", "input": "caf\u00e9 \u0085"}]}', 'd.json')[0]).toMatch(
      /^d\.json:1:43: \(document\): contains the raw control character U\+0085;/,
    );
    // Escaped, they are visible in the file and allowed.
    expect(
      validateDataset('{"questions": [{"id": "a", "input": "x\\u0000"}]}', { file: 'd.json' }).valid,
    ).toBe(true);
  });

  it('refuses invalid UTF-8 and UTF-16 instead of reading U+FFFD', () => {
    const bytes = Buffer.concat([
      Buffer.from('questions:\n  - id: a\n    input: caf'),
      Buffer.from([0xe9, 0x0a]),
    ]);
    expect(fileMessages('latin1.yaml', bytes)).toEqual([
      'latin1.yaml:3:15: (document): is not valid UTF-8: the byte 0xE9 here does not begin or continue a UTF-8 character (the file was probably saved in another encoding, such as Latin-1 or Windows-1252). Fix: save it as UTF-8.',
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('questions: []\n', 'utf16le')]);
    expect(fileMessages('utf16.yaml', utf16)[0]).toBe(
      'utf16.yaml:1:1: (document): is UTF-16 encoded (it starts with a UTF-16 byte order mark); only UTF-8 is read. Fix: save it as UTF-8.',
    );
  });

  it('accepts a UTF-8 byte order mark in JSON and YAML, from a file and from a string', () => {
    const json = '\ufeff{"questions": [{"id": "a", "input": "x"}]}';
    expect(fileMessages('bom.json', json)).toEqual([]);
    expect(validateDataset(json, { file: 'bom.json' }).valid).toBe(true);
    expect(fileMessages('bom.yaml', '\ufeffquestions:\n  - { id: a, input: x }\n')).toEqual([]);
  });

  it('reports problems at their own line when lines end with CR only, in YAML and in JSON', () => {
    expect(messages('questions:\r  - id: a\r    input: 1\r')).toEqual([
      "d.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    ]);
    expect(messages('{\r  "questions": [\r    { "id": "a", "input": 1 }\r  ]\r}\r', 'd.json')).toEqual([
      "d.json:3:27: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    ]);
  });
});

describe('size', () => {
  it('refuses a device and a pipe unread, which report no size and may never end', () => {
    const dir = scratch();
    symlinkSync('/dev/zero', join(dir, 'zero.yaml'));
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    for (const name of ['zero.yaml', 'pipe.json']) {
      expect(validateDatasetFile(join(dir, name), name).problems.map(formatProblem)).toEqual([
        `${name}: (document): is not a regular file (a device, a pipe or a socket, which may never end); refused unread. Fix: point at a dataset file.`,
      ]);
    }
    expect(validateDatasetFile(dir, 'evals').problems.map(formatProblem)).toEqual([
      'evals: (document): is a directory, not a file; refused. Fix: point at the dataset file inside it.',
    ]);
  });

  it('refuses a file over 64 MiB unread', () => {
    const dir = scratch({ 'huge.yaml': '' });
    truncateSync(join(dir, 'huge.yaml'), 64 * 1024 * 1024 + 1);
    expect(validateDatasetFile(join(dir, 'huge.yaml'), 'huge.yaml').problems.map(formatProblem)).toEqual([
      'huge.yaml: (document): is 67108865 bytes (64.0 MiB), over the limit of 67108864 bytes (64 MiB) for one document; refused unread. Fix: split it into several datasets.',
    ]);
  });
});

describe('numbers JSON cannot hold', () => {
  it('names 1e400 and .nan as what they are, not as null', () => {
    const why =
      "(JSON cannot hold it: a number too large to be finite, such as 1e400, or YAML's .inf or .nan)";
    expect(messages('{"questions":[{"id":"a","input":"x","timeout":1e400}]}', 'd.json')).toEqual([
      `d.json:1:47: /questions/0/timeout: must be an integer, got number Infinity ${why}. Fix the value of 'timeout'.`,
    ]);
    expect(messages('questions:\n  - id: a\n    input: x\n    timeout: .nan\n')).toEqual([
      `d.yaml:4:14: /questions/0/timeout: must be an integer, got number NaN ${why}. Fix the value of 'timeout'.`,
    ]);
  });
});

describe('JSON repeated keys', () => {
  it('reports every repeated key with its line, at any depth', () => {
    const text =
      '{\n  "questions": [\n    { "id": "a", "input": "x", "id": "b" }\n  ],\n  "name": "n", "name": "m"\n}\n';
    expect(messages(text, 'd.json')).toEqual([
      "d.json:3:32: (document): repeats the key 'id' in the same object (JSON.parse would silently keep the last). Fix: remove one.",
      "d.json:5:16: (document): repeats the key 'name' in the same object (JSON.parse would silently keep the last). Fix: remove one.",
    ]);
    // Strings that look like keys to a quick count: the scanner decides.
    for (const tricky of [
      '{"questions": [{"id": "a", "input": ":x", "id": "b"}]}',
      '{"questions": [{"id": "a", "input": "  : x", "id": "b"}]}',
      '{"questions": [{"id": "a", "input": "say \\": x", "id": "b"}]}',
      '{"questions": [{"id": "a", "input": "\\u003a x", "id": "b"}]}',
      '{"questions": [{"id": "a", "input": "x" , "id" : "b"}]}',
      // Keys that begin with a space or a colon: the quick count counts them twice, never less.
      '{"questions": [{"id": "a", "input": "x", "metadata": {" :a": 1, ":b": 2, ":b": 3}}]}',
      '{"questions": [{"id": "a", "input": " : :", "metadata": {"k": [{" :": ":", " :": 1}]}}]}',
    ]) {
      expect(messages(tricky, 'd.json')).toHaveLength(1);
      expect(messages(tricky, 'd.json')[0]).toMatch(/repeats the key ('id'|':b'|' :') in the same object/);
    }
    expect(
      validateDataset('{"questions": [{"id": "a", "input": ":x", " k": " :"}]}', { file: 'd.json' }).valid,
    ).toBe(true);
    // A colon or a quote inside a string is not a key.
    expect(
      validateDataset('{"questions": [{"id": "a:b", "input": "say \\"x\\": y"}]}', { file: 'd.json' }).valid,
    ).toBe(true);
  });
});

describe('what validate accepted and a run then failed on', () => {
  const question = (extra: string) => `questions:\n  - id: a\n    input: x\n${extra}`;

  it.each([
    [
      'a blank tool name',
      '    expected_tools: ["  "]\n',
      'd.yaml:4:22: /questions/0/expected_tools/0: must be a non-empty string, got the string "  ". Fix: give it some text.',
    ],
    [
      'a blank tool name in an object',
      '    expected_tools: [{ name: " " }]\n',
      'd.yaml:4:30: /questions/0/expected_tools/0/name: must be a non-empty string, got the string " ". Fix: give it some text.',
    ],
    [
      'an unknown format',
      '    expected: { format: jsn }\n',
      "d.yaml:4:25: /questions/0/expected/format: must be one of 'json', 'markdown', got the string \"jsn\". Fix the value of 'format'.",
    ],
    [
      'an invalid regex',
      '    expected: { pattern: "(unclosed" }\n',
      'd.yaml:4:26: /questions/0/expected/pattern: expected.pattern "(unclosed" is not a valid regular expression: Invalid regular expression: /(unclosed/: Unterminated group.',
    ],
    [
      'regex flags the grader refuses',
      '    expected: { pattern: a, flags: g }\n',
      'd.yaml:4:36: /questions/0/expected/flags: must be regex flags: any of i, m, s, u, got the string "g". Fix the value of \'flags\'.',
    ],
    [
      'a pattern that backtracks exponentially',
      '    expected: { pattern: "^(\\\\w+\\\\s?)*$" }\n',
      'd.yaml:4:26: /questions/0/expected/pattern: expected.pattern "^(\\\\w+\\\\s?)*$" repeats a group that can match the same text in more than one way ((\\w+\\s?)*): on a response that almost matches, a backtracking regex engine takes exponential time. Fix: make each repetition match unambiguously, e.g. (\\w+\\s)* instead of (\\w+\\s?)*.',
    ],
    [
      'an invalid JSON Schema',
      '    expected: { format: json, schema: { type: no-such-type } }\n',
      /^d\.yaml:4:39: \/questions\/0\/expected\/schema: expected\.schema is not a valid JSON Schema: .+\. Fix the schema \(JSON Schema draft 2020-12\)\.$/,
    ],
    [
      'a schema with format markdown',
      '    expected: { format: markdown, schema: { type: object } }\n',
      'd.yaml:4:43: /questions/0/expected/schema: applies only to format json, and this question asks for markdown. Fix: remove the schema or use `format: json`.',
    ],
    [
      'a timeout setTimeout cannot hold',
      '    timeout: 2147483648\n',
      'd.yaml:4:14: /questions/0/timeout: must be at most 2147483647 (the longest timer Node.js sets, about 24.8 days), got 2147483648.',
    ],
  ])('refuses %s', (_name, extra, expected) => {
    const [problem, ...rest] = messages(question(extra));
    expect(rest).toEqual([]);
    if (typeof expected === 'string') expect(problem).toBe(expected);
    else expect(problem).toMatch(expected);
  });

  it('accepts the largest timeout and a valid pattern and schema', () => {
    expect(
      messages(
        question(
          '    timeout: 2147483647\n    expected: { format: json, schema: { type: object }, pattern: ok, flags: i }\n',
        ),
      ),
    ).toEqual([]);
  });

  it('refuses a split listing a blank id in the loader as in validate, so evalSuite runs nothing', () => {
    const text = 'splits:\n  smoke: [a, " "]\nquestions:\n  - { id: a, input: x }\n';
    expect(messages(text)).toEqual([
      'd.yaml:2:14: /splits/smoke/1: must be a non-empty string, got the string " ". Fix: give it some text.',
    ]);
    const load = loadDatasetSync({ path: join(scratch({ 'd.yaml': text }), 'd.yaml') });
    expect(load.questions).toEqual([]);
    expect(load.warnings.join('\n')).toContain('/splits/smoke/1: must be a non-empty string');
  });
});
