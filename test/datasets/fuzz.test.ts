import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { datasetSchema, validateDatasetFile, type DatasetValidation } from '../../src/datasets/index.js';
import { ROOT } from '../helpers/paths.js';
import { scratch } from '../helpers/temp.js';

/**
 * Seeded mutations of the fixture datasets: byte flips, truncations, deep nesting, huge strings,
 * tags, control characters, invalid UTF-8, BOMs, CR line ends and edits known to break the schema.
 * Every input must give either questions or problems that each have a line (no crash), a mutation
 * known to break the dataset must be refused (no false accept), and an accepted document must be
 * valid by an independent check. The seed is fixed, so a failure reproduces.
 */

const SEED = 20261201;
const MUTATIONS = 300;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIXTURES = join(ROOT, 'fixtures', 'datasets');
const supportYaml = readFileSync(join(FIXTURES, 'support.yaml'), 'utf8');
const invalidYaml = readFileSync(join(FIXTURES, 'invalid.yaml'), 'utf8');
const supportJson = `${JSON.stringify(
  {
    name: 'support',
    splits: { smoke: ['refund', 'greeting'], holdout: { fraction: 0.5, seed: 7 } },
    questions: [
      { id: 'refund', input: 'How do I get a refund?', expected_facts: ['30 days'], tags: ['billing'] },
      { id: 'greeting', input: 'Hello!', tags: ['smalltalk'] },
      {
        id: 'invoice',
        messages: [{ role: 'user', content: 'I need my invoice.' }],
        expected_tools: ['find_invoice', { name: 'send_email', after: 'find_invoice', times: 1 }],
      },
      { id: 'upgrade', input: 'How do I upgrade?', expected: { format: 'markdown', pattern: 'upgrade' } },
    ],
  },
  null,
  2,
)}\n`;

interface Seed {
  name: string;
  text: string;
  json: boolean;
  valid: boolean;
}
const SEEDS: Seed[] = [
  { name: 'support.yaml', text: supportYaml, json: false, valid: true },
  { name: 'invalid.yaml', text: invalidYaml, json: false, valid: false },
  { name: 'support.json', text: supportJson, json: true, valid: true },
];

/** What a mutation is known to do: break the document, keep its validity, or unknown. */
type Expect = 'invalid' | 'same' | 'unknown';
interface Mutant {
  kind: string;
  bytes: Buffer;
  expect: Expect;
}

const TAGS = ['!!js/function', '!!python/str', '!custom', '!!binary', '!!set', '!e!x'];
const CONTROLS = [0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x85, 0x9f];

