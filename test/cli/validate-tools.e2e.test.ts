import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedDir } from '../helpers/paths.js';
import { runNode } from '../helpers/project.js';
import { scratch } from '../helpers/temp.js';

const bin = () => join(packedDir(), 'dist', 'cli', 'bin.cjs');
const validate = (args: string[], cwd: string) => runNode(bin(), ['validate', ...args], cwd);

const dataset = [
  'questions:',
  '  - id: q1',
  '    input: List the pages',
  '    expected_tools:',
  '      - list_node',
  '      - { name: publish_node, after: get_nod }',
  '      - { name: send_email, times: 0 }',
].join('\n');

describe('ai-eval validate --tools', () => {
  it('flags every expected tool the catalog does not have, at its line, with the closest name', async () => {
    const tools = JSON.stringify([
      { type: 'function', function: { name: 'list_nodes', parameters: {} } },
      { type: 'function', function: { name: 'get_node', parameters: {} } },
      { type: 'function', function: { name: 'publish_node', parameters: {} } },
    ]);
    const dir = scratch({ 'support.yaml': dataset, 'tools.json': tools });
    const result = await validate(['--tools', 'tools.json', 'support.yaml'], dir);
    expect(result.stdout).toBe(
      [
        'FAIL support.yaml (dataset): 3 problem(s)',
        "  support.yaml:5:9: /questions/0/expected_tools/0: 'list_node' is not a tool in the catalog. Did you mean list_nodes? Fix the name, or add the tool to the catalog.",
        "  support.yaml:6:38: /questions/0/expected_tools/1/after: 'get_nod' is not a tool in the catalog. Did you mean get_node? Fix the name, or add the tool to the catalog.",
        "  support.yaml:7:17: /questions/0/expected_tools/2/name: 'send_email' is not a tool in the catalog. Fix the name, or add the tool to the catalog.",
        '',
        '1 of 1 file(s) have problems.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(1);
  });

  it('reads an MCP tools/list result in YAML, and passes a dataset whose names it has', async () => {
    const tools =
      'tools:\n  - { name: list_node, inputSchema: { type: object } }\n  - { name: get_nod, inputSchema: { type: object } }\n  - { name: publish_node, inputSchema: { type: object } }\n  - { name: send_email, inputSchema: { type: object } }\n';
    const dir = scratch({ 'support.yaml': dataset, 'tools.yaml': tools });
    const result = await validate(['support.yaml', '--tools', 'tools.yaml'], dir);
    expect(result.stdout).toContain('ok support.yaml (dataset, 1 question(s))');
    expect(result.code).toBe(0);
  });

  it('fails on a catalog it cannot understand, and is an input error on one it cannot read or without a catalog file', async () => {
    const dir = scratch({ 'support.yaml': dataset, 'tools.json': '[{ "description": "no name" }]' });
    const bad = await validate(['--tools', 'tools.json', 'support.yaml'], dir);
    expect(bad.stdout).toContain(
      'FAIL tools.json (tool catalog): tools.json: Unrecognised tool catalog at tools[0]',
    );
    expect(bad.code).toBe(1);
    const missing = await validate(['--tools', 'nope.json', 'support.yaml'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ai-eval validate: --tools nope.json: could not be read');
    const usage = await validate(['support.yaml', '--tools'], dir);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: ai-eval validate [--tools <catalog>]');
  });
});
