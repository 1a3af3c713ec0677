import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ownProcess,
  ownProcessStart,
  processAlive,
  processStart,
  sameProcessAlive,
} from '../../src/internal/process-identity.js';

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('processAlive and sameProcessAlive', () => {
  it('tell a running process from one that exited', () => {
    const dead = deadPid();
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(process.ppid)).toBe(true);
    expect(processAlive(dead)).toBe(false);
    expect(sameProcessAlive(process.ppid, undefined)).toBe(true);
    expect(sameProcessAlive(dead, undefined)).toBe(false);
    expect(sameProcessAlive(dead, '12345')).toBe(false);
  });
});

describe.runIf(existsSync('/proc/self/stat'))('on Linux', () => {
  it('reads a process start that tells this process from another', () => {
    const own = processStart(process.pid);
    expect(own).toMatch(/^\d+$/);
    expect(processStart(process.pid)).toBe(own);
    expect(ownProcessStart()).toBe(own);
    expect(ownProcess()).toEqual({ pid: process.pid, start: own });
    expect(processStart(1)).toMatch(/^\d+$/);
    expect(processStart(1)).not.toBe(own);
  });

  it('gives undefined for a process that is not there', () => {
    expect(processStart(2 ** 22 + 17)).toBeUndefined();
  });

  it('takes a live pid with another start for a process that is gone (its pid was reused)', () => {
    expect(sameProcessAlive(process.pid, ownProcessStart())).toBe(true);
    expect(sameProcessAlive(process.ppid, processStart(process.ppid))).toBe(true);
    expect(sameProcessAlive(process.pid, '1')).toBe(false);
    expect(sameProcessAlive(process.ppid, '1')).toBe(false);
  });
});
