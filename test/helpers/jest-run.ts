import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvalRecord } from '../../src/run/record-types.js';
import { runJest, type RunResult } from './project.js';

/** One test of Jest's `--json` output. */
export interface AssertionResult {
  fullName: string;
  title: string;
  status: string;
  failureMessages: string[];
}

/** What Jest writes with `--json --outputFile`. */
export interface JestResults {
  numTotalTests: number;
  testResults: { name: string; assertionResults: AssertionResult[] }[];
}

/** A record read back from the side channel, with the channel file it was read from. */
export type ChannelRecord = EvalRecord & { channelFile: string };

/** A real Jest run of a fixture project: every test, with its file, and every record. */
export interface JestRun {
  dir: string;
  result: RunResult;
  tests: (AssertionResult & { file: string })[];
  records: ChannelRecord[];
}

/** Reads Jest's `--json` output from `file` in `dir`. */
export function readJestResults(dir: string, file = 'results.json'): JestResults {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as JestResults;
}

/** Every record the matchers appended to the side channel `channel`, one JSON line each. */
export function readChannel(channel: string): ChannelRecord[] {
  if (!existsSync(channel)) return [];
  return readdirSync(channel).flatMap((name) =>
    readFileSync(join(channel, name), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({ ...(JSON.parse(line) as EvalRecord), channelFile: name })),
  );
}

/**
 * Runs real Jest in the fixture project `dir` with AI_EVAL_CHANNEL_DIR set to `<dir>/channel`, as
 * the ai-eval Jest reporter does, and reads back Jest's results and the channel.
 */
export async function runJestFixture(
  dir: string,
  args: string[],
  options: { esm?: boolean; env?: Record<string, string> } = {},
): Promise<JestRun> {
  const channel = join(dir, 'channel');
  const result = await runJest(
    dir,
    [...args, '--json', '--outputFile=results.json'],
    { AI_EVAL_CHANNEL_DIR: channel, ...options.env },
    options,
  );
  const tests = readJestResults(dir).testResults.flatMap((file) =>
    file.assertionResults.map((test) => ({ ...test, file: file.name })),
  );
  return { dir, result, tests, records: readChannel(channel) };
}

/**
 * The test named `fullName` (in `file`, relative to the project, when given); throws, listing the
 * tests, when there is none.
 */
export function jestTest(run: JestRun, fullName: string, file?: string): AssertionResult {
  const path = file === undefined ? undefined : join(run.dir, file);
  const found = run.tests.find((t) => t.fullName === fullName && (path === undefined || t.file === path));
  if (!found) {
    const names = run.tests.map((t) => `${t.file}|${t.fullName}`).join(', ');
    throw new Error(`no test ${fullName}${file === undefined ? '' : ` in ${file}`}: ${names}`);
  }
  return found;
}

/** The records of the test named `fullName` (in `file`, relative to the project, when given). */
export function jestRecords(run: JestRun, fullName: string, file?: string): ChannelRecord[] {
  const path = file === undefined ? undefined : join(run.dir, file);
  return run.records.filter((r) => r.test.name === fullName && (path === undefined || r.test.file === path));
}
