import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { standaloneChannel, standaloneIdentity } from '../../matchers/node-channel.js';
import { channelFile, CHANNEL_DIR_ENV } from '../../src/report/side-channel.js';
import { RECORD_VERSION, type EvalRecord } from '../../src/run/record-types.js';

const before = process.env[CHANNEL_DIR_ENV];
const dirs: string[] = [];
afterEach(() => {
  if (before === undefined) delete process.env[CHANNEL_DIR_ENV];
  else process.env[CHANNEL_DIR_ENV] = before;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SECRET = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';

function record(reason: string): EvalRecord {
  return {
    v: RECORD_VERSION,
    kind: 'grade',
    test: { file: '/x.mjs', name: 'x.mjs' },
    target: null,
    question: 'q',
    trial: 1,
    grader: 'read_only_run',
    label: 'Read-only run (binary, 0-1)',
    min: 0,
    max: 1,
    score: 1,
    composite: 5,
    reason,
    error: false,
    skipped: false,
    llm: false,
    observesActions: true,
    toolCallRecord: true,
    passThreshold: 3.5,
    at: 1700000000000,
  };
}

describe('the standalone expect channel', () => {
  it('writes redacted records to the side channel of this process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-eval-standalone-'));
    dirs.push(dir);
    process.env[CHANNEL_DIR_ENV] = dir;
    const identity = standaloneIdentity({});
    await standaloneChannel.send(identity, [record(`called with Authorization: Bearer ${SECRET}`)]);
    const text = readFileSync(channelFile(dir), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text) as EvalRecord).toMatchObject({ question: 'q', grader: 'read_only_run' });
  });

  it('names the test a harness put on the expect state, else the script', () => {
    expect(standaloneIdentity({ testPath: '/repo/a.spec.js', currentTestName: 'suite a' })).toMatchObject({
      file: '/repo/a.spec.js',
      name: 'suite a',
    });
    expect(standaloneIdentity({}).name).toBe(standaloneIdentity(undefined).name);
  });
});
