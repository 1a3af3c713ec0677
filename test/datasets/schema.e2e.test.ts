import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetSchema } from '../../src/datasets/index.js';
import { packedDir } from '../helpers/paths.js';

describe('the dataset schema', () => {
  it('ships in the packed package as ai-eval/schema/dataset.json', () => {
    const shipped = JSON.parse(readFileSync(join(packedDir(), 'schema', 'dataset.json'), 'utf8'));
    expect(shipped).toEqual(datasetSchema);
  });
});
