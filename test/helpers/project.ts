import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { e2eOnly, projectsDir, ROOT } from './paths.js';
import { tempDir } from './temp.js';

/** The outcome of a runner process. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, colour codes removed. */
  output: string;
}

/**
 * Creates a throwaway project in this run's projects directory: copies `fixtures/projects/<fixture>`
 * when given, then writes `files` over it. The project resolves `ai-eval` to the packed package and
 * the runners to the repository's own copies; the fixtures' shared modules are at `../shared`, as in
 * the repository. It is removed after the test (or the file, when made in `beforeAll`).
 */
export function makeProject(name: string, files: Record<string, string> = {}, fixture?: string): string {
  const dir = tempDir(`${name}-`, projectsDir());
  if (fixture) cpSync(join(ROOT, 'fixtures', 'projects', fixture), dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `fixture-${name}`, private: true, type: 'module' }),
  );
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

const VITEST_BIN = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST_BIN = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/**
 * Runs a command with arguments in `cwd`, without colour, and collects its output. Never rejects.
 * Only the e2e project starts processes.
 */
export function runCommand(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  e2eOnly('starting a process');
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      const output = stripVTControlCharacters(`${stdout}\n${stderr}`);
      resolvePromise({ code, stdout, stderr, output });
    });
  });
}

/** Runs a Node script with arguments in `cwd` and collects its output. Never rejects. */
export function runNode(
  script: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  nodeArgs: string[] = [],
): Promise<RunResult> {
  return runCommand(process.execPath, [...nodeArgs, script, ...args], cwd, env);
}

/** Runs real Vitest (`vitest run`) in a fixture project. */
export function runVitest(
  cwd: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  return runNode(VITEST_BIN, ['run', ...args], cwd, env);
}

/**
 * Runs real Jest in a fixture project. `esm: true` runs it with `--experimental-vm-modules`, as Jest
 * needs for native ESM test files.
 */
export function runJest(
  cwd: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
  options: { esm?: boolean } = {},
): Promise<RunResult> {
  return runNode(JEST_BIN, ['--ci', ...args], cwd, env, options.esm ? ['--experimental-vm-modules'] : []);
}
