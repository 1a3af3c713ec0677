import { describe, expect, it } from 'vitest';
import { formatProblem, validateDataset } from '../../src/datasets/index.js';

const messages = (text: string) => validateDataset(text, { file: 'd.yaml' }).problems.map(formatProblem);

describe('expected_tools in the dataset schema: succeeded and critical', () => {
  it('accepts succeeded and critical flags (the tau-bench example of docs/datasets.md)', () => {
    const text = [
      'questions:',
      '  - id: retail-exchange-7',
      '    input: I want to exchange my keyboard for one with clicky switches.',
      '    expected_tools:',
      '      - { name: find_user_id_by_name_zip, args: { first_name: Yusuf, last_name: Rossi, zip: "19122" } }',
      '      - { name: get_order_details, args: { order_id: "#W2378156" } }',
      '      - name: exchange_delivered_order_items',
      '        args: { order_id: "#W2378156", item_ids: ["1151293680"], new_item_ids: ["7706410293"] }',
      '        succeeded: true',
      '        critical: true',
    ].join('\n');
    expect(messages(text)).toEqual([]);
  });

  it('refuses non-boolean flags, naming the line and the path', () => {
    const text = [
      'questions:',
      '  - id: a',
      '    input: x',
      '    expected_tools:',
      '      - { name: s, critical: yes please }',
    ].join('\n');
    expect(messages(text)).toEqual([
      'd.yaml:5:30: /questions/0/expected_tools/0/critical: must be true or false, got the string "yes please". Fix the value of \'critical\'.',
    ]);
  });
});
