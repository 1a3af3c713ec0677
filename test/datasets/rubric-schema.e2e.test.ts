import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rubricSchema } from '../../src/datasets/index.js';
import { packedDir } from '../helpers/paths.js';

describe('the rubric schema', () => {
  it('ships in the packed package as ai-eval/schema/rubric.json', () => {
    const pkg = JSON.parse(readFileSync(join(packedDir(), 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    expect(pkg.exports['./schema/rubric.json']).toBe('./schema/rubric.json');
    const shipped = JSON.parse(readFileSync(join(packedDir(), 'schema', 'rubric.json'), 'utf8'));
    expect(shipped).toEqual(rubricSchema);
  });
});
