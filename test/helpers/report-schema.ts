import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { ROOT } from './paths.js';

/**
 * The shipped JSON Schema of the report (schema/report.json), compiled once. Its `date-time`
 * format is checked too, by Date.parse, so a malformed timestamp fails validation.
 */
export const validateReport = new Ajv2020.default({
  allErrors: true,
  strict: false,
  formats: { 'date-time': (value: string) => !Number.isNaN(Date.parse(value)) },
}).compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'report.json'), 'utf8')) as object);

/** Reads a JSON report a reporter or the CLI wrote, and asserts that it matches the schema. */
export function readReport(file: string): EvalReport {
  const report = JSON.parse(readFileSync(file, 'utf8')) as EvalReport;
  expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true);
  return report;
}

/**
 * A report without what differs between two runs of the same tests: when it ran, and how long each
 * test took (each question's `durationMs`, which must be there: the runner measured it).
 */
export function withoutTimes(report: EvalReport): unknown {
  return {
    ...report,
    timestamp: '',
    targets: report.targets.map((t) => ({
      ...t,
      questions: t.questions.map(({ durationMs, ...q }) => {
        if (typeof durationMs !== 'number') throw new Error(`${t.name} › ${q.id}: no durationMs`);
        return q;
      }),
    })),
  };
}
