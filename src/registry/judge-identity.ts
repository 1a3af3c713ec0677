import type { Grader } from '../grading/define-grader.js';
import { listGraders } from './graders.js';
import { isJudge } from '../judge/define-judge.js';
import { judgeSettings } from '../judge/settings.js';
import { resolveTemplate } from '../judge/template.js';
import { sha256Hex } from '../internal/sha256.js';

/**
 * What {@link judgeIdentity} returns.
 *
 * @example
 * ```ts
 * const identity: JudgeIdentity = judgeIdentity(); // { model: 'gpt-4o-mini', hash: '3b1f0c9a2d4e', overridden: [] }
 * ```
 */
export interface JudgeIdentity {
  /** The judge model in force. */
  model: string;
  /** A stable hash (12 hex digits) of the model and every judge's prompt in force. */
  hash: string;
  /** Ids of the judges whose prompt is overridden (configuration or prompts directory). */
  overridden: string[];
}

/**
 * The identity of the judges in force: the model plus every registered judge's prompt (template
 * after overrides, dimension description and scoring guidance), hashed. Two runs with the same hash
 * asked the same model the same way; a prompt override changes it. The reporter shows it beside the
 * scores.
 *
 * @example
 * ```ts
 * const { model, hash, overridden } = judgeIdentity();
 * console.log(`judges: ${model} #${hash}${overridden.length ? ` (overrides: ${overridden.join(', ')})` : ''}`);
 * ```
 */
export function judgeIdentity(): JudgeIdentity {
  const { model } = judgeSettings();
  const judges = listGraders()
    .filter(isJudge)
    .map((judge) => {
      const resolved = resolveTemplate(judge.id, judge.judge.template);
      return {
        id: judge.id,
        overridden: resolved.source !== 'default',
        parts: [judge.id, resolved.template, judge.judge.dimensionDescription, judge.judge.scoringGuidance],
      };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
  const hash = sha256Hex(JSON.stringify([model, judges.map((j) => j.parts)])).slice(0, 12);
  return { model, hash, overridden: judges.filter((j) => j.overridden).map((j) => j.id) };
}

/**
 * The model and prompt hash of one judge as configured in this process, for the record a matcher
 * sends to the reporter (`judgeModel`, `promptHash`). Compute it in the worker that graded: the
 * reporter's process may not have run the setup file that configured the judges. `undefined` for
 * a grader that is not a judge.
 *
 * @example
 * ```ts
 * const info = judgeRecordIdentity(grader); // { judgeModel: 'gpt-4o-mini', promptHash: '9f2c…' }
 * ```
 */
export function judgeRecordIdentity(grader: Grader): { judgeModel: string; promptHash: string } | undefined {
  if (!isJudge(grader)) return undefined;
  const { model } = judgeSettings();
  const { template } = resolveTemplate(grader.id, grader.judge.template);
  const promptHash = sha256Hex(
    JSON.stringify([template, grader.judge.dimensionDescription, grader.judge.scoringGuidance]),
  ).slice(0, 12);
  return { judgeModel: model, promptHash };
}
