export { judgeMetrics, type GoldOutcome } from './metrics.js';
export {
  validateJudges,
  hashText,
  type GoldItemResult,
  type JudgeValidation,
  type LabelsNeeded,
  type ValidateJudgesOptions,
} from './validate-judges.js';
export { trustEntryOf, updateTrustFile } from './trust-write.js';
