// The Jest reporter: built by the reporters issue.
export default class AiEvalJestReporter {}
