import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { acquireFileLock, type LockHolder } from '../../src/internal/file-lock.js';
import { ROOT } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

/**
 * A child process that takes and releases the lock on `<dir>/state.json` as fast as it can, with
 * the real lock code (bundled from src/ for the child), printing `ready` after its first round.
 */
function lockLoop(dir: string): string {
  const lib = join(dir, 'file-lock.mjs');
  buildSync({
    entryPoints: [join(ROOT, 'src/internal/file-lock.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: lib,
    logLevel: 'silent',
  });
  const script = join(dir, 'loop.mjs');
  writeFileSync(
    script,
    [
      "import { acquireFileLock } from './file-lock.mjs';",
      'const file = process.argv[2];',
      "const options = { label: 'loop', code: 'JUDGE_FAILED', consequence: '' };",
      'for (let round = 0; ; round++) {',
      '  const release = await acquireFileLock(file, options);',
      '  await release();',
      "  if (round === 0) process.stdout.write('ready\\n');",
      '}',
    ].join('\n'),
  );
  return script;
}

/** A child process that adds 1 to the number in `<file>` under the lock, `rounds` times. */
function counter(dir: string): string {
  lockLoop(dir);
  const script = join(dir, 'count.mjs');
  writeFileSync(
    script,
    [
      "import { readFileSync, writeFileSync } from 'node:fs';",
      "import { acquireFileLock } from './file-lock.mjs';",
      'const [file, rounds] = process.argv.slice(2);',
      "const options = { label: 'count', code: 'JUDGE_FAILED', consequence: '', stuckMs: 20000 };",
      'for (let round = 0; round < Number(rounds); round++) {',
      '  const release = await acquireFileLock(file, options);',
      "  const n = Number(readFileSync(file, 'utf8'));",
      '  writeFileSync(file, String(n + 1));',
      '  await release();',
      '}',
    ].join('\n'),
  );
  return script;
}

/** The pid of a process of this host that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

/** How the lock names this host in what it leaves beside a lock. */
/** Takes the lock of `file` and lets it go; whose lock it took over, if any. */
async function takeAndRelease(file: string, stuckMs: number): Promise<LockHolder | undefined> {
  let takenOver: LockHolder | undefined;
  const release = await acquireFileLock(file, {
    label: 'test',
    code: 'JUDGE_FAILED',
    consequence: '',
    stuckMs,
    onTakeover: (holder) => (takenOver = holder),
  });
  await release();
  return takenOver;
}

const HOST_ID = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

describe('the file lock', () => {
  it('lets one process at a time in, and fails none, when several take turns as fast as they can', async () => {
    const dir = tempDir('ai-eval-lock-');
    const locks = tempDir('ai-eval-lock-files-');
    const script = counter(dir);
    const file = join(locks, 'count.txt');
    writeFileSync(file, '0');
    const children = [1, 2, 3, 4].map(() => {
      const child = spawn(process.execPath, [script, file, '150'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.on('exit', (code) => resolve({ code, stderr })),
      );
    });
    const ends = await Promise.all(children);
    expect(ends).toEqual(ends.map(() => ({ code: 0, stderr: '' })));
    // No increment lost: the lock never had two holders at once.
    expect(readFileSync(file, 'utf8')).toBe('600');
    expect(readdirSync(locks)).toEqual(['count.txt']);
  }, 120_000);

  it('is never left without its owner, wherever its holder is killed, and leaves no litter', async () => {
    const dir = tempDir('ai-eval-lock-');
    const locks = tempDir('ai-eval-lock-files-');
    const script = lockLoop(dir);
    const file = join(locks, 'state.json');
    const lock = `${file}.lock`;
    const seen: string[] = [];
    // Each round kills the looping child at another moment of taking or releasing the lock. The
    // lock made its directory first and wrote the owner after, and removed the owner first on
    // release: a kill in between left a lock without an owner, which every waiter then sat out
    // for 10 s (OWNERLESS_STALE_MS).
    for (let round = 0; round < 30; round++) {
      const child = spawn(process.execPath, [script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await sleep(round % 7);
      child.kill('SIGKILL');
      await exited;
      if (existsSync(lock)) {
        const owner = JSON.parse(readFileSync(join(lock, 'owner.json'), 'utf8')) as LockHolder;
        expect(owner.pid).toBe(child.pid);
        seen.push('held');
      } else seen.push('free');
      // Taken at once: a dead holder is recognised by its pid, so this waits for no staleness.
      const takenOver = await takeAndRelease(file, 5_000);
      if (seen.at(-1) === 'held') expect(takenOver?.pid).toBe(child.pid);
      // Nothing of the killed child is left beside the lock: no half-taken lock, no released one.
      expect(readdirSync(locks)).toEqual([]);
    }
  }, 120_000);

  it('sweeps what a breaker killed mid-break left: the stale lock it renamed away, and its guard', async () => {
    const locks = tempDir('ai-eval-lock-files-');
    const file = join(locks, 'state.json');
    const dead = deadPid();
    // A breaker renames the stale lock to `.stale-<host>-<pid>-<uuid>` before it removes it, under
    // the guard `<lock>.break`. Killed in between, it left both (the trash was named by a bare
    // uuid, which no sweep could tell from a live breaker's).
    const trash = `${file}.lock.stale-${HOST_ID}-${dead}-0b5e7c1e-5c1a-4f1e-9d6e-3f2a1b0c9d8e`;
    mkdirSync(trash);
    writeFileSync(join(trash, 'owner.json'), JSON.stringify({ pid: dead, host: hostname(), token: 'x' }));
    const guard = `${file}.lock.break`;
    mkdirSync(guard);
    const old = new Date(Date.now() - 10_000);
    utimesSync(guard, old, old);
    // A live breaker's trash is its own business.
    const live = `${file}.lock.stale-${HOST_ID}-${process.pid}-live`;
    mkdirSync(live);
    const release = await acquireFileLock(file, { label: 'test', code: 'JUDGE_FAILED', consequence: '' });
    await release();
    expect(readdirSync(locks)).toEqual([`state.json.lock.stale-${HOST_ID}-${process.pid}-live`]);
  });

  describe.runIf(existsSync('/proc/self/stat'))('on Linux, where a process start tells a reused pid', () => {
    // The parent (Vitest's) is alive, but it is not the process that started at tick 1.
    const reused = { pid: process.ppid, start: '1' };

    it('takes over at once a lock whose holder has exited and whose pid another process has now', async () => {
      const locks = tempDir('ai-eval-lock-files-');
      const file = join(locks, 'state.json');
      mkdirSync(`${file}.lock`);
      writeFileSync(
        join(`${file}.lock`, 'owner.json'),
        JSON.stringify({ ...reused, host: hostname(), token: 'before-reboot' }),
      );
      // The pid alone said alive: the waiter sat it out until stuckMs and gave up.
      const takenOver = await takeAndRelease(file, 1_500);
      expect(takenOver).toEqual({ ...reused, host: hostname(), token: 'before-reboot' });
      expect(readdirSync(locks)).toEqual([]);
    });

    it('writes its own start into the owner file, and keeps a lock whose holder is that process', async () => {
      const locks = tempDir('ai-eval-lock-files-');
      const file = join(locks, 'state.json');
      const release = await acquireFileLock(file, { label: 'test', code: 'JUDGE_FAILED', consequence: '' });
      const owner = JSON.parse(readFileSync(join(`${file}.lock`, 'owner.json'), 'utf8')) as LockHolder;
      expect(owner.pid).toBe(process.pid);
      expect(owner.start).toMatch(/^\d+$/);
      // A second taker in the same process waits for it: the holder is alive and is that process.
      await expect(
        acquireFileLock(file, { label: 'second', code: 'JUDGE_FAILED', consequence: '', stuckMs: 300 }),
      ).rejects.toThrow(/gave up waiting for the lock/);
      await release();
    });

    it('skips a queue ticket and sweeps a leftover of an exited process whose pid is reused', async () => {
      const locks = tempDir('ai-eval-lock-files-');
      const file = join(locks, 'state.json');
      const tag = `${reused.pid}.${reused.start}`;
      mkdirSync(`${file}.lock-queue`);
      writeFileSync(join(`${file}.lock-queue`, `000000000000001-000000001-${HOST_ID}-${tag}-x`), '');
      mkdirSync(`${file}.lock.take-${HOST_ID}-${tag}-y`);
      const release = await acquireFileLock(file, {
        label: 'test',
        code: 'JUDGE_FAILED',
        consequence: '',
        fair: true,
        stuckMs: 1_500,
      });
      await release();
      expect(readdirSync(locks)).toEqual([]);
    });
  });

  it('keeps a breaker guard that is fresh: a live breaker may be checking the lock', async () => {
    const locks = tempDir('ai-eval-lock-files-');
    const file = join(locks, 'state.json');
    mkdirSync(`${file}.lock.break`);
    const release = await acquireFileLock(file, { label: 'test', code: 'JUDGE_FAILED', consequence: '' });
    await release();
    expect(readdirSync(locks)).toEqual(['state.json.lock.break']);
  });
});
