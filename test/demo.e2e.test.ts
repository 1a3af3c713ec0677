import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../src/report/model.js';
import { ROOT } from './helpers/paths.js';
import { runNode } from './helpers/project.js';

/**
 * The README's quick start runs `npm run demo`: keep it true. The demo must pass offline, with no
 * API key, replaying its judge answers from the committed cache, and must show the advisory it is
 * built to show.
 */
describe('npm run demo', () => {
  it('passes offline with no API key and flags the agent nothing observes', async () => {
    const reports = join(ROOT, 'reports', 'demo');
    rmSync(reports, { recursive: true, force: true });
    const run = await runNode(
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      ['run', '--config', 'examples/vitest.config.ts'],
      ROOT,
      // Nothing listens on port 9: a judge call that escaped the cache would fail the demo.
      { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', AI_EVAL_JUDGE_CACHE: undefined },
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(
      '! NO_ACTION_OBSERVER  site-assistant-format-only is scored by nothing that can see what the agent did.',
    );
    const report = JSON.parse(readFileSync(join(reports, 'ai-eval.json'), 'utf8')) as EvalReport;
    expect(report.errorCount).toBe(0);
    expect(report.judgeModel).toBe('gpt-4o-mini');
    const answers = report.targets.find((t) => t.name === 'site-assistant-answers');
    expect(answers?.questions.map((q) => [q.id, q.composite])).toEqual([
      ['list-drafts', 5],
      ['pricing-page', 4.5],
    ]);
    expect(readFileSync(join(reports, 'ai-eval.junit.xml'), 'utf8')).toContain('<testsuites');
    expect(readFileSync(join(reports, 'ai-eval.md'), 'utf8')).toContain('site-assistant-format-only');
  });
});
