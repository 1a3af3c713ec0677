import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { runNode, type RunResult } from '../helpers/project.js';
import { serveFiles } from '../helpers/file-server.js';
import { scratch } from '../helpers/temp.js';

// docs/cli.md: every command exits 0 when all is well, 1 on findings (an invalid file among them),
// 2 on a usage or input error (a missing argument, a file that cannot be read, a source that is
// not there).
const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const cli = (args: string[], cwd: string): Promise<RunResult> => runNode(bin(), args, cwd, { NO_COLOR: '1' });

const VALID = 'questions:\n  - { id: a, input: x }\n';
const INVALID = 'questions:\n  - id: a\n    input: 1\n';

describe('a file that cannot be read is exit 2, in every command', () => {
  it('validate: a missing file is an input error on stderr; the files it can read are still checked', async () => {
    const dir = scratch({ 'ok.yaml': VALID, 'bad.yaml': INVALID });
    const alone = await cli(['validate', 'nope.yaml'], dir);
    expect(alone.code, alone.output).toBe(2);
    expect(alone.stderr).toBe('ai-eval validate: nope.yaml: does not exist. Fix the path.\n');
    expect(alone.stdout).toBe('\n1 file(s) could not be read: nope.yaml.\n');

    const mixed = await cli(['validate', 'ok.yaml', 'nope.yaml', 'bad.yaml'], dir);
    expect(mixed.code, mixed.output).toBe(2);
    expect(mixed.stderr).toBe('ai-eval validate: nope.yaml: does not exist. Fix the path.\n');
    expect(mixed.stdout).toBe(
      [
        'ok ok.yaml (dataset, 1 question(s))',
        'FAIL bad.yaml (dataset): 1 problem(s)',
        "  bad.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
        '',
        '1 of 2 file(s) have problems. 1 file(s) could not be read: nope.yaml.',
        '',
      ].join('\n'),
    );
    // An invalid file alone is still a finding.
    const invalid = await cli(['validate', 'bad.yaml'], dir);
    expect(invalid.code).toBe(1);
  });

  it('validate: a --tools catalog that cannot be read, and a directory with no document, are exit 2', async () => {
    const dir = scratch({ 'ok.yaml': VALID });
    mkdirSync(join(dir, 'empty'));
    const catalog = await cli(['validate', '--tools', 'nope.json', 'ok.yaml'], dir);
    expect(catalog.code, catalog.output).toBe(2);
    expect(catalog.stdout).toBe('');
    expect(catalog.stderr).toMatch(
      /^ai-eval validate: --tools nope\.json: could not be read \(ENOENT[^)]*\)\. Fix the --tools path\.\n$/,
    );
    const empty = await cli(['validate', 'empty'], dir);
    expect(empty.code, empty.output).toBe(2);
    expect(empty.stderr).toBe(
      'ai-eval validate: no .yaml, .yml or .json files in empty. Fix: name dataset, rubric or gold-label files, or a directory that holds some.\n',
    );
  });

  it('the other commands already agree: a missing input file is exit 2, named on stderr', async () => {
    const dir = scratch();
    const cases: Array<[string[], string]> = [
      [['diff', 'nope.json', 'nope2.json'], 'nope.json'],
      [['merge', 'nope.json', '-o', 'out.json'], 'nope.json'],
      [['report', 'nope.json', '--html', 'out.html'], 'nope.json'],
      [['promote', 'nope.json', '--to', 'file:x.yaml', '--failed'], 'nope.json'],
      [['judges', 'validate', '--gold', 'nope.yaml', '--dry-run'], 'nope.yaml'],
      [['list', 'datasets', '--path', 'nope'], 'nope'],
      [['list', 'sources', '--setup', 'nope.mjs'], 'nope.mjs'],
    ];
    for (const [args, file] of cases) {
      const result = await cli(args, dir);
      expect(result.code, `${args.join(' ')}: ${result.output}`).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^ai-eval ${args[0]}: .*${file.replace('.', '\\.')}`));
    }
  });
});

describe('ai-eval pull of an invalid dataset is exit 1, as its --help says', () => {
  const server = serveFiles({
    '/bad.yaml': 'questions:\n  - id: a\n    input: 1\n  - { id: a, input: x }\n',
  });

  it('says so in --help', async () => {
    const help = await cli(['pull', '--help'], scratch());
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'Exits 0; 1 when the dataset is invalid, at the source or as pulled (each problem printed, nothing written); 2 on bad arguments, an unknown source, or a dataset the source does not have',
    );
  });

  it('http: exits 1 naming each problem, and writes nothing', async () => {
    const dir = scratch();
    const result = await cli(['pull', 'http', `${server.base()}bad.yaml`, '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(1);
    expect(result.stderr).toContain(
      "http:bad.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    );
    expect(result.stderr).toContain("http:bad.yaml:4:11: /questions/1/id: duplicate question id 'a'");
    expect(result.stderr).toContain(
      'ai-eval pull: http:bad.yaml: the dataset is invalid (2 problems), so out.json was not written. Fix the dataset at its source, then pull again.',
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
    // A dataset that is not there is still exit 2.
    const missing = await cli(['pull', 'http', `${server.base()}missing.yaml`, '-o', 'out.json'], dir);
    expect(missing.code, missing.output).toBe(2);
    expect(missing.stderr).toContain('http:missing.yaml: nothing pulled, the source gave no questions');
  });

  it('file: an invalid dataset file is exit 1 too, a missing one exit 2', async () => {
    const dir = scratch({ 'datasets/bad.yaml': INVALID });
    const result = await cli(['pull', 'file', 'bad.yaml', '-o', 'out.json'], dir);
    expect(result.code, result.output).toBe(1);
    expect(result.stderr).toContain(
      "datasets/bad.yaml:3:12: /questions/0/input: must be a string, got number 1. Fix the value of 'input'.",
    );
    expect(result.stderr).toContain(
      'ai-eval pull: file:bad.yaml: the dataset is invalid (1 problem), so out.json was not written. Fix the dataset at its source, then pull again.',
    );
    expect(existsSync(join(dir, 'out.json'))).toBe(false);
    const missing = await cli(['pull', 'file', 'nope.yaml', '-o', 'out.json'], dir);
    expect(missing.code, missing.output).toBe(2);
  });
});
