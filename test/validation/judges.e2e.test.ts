import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { packedDir } from '../helpers/paths.js';
import { makeProject, runNode, runVitest } from '../helpers/project.js';
import { readReport } from '../helpers/report-schema.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `ai-eval judges validate | list` as processes, and the trust they record in a real Vitest run's
 * reports, against a scripted judge on 127.0.0.1 through the real openai SDK.
 */
const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');

const SETUP = `import { configure, defineJudge, registerGrader } from 'ai-eval';
registerGrader(
  defineJudge({
    id: 'house_tone',
    label: 'House tone',
    dimension: 'house_tone',
    dimensionDescription: 'adherence to the house tone',
    scoringGuidance: '5: plain and direct\\n0: marketing copy',
  }),
);
const strict = 'A strict evaluator. Score one response on: %s.\\n%s\\n%s\\n%s\\nAnswer with JSON only: {"score": <0-5>, "reason": "<why>"}';
configure({
  judge: {
    baseURL: process.env.JUDGE_URL,
    apiKey: 'sk-trust-test',
    model: 'test-judge',
    limitDir: process.env.LIMIT_DIR,
    ...(process.env.STRICT_PROMPT ? { prompts: { relevance_grader: strict } } : {}),
  },
});
`;

const item = (id: string, marker: string, label: 'pass' | 'fail', score: number) =>
  `  - { id: ${id}, judge: relevance, input: 'Where is my refund?', response: 'Reply ${marker}', label: ${label}, score: ${score} }`;

/** 6 people passed (5 the judge passes, 1 it fails) and 6 people failed (5 it fails, 1 it passes). */
const GOLD = [
  'items:',
  ...[1, 2, 3, 4, 5].map((i) => item(`p${i}`, '[good]', 'pass', 5)),
  item('p6', '[bad]', 'pass', 4),
  ...[1, 2, 3, 4, 5].map((i) => item(`f${i}`, '[bad]', 'fail', 1)),
  item('f6', '[good]', 'fail', 2),
  '',
].join('\n');

const TESTS = `import { expect, it } from 'vitest';
const ask = (id, marker) =>
  expect('Reply ' + marker).toPassGrader('relevance_grader', { question: { id, input: 'Where is my refund?' }, target: 'faq-bot' });
it('q1', () => ask('q1', '[good]'));
it('q2', () => ask('q2', '[good]'));
it('q3', () => ask('q3', '[good]'));
it('q4', async () => { await expect(ask('q4', '[bad]')).rejects.toThrow(); });
`;

let server: OpenAIServer;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startOpenAIServer();
  dir = makeProject('judge-trust', {
    'judges-setup.js': SETUP,
    'gold.yaml': GOLD,
    'bad-gold.yaml': `items:\n  - { id: a, judge: relevance, input: q, response: r, label: pass }\n  - { id: a, judge: house_tone, input: q, response: r, label: pass }\n`,
    'setup.js': `import 'ai-eval/vitest';\nimport './judges-setup.js';\n`,
    'vitest.config.js': `export default { test: { include: ['*.test.js'], setupFiles: ['./setup.js'], reporters: ['default', ['ai-eval/reporter/vitest', { outputFile: 'report.json', markdownFile: 'report.md', gate: { level: 'hard', requireTrustedJudges: true } }]] } };`,
    'faq.test.js': TESTS,
  });
  env = { JUDGE_URL: server.baseURL, LIMIT_DIR: tempDir('limits-') };
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.fallback = (request) =>
    request.prompt.includes('[good]')
      ? { answer: { score: 5, reason: 'answers it' } }
      : { answer: { score: 1, reason: 'does not answer it' } };
});

const judges = (args: string[], extra: Record<string, string> = {}) =>
  runNode(bin(), ['judges', ...args], dir, { ...env, ...extra });
const trustFile = () => join(dir, 'ai-eval.judges.json');

