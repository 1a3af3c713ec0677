import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalRecord } from '../../src/run/record-types.js';
import { runVitest, type RunResult } from './project.js';

/**
 * One test as the fixtures' record reporter (fixtures/projects/shared/record-reporter.mjs) wrote
 * it: its ai-eval records (task.meta.aiEval) and annotations.
 */
export interface Row {
  file: string;
  fullName: string;
  state: string;
  annotations: { type: string; message: string }[];
  records: EvalRecord[];
}

/** A real Vitest run of a fixture project, with every test's row. */
export interface VitestRun {
  dir: string;
  result: RunResult;
  rows: Row[];
}

/** Reads the rows the record reporter wrote to `file`. */
export function readRows(file: string): Row[] {
  return JSON.parse(readFileSync(file, 'utf8')) as Row[];
}

/**
 * Runs real Vitest in the fixture project `dir` (one that uses the record reporter) and reads back
 * its rows from RECORDS_OUT.
 */
export async function runVitestFixture(
  dir: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<VitestRun> {
  const out = join(dir, 'records.json');
  const result = await runVitest(dir, args, { RECORDS_OUT: out, ...env });
  return { dir, result, rows: readRows(out) };
}

/** The row of the test named `fullName`; throws, listing the names, when there is none. */
export function row(run: VitestRun, fullName: string): Row {
  const found = run.rows.find((r) => r.fullName === fullName);
  if (!found) throw new Error(`no test named ${fullName} in ${run.rows.map((r) => r.fullName).join(', ')}`);
  return found;
}

/**
 * The failure Vitest printed for one test (`FAIL  <file> > <name>`), from its error line: up to
 * the stack (`end: 'stack'`; a generated test's failure has none, so up to the separator after
 * it), or through the matcher message's `Reason:` line (`end: 'reason'`).
 */
export function failureOf(run: VitestRun, title: string, end: 'stack' | 'reason' = 'stack'): string {
  const start = run.result.output.indexOf(`FAIL  ${title}\n`);
  if (start < 0) throw new Error(`no failure printed for ${title}`);
  const block = run.result.output.slice(start).split('\n').slice(1);
  const cut =
    end === 'stack'
      ? block.findIndex((line) => line.startsWith(' ❯ ') || /^⎯+\[\d+\/\d+\]⎯$/.test(line.trim()))
      : block.findIndex((line) => line.startsWith('Reason:')) + 1;
  return block.slice(0, cut).join('\n').trimEnd();
}
