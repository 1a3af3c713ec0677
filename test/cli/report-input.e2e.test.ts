import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/report/model.js';
import { fixtureReport } from '../helpers/html-fixtures.js';
import { packedDir } from '../helpers/paths.js';
import { runNode, type RunResult } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const cli = (args: string[], cwd: string): Promise<RunResult> => runNode(bin(), args, cwd, { NO_COLOR: '1' });

/** The fixture report with a score written as a string, as a hand edit or another tool might. */
function wrongType(): string {
  const report = JSON.parse(JSON.stringify(fixtureReport('head'))) as EvalReport;
  (report.targets[0]!.questions[0] as unknown as { composite: string }).composite = '5';
  return JSON.stringify(report);
}

const WHAT = 'o.json at $.targets[0].questions[0].composite: expected a number or null, got "5"';

describe('a report with a value of the wrong type is refused by name, never half rendered', () => {
  it('ai-eval report --markdown / --html exits 2 naming the JSON path, and writes nothing', async () => {
    const dir = scratch({ 'o.json': wrongType() });
    for (const [flag, out] of [
      ['--markdown', 'o.md'],
      ['--html', 'o.html'],
      ['--junit', 'o.xml'],
    ] as const) {
      const result = await cli(['report', 'o.json', flag, out], dir);
      expect(result.code, result.output).toBe(2);
      expect(result.stderr).toContain(`ai-eval report: ${WHAT}`);
      expect(result.stderr).not.toContain('is not a function');
      expect(existsSync(join(dir, out))).toBe(false);
    }
  });

  it('ai-eval merge exits 2 naming the JSON path, and writes nothing', async () => {
    const dir = scratch({ 'o.json': wrongType() });
    const result = await cli(['merge', 'o.json', '-o', 'm.json'], dir);
    expect(result.code, result.output).toBe(2);
    expect(result.stderr).toContain(`ai-eval merge: ${WHAT}`);
    expect(existsSync(join(dir, 'm.json'))).toBe(false);
  });
});
