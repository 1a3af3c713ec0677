import type { OptionSchema } from '../internal/options-check.js';

/** A share from 0 to 1. */
const share = { type: 'number', minimum: 0, maximum: 1, description: 'a number from 0 to 1' };
/** A composite from 0 to 5. */
const composite = { type: 'number', minimum: 0, maximum: 5, description: 'a number from 0 to 5' };
/** Milliseconds a timer can hold (setTimeout overflows past 2^31 - 1). */
const milliseconds = {
  type: 'integer',
  minimum: 1,
  maximum: 2_147_483_647,
  description: 'a whole number of milliseconds from 1 to 2147483647',
};

/**
 * A gate on a target or a run: `{ level, minAverage?, minPassRate?, minCoverage?,
 * requireTrustedJudges?, maxJudgeErrorRate? }`.
 *
 * @example
 * ```ts
 * optionsChecker<Gate>(gateSchema, labels)({ level: 'hard', minAverage: 3.5 });
 * ```
 */
export const gateSchema: OptionSchema = {
  type: 'object',
  description:
    '{ level, minAverage?, minPassRate?, minCoverage?, requireTrustedJudges?, maxJudgeErrorRate? }',
  properties: {
    level: { enum: ['hard', 'soft'], description: "'hard' or 'soft'" },
    minAverage: composite,
    minPassRate: share,
    minCoverage: share,
    requireTrustedJudges: { type: 'boolean', description: 'true or false' },
    maxJudgeErrorRate: share,
  },
  required: ['level'],
  additionalProperties: false,
  anyOf: [
    { required: ['minAverage'] },
    { required: ['minPassRate'] },
    { required: ['minCoverage'] },
    { required: ['requireTrustedJudges'] },
    { required: ['maxJudgeErrorRate'] },
  ],
  'x-message': 'a gate needs minAverage, minPassRate, minCoverage, requireTrustedJudges or maxJudgeErrorRate',
};

/**
 * A target: what is evaluated and how (graders are resolved after this check).
 *
 * @example
 * ```ts
 * optionsChecker<Target>(targetSchema, labels)({ name: 'bot', mode: 'agent', graders: ['read_only_run'] });
 * ```
 */
export const targetSchema: OptionSchema = {
  type: 'object',
  description: 'a target { name, mode, graders, ... }',
  properties: {
    name: { type: 'string', pattern: '\\S', description: 'a non-empty name' },
    mode: { enum: ['agent', 'chat'], description: "'agent' or 'chat'" },
    graders: {
      type: 'array',
      minItems: 1,
      items: { type: ['string', 'object'], description: 'a grader id or a grader object' },
      description: 'a list of at least one grader id or grader',
    },
    responseCharLimit: {
      type: 'integer',
      minimum: 1,
      description: 'a positive whole number of characters',
    },
    passThreshold: composite,
    scoreBy: { enum: ['avg_score', 'pass_rate'], description: "'avg_score' or 'pass_rate'" },
    gate: gateSchema,
    tools: { type: ['array', 'object'], description: 'a tool catalog (an array or an object of tools)' },
    claimPatterns: { type: 'array', description: 'a list of claim patterns' },
  },
  required: ['name', 'mode', 'graders'],
  additionalProperties: false,
};

/**
 * The data part of `evalSuite` options (`run` and `target` are checked on their own).
 *
 * @example
 * ```ts
 * optionsChecker(suiteSchema, labels)({ dataset: 'evals/a.yaml', target, run, trials: 3 });
 * ```
 */
export const suiteSchema: OptionSchema = {
  type: 'object',
  description: 'an options object { dataset, target, run }',
  properties: {
    dataset: {
      description: 'a file path, { path } or { source, ref }',
      anyOf: [
        { type: 'string', pattern: '\\S' },
        {
          type: 'object',
          properties: { path: { type: 'string', pattern: '\\S' } },
          required: ['path'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { source: { type: 'string' }, ref: { type: 'string' } },
          required: ['source', 'ref'],
          additionalProperties: false,
        },
      ],
    },
    target: { description: 'a target { name, mode, graders }' },
    run: { description: 'a function (question, { signal, trial }) => response or agent run' },
    beforeQuestion: { description: 'a function (question, { signal, trial }) run before each question' },
    afterQuestion: {
      description: 'a function (question, { signal, trial, response, result }) run after each question',
    },
    split: { type: 'string', pattern: '\\S', description: 'a non-empty split name' },
    tags: { type: 'array', items: { type: 'string' }, description: 'a list of tags' },
    ids: { type: 'array', items: { type: 'string' }, description: 'a list of question ids' },
    concurrent: { type: 'boolean', description: 'true or false' },
    timeout: milliseconds,
    trials: { type: 'integer', minimum: 1, maximum: 1000, description: 'a whole number from 1 to 1000' },
  },
  required: ['dataset', 'target', 'run'],
  additionalProperties: false,
};

/**
 * The options of `toPassGrader` and `toScoreAtLeast`.
 *
 * @example
 * ```ts
 * optionsChecker(matcherSchema, labels)({ question: { id: 'q1' }, threshold: 4 });
 * ```
 */
export const matcherSchema: OptionSchema = {
  type: 'object',
  description: 'an options object',
  properties: {
    question: { type: 'object', description: 'a question object' },
    toolCalls: {},
    input: { type: 'string', description: 'a string' },
    threshold: { ...composite, description: 'a composite from 0 to 5' },
    target: {
      description: 'a non-empty target name or a target object',
      anyOf: [{ type: 'string', pattern: '\\S' }, { type: 'object' }],
    },
  },
  additionalProperties: false,
};

const file = { type: 'string', minLength: 1, description: 'a file path' };
const flag = { type: 'boolean', description: 'true or false' };

/**
 * The options of both reporters (`ReporterOptions` in src/report/options.ts).
 *
 * @example
 * ```ts
 * optionsChecker(reporterSchema, labels)({ outputFile: 'ai-eval.json', gate: { level: 'hard', minAverage: 3.5 } });
 * ```
 */
export const reporterSchema: OptionSchema = {
  type: 'object',
  description: 'an options object',
  properties: {
    outputFile: file,
    junitFile: file,
    markdownFile: file,
    htmlFile: file,
    gate: gateSchema,
    gates: {
      type: 'object',
      description: '{ [target]: gate }',
      additionalProperties: gateSchema,
    },
    failOnAdvisory: flag,
    failOnError: flag,
    baseline: file,
    maxDrop: composite,
    weakest: { type: 'integer', minimum: 0, description: 'a whole number' },
    colors: flag,
    summary: flag,
    root: file,
    judgesFile: file,
  },
  additionalProperties: false,
  dependentRequired: { maxDrop: ['baseline'] },
};

/**
 * The schemas compiled ahead of time into option-validators.generated.ts (by
 * scripts/compile-option-validators.mjs), by the name each validator is exported under.
 *
 * @example
 * ```ts
 * Object.keys(OPTION_SCHEMAS); // ['target', 'suite', 'matcher', 'reporter']
 * ```
 */
export const OPTION_SCHEMAS = {
  target: targetSchema,
  suite: suiteSchema,
  matcher: matcherSchema,
  reporter: reporterSchema,
};

/** Schemas shared by the report layer's option checks. */
export const fragments = { share, composite, milliseconds };
