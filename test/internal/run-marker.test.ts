import { closeSync, existsSync, openSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { takeRunMarker } from '../../src/internal/run-marker.js';
import { tempDir } from '../helpers/temp.js';

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 11, 1, 12);

/** A marker file left in `dir`, last written `ago` ms before NOW. */
function leave(dir: string, name: string, ago: number): string {
  const file = join(dir, name);
  closeSync(openSync(file, 'w'));
  utimesSync(file, (NOW - ago) / 1000, (NOW - ago) / 1000);
  return file;
}

describe('takeRunMarker: once per run of a process, whatever earlier runs left', () => {
  it('is taken by the first caller of a run, and by none after it', () => {
    const dir = tempDir('ai-eval-marker-');
    const options = { dir, now: NOW, startOf: () => '500' };
    expect(takeRunMarker('ai-eval-no-reporter', 4242, options)).toBe(true);
    expect(takeRunMarker('ai-eval-no-reporter', 4242, options)).toBe(false);
    expect(takeRunMarker('ai-eval-no-reporter', 4242, { ...options, now: NOW + HOUR })).toBe(false);
    // Another run (another main process) has its own.
    expect(takeRunMarker('ai-eval-no-reporter', 4343, options)).toBe(true);
  });

  it('is taken again by a later process that got the same pid (a run that started later)', () => {
    const dir = tempDir('ai-eval-marker-');
    // What an earlier Vitest process with pid 4242 left, in the old naming and in the new one.
    leave(dir, 'ai-eval-no-reporter-4242', 60_000);
    leave(dir, 'ai-eval-no-reporter-4242-500', 60_000);
    expect(takeRunMarker('ai-eval-no-reporter', 4242, { dir, now: NOW, startOf: () => '900' })).toBe(true);
  });

  it('without a process start to go by, takes over a marker older than 12 hours and no younger one', () => {
    const dir = tempDir('ai-eval-marker-');
    const options = { dir, now: NOW, startOf: () => undefined };
    leave(dir, 'ai-eval-no-reporter-7', 13 * HOUR);
    expect(takeRunMarker('ai-eval-no-reporter', 7, options)).toBe(true);
    expect(takeRunMarker('ai-eval-no-reporter', 7, options)).toBe(false);
    leave(dir, 'ai-eval-no-reporter-8', HOUR);
    expect(takeRunMarker('ai-eval-no-reporter', 8, options)).toBe(false);
  });

  it('sweeps the markers runs over 12 hours ago left, and keeps younger ones and other files', () => {
    const dir = tempDir('ai-eval-marker-');
    leave(dir, 'ai-eval-no-reporter-1-10', 13 * HOUR);
    leave(dir, 'ai-eval-no-reporter-2', 30 * HOUR);
    leave(dir, 'ai-eval-no-reporter-3-30', HOUR);
    leave(dir, 'something-else', 30 * HOUR);
    expect(takeRunMarker('ai-eval-no-reporter', 4, { dir, now: NOW, startOf: () => '40' })).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([
      'ai-eval-no-reporter-3-30',
      'ai-eval-no-reporter-4-40',
      'something-else',
    ]);
  });

  it('answers true when no marker can be made (a folder that is not there): said twice, never silenced', () => {
    const dir = join(tempDir('ai-eval-marker-'), 'missing');
    expect(takeRunMarker('ai-eval-no-reporter', 5, { dir, now: NOW, startOf: () => '1' })).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });
});
