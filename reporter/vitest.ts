// The Vitest reporter: built by the reporters issue.
export default class AiEvalVitestReporter {}
