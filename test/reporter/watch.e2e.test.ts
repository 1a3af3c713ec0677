import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { ROOT } from '../helpers/paths.js';
import { makeProject } from '../helpers/project.js';

const VITEST_BIN = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** A real `vitest --watch` process whose output the test reads as it comes. */
function startWatch(cwd: string) {
  const child = spawn(process.execPath, [VITEST_BIN, '--watch'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk: Buffer): void => {
    output += stripVTControlCharacters(chunk.toString());
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return {
    child,
    output: () => output,
    /** Waits until the ai-eval summary has been printed `count` times in all. */
    async summaries(count: number, timeoutMs = 60_000): Promise<string[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = output.split('\n').filter((l) => /^ai-eval: \d+ targets?,/.test(l));
        if (found.length >= count) return found;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no ai-eval summary #${count} in time; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

let running: ReturnType<typeof startWatch> | undefined;
afterEach(() => {
  running?.child.kill('SIGTERM');
  running = undefined;
});

describe('vitest --watch with the ai-eval reporter', () => {
  it('reruns the suite that reads a dataset or rubric when it changes, and only that one', async () => {
    const dir = makeProject('watch-vitest', {}, 'watch-vitest');
    const runs = () => readFileSync(join(dir, 'runs.log'), 'utf8').trim().split('\n').sort();
    running = startWatch(dir);
    const [first] = await running.summaries(1);
    expect(first).toBe(
      'ai-eval: 1 target, 2 questions, average 3.00 over 2 of 2 scored, 50% passed, 0 errors, 0 degraded',
    );
    expect(runs()).toEqual(['other', 'support']);

    // Raise q-score from 1 to 5: the suite reruns with the new dataset.
    const dataset = join(dir, 'datasets', 'support.yaml');
    writeFileSync(dataset, readFileSync(dataset, 'utf8').replace('score: 1', 'score: 5'));
    const second = await running.summaries(2);
    expect(second[1]).toBe(
      'ai-eval: 1 target, 2 questions, average 5.00 over 2 of 2 scored, 100% passed, 0 errors, 0 degraded',
    );
    expect(runs()).toEqual(['other', 'support', 'support']);

    // A rubric the dataset refers to counts too.
    const rubric = join(dir, 'datasets', 'rubrics', 'policy.yaml');
    writeFileSync(rubric, readFileSync(rubric, 'utf8').replace('the first policy', 'the second policy'));
    await running.summaries(3);
    expect(runs()).toEqual(['other', 'support', 'support', 'support']);
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'ai-eval.json'), 'utf8')) as EvalReport;
    const rubricQuestion = report.targets[0]!.questions.find((q) => q.id === 'q-rubric');
    expect(rubricQuestion?.grades[0]?.reason).toContain('criteria: Cites the second policy.');
  });
});
