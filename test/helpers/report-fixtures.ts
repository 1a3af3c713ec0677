import type { RunIdentity } from '../../src/report/model.js';
import type { EvalRecord, RecordTarget } from '../../src/run/record-types.js';

/** The identity of a hand-made run, fixed so that reports built from it compare equal. */
export const identity: RunIdentity = {
  timestamp: '2026-01-01T00:00:00.000Z',
  packageVersion: '0.0.0',
  nodeVersion: 'v20',
  judgeModel: null,
  judgeHash: null,
  promptHashes: {},
  datasetHashes: {},
};

/** An agent-mode target scored by an action-observing grader and a judge. */
export const SUPPORT: RecordTarget = {
  name: 'support-bot',
  mode: 'agent',
  graders: ['tool_usage_grader', 'accuracy_judge'],
  actionObserving: ['tool_usage_grader'],
  passThreshold: 3.5,
};

/** A chat-mode target with one judge. */
export const FAQ: RecordTarget = {
  name: 'faq-bot',
  mode: 'chat',
  graders: ['accuracy_judge'],
  actionObserving: [],
  passThreshold: 3.5,
};

/**
 * A hand-made record. `score` is on 0-5 unless `min`/`max` say otherwise; the composite is
 * computed from it the way the grading pipeline does.
 */
export function rec(overrides: Partial<EvalRecord> & { question: string; grader: string }): EvalRecord {
  const min = overrides.min ?? 0;
  const max = overrides.max ?? 5;
  const score = overrides.score === undefined ? max : overrides.score;
  const base: EvalRecord = {
    v: 2,
    kind: 'grade',
    test: { file: '/repo/test/support.test.ts', name: `support > ${overrides.question}` },
    target: SUPPORT,
    question: overrides.question,
    trial: 1,
    grader: overrides.grader,
    label: `${overrides.grader} (${min}-${max})`,
    min,
    max,
    score,
    composite: score === null ? null : (5 * (score - min)) / (max - min),
    reason: 'ok',
    error: false,
    skipped: false,
    llm: false,
    observesActions: overrides.grader === 'tool_usage_grader',
    toolCallRecord: true,
    passThreshold: 3.5,
    at: 1_700_000_000_000,
  };
  return { ...base, ...overrides, min, max, score, composite: overrides.composite ?? base.composite };
}

/** A grader that skipped. */
export function skip(question: string, grader: string, extra: Partial<EvalRecord> = {}): EvalRecord {
  return rec({
    question,
    grader,
    score: null,
    composite: null,
    skipped: true,
    reason: 'not applicable',
    ...extra,
  });
}

/** A grader that errored. */
export function fail(question: string, grader: string, extra: Partial<EvalRecord> = {}): EvalRecord {
  return rec({
    question,
    grader,
    score: null,
    composite: null,
    error: true,
    reason: 'judge timed out',
    ...extra,
  });
}

/**
 * The environment that passes reporter options to the reporter fixture projects (reporter-vitest,
 * reporter-jest), whose configs read them as JSON from REPORTER_OPTIONS.
 */
export function reporterOptions(value: object): Record<string, string> {
  return { REPORTER_OPTIONS: JSON.stringify(value) };
}