describe('ai-eval judges validate', () => {
  it('--json prints only the JSON document, records the judge as trusted and exits 0', async () => {
    const run = await judges([
      'validate',
      '--gold',
      'gold.yaml',
      '--setup',
      'judges-setup.js',
      '--min-n',
      '10',
      '--json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const document = JSON.parse(run.stdout) as {
      passed: boolean;
      updated: boolean;
      judges: Array<{ judge: string; state: string; metrics: Record<string, unknown>; model: string }>;
    };
    expect(document.passed).toBe(true);
    expect(document.updated).toBe(true);
    const [j] = document.judges;
    expect(j).toMatchObject({ judge: 'relevance_grader', state: 'trusted', model: 'test-judge' });
    expect(j!.metrics).toMatchObject({ n: 12, tp: 5, fn: 1, fp: 1, tn: 5, errors: 0 });
    expect(server.requests).toHaveLength(12);
    const trust = JSON.parse(readFileSync(trustFile(), 'utf8')) as {
      version: number;
      judges: Record<string, { state: string; gold: { file: string } }>;
    };
    expect(trust.version).toBe(1);
    expect(trust.judges.relevance_grader).toMatchObject({ state: 'trusted', gold: { file: 'gold.yaml' } });
  });

  it('prints the figures, exits 1 when a minimum is missed, and --dry-run leaves the trust file alone', async () => {
    const before = readFileSync(trustFile(), 'utf8');
    const run = await judges([
      'validate',
      '--gold',
      'gold.yaml',
      '--setup',
      'judges-setup.js',
      '--min-tpr',
      '0.9',
      '--dry-run',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'relevance_grader (relevance, 0-5, passes at composite >= 3.5; model test-judge',
    );
    expect(run.stdout).toContain('confusion: TP 5  FN 1  FP 1  TN 5');
    expect(run.stdout).toMatch(/TPR 0\.83 \[0\.\d\d, 0\.\d\d\] \(5 of 6\) {2}\(min 0\.90: NOT met\)/);
    expect(run.stdout).toMatch(/agreement 0\.83 .*kappa 0\.67/);
    expect(run.stdout).toMatch(
      /scores \(12 with a person's score\): MAE \d\.\d\d {2}Spearman \d\.\d\d {2}QWK \d\.\d\d/,
    );
    expect(run.stdout).toMatch(/labels needed for a ±0\.05 margin at 95% \(Cochran\): \d+ more people-pass/);
    expect(run.stdout).toContain('=> untrusted');
    expect(run.stdout).toContain('Dry run:');
    expect(readFileSync(trustFile(), 'utf8')).toBe(before);
  });

  it('replays through the judge cache: a second run asks the model nothing', async () => {
    const cache = { AI_EVAL_JUDGE_CACHE: 'auto' };
    const args = [
      'validate',
      '--gold',
      'gold.yaml',
      '--setup',
      'judges-setup.js',
      '--min-n',
      '10',
      '--dry-run',
      '--json',
    ];
    expect((await judges(args, cache)).code).toBe(0);
    expect(server.requests).toHaveLength(12);
    const again = await judges(args, cache);
    expect(again.code).toBe(0);
    expect(server.requests).toHaveLength(12);
  });

  it('exits 2 on an invalid gold file, naming the file, line and path of each problem', async () => {
    const run = await judges(['validate', '--gold', 'bad-gold.yaml', '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "bad-gold.yaml:3:11: /items/1/id: duplicate item id 'a'; it is first used on line 2 (/items/0/id). Fix: ids must be unique, rename one of them.",
    );
    expect(run.stderr).toMatch(
      /bad-gold\.yaml:3:\d+: \/items\/1\/judge: names judge 'house_tone', which is no registered LLM judge/,
    );
    expect((await judges(['validate'])).code).toBe(2);
    expect((await judges(['validate', '--gold', 'gold.yaml', '--min-tpr', 'high'])).stderr).toContain(
      '--min-tpr must be a number from 0 to 1, got "high"',
    );
  });
});

describe('ai-eval validate on gold files', () => {
  it('knows custom judges registered by --setup, and names an unknown one without it', async () => {
    writeFileSync(
      join(dir, 'tone.gold.yaml'),
      'items:\n  - { id: t1, judge: house_tone, input: Hi, response: Hello., label: pass }\n',
    );
    const withSetup = await runNode(
      bin(),
      ['validate', '--setup', 'judges-setup.js', 'tone.gold.yaml'],
      dir,
      env,
    );
    expect(withSetup.stdout).toContain('ok tone.gold.yaml (gold-labels, 1 item(s))');
    expect(withSetup.code).toBe(0);
    const without = await runNode(bin(), ['validate', 'tone.gold.yaml'], dir, env);
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(
      /tone\.gold\.yaml:2:\d+: \/items\/0\/judge: names judge 'house_tone', which is no registered LLM judge .*--setup <file>/,
    );
  });
});

describe('ai-eval judges list, and trust in a real Vitest run', () => {
  it('lists every LLM judge with its trust state and the prompt hash it was validated on', async () => {
    const run = await judges(['list', '--setup', 'judges-setup.js', '--json']);
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      judges: Array<{
        id: string;
        dimension: string;
        trust: string;
        promptHash: string;
        validated: { promptHash: string } | null;
      }>;
    };
    const relevance = listed.judges.find((j) => j.id === 'relevance_grader')!;
    expect(relevance).toMatchObject({ dimension: 'relevance', trust: 'trusted' });
    expect(relevance.validated?.promptHash).toBe(relevance.promptHash);
    expect(listed.judges.find((j) => j.id === 'accuracy_grader')).toMatchObject({
      trust: 'unvalidated',
      validated: null,
    });
    const text = await judges(['list', '--setup', 'judges-setup.js']);
    expect(text.stdout).toMatch(/relevance_grader {2}relevance {2}0-5 {2}trusted/);
  });

  it('shows the trust state and the corrected pass rate in the JSON, terminal and Markdown reports', async () => {
    const run = await runVitest(dir, [], env);
    expect(run.output).toContain('4 passed');
    const report = readReport(join(dir, 'report.json'));
    const [j] = report.targets.find((t) => t.name === 'faq-bot')!.judges;
    expect(j).toMatchObject({ id: 'relevance_grader', trust: 'trusted' });
    expect(j!.passRate.raw).toBeCloseTo(0.75, 10);
    // TPR = TNR = 5/6: (0.75 + 5/6 - 1) / (5/6 + 5/6 - 1) = 0.875.
    expect(j!.passRate.corrected).toBeCloseTo(0.875, 10);
    expect(j!.health).toMatchObject({ calls: 4, errors: 0 });
    expect(report.judges[0]).toMatchObject({ id: 'relevance_grader', trust: 'trusted' });
    expect(report.advisories.map((a) => a.code)).not.toContain('UNTRUSTED_JUDGES');
    expect(run.output).toMatch(
      /faq-bot › relevance_grader {2}trusted {2}avg 4\.00 {2}pass 75% \(corrected 88%, \d+%-\d+%\)/,
    );
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /\| faq-bot \| relevance_grader \| trusted \| 4\.00 \| 75% \(corrected 88%, \d+%-\d+%\) \|/,
    );
    expect(run.output).toContain('every LLM judge is trusted (relevance_grader)');
    expect(run.code).toBe(0);
  });

  it('goes stale after a prompt override, advises on it, and requireTrustedJudges fails the run', async () => {
    const strict = { STRICT_PROMPT: '1' };
    const listed = await judges(['list', '--setup', 'judges-setup.js', '--json'], strict);
    const relevance = (
      JSON.parse(listed.stdout) as {
        judges: Array<{ id: string; trust: string; flags: { promptOverridden: boolean } }>;
      }
    ).judges.find((j) => j.id === 'relevance_grader');
    expect(relevance).toMatchObject({ trust: 'stale', flags: { promptOverridden: true } });
    const run = await runVitest(dir, [], { ...env, ...strict });
    const report = readReport(join(dir, 'report.json'));
    const [j] = report.targets.find((t) => t.name === 'faq-bot')!.judges;
    expect(j).toMatchObject({ trust: 'stale', passRate: { raw: 0.75, corrected: null } });
    expect(report.advisories.find((a) => a.code === 'UNTRUSTED_JUDGES')?.message).toContain(
      'relevance_grader (stale)',
    );
    expect(run.output).toMatch(/faq-bot › relevance_grader {2}stale {2}avg 4\.00 {2}pass 75% /);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain(
      '| faq-bot | relevance_grader | stale | 4.00 | 75% |',
    );
    expect(run.output).toContain('requireTrustedJudges, but relevance_grader is stale');
    expect(run.code).toBe(1);
  });

  it('reads the trust file the judgesFile option names', async () => {
    expect(existsSync(trustFile())).toBe(true);
    writeFileSync(join(dir, 'elsewhere.json'), '{"version": 1, "judges": {}}');
    const config = readFileSync(join(dir, 'vitest.config.js'), 'utf8');
    writeFileSync(
      join(dir, 'vitest.config.js'),
      config.replace("outputFile: 'report.json'", "outputFile: 'report.json', judgesFile: 'elsewhere.json'"),
    );
    await runVitest(dir, [], env);
    const report = readReport(join(dir, 'report.json'));
    expect(report.judgesFile).toBe('elsewhere.json');
    expect(report.judges[0]!.trust).toBe('unvalidated');
  });
});
