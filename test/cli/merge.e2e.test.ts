import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/report/collect.js';
import type { EvalReport } from '../../src/report/model.js';
import { gateSettings, type ReporterOptions } from '../../src/report/options.js';
import type { EvalRecord } from '../../src/run/record-types.js';
import { scratch } from '../helpers/temp.js';
import { packedDir } from '../helpers/paths.js';
import { runCommand, runNode, type RunResult } from '../helpers/project.js';
import { identity, rec } from '../helpers/report-fixtures.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const merge = (args: string[], cwd: string) => runNode(bin(), ['merge', ...args], cwd);

const shard1 = [rec({ question: 'q1', grader: 'tool_usage_grader', score: 5 })];
const shard2 = [rec({ question: 'q2', grader: 'tool_usage_grader', score: 2 })];

function json(records: EvalRecord[], options: ReporterOptions = {}, baseline?: EvalReport): string {
  const report = collect(records, {
    identity,
    settings: gateSettings(options),
    ...(baseline ? { baseline: { file: 'base.json', report: baseline } } : {}),
  });
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Shard reports gated on a drop, a baseline with support-bot at 5.00, and one at 3.50. */
function project(): string {
  const high = JSON.parse(
    json([...shard1, rec({ question: 'q2', grader: 'tool_usage_grader' })]),
  ) as EvalReport;
  return scratch({
    'base-high.json': JSON.stringify(high),
    'base-same.json': json([...shard1, ...shard2]),
    's1.json': json(shard1, { baseline: 'base-high.json', maxDrop: 0.5 }, high),
    's2.json': json(shard2, { baseline: 'base-high.json', maxDrop: 0.5 }, high),
    'plain-1.json': json(shard1),
    'plain-2.json': json(shard2),
  });
}

const read = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as EvalReport;

describe('ai-eval merge and the baseline drop gate', () => {
  it('fails the drop gate of shards gated on maxDrop when no --baseline is given', async () => {
    const dir = project();
    const result = await merge(['s1.json', 's2.json', '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(1);
    const out = read(dir, 'out.json');
    expect(out.passed).toBe(false);
    expect(out.settings.maxDrop).toBe(0.5);
    expect(out.gates).toEqual([
      {
        scope: 'baseline',
        level: 'hard',
        passed: false,
        message:
          'maxDrop 0.5 cannot be checked: no baseline to compare the merged run with; pass --baseline <previous.json> to ai-eval merge',
      },
    ]);
    expect(result.stdout).toContain('pass --baseline <previous.json> to ai-eval merge');
  });

  it('judges the drop on the merged run with --baseline', async () => {
    const dir = project();
    const dropped = await merge(
      ['s1.json', 's2.json', '-o', 'out.json', '--baseline', 'base-high.json'],
      dir,
    );
    expect(dropped.code, dropped.output).toBe(1);
    expect(read(dir, 'out.json').gates).toEqual([
      {
        scope: 'baseline',
        level: 'hard',
        passed: false,
        message: 'support-bot: average 5.00 -> 3.50 (-1.50), allowed drop 0.50',
      },
    ]);
    const same = await merge(['s1.json', 's2.json', '-o', 'out2.json', '--baseline', 'base-same.json'], dir);
    expect(same.code, same.output).toBe(0);
    const unchanged = read(dir, 'out2.json');
    expect(unchanged.gates).toEqual([]);
    expect(unchanged.baseline).toMatchObject({ file: 'base-same.json', changes: [] });
  });

  it('takes --max-drop for shards without a drop gate, and refuses it without --baseline', async () => {
    const dir = project();
    const args = ['plain-1.json', 'plain-2.json', '-o', 'out.json'];
    const ungated = await merge(args, dir);
    expect(ungated.code, ungated.output).toBe(0);
    const gated = await merge([...args, '--baseline', 'base-high.json', '--max-drop', '1'], dir);
    expect(gated.code, gated.output).toBe(1);
    expect(read(dir, 'out.json').settings.maxDrop).toBe(1);
    const lone = await merge([...args, '--max-drop', '1'], dir);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toContain('--max-drop needs --baseline <file>, the report to compare with');
    const bad = await merge([...args, '--baseline', 'base-high.json', '--max-drop', 'x'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-drop needs a number from 0 to 5, got "x"');
  });
});

describe('ai-eval merge refuses what is not the shards of one run', () => {
  it('refuses the same report given twice (exit 2, nothing written)', async () => {
    const dir = project();
    const result = await merge(['plain-1.json', 'plain-1.json', '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toBe(
      'ai-eval merge: plain-1.json and plain-1.json are the same report (the run of 2026-01-01T00:00:00.000Z) given twice. Give each report once: ai-eval merge combines the shards of one run (--shard=1/n to n/n).\n',
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });

  it('refuses two whole runs of the same questions, saying to compare them with diff', async () => {
    const dir = project();
    const later = JSON.parse(json([...shard1, ...shard2])) as EvalReport;
    later.timestamp = '2026-01-02T00:00:00.000Z';
    writeFileSync(join(dir, 'later.json'), JSON.stringify(later));
    const result = await merge(['base-same.json', 'later.json', '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toContain(
      'ai-eval merge: base-same.json and later.json are two whole runs (neither is a shard) that both hold support-bot › q1 (/repo/test/support.test.ts) and 1 more question',
    );
    expect(result.stderr).toContain('to compare two runs, use ai-eval diff base-same.json later.json.');
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });

  it('names the --baseline file it cannot read as the baseline, and the flag to fix', async () => {
    const dir = project();
    const result = await merge(['plain-1.json', '-o', 'out.json', '--baseline', 'nope.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toMatch(/^ai-eval merge: .*nope\.json: cannot read the baseline report \(/);
    expect(result.stderr).toContain('Give --baseline a JSON report');
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
  });

  it('names what is wrong with a shard set once: no repeated prefix', async () => {
    const dir = project();
    const shard = JSON.parse(json(shard1)) as EvalReport;
    shard.partial = { reason: 'shard', shard: { index: 1, count: 2 } };
    writeFileSync(join(dir, 'shard-1.json'), JSON.stringify(shard));
    const result = await merge(['shard-1.json', '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toBe(
      'ai-eval merge: shard 2 of 2 is missing. Merge the reports of every shard of one run (--shard=1/n to n/n), each once.\n',
    );
  });
});

/** Runs the CLI with a file size limit of `kb` KiB (Node ignores SIGXFSZ, so a write past it fails). */
function mergeLimited(args: string[], cwd: string, kb: number): Promise<RunResult> {
  return runCommand(
    'bash',
    ['-c', `ulimit -f ${kb} && exec "$0" "$@"`, process.execPath, bin(), 'merge', ...args],
    cwd,
  );
}

describe('ai-eval merge writes atomically', () => {
  it.skipIf(process.platform === 'win32')(
    'keeps the previous report whole when writing the new one fails part way',
    async () => {
      const dir = project();
      const inputs = Array.from({ length: 40 }, (_, i) => `q${i}`);
      writeFileSync(
        join(dir, 'big.json'),
        json(inputs.map((q) => rec({ question: q, grader: 'tool_usage_grader', reason: 'x'.repeat(200) }))),
      );
      const previous = '{"previous": true}\n';
      writeFileSync(join(dir, 'out.json'), previous);
      const before = readdirSync(dir).sort();
      const result = await mergeLimited(['big.json', '-o', 'out.json', '--quiet'], dir, 4);
      expect(result.code, result.output).toBe(2);
      expect(result.stderr).toMatch(/ai-eval merge: .*EFBIG/);
      // A plain writeFileSync would have truncated out.json and left the first 4 KiB of the new one.
      expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe(previous);
      expect(readdirSync(dir).sort()).toEqual(before);
    },
  );
});
