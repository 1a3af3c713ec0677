import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { OPTIONS_AJV, type OptionsValidator } from '../../src/internal/options-check.js';
import { OPTION_SCHEMAS } from '../../src/run/option-schemas.js';
import * as generated from '../../src/run/option-validators.generated.js';
import { ROOT } from '../helpers/paths.js';

const script = pathToFileURL(join(ROOT, 'scripts', 'compile-option-validators.mjs')).href;

describe('the option validators compiled ahead of time', () => {
  it('are what the schemas compile to now (run node scripts/compile-option-validators.mjs if not)', async () => {
    const { generate, OUTPUT } = await import(script);
    expect(await generate(OPTION_SCHEMAS)).toBe(readFileSync(OUTPUT, 'utf8'));
    // Compiling and formatting every schema takes seconds on a loaded machine.
  }, 60_000);

  it('are compiled with the options the checker compiles with', async () => {
    const { AJV_OPTIONS } = await import(script);
    expect(AJV_OPTIONS).toEqual(OPTIONS_AJV);
  });

  it('report the errors a validator compiled at run time reports', () => {
    const ajv = new Ajv2020({ ...OPTIONS_AJV });
    ajv.addVocabulary(['x-message']);
    const samples: Record<keyof typeof OPTION_SCHEMAS, unknown[]> = {
      target: [
        { name: 'bot', mode: 'agent', graders: ['read_only_run'] },
        { name: ' ', mode: 'robot', graders: [], gate: { level: 'hrad' }, extra: 1 },
        { name: 'bot', mode: 'chat', graders: [3], passThreshold: 9, gate: { level: 'hard' } },
      ],
      suite: [
        { dataset: 'a.yaml', target: {}, run: 'x' },
        { dataset: { path: '' }, trials: 0, timeout: 2 ** 40, tags: [1] },
        { dataset: { source: 'http' }, target: {}, run: 1, concurrent: 'yes' },
      ],
      matcher: [{ threshold: 6, target: '' }, { question: 'q', input: 3, other: true }, {}],
      reporter: [
        { outputFile: '', maxDrop: 1, weakest: -1, gates: { bot: { level: 'soft' } } },
        { junitFile: 'j.xml', colors: 'yes', gate: { level: 'hard', minAverage: 7 } },
        { outputFile: 'a.json' },
      ],
    };
    const shape = (errors: OptionsValidator['errors']) =>
      (errors ?? []).map((e) => ({
        ...e,
        schema: JSON.stringify(e.schema),
        parentSchema: JSON.stringify(e.parentSchema),
      }));
    for (const [name, values] of Object.entries(samples) as [keyof typeof OPTION_SCHEMAS, unknown[]][]) {
      const now = ajv.compile(OPTION_SCHEMAS[name]);
      const ahead = generated[name] as OptionsValidator;
      for (const value of values) {
        expect(ahead(value), `${name} ${JSON.stringify(value)}`).toBe(now(value));
        expect(shape(ahead.errors), `${name} ${JSON.stringify(value)}`).toEqual(shape(now.errors));
      }
    }
  });
});
