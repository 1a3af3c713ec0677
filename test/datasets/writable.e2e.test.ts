import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configure, resetConfig } from '../../src/config.js';
import { captureLogsAsync, logger } from '../../src/logger.js';
import { fileSource } from '../../src/datasets/index.js';
import { validateDatasetFile } from '../../src/datasets/index.js';
import { appendToFile } from '../../src/datasets/sources/file-write.js';
import { isAiEvalError } from '../../src/errors.js';
import { acquireFileLock } from '../../src/internal/file-lock.js';
import { makeProject, runNode } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';
import { yamlDataset } from './helpers.js';

beforeEach(() => logger.setEchoLevel('silent'));
afterEach(() => resetConfig());

describe('the writable file source', () => {
  it('loses nothing and reuses no id when several processes append at once', async () => {
    const root = scratch({ 'datasets/shared.yaml': yamlDataset(['dup']) });
    const dir = makeProject('append', {
      'append.mjs': [
        "import { createFileSource } from 'ai-eval';",
        'const [root, worker, rounds] = process.argv.slice(2);',
        'const source = createFileSource({ root });',
        'const out = [];',
        'for (let i = 0; i < Number(rounds); i++) {',
        "  const ids = await source.appendQuestions('shared.yaml', [",
        "    { id: 'dup', input: `w${worker} r${i} named` },",
        '    { input: `w${worker} r${i} anon` },',
        '  ]);',
        '  out.push(...ids);',
        '}',
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    });
    const workers = [1, 2, 3, 4];
    const runs = await Promise.all(workers.map((w) => runNode('append.mjs', [root, String(w), '8'], dir)));
    for (const run of runs) expect(run.stderr).toBe('');
    const returned = runs.map((run) => JSON.parse(run.stdout.trim()) as string[]);
    const { document, problems } = validateDatasetFile(join(root, 'datasets/shared.yaml'));
    expect(problems).toEqual([]);
    const questions = document!.questions;
    expect(questions).toHaveLength(1 + workers.length * 8 * 2);
    const ids = questions.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    const byInput = new Map(questions.map((q) => [q.input, q.id]));
    workers.forEach((w, index) => {
      const expected = Array.from({ length: 8 }, (_, i) => [
        byInput.get(`w${w} r${i} named`),
        byInput.get(`w${w} r${i} anon`),
      ]).flat();
      expect(returned[index]).toEqual(expected);
    });
    expect(readdirSync(join(root, 'datasets'))).toEqual(['shared.yaml']);
  });

  it('takes turns in arrival order and loses no batch when many processes queue on a big file', async () => {
    const big = Array.from({ length: 600 }, (_, i) => `q${i}`);
    const root = scratch({ 'datasets/big.yaml': yamlDataset(big) });
    const dir = makeProject('append-fair', {
      // Appender k joins the queue only once appender k-1 has (its append has started), so the
      // arrival order is 0, 1, 2, ...: a fair lock appends their batches in that order.
      'append.mjs': [
        "import { existsSync, writeFileSync } from 'node:fs';",
        "import { join } from 'node:path';",
        "import { createFileSource } from 'ai-eval';",
        'const [root, k] = process.argv.slice(2);',
        'const source = createFileSource({ root });',
        "const mark = (n) => join(root, 'started-' + n);",
        'while (Number(k) > 0 && !existsSync(mark(Number(k) - 1))) await new Promise((r) => setTimeout(r, 5));',
        "const pending = source.appendQuestions('big.yaml', [{ input: 'from ' + k }, { input: 'more from ' + k }]);",
        "writeFileSync(mark(k), '');",
        'console.log(JSON.stringify(await pending));',
      ].join('\n'),
    });
    const workers = Array.from({ length: 8 }, (_, k) => k);
    const runs = await Promise.all(workers.map((k) => runNode('append.mjs', [root, String(k)], dir)));
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const { document, problems } = validateDatasetFile(join(root, 'datasets/big.yaml'));
    expect(problems).toEqual([]);
    const added = document!.questions.slice(big.length).map((q) => q.input);
    expect(added).toEqual(workers.flatMap((k) => [`from ${k}`, `more from ${k}`]));
    expect(readdirSync(join(root, 'datasets'))).toEqual(['big.yaml']);
  });

  it('gives up only with an AiEvalError naming the file and what to do, having written nothing', async () => {
    const original = yamlDataset(['a']);
    const root = scratch({ 'datasets/held.yaml': original });
    const path = join(root, 'datasets/held.yaml');
    // Another live appender (this process) holds the lock and never lets go.
    const release = await acquireFileLock(realpathSync(path), {
      label: 'holder',
      code: 'DATASET_SOURCE',
      consequence: '',
    });
    try {
      let error: unknown;
      try {
        await appendToFile('held.yaml', [{ input: 'waits' }], [join(root, 'datasets')], 'file', {
          stuckMs: 1500,
        });
      } catch (e) {
        error = e;
      }
      expect(isAiEvalError(error, 'DATASET_SOURCE')).toBe(true);
      const message = (error as Error).message;
      expect(message).toContain(`file:held.yaml: gave up waiting for the lock on ${realpathSync(path)}`);
      expect(message).toContain(`process ${process.pid} on this machine, which is still running, held it`);
      expect(message).toContain('Nothing was written: the 1 new question(s) were not appended.');
      expect(message).toContain(
        `Fix: let that process finish, or stop it if it hangs; if no such process is running, delete ${realpathSync(path)}.lock.`,
      );
      expect(readFileSync(path, 'utf8')).toBe(original);
    } finally {
      await release();
    }
    // Released, the lock is free again and nothing of the waiter is left behind.
    expect(await appendToFile('held.yaml', [{ input: 'now' }], [join(root, 'datasets')], 'file')).toEqual([
      'q-1',
    ]);
    expect(readdirSync(join(root, 'datasets'))).toEqual(['held.yaml']);
  });

  it('takes over at once the lock of an appender killed with kill -9 inside it', async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `q${i}`);
    const original = yamlDataset(big);
    const root = scratch({ 'datasets/big.yaml': original });
    const path = realpathSync(join(root, 'datasets/big.yaml'));
    configure({ datasets: { root } });
    const dir = makeProject('append-killed', {
      'append.mjs': [
        "import { createFileSource } from 'ai-eval';",
        'const source = createFileSource({ root: process.argv[2] });',
        "await source.appendQuestions('big.yaml', [{ input: 'never written' }]);",
      ].join('\n'),
    });
    const child = spawn(process.execPath, ['append.mjs', root], { cwd: dir, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    // Kill it while it holds the lock (validating 3,000 questions takes it a while).
    while (!existsSync(join(`${path}.lock`, 'owner.json')) && child.exitCode === null) await sleep(5);
    expect(child.exitCode).toBeNull();
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(`${path}.lock`)).toBe(true);

    const { value: ids, logs } = await captureLogsAsync(() =>
      fileSource.appendQuestions('big.yaml', [{ input: 'after the crash' }]),
    );
    const takeover = logs.find((l) => l.message.includes('took over the lock'));
    // Taken over because its holder is gone, not waited out until the lock went stale (the old lock's
    // way: about 12 s); the message names the dead holder.
    expect(takeover?.message).toContain(`left by process ${child.pid}, which is no longer running`);
    expect(ids).toEqual(['q-1']);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(original)).toBe(true);
    expect(text).toContain('input: after the crash');
    expect(text).not.toContain('never written');
    expect(existsSync(`${path}.lock`)).toBe(false);
  }, 240_000);
});
