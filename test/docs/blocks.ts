import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

/**
 * A fenced code block of README.md or docs/*.md, with the markers written in the HTML comment
 * lines right before it:
 *
 * - `<!-- fragment -->`: a fragment on purpose (a signature, an excerpt); not checked.
 * - `<!-- file: vitest.config.ts -->`: the file this block is, in the project a page builds
 *   (docs/getting-started.md); also the name it is type-checked under.
 * - `<!-- project: vitest -->` (on a line of its own, anywhere): the blocks after it, up to the next
 *   project marker, belong to that project; blocks before the first one belong to every project.
 * - `<!-- command -->`: a shell block whose commands the getting-started test runs.
 */
export interface DocBlock {
  /** The markdown file, relative to the repository root. */
  doc: string;
  /** The line of the opening fence (1-based). */
  line: number;
  /** The fence's language, lower-cased (`''` when none). */
  lang: string;
  code: string;
  fragment: boolean;
  command: boolean;
  /** The `file:` marker, or a file name the block's first line gives as a comment (`// jest.config.cjs`). */
  file: string | undefined;
  /** The project the block belongs to (`project:` marker); `undefined` before the first one. */
  project: string | undefined;
}

/** The markdown files whose blocks are checked: README.md and every docs/*.md, whoever wrote them. */
export function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const FILE_COMMENT = /^(?:\/\/|#)\s*([\w@./-]+\.(?:ts|mts|cts|js|mjs|cjs|json|ya?ml))(?::|\s*$|\s+[(:-])/;

/** The fenced blocks of one markdown file. */
export function blocksOf(doc: string, text = readFileSync(join(ROOT, doc), 'utf8')): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let project: string | undefined;
  let markers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^<!--\s*(.+?)\s*-->\s*$/.exec(line.trim());
    if (marker) {
      const body = marker[1] as string;
      const named = /^project:\s*(\S+)$/.exec(body);
      if (named) project = named[1];
      else markers.push(body);
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (!fence) {
      if (line.trim() !== '') markers = [];
      continue;
    }
    const [, indent, ticks, lang] = fence as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j] as string;
      if (l.trim().startsWith(ticks) && l.trim().replace(/[`~]/g, '') === '') break;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l);
    }
    const code = body.join('\n');
    const fileMarker = markers.map((m) => /^file:\s*(\S+)$/.exec(m)?.[1]).find((f) => f !== undefined);
    blocks.push({
      doc,
      line: i + 1,
      lang: lang.toLowerCase(),
      code,
      fragment: markers.includes('fragment'),
      command: markers.includes('command'),
      file: fileMarker ?? FILE_COMMENT.exec(body[0] ?? '')?.[1],
      project,
    });
    markers = [];
    i = j;
  }
  return blocks;
}

/** Every block of every checked markdown file. */
export function allBlocks(): DocBlock[] {
  return docFiles().flatMap((doc) => blocksOf(doc));
}

/** Where a block is, for messages: `docs/matchers.md:21`. */
export function whereOf(block: DocBlock): string {
  return `${block.doc}:${block.line}`;
}

export const TS_LANGS = new Set(['ts', 'typescript', 'tsx', 'mts', 'cts']);
export const JS_LANGS = new Set(['js', 'javascript', 'mjs', 'cjs', 'jsx']);
export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
/** Languages that are shown, not run: output samples, diagrams, prose. */
export const SHOWN_LANGS = new Set([
  '',
  'text',
  'txt',
  'md',
  'markdown',
  'diff',
  'xml',
  'html',
  'plain',
  'output',
]);
