import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { isAiEvalError } from '../../src/errors.js';
import { parseReport } from '../../src/report/baseline.js';
import { collect } from '../../src/report/collect.js';
import type { EvalReport } from '../../src/report/model.js';
import { gateSettings } from '../../src/report/options.js';
import { REPORT_SCHEMA_KEYWORDS, reportProblem } from '../../src/report/report-shape.js';
import { loadFailureRecord } from '../../src/run/record.js';
import { fixtureReport } from '../helpers/html-fixtures.js';
import { ROOT } from '../helpers/paths.js';
import { SUPPORT, fail, identity, rec } from '../helpers/report-fixtures.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'report.json'), 'utf8')) as Record<
  string,
  unknown
>;

/** A parsed report, edited freely by path (a JSON document, not an EvalReport any more). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- values of any type are set on purpose
type Doc = any;

/** `report` as a file holds it, after `edit`. */
function text(report: EvalReport, edit: (r: Doc) => void = () => {}): string {
  const copy = JSON.parse(JSON.stringify(report));
  edit(copy);
  return JSON.stringify(copy);
}

/** The message parseReport throws for this text. */
function refusal(content: string, versions?: number[]): string {
  try {
    parseReport(content, 'r.json', versions ? { versions } : {});
  } catch (error) {
    expect(isAiEvalError(error, 'INVALID_REPORT')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('parseReport accepted it');
}

describe('parseReport checks every value against the report schema', () => {
  const head = fixtureReport('head');

  it('refuses a value of the wrong type, naming the JSON path, what was expected and what was there', () => {
    expect(
      refusal(
        text(head, (r) => {
          r.targets[0].questions[0].composite = '5';
        }),
      ),
    ).toBe(
      'r.json at $.targets[0].questions[0].composite: expected a number or null, got "5". Use a report written by the ai-eval reporter\'s `outputFile`.',
    );
    const cases: Array<[(r: Doc) => void, string]> = [
      [(r) => (r.targets[0].averageScore = 7), '$.targets[0].averageScore: expected at most 5, got 7'],
      [
        (r) => (r.verdict = 'green'),
        '$.verdict: expected one of "passed", "failed", "incomplete", "ungated", "partial", got "green"',
      ],
      [(r) => delete r.targets[1].coverage, '$.targets[1].coverage: is missing'],
      [(r) => (r.targets[0].gate = 'strict'), '$.targets[0].gate: expected null or an object, got "strict"'],
      [
        (r) => (r.settings.gate.level = 'hrad'),
        '$.settings.gate.level: expected one of "hard", "soft", got "hrad"',
      ],
      [
        (r) => (r.targets[0].questions[1].grades[0].trial = 1.5),
        '$.targets[0].questions[1].grades[0].trial: expected an integer, got 1.5',
      ],
      [
        (r) => (r.targets[0].questions[0].test = null),
        '$.targets[0].questions[0].test: expected an object, got null',
      ],
      [
        (r) => (r.datasetHashes = { 'file:a.yaml': 3 }),
        '$.datasetHashes["file:a.yaml"]: expected a string, got 3',
      ],
      [
        (r) => (r.timestamp = 'yesterday'),
        '$.timestamp: expected a date and time (ISO 8601), got "yesterday"',
      ],
      [(r) => (r.coverage.share = []), '$.coverage.share: expected a number or null, got an array'],
    ];
    for (const [edit, message] of cases) expect(refusal(text(head, edit))).toContain(`r.json at ${message}.`);
  });

  it('reads every report the reporter writes, and ignores fields it does not know', () => {
    const notLoaded = loadFailureRecord(
      {
        test: { file: '/repo/t.test.ts', name: 'dataset x' },
        target: SUPPORT,
        suite: 's',
        ref: 'file:x.yaml',
      },
      ['missing'],
    );
    const reports = [
      head,
      fixtureReport('base', { gate: { level: 'soft', minPassRate: 0.5 }, failOnError: true }),
      collect([rec({ question: 'q', grader: 'g' }), fail('q2', 'g'), notLoaded], {
        identity,
        settings: gateSettings({}),
        shard: { index: 1, count: 2 },
      }),
    ];
    for (const report of reports) expect(() => parseReport(JSON.stringify(report), 'r.json')).not.toThrow();
    expect(() =>
      parseReport(
        text(head, (r) => {
          r.addedLater = { x: 1 };
          r.targets[0].questions[0].note = 'new field';
        }),
        'r.json',
      ),
    ).not.toThrow();
  });

  it('checks a version 1 report the same way, where the fields of version 2 may be absent', () => {
    const v1 = text(head, (r) => {
      r.schemaVersion = 1;
      for (const key of ['coverage', 'verdict', 'partial', 'failedTests', 'skippedByFilter', 'judgeHash'])
        delete r[key];
      for (const t of r.targets)
        for (const key of ['coverage', 'negated', 'loadFailures', 'judges']) delete t[key];
    });
    expect(parseReport(v1, 'old.json', { versions: [1, 2] }).schemaVersion).toBe(1);
    const bad = JSON.parse(v1);
    bad.targets[0].questions[0].passed = 'yes';
    expect(refusal(JSON.stringify(bad), [1, 2])).toContain(
      'r.json at $.targets[0].questions[0].passed: expected true or false, got "yes"',
    );
  });

  it('agrees with ajv on the schema, for the reports and for every value made wrong', () => {
    const lenient = JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
      key === 'additionalProperties' && value === false ? undefined : value,
    ) as object;
    const ajv = new Ajv2020.default({
      allErrors: false,
      strict: false,
      formats: { 'date-time': (v: string) => !Number.isNaN(Date.parse(v)) },
    }).compile(lenient);
    const data = JSON.parse(JSON.stringify(head));
    const wrong: unknown[] = ['x', -1, 9.5, null, [], {}, true];
    let checked = 0;
    const visit = (node: unknown, set: (v: unknown) => void): void => {
      if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node as Record<string, unknown>))
          visit(v, (x) => ((node as Record<string, unknown>)[k] = x));
      }
      const original = node;
      for (const value of wrong) {
        set(value);
        const expected = ajv(data);
        expect(
          reportProblem(data) === null,
          `${JSON.stringify(value)} instead of ${JSON.stringify(original)}`,
        ).toBe(expected);
        checked++;
      }
      set(original);
    };
    for (const [k, v] of Object.entries(data)) visit(v, (x) => (data[k] = x));
    expect(ajv(data)).toBe(true);
    expect(reportProblem(data)).toBeNull();
    expect(checked).toBeGreaterThan(1000);
    // Thousands of checks on each side: seconds on a loaded machine.
  }, 60_000);

  it('knows every keyword schema/report.json uses', () => {
    const used = new Set<string>();
    const walk = (node: unknown, names: boolean): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, false));
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (names) {
          walk(value, false);
          continue;
        }
        used.add(key);
        if (key === 'properties' || key === '$defs') walk(value, true);
        else if (key !== 'required' && key !== 'enum' && key !== 'const') walk(value, false);
      }
    };
    walk(schema, false);
    expect([...used].filter((k) => !REPORT_SCHEMA_KEYWORDS.includes(k))).toEqual([]);
  });
});
