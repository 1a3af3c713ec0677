import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fixtureReport } from '../helpers/html-fixtures.js';
import { packedDir } from '../helpers/paths.js';
import { runCommand, runNode, type RunResult } from '../helpers/project.js';
import { serveFiles } from '../helpers/file-server.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const cli = (args: string[], cwd: string): Promise<RunResult> => runNode(bin(), args, cwd, { NO_COLOR: '1' });
/** The packed package's entry, for setup modules and loading checks in scratch projects. */
const entry = () => pathToFileURL(join(packedDir(), 'dist', 'index.js')).href;

const reports = () => ({
  'base.json': JSON.stringify(fixtureReport('base'), null, 2),
  'head.json': JSON.stringify(fixtureReport('head'), null, 2),
});

/** The datasets the fixture report's questions came from (file:datasets/*.yaml). */
const datasets = {
  'datasets/support.yaml': `name: support
questions:
  - { id: refund-order, input: 'I want a refund for order 1041.', tags: [billing, smoke] }
  - { id: cancel-order, input: 'Cancel order 1042.', expected_tools: [find_order, cancel_order], tags: [orders], metadata: { owner: ops } }
  - { id: track-parcel, input: 'Where is my parcel?', tags: [orders] }
  - { id: judge-down, input: 'Is the judge up?' }
  - { id: new-question, input: 'New?', tags: [smoke] }
`,
  'datasets/billing.yaml': `questions:
  - { id: invoice-copy, input: 'Send me a copy of my invoice.', tags: [billing] }
  - { id: vat-number, input: 'What is your VAT number?', disabled: true }
`,
  'datasets/faq.yaml': `questions:
  - { id: opening-hours, input: 'When are you open?' }
`,
};

