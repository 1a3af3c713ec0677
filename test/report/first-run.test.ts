import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { finishRun } from '../../src/report/write.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { rec } from '../helpers/report-fixtures.js';
import { tempDir } from '../helpers/temp.js';

const records: EvalRecord[] = [
  rec({ question: 'q1', grader: 'tool_usage_grader', score: 1, min: 0, max: 1 }),
  rec({ question: 'q2', grader: 'tool_usage_grader', score: 0, min: 0, max: 1 }),
];

describe('a maxDrop baseline that is the outputFile', () => {
  it('is started by the first run, which writes it and says so instead of failing', () => {
    const dir = tempDir('ai-eval-ratchet-');
    let printed = '';
    const options = { outputFile: 'reports/ai-eval.json', baseline: 'reports/ai-eval.json', maxDrop: 0.5 };
    const first = finishRun(records, options, { root: dir, print: (t) => (printed += t), env: {} });
    expect(first.failure).toBeNull();
    expect(first.failed).toBe(false);
    expect(first.report.gates.filter((g) => g.scope === 'baseline')).toEqual([]);
    expect(printed).toContain(
      "[ai-eval] no baseline at reports/ai-eval.json yet: this run's report is written there and becomes the baseline; maxDrop is checked from the next run on.",
    );
    expect(printed).not.toContain('maxDrop cannot be checked');
    const written = JSON.parse(readFileSync(join(dir, 'reports/ai-eval.json'), 'utf8')) as EvalReport;
    expect(written.targets.map((t) => t.name)).toEqual(['support-bot']);

    // The second run compares with what the first wrote, and the drop gate applies.
    let again = '';
    const second = finishRun([records[1] as EvalRecord], options, {
      root: dir,
      print: (t) => (again += t),
      env: {},
    });
    expect(second.report.baseline).toMatchObject({ file: 'reports/ai-eval.json' });
    expect(second.failed).toBe(true);
    expect(second.failure).toContain('allowed drop 0.50');
    expect(again).not.toContain('no baseline at');
  });

  it('still fails when the baseline is another file that is missing', () => {
    const dir = tempDir('ai-eval-ratchet-');
    const result = finishRun(
      records,
      { outputFile: 'r.json', baseline: 'main.json', maxDrop: 0.5 },
      { root: dir, print: () => undefined, env: {} },
    );
    expect(result.failed).toBe(true);
    expect(result.failure).toMatch(/maxDrop cannot be checked: .*main\.json: cannot read/);
  });
});

describe('file options in one shard of several', () => {
  it('get the shard before their extension, so shards never overwrite each other', () => {
    const dir = tempDir('ai-eval-shards-');
    const options = {
      outputFile: 'reports/ai-eval.json',
      junitFile: 'reports/ai-eval.xml',
      markdownFile: 'reports/summary',
    };
    let printed = '';
    for (const index of [1, 2]) {
      finishRun(records, options, {
        root: dir,
        print: (t) => (printed += t),
        env: {},
        shard: { index, count: 2 },
      });
    }
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual([
      'ai-eval-1-of-2.json',
      'ai-eval-1-of-2.xml',
      'ai-eval-2-of-2.json',
      'ai-eval-2-of-2.xml',
      'summary-1-of-2',
      'summary-2-of-2',
    ]);
    expect(readFileSync(join(dir, 'reports/ai-eval-2-of-2.xml'), 'utf8')).toContain('<testsuites');
    expect(printed).toContain('[ai-eval] shard 2-of-2: wrote reports/ai-eval-2-of-2.xml');
  });

  it('keep their names unsharded, and an explicit [shard] as written', () => {
    const dir = tempDir('ai-eval-shards-');
    finishRun(
      records,
      { outputFile: 'a.json', junitFile: 'j-[shard].xml' },
      { root: dir, print: () => undefined, env: {} },
    );
    finishRun(
      records,
      { outputFile: 'b-[shard].json' },
      { root: dir, print: () => undefined, env: {}, shard: { index: 1, count: 3 } },
    );
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b-1-of-3.json', 'j-1-of-1.xml']);
    expect(existsSync(join(dir, 'a-1-of-1.json'))).toBe(false);
  });
});
