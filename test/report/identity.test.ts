import { describe, expect, it } from 'vitest';
import { runIdentity } from '../../src/report/identity.js';
import { rec } from '../helpers/report-fixtures.js';

describe('runIdentity', () => {
  it("keeps each dataset's hash from the last record that names it, also across shared objects", () => {
    // A suite's records share one dataset object; two suites of the same file under two hashes
    // (an edit between shards, say) take the hash of the record that came last.
    const before = { ref: 'support.yaml', hash: 'd1' };
    const after = { ref: 'support.yaml', hash: 'd2' };
    const other = { ref: 'billing.yaml', hash: 'b1' };
    const records = [before, before, after, after, other, before].map((dataset, i) =>
      rec({ question: `q${i}`, grader: 'read_only_run', dataset }),
    );
    expect(runIdentity(records, new Date(0)).datasetHashes).toEqual({
      'billing.yaml': 'b1',
      'support.yaml': 'd1',
    });
    expect(runIdentity(records.slice(0, 5), new Date(0)).datasetHashes).toEqual({
      'billing.yaml': 'b1',
      'support.yaml': 'd2',
    });
  });
});
