import { readOnlyRun } from './read-only-run.js';

/**
 * The graders ai-eval ships, by id: a const map, so their ids form a typed union. The registry
 * looks here first, so shipped graders need no registration.
 */
export const builtinGraders = {
  read_only_run: readOnlyRun,
} as const;

/** The id of a shipped grader. */
export type BuiltinGraderId = keyof typeof builtinGraders;
