import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendRecords, channelFile, readChannelDir } from '../../src/report/side-channel.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { rec } from '../helpers/report-fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ai-eval-side-channel-'));
  dirs.push(dir);
  return dir;
}

// A reason with a character beyond ASCII: the lines are written as UTF-8 bytes.
const record = (question: string): EvalRecord =>
  rec({ question, grader: 'read_only_run', reason: 'no mutating tool among 1 recorded calls ✓' });

const questions = (dir: string) => readChannelDir(dir).records.map((r) => (r as EvalRecord).question);

describe('the side channel', () => {
  it('appends every record of every call as one line, in order', () => {
    const dir = scratch();
    for (let i = 0; i < 50; i++) appendRecords([record(`q${i}a`), record(`q${i}b`)], dir);
    const lines = readFileSync(channelFile(dir), 'utf8').split('\n');
    expect(lines).toHaveLength(101);
    expect(lines.at(-1)).toBe('');
    expect(questions(dir)).toEqual(Array.from({ length: 50 }, (_, i) => [`q${i}a`, `q${i}b`]).flat());
    expect(readChannelDir(dir).problems).toEqual([]);
  });

  it('writes to a new file when the reporter removed this one since the last write (watch mode)', () => {
    const dir = scratch();
    appendRecords([record('first run')], dir);
    unlinkSync(channelFile(dir));
    appendRecords([record('second run')], dir);
    expect(questions(dir)).toEqual(['second run']);
  });

  it('makes the directory again when it is gone', () => {
    const dir = scratch();
    appendRecords([record('before')], dir);
    rmSync(dir, { recursive: true });
    appendRecords([record('after')], dir);
    expect(readdirSync(dir)).toEqual([`records-${process.pid}.jsonl`]);
    expect(questions(dir)).toEqual(['after']);
  });

  it('writes nothing without a directory, and nothing for no records', () => {
    expect(appendRecords([record('q')], '')).toBe(false);
    const dir = scratch();
    expect(appendRecords([], dir)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a channel file of many lines', () => {
  it('reads 200,000 lines without overflowing the stack, each bad line a problem', () => {
    const dir = scratch();
    const count = 200_000;
    writeFileSync(join(dir, 'big.jsonl'), '{}\n'.repeat(count));
    const read = readChannelDir(dir);
    expect(read.records).toEqual([]);
    expect(read.problems).toHaveLength(count);
    expect(read.problems[count - 1]).toMatch(/big\.jsonl:200000: /);
  });
});
