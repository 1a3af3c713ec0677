/** A small valid dataset in YAML. */
export function yamlDataset(ids: string[], extra = ''): string {
  return `${extra}questions:\n${ids.map((id) => `  - id: ${id}\n    input: Question ${id}\n`).join('')}`;
}