describe('every command', () => {
  const commands = ['validate', 'merge', 'list', 'diff', 'pull', 'promote', 'report'];

  it('prints its usage with --help (exit 0) and names a bad option (exit 2)', async () => {
    const dir = scratch();
    for (const command of commands) {
      const help = await cli([command, '--help'], dir);
      expect(help.code, `${command} --help`).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: ai-eval ${command}`));
      expect(help.stderr).toBe('');
      const bad = await cli([command, '--no-such-option'], dir);
      expect(bad.code, `${command} --no-such-option`).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toMatch(new RegExp(`^ai-eval ${command}: .*--no-such-option`));
      expect(bad.stderr).toContain(`Usage: ai-eval ${command}`);
    }
    const top = await cli(['--help'], dir);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Exit codes: 0 ok, 1 findings');
    // No command at all is a usage error (it printed the help and exited 0).
    const none = await cli([], dir);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^ai-eval: name a command\.\n\n.*Exit codes: 0 ok/s);
    for (const command of commands) expect(top.stdout).toContain(`  ${command} `);
  });
});

describe('ai-eval list', () => {
  it("lists graders with the seed's label and scale and their flags", async () => {
    const dir = scratch();
    const text = await cli(['list', 'graders'], dir);
    expect(text.code).toBe(0);
    const line = (id: string) => text.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('read_only_run')).toMatch(
      /^read_only_run\s+Read-only run \(binary, 0-1\)\s+observesActions$/,
    );
    expect(line('accuracy_grader')).toMatch(/llm/);
    const json = await cli(['list', 'graders', '--json'], dir);
    const parsed = JSON.parse(json.stdout) as { graders: Array<Record<string, unknown>> };
    expect(parsed.graders.find((g) => g.id === 'read_only_run')).toMatchObject({
      label: 'Read-only run (binary, 0-1)',
      llm: false,
      observesActions: true,
      builtin: true,
    });
    expect(parsed.graders.find((g) => g.id === 'accuracy_grader')).toMatchObject({
      llm: true,
      observesActions: false,
    });
  });

  it('lists judges, sources with capabilities, and what a --setup module registers', async () => {
    const dir = scratch({
      'setup.mjs': `import { defineDatasetSource, defineGrader, registerDatasetSource, registerGrader } from '${entry()}';
registerDatasetSource(defineDatasetSource({
  id: 'registry', label: 'Eval registry', synchronous: false,
  load: async () => [{ id: 'r1', input: 'x' }],
  listDatasets: async () => ['support', 'billing'],
  listDatasetsWithLabels: async () => ({ support: 'Support questions', billing: 'Billing' }),
}));
registerGrader(defineGrader({ id: 'house_style', label: 'House style', minScore: 0, maxScore: 1, grade: (_i, _r, _c, { result }) => result(1, 'ok') }));
`,
    });
    const judges = await cli(['list', 'judges', '--json'], dir);
    expect(judges.code).toBe(0);
    const j = JSON.parse(judges.stdout) as {
      judges: Array<{ id: string; model: string; promptHash: string }>;
    };
    expect(j.judges.map((x) => x.id)).toContain('accuracy_grader');
    expect(j.judges[0]?.promptHash).toMatch(/^[0-9a-f]{12}$/);
    const sources = await cli(['list', 'sources', '--setup', 'setup.mjs'], dir);
    expect(sources.code, sources.output).toBe(0);
    expect(sources.stdout).toMatch(/^file\s+Files\s+read, write\s+sync$/m);
    expect(sources.stdout).toMatch(/^http\s+HTTP registry\s+read\s+async \(pull first\)$/m);
    expect(sources.stdout).toMatch(/^registry\s+Eval registry\s+read\s+async \(pull first\)$/m);
    const graders = await cli(['list', 'graders', '--setup', 'setup.mjs', '--json'], dir);
    const custom = (JSON.parse(graders.stdout) as { graders: Array<Record<string, unknown>> }).graders.find(
      (g) => g.id === 'house_style',
    );
    expect(custom).toMatchObject({ label: 'House style (binary, 0-1)', builtin: false });
    const listed = await cli(
      ['list', 'datasets', '--source', 'registry', '--setup', 'setup.mjs', '--json'],
      dir,
    );
    expect(JSON.parse(listed.stdout)).toEqual({
      datasets: [
        { name: 'support', label: 'Support questions', source: 'registry' },
        { name: 'billing', label: 'Billing', source: 'registry' },
      ],
      warnings: [],
    });
    const unknown = await cli(['list', 'datasets', '--source', 'nope'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown dataset source 'nope' (available: file, inline, http)");
    const broken = await cli(['list', 'sources', '--setup', 'missing.mjs'], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--setup missing.mjs: the module failed to load');
  });
});

describe('ai-eval diff', () => {
  it('prints per target and question what changed, and the interval on the pass-share change', async () => {
    const dir = scratch(reports());
    const result = await cli(['diff', 'base.json', 'head.json'], dir);
    expect(result.code, result.output).toBe(0);
    const out = result.stdout;
    expect(out).toContain('support-bot  REGRESSED');
    expect(out).toContain('  average 4.01 -> 3.85 (-0.17)');
    expect(out).toMatch(
      /pass rate 66\.67% -> 66\.67% \(\+0 pts; 95% interval -[\d.]+ to \+[\d.]+ pts over 8 and 8 trials: within noise\)/,
    );
    expect(out).toContain('    ! cancel-order: 4.50 passed -> 1.50 failed (-3.00)  REGRESSED');
    expect(out).toContain('    + new-question: new (5.00 passed)');
    expect(out).toContain('    - old-question: removed (was 3.00 failed)');
    expect(out).toContain('      vat-number: 3.00 failed -> 2.50 failed (-0.50)  changed');
    expect(out).toContain('  grader tool_usage_grader: mean ');
    expect(out).not.toContain('refund-order');
    expect(out).toContain('1 target(s) regressed.');
    expect(result.stderr).toBe('');
  });

  it('prints only the JSON document with --json, and exits 1 with --fail-on-regression', async () => {
    const dir = scratch(reports());
    const json = await cli(['diff', 'base.json', 'head.json', '--json'], dir);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      regressions: number;
      targets: Array<{
        name: string;
        beyondNoise: boolean | null;
        passRateInterval: { low: number; high: number } | null;
      }>;
    };
    expect(parsed.regressions).toBe(1);
    expect(parsed.targets.find((t) => t.name === 'support-bot')).toMatchObject({ beyondNoise: false });
    const gate = await cli(['diff', 'base.json', 'head.json', '--fail-on-regression'], dir);
    expect(gate.code).toBe(1);
    const same = await cli(['diff', 'head.json', 'head.json', '--fail-on-regression'], dir);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('No regression.');
  });

  it('exits 2 naming the report it cannot read, or the missing argument', async () => {
    const dir = scratch({ ...reports(), 'bad.json': '{"schemaVersion": 2}' });
    const missing = await cli(['diff', 'base.json', 'nope.json'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ai-eval diff: .*nope\.json: cannot read/);
    const bad = await cli(['diff', 'base.json', 'bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.json at $.targets: expected an array of targets');
    const one = await cli(['diff', 'base.json'], dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('name two JSON reports, the base then the head (got 1)');
  });
});

describe('ai-eval pull', () => {
  const server = serveFiles({
    '/support.yaml': `name: support
splits:
  smoke: [a]
questions:
  - { id: a, input: 'first' }
  - { id: b, input: 'second', disabled: true }
`,
  });

  it('brings an http dataset into a file, keeping disabled questions and the splits block', async () => {
    const dir = scratch();
    const result = await cli(
      ['pull', 'http', 'support.yaml', '-o', 'datasets/support.pulled.json', '--base-url', server.base()],
      dir,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toBe(
      "Pulled 2 question(s) (1 disabled) and the splits block from http:support.yaml into datasets/support.pulled.json.\nPoint the suite at it: dataset: 'datasets/support.pulled.json'\n",
    );
    const written = JSON.parse(readFileSync(join(dir, 'datasets/support.pulled.json'), 'utf8')) as unknown;
    expect(written).toEqual({
      questions: [
        { id: 'a', input: 'first' },
        { id: 'b', input: 'second', disabled: true },
      ],
      splits: { smoke: ['a'] },
    });
    const valid = await cli(['validate', 'datasets/support.pulled.json'], dir);
    expect(valid.code, valid.output).toBe(0);
    // The recipe the docs and the suite's hint print: the whole URL as the ref, no --base-url.
    const byUrl = await cli(['pull', 'http', `${server.base()}support.yaml`, '-o', 'by-url.json'], dir);
    expect(byUrl.code, byUrl.output).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'by-url.json'), 'utf8'))).toEqual(written);
    const yaml = await cli(
      ['pull', 'http', 'support.yaml', '-o', 'pulled.yaml', '--base-url', server.base(), '--json'],
      dir,
    );
    expect(JSON.parse(yaml.stdout)).toMatchObject({
      questions: 2,
      disabled: 1,
      splits: true,
      file: 'pulled.yaml',
    });
    expect(parse(readFileSync(join(dir, 'pulled.yaml'), 'utf8'))).toEqual(written);
  });

  it('pulls from a custom source a --setup module registers, and writes nothing when the dataset is invalid', async () => {
    const dir = scratch({
      'setup.mjs': `import { defineDatasetSource, registerDatasetSource } from '${entry()}';
registerDatasetSource(defineDatasetSource({
  id: 'registry', label: 'Registry', synchronous: false,
  load: async (ref) => {
    if (ref === 'dupes') return [{ id: 'x', input: 'a' }, { id: 'x', input: 'b' }];
    if (ref === 'fn') return [{ id: 'f', input: 'a', metadata: { check: () => true } }];
    if (ref === 'cycle') { const q = { id: 'c', input: 'a', metadata: {} }; q.metadata.self = q.metadata; return [q]; }
    return [{ id: 'r1', input: 'from the registry' }];
  },
  listDatasets: async () => ['support'],
}));
`,
      'old.json': '{"questions":[{"id":"keep","input":"me"}]}\n',
    });
    const ok = await cli(['pull', 'registry', 'support', '-o', 'out.json', '--setup', 'setup.mjs'], dir);
    expect(ok.code, ok.output).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toEqual({
      questions: [{ id: 'r1', input: 'from the registry' }],
    });
    const invalid = await cli(['pull', 'registry', 'dupes', '-o', 'old.json', '--setup', 'setup.mjs'], dir);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain(
      'ai-eval pull: registry:dupes: the pulled dataset is invalid, so old.json was not written:',
    );
    expect(readFileSync(join(dir, 'old.json'), 'utf8')).toBe('{"questions":[{"id":"keep","input":"me"}]}\n');
    // A function crashed the command ("Tag not resolved for Function value"); a cycle was written
    // as a YAML file whose alias names itself.
    for (const [ref, out, why] of [
      ['fn', 'fn.yaml', 'Tag not resolved for Function value'],
      ['cycle', 'cycle.json', 'circular structure'],
      ['cycle', 'cycle.yaml', 'uses the YAML alias'],
    ] as const) {
      const refused = await cli(['pull', 'registry', ref, '-o', out, '--setup', 'setup.mjs'], dir);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.stderr).toContain(`ai-eval pull: registry:${ref}: `);
      expect(refused.stderr).toContain(why);
      expect(existsSync(join(dir, out))).toBe(false);
    }
  });

  it('exits 2 when the source is unknown or gives nothing, and writes nothing', async () => {
    const dir = scratch();
    const unknown = await cli(['pull', 'nope', 'x', '-o', 'x.json'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown dataset source 'nope'");
    const empty = await cli(
      ['pull', 'http', 'missing.yaml', '-o', 'x.json', '--base-url', server.base()],
      dir,
    );
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('http:missing.yaml: nothing pulled, the source gave no questions');
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
    const noOutput = await cli(['pull', 'http', 'support.yaml'], dir);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toContain('name the file to write with -o <file>');
  });
});

describe('ai-eval promote', () => {
  it("appends a report's failed questions to a dataset, returns their ids in order, and the file stays valid and loadable", async () => {
    const dir = scratch({ ...reports(), ...datasets });
    const first = await cli(
      ['promote', 'head.json', '--to', 'file:regressions.yaml', '--failed', '--create'],
      dir,
    );
    expect(first.code, first.output).toBe(0);
    expect(first.stdout).toBe(
      'Appended 3 question(s) to file:regressions.yaml: vat-number, cancel-order, judge-down\n' +
        '  billing-bot / vat-number -> vat-number\n  support-bot / cancel-order -> cancel-order\n  support-bot / judge-down -> judge-down\n',
    );
    // Again: every id collides, so each gets a free one, still in input order.
    const again = await cli(
      ['promote', 'head.json', '--to', 'file:regressions.yaml', '--failed', '--json'],
      dir,
    );
    expect(again.code, again.output).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      ids: ['vat-number-2', 'cancel-order-2', 'judge-down-2'],
    });
    const valid = await cli(['validate', 'datasets/regressions.yaml'], dir);
    expect(valid.code, valid.output).toBe(0);
    const load = await runCommand(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { loadDatasetSync } from '${entry()}'; const r = loadDatasetSync({ ref: 'regressions.yaml' }); console.log(JSON.stringify(r.questions.map((q) => [q.id, q.input, q.metadata?.promoted_from?.target])));`,
      ],
      dir,
    );
    expect(JSON.parse(load.stdout)).toEqual([
      ['vat-number', 'What is your VAT number?', 'billing-bot'],
      ['cancel-order', 'Cancel order 1042.', 'support-bot'],
      ['judge-down', 'Is the judge up?', 'support-bot'],
      ['vat-number-2', 'What is your VAT number?', 'billing-bot'],
      ['cancel-order-2', 'Cancel order 1042.', 'support-bot'],
      ['judge-down-2', 'Is the judge up?', 'support-bot'],
    ]);
    const doc = parse(readFileSync(join(dir, 'datasets/regressions.yaml'), 'utf8')) as {
      questions: Array<Record<string, unknown>>;
    };
    // The row is copied whole (expected tools, tags, metadata), enabled, with where it failed.
    expect(doc.questions[1]).toMatchObject({
      id: 'cancel-order',
      expected_tools: ['find_order', 'cancel_order'],
      tags: ['orders'],
      metadata: {
        owner: 'ops',
        promoted_from: {
          dataset: 'file:datasets/support.yaml',
          target: 'support-bot',
          composite: 1.5,
          passed: false,
        },
      },
    });
    expect(doc.questions[0]?.disabled).toBeUndefined();
  });

  it('selects by --degraded and --ids, prints what would be written with --dry-run, and writes nothing then', async () => {
    const dir = scratch({
      ...reports(),
      ...datasets,
      'datasets/target.yaml': 'questions:\n  - { id: seed, input: s }\n',
    });
    const dry = await cli(
      [
        'promote',
        'head.json',
        '--to',
        'file:target.yaml',
        '--degraded',
        '--ids',
        'refund-order',
        '--dry-run',
      ],
      dir,
    );
    expect(dry.code, dry.output).toBe(0);
    expect(dry.stdout).toMatch(
      /^Would append 2 question\(s\) to file:target\.yaml \(dry run: nothing written/,
    );
    expect(dry.stdout).toContain('- id: refund-order');
    expect(dry.stdout).toContain('- id: judge-down');
    expect(readFileSync(join(dir, 'datasets/target.yaml'), 'utf8')).toBe(
      'questions:\n  - { id: seed, input: s }\n',
    );
    const json = await cli(
      [
        'promote',
        'head.json',
        '--to',
        'file:target.yaml',
        '--ids',
        'refund-order,opening-hours',
        '--dry-run',
        '--json',
      ],
      dir,
    );
    const parsed = JSON.parse(json.stdout) as { questions: Array<{ id: string }>; dryRun: boolean };
    expect(parsed.dryRun).toBe(true);
    // In report order (target, then id).
    expect(parsed.questions.map((q) => q.id)).toEqual(['opening-hours', 'refund-order']);
  });

  it('exits 2 naming what to fix: no selection, a read-only source, an unknown id, a missing dataset', async () => {
    const dir = scratch({ ...reports(), 'datasets/support.yaml': datasets['datasets/support.yaml'] });
    const none = await cli(['promote', 'head.json', '--to', 'file:x.yaml'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('say which questions to promote: --failed, --degraded or --ids <id,...>');
    const noTo = await cli(['promote', 'head.json', '--failed'], dir);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain('say where to append with --to <source>:<ref>');
    const readOnly = await cli(['promote', 'head.json', '--to', 'http:x.yaml', '--failed'], dir);
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr).toContain("the 'http' source cannot write (capabilities: read)");
    const unknown = await cli(['promote', 'head.json', '--to', 'file:x.yaml', '--ids', 'ghost'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no question with id 'ghost'");
    // vat-number's dataset (datasets/billing.yaml) is not there: nothing is written at all.
    const lost = await cli(['promote', 'head.json', '--to', 'file:x.yaml', '--failed', '--create'], dir);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain('nothing was written: 1 question(s) cannot be promoted');
    expect(lost.stderr).toContain('billing-bot / vat-number: not found in file:datasets/billing.yaml');
    expect(existsSync(join(dir, 'datasets/x.yaml'))).toBe(false);
    const noDataset = await cli(
      ['promote', 'head.json', '--to', 'file:absent.yaml', '--ids', 'cancel-order'],
      dir,
    );
    expect(noDataset.code).toBe(2);
    expect(noDataset.stderr).toContain('no such dataset');
  });
});

describe('ai-eval promote into a dataset that refuses', () => {
  it('exits 1 and writes nothing when the writable source refuses the batch', async () => {
    const broken = 'questions:\n  - { id: a }\n';
    const dir = scratch({ ...reports(), ...datasets, 'datasets/broken.yaml': broken });
    const result = await cli(
      ['promote', 'head.json', '--to', 'file:broken.yaml', '--ids', 'cancel-order'],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'ai-eval promote: --to file:broken.yaml: file:broken.yaml: the dataset is invalid, so nothing was appended.',
    );
    expect(readFileSync(join(dir, 'datasets/broken.yaml'), 'utf8')).toBe(broken);
  });
});

describe('ai-eval report --html', () => {
  it('renders a JSON report to one HTML file, with the trend against --baseline', async () => {
    const dir = scratch(reports());
    const result = await cli(
      ['report', 'head.json', '--html', 'out/report.html', '--baseline', 'base.json'],
      dir,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('ai-eval report: wrote out/report.html\n');
    const html = readFileSync(join(dir, 'out/report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('▼ -0.25');
  });

  it('exits 1 when a hard gate of the report failed, 2 on a missing report or nothing to render', async () => {
    const failing = JSON.stringify(fixtureReport('head', { gate: { level: 'hard', minPassRate: 0.99 } }));
    const dir = scratch({ 'failing.json': failing, ...reports() });
    const gated = await cli(['report', 'failing.json', '--html', 'f.html'], dir);
    expect(gated.code).toBe(1);
    expect(existsSync(join(dir, 'f.html'))).toBe(true);
    const missing = await cli(['report', 'nope.json', '--html', 'x.html'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json: no such report file');
    const nothing = await cli(['report', 'head.json'], dir);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('say what to render head.json as: --html <file>');
  });

  it('writes the HTML report beside the merged one: ai-eval merge --html', async () => {
    const dir = scratch(reports());
    writeFileSync(join(dir, 'only.json'), JSON.stringify(fixtureReport('head')));
    const merged = await cli(
      ['merge', 'only.json', '-o', 'merged.json', '--html', 'merged.html', '--quiet'],
      dir,
    );
    expect(merged.code, merged.output).toBe(0);
    expect(readFileSync(join(dir, 'merged.html'), 'utf8')).toContain('data-id="cancel-order"');
  });
});
