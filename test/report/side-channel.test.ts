import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendRecords, ChannelWriter, channelFile, readChannelDir } from '../../src/report/side-channel.js';
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

describe('ChannelWriter', () => {
  const descriptors = (): number => readdirSync('/proc/self/fd').length;

  it('holds records until it is flushed, then appends them all in order', () => {
    const dir = scratch();
    const writer = new ChannelWriter();
    for (let i = 0; i < 20; i++) expect(writer.add([record(`q${i}a`), record(`q${i}b`)], dir)).toBe(true);
    expect(existsSync(channelFile(dir))).toBe(false);
    expect(writer.held).toBeGreaterThan(0);
    writer.flush();
    expect(writer.held).toBe(0);
    writer.add([record('q20')], dir);
    writer.flush();
    writer.flush(); // nothing held: writes nothing
    expect(questions(dir)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => [`q${i}a`, `q${i}b`]).flat(),
      'q20',
    ]);
    expect(readChannelDir(dir).problems).toEqual([]);
  });

  it('writes by itself once it holds about a megabyte', () => {
    const dir = scratch();
    const writer = new ChannelWriter();
    const long = (i: number): EvalRecord =>
      rec({ question: `q${i}`, grader: 'read_only_run', reason: 'x'.repeat(10_000) });
    let added = 0;
    while (!existsSync(channelFile(dir))) writer.add([long(added++)], dir);
    // About 100 records of 10 KB: the held lines passed 1 MB with the last one.
    expect(added).toBeGreaterThan(90);
    expect(added).toBeLessThan(110);
    expect(writer.held).toBe(0);
    expect(questions(dir)).toHaveLength(added);
  });

  it.runIf(existsSync('/proc/self/fd'))('keeps no file open between writes', () => {
    const dir = scratch();
    const before = descriptors();
    for (let i = 0; i < 30; i++) {
      const writer = new ChannelWriter(); // as Jest makes one per test file
      writer.add([record(`q${i}`)], dir);
      writer.flush();
    }
    expect(descriptors()).toBe(before);
    expect(questions(dir)).toHaveLength(30);
  });

  it('makes the file and the directory again when the reporter removed them (watch mode)', () => {
    const dir = scratch();
    const writer = new ChannelWriter();
    writer.add([record('first run')], dir);
    writer.flush();
    rmSync(dir, { recursive: true });
    writer.add([record('second run')], dir);
    writer.flush();
    expect(questions(dir)).toEqual(['second run']);
  });

  it('writes what it holds for one directory before holding for another', () => {
    const [one, two] = [scratch(), scratch()];
    const writer = new ChannelWriter();
    writer.add([record('to one')], one);
    writer.add([record('to two')], two);
    expect(questions(one)).toEqual(['to one']);
    writer.flush();
    expect(questions(two)).toEqual(['to two']);
  });

  it('holds nothing without a directory, and nothing for no records', () => {
    const writer = new ChannelWriter();
    expect(writer.add([record('q')], '')).toBe(false);
    expect(writer.held).toBe(0);
    const dir = scratch();
    expect(writer.add([], dir)).toBe(true);
    writer.flush();
    expect(readdirSync(dir)).toEqual([]);
  });
});
