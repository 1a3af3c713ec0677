import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { validateDataset } from '../../src/datasets/validate.js';
import { validateRubric } from '../../src/datasets/rubrics.js';
import { validateGoldLabels } from '../../src/datasets/gold-labels.js';
import { ROOT } from '../helpers/paths.js';
import {
  allBlocks,
  blocksOf,
  docFiles,
  JS_LANGS,
  SHELL_LANGS,
  SHOWN_LANGS,
  TS_LANGS,
  whereOf,
  type DocBlock,
} from './blocks.js';

const blocks = allBlocks().filter((b) => !b.fragment);
const formatted = (problems: ReadonlyArray<{ line?: number; path: string; message: string }>): string[] =>
  problems.map((p) => `line ${p.line ?? '?'} ${p.path}: ${p.message}`);

/** What a YAML or JSON block holds, by its top-level keys. */
function kindOf(value: unknown): 'dataset' | 'rubric' | 'labels' | 'other' {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'other';
  if ('questions' in value) return 'dataset';
  if ('checks' in value) return 'rubric';
  if ('labels' in value) return 'labels';
  return 'other';
}

function checkData(block: DocBlock, value: unknown): string[] {
  const file = block.lang === 'json' ? 'block.json' : 'block.yaml';
  switch (kindOf(value)) {
    case 'dataset':
      return formatted(validateDataset(block.code, { file }).problems);
    case 'rubric':
      return formatted(validateRubric(block.code, file).problems);
    case 'labels':
      return formatted(validateGoldLabels(block.code, file).problems);
    default:
      return [];
  }
}

describe('the code blocks of README.md and docs/', () => {
  it('are found, in every page', () => {
    expect(blocks.length).toBeGreaterThan(60);
    expect(new Set(blocks.map((b) => b.doc))).toContain('README.md');
  });

  it('each have a language this check knows (mark a fragment with <!-- fragment -->)', () => {
    const known = (lang: string) =>
      TS_LANGS.has(lang) ||
      JS_LANGS.has(lang) ||
      SHELL_LANGS.has(lang) ||
      SHOWN_LANGS.has(lang) ||
      ['yaml', 'yml', 'json', 'jsonc'].includes(lang);
    expect(blocks.filter((b) => !known(b.lang)).map((b) => `${whereOf(b)} \`\`\`${b.lang}`)).toEqual([]);
  });

  const data = blocks.filter((b) => ['yaml', 'yml', 'json'].includes(b.lang));
  it.each(data.map((b) => [whereOf(b), b] as const))(
    '%s parses, and as a dataset, rubric or gold-label file it loads with the real validator',
    (_where, block) => {
      let value: unknown;
      if (block.lang === 'json') {
        expect(() => (value = JSON.parse(block.code) as unknown)).not.toThrow();
      } else {
        const docs = parseAllDocuments(block.code);
        const list = Array.isArray(docs) ? docs : [docs];
        expect(list.flatMap((d) => d.errors.map((e) => e.message))).toEqual([]);
        value = list[0]?.toJS() as unknown;
      }
      expect(checkData(block, value)).toEqual([]);
    },
  );

  const code = blocks.filter((b) => TS_LANGS.has(b.lang) || JS_LANGS.has(b.lang));
  it.each(code.map((b) => [whereOf(b), b] as const))('%s is valid syntax', (_where, block) => {
    const out = ts.transpileModule(block.code, {
      reportDiagnostics: true,
      // A neutral name: a declaration file (types/ai-eval.d.ts) transpiles to nothing.
      fileName: TS_LANGS.has(block.lang) ? 'block.ts' : 'block.js',
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    const messages = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(messages).toEqual([]);
  });
});

describe('the block extractor', () => {
  const page = [
    '# Page',
    '<!-- project: vitest -->',
    '<!-- file: vitest.config.ts -->',
    '',
    '```ts',
    'export default {};',
    '```',
    'Some prose.',
    '<!-- fragment -->',
    '```ts',
    'await expect(run).toPassGrader(grader, options?);',
    '```',
    '<!-- command -->',
    '```sh',
    'npx vitest run',
    '```',
    '```js',
    '// jest.config.cjs',
    'module.exports = {};',
    '```',
  ].join('\n');

  it('reads markers, file names, projects and fences', () => {
    const found = blocksOf('page.md', page);
    expect(found.map((b) => [b.line, b.lang, b.file, b.project, b.fragment, b.command])).toEqual([
      [5, 'ts', 'vitest.config.ts', 'vitest', false, false],
      [10, 'ts', undefined, 'vitest', true, false],
      [14, 'sh', undefined, 'vitest', false, true],
      [17, 'js', 'jest.config.cjs', 'vitest', false, false],
    ]);
    expect(found[2]?.code).toBe('npx vitest run');
  });

  it('catches a bad dataset block (a question without input)', () => {
    const [bad] = blocksOf('bad.md', '```yaml\nquestions:\n  - id: q1\n```');
    expect(checkData(bad as DocBlock, { questions: [] })).not.toEqual([]);
  });
});

describe('the links of README.md and docs/', () => {
  it('point at files that exist', () => {
    const broken: string[] = [];
    for (const doc of docFiles()) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const m of text.matchAll(
        /\]\(((?:\.{1,2}\/|docs\/)?[\w./-]+\.(?:md|json|ts|mjs|yaml))(#[\w-]*)?\)/g,
      )) {
        const target = resolve(dirname(join(ROOT, doc)), m[1] as string);
        if (!existsSync(target)) broken.push(`${doc}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
