import { afterEach, describe, expect, it } from 'vitest';
import { configure, DEFAULT_QUESTION_TIMEOUT, getConfig, resetConfig } from '../../src/config.js';
import type { EvalSuiteOptions } from '../../src/run/suite-options.js';
import { questionTimeout } from '../../src/run/suite-question.js';

afterEach(() => resetConfig());

const options: EvalSuiteOptions = {
  dataset: 'd.yaml',
  target: { name: 't', mode: 'agent', graders: ['read_only_run'] },
  run: () => 'x',
};

describe('the per-question timeout of evalSuite', () => {
  it('defaults to one fit for a real agent, at least a minute', () => {
    expect(DEFAULT_QUESTION_TIMEOUT).toBeGreaterThanOrEqual(60_000);
    expect(getConfig().questionTimeout).toBe(DEFAULT_QUESTION_TIMEOUT);
    expect(questionTimeout({ id: 'q1' }, options)).toEqual({
      timeout: DEFAULT_QUESTION_TIMEOUT,
      source: 'default',
    });
  });

  it('takes the question, then the suite option, then configure()', () => {
    configure({ questionTimeout: 300_000 });
    expect(questionTimeout({ id: 'q1' }, options)).toEqual({ timeout: 300_000, source: 'configured' });
    expect(questionTimeout({ id: 'q1' }, { ...options, timeout: 9_000 })).toEqual({
      timeout: 9_000,
      source: 'suite',
    });
    expect(questionTimeout({ id: 'q1', timeout: 500 }, { ...options, timeout: 9_000 })).toEqual({
      timeout: 500,
      source: 'question',
    });
  });

  it('refuses a questionTimeout that is not a usable number of milliseconds', () => {
    expect(() => configure({ questionTimeout: 0 })).toThrow(
      'questionTimeout must be a positive integer, got 0.',
    );
    expect(() => configure({ questionTimeout: 2 ** 31 })).toThrow(
      'questionTimeout must be a number from 1 to 2147483647',
    );
  });
});
