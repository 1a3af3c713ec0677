import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, readTextFile } from '../../src/internal/read-text.js';
import { tempDir } from '../helpers/temp.js';

describe('readTextFile: a file as readFileSync(path, "utf8") reads it', () => {
  const contents: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['ASCII', Buffer.from('{"v":2,"kind":"grade"}\n'.repeat(50))],
    ['UTF-8', Buffer.from('reason: “done” — 5 € ✓ 🎉\n')],
    ['a byte order mark', Buffer.from('\uFEFFid: q1\n')],
    ['malformed UTF-8', Buffer.from([0x61, 0xff, 0x62, 0xc3, 0x28, 0x0a])],
    ['a DEL and C1 byte', Buffer.from([0x7f, 0xc2, 0x85, 0x41])],
  ];

  it.each(contents)('%s', (_name, bytes) => {
    const file = join(tempDir('ai-eval-read-text-'), 'file.txt');
    writeFileSync(file, bytes);
    expect(readTextFile(file)).toBe(readFileSync(file, 'utf8'));
    expect(decodeUtf8(bytes)).toBe(bytes.toString('utf8'));
    expect(decodeUtf8(bytes, 1)).toBe(bytes.toString('utf8', 1));
  });

  it('throws what readFileSync throws', () => {
    const missing = join(tempDir('ai-eval-read-text-'), 'missing.txt');
    expect(() => readTextFile(missing)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