function mutate(seed: Seed, next: () => number): Mutant {
  const int = (n: number) => Math.floor(next() * n);
  const bytes = Buffer.from(seed.text);
  const text = seed.text;
  // Positions inside a question's input text, where an insertion stays inside a value.
  const inputAt = () => {
    const marker = seed.json ? '"input": "' : 'input: ';
    const first = text.indexOf(marker);
    return first + marker.length + 2;
  };
  const insert = (at: number, what: Buffer | string) =>
    Buffer.concat([bytes.subarray(0, at), Buffer.from(what as string), bytes.subarray(at)]);
  // A line of `metadata` after the first id, in the seed's syntax.
  const addKey = (key: string, value: string) => {
    const marker = seed.json ? '"id": "refund",' : '  - id: refund\n';
    const at = text.indexOf(marker) + marker.length;
    const line = seed.json ? `\n      "${key}": ${value},` : `    ${key}: ${value}\n`;
    return insert(Buffer.byteLength(text.slice(0, at)), line);
  };
  switch (int(10)) {
    case 0: {
      const copy = Buffer.from(bytes);
      const flips = 1 + int(4);
      for (let i = 0; i < flips; i++) copy[int(copy.length)] = int(256);
      return { kind: 'byte flip', bytes: copy, expect: 'unknown' };
    }
    case 1:
      return { kind: 'truncation', bytes: bytes.subarray(0, int(bytes.length)), expect: 'unknown' };
    case 2: {
      const depth = 1 + int(3000);
      const value = `{"a": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
      // metadata is level 4 (document, questions, question, metadata), its lists start at 5.
      const expect: Expect = depth + 4 > 100 ? 'invalid' : 'same';
      return { kind: `nesting ${depth} deep`, bytes: addKey('metadata', value), expect };
    }
    case 3: {
      const size = 1 + int(2_000_000);
      return {
        kind: `a ${size}-character string`,
        bytes: addKey('notes', JSON.stringify('x'.repeat(size))),
        expect: 'same',
      };
    }
    case 4: {
      if (seed.json) return { kind: 'tag (JSON: none)', bytes, expect: 'same' };
      const tag = TAGS[int(TAGS.length)]!;
      return { kind: `tag ${tag}`, bytes: addKey('notes', `${tag} text`), expect: 'invalid' };
    }
    case 5: {
      const code = CONTROLS[int(CONTROLS.length)]!;
      return {
        kind: `control U+${code.toString(16)}`,
        bytes: insert(inputAt(), String.fromCharCode(code)),
        expect: 'invalid',
      };
    }
    case 6: {
      const bad = [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]][
        int(5)
      ]!;
      return { kind: 'invalid UTF-8', bytes: insert(inputAt(), Buffer.from(bad)), expect: 'invalid' };
    }
    case 7:
      return { kind: 'BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), expect: 'same' };
    case 8:
      return { kind: 'CR line ends', bytes: Buffer.from(text.replace(/\n/g, '\r')), expect: 'same' };
    default: {
      const breaks: Array<[string, string]> = [
        ['timeout', '2147483648'],
        ['expected_tools', seed.json ? '[" "]' : '[" "]'],
        ['expected', seed.json ? '{"format": "jsn"}' : '{ format: jsn }'],
        ['expected', seed.json ? '{"pattern": "(x"}' : '{ pattern: "(x" }'],
        ['expected', seed.json ? '{"schema": {"type": "nope"}}' : '{ schema: { type: nope } }'],
        ['tags', seed.json ? '"billing"' : 'billing'],
        ['messages', '[]'],
        ['id', '"repeated"'],
      ];
      const [key, value] = breaks[int(breaks.length)]!;
      return { kind: `schema break ${key}: ${value}`, bytes: addKey(key, value), expect: 'invalid' };
    }
  }
}

const oracle = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(datasetSchema);

/** An accepted document is plain JSON, valid by a separately compiled schema, with unique ids. */
function independentlyValid(result: DatasetValidation): boolean {
  const document = result.document as { questions: Array<{ id: string }> };
  const ids = document.questions.map((q) => q.id);
  return (
    oracle(document) &&
    new Set(ids).size === ids.length &&
    JSON.stringify(JSON.parse(JSON.stringify(document))) === JSON.stringify(document)
  );
}

describe('fuzzing the dataset loader', () => {
  it(
    `survives ${MUTATIONS} seeded mutations: no crash, no false accept, no problem without a line`,
    { timeout: 120_000 },
    () => {
      const next = random(SEED);
      const dir = scratch();
      const baseline = new Map(
        SEEDS.map((seed) => {
          writeFileSync(join(dir, seed.name), seed.text);
          return [seed.name, validateDatasetFile(join(dir, seed.name), seed.name)] as const;
        }),
      );
      expect(SEEDS.map((s) => baseline.get(s.name)!.valid)).toEqual(SEEDS.map((s) => s.valid));
      const failures: string[] = [];
      const kinds = new Map<string, number>();
      for (let i = 0; i < MUTATIONS; i++) {
        const seed = SEEDS[Math.floor(next() * SEEDS.length)]!;
        const mutant = mutate(seed, next);
        const kind = mutant.kind.replace(/\d+/g, 'N');
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        const file = join(dir, `m${i}${seed.json ? '.json' : '.yaml'}`);
        writeFileSync(file, mutant.bytes);
        const where = `#${i} ${mutant.kind} of ${seed.name}`;
        let result: DatasetValidation;
        try {
          result = validateDatasetFile(file, 'm');
        } catch (error) {
          failures.push(`${where}: threw ${String(error)}`);
          continue;
        }
        if (result.valid !== (result.problems.length === 0))
          failures.push(`${where}: valid and problems disagree`);
        for (const p of result.problems) {
          if (p.line === undefined && !p.message.includes('got nothing'))
            failures.push(`${where}: a problem without a line: ${p.path}: ${p.message}`);
        }
        if (result.valid && !independentlyValid(result)) failures.push(`${where}: accepted, but not valid`);
        if (mutant.expect === 'invalid' && result.valid) failures.push(`${where}: accepted a broken dataset`);
        if (mutant.expect === 'same' && result.valid !== seed.valid)
          failures.push(
            `${where}: ${result.valid ? 'accepted' : 'refused'} (${result.problems[0]?.message})`,
          );
      }
      expect(failures).toEqual([]);
      // Every kind of mutation was tried.
      expect(kinds.size).toBeGreaterThanOrEqual(10);
    },
  );
});
