import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { datasetSchema } from '../../src/datasets/index.js';
import { translateErrors, validators } from '../../src/datasets/schema.js';
import { ROOT } from '../helpers/paths.js';

describe('the precompiled dataset schema', () => {
  it('is up to date with schema/dataset.json (run node scripts/compile-schemas.mjs)', () => {
    expect(() =>
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'compile-schemas.mjs'), '--check'], {
        stdio: 'pipe',
      }),
    ).not.toThrow();
  });

  it('imports nothing, so it needs no ajv at run time', () => {
    const source = readFileSync(join(ROOT, 'src', 'datasets', 'compiled', 'dataset-validators.js'), 'utf8');
    expect(source).not.toMatch(/\brequire\(|^import /m);
  });

  it('gives the same errors, and so the same messages, as compiling the schema at run time', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, allowUnionTypes: true });
    const runtime = ajv.compile(datasetSchema);
    const documents: unknown[] = [
      { questions: [{ id: 42, input: ['x'] }, { input: 'x' }, { id: 'a', tags: 'billing' }] },
      { questions: [{ id: ' ', input: 'x', expected_tools: [' ', { name: '', arg: {} }, 7] }] },
      { questions: [{ id: 'a', input: 'x', timeout: 2147483648, expected: { format: 'jsn', flags: 'g' } }] },
      { splits: { s: ['a', ' '], h: { fraction: 2 } }, questions: [] },
      { questions: [{ id: 'a', messages: [] }] },
    ];
    for (const document of documents) {
      const precompiled = validators().document;
      expect(precompiled(document)).toBe(runtime(document));
      expect(translateErrors(precompiled.errors ?? [])).toEqual(translateErrors(runtime.errors ?? []));
    }
  });
});
