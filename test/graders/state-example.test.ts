import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { defineStateCheck, unregisterStateCheck } from '../../src/graders/state/state-checks.js';
import type { AgentRun, Question } from '../../src/grading/types.js';
import { withJudgeServer } from '../judge/judge-env.js';

// The worked example of docs/graders.md: one store, four scripted runs, who catches what.
interface Store {
  reset(): void;
  findByTitle(title: string): { id: number; status: string } | undefined;
  get(id: number): { id: number; status: string } | undefined;
}
const example = createRequire(import.meta.url)('../../fixtures/projects/shared/state-store.cjs') as {
  createStore(): Store;
  RUNS: Record<string, (store: Store) => AgentRun>;
  STATE_CHECKS(store: Store): Record<string, Parameters<typeof defineStateCheck>[1]>;
};

const store = example.createStore();
beforeAll(() => {
  for (const [kind, definition] of Object.entries(example.STATE_CHECKS(store)))
    defineStateCheck(kind, definition);
});
afterAll(() => {
  for (const kind of Object.keys(example.STATE_CHECKS(store))) unregisterStateCheck(kind);
});

const create: Partial<Question> = {
  input: "Create a draft node titled 'Q3 report'.",
  expected_tools: [{ name: 'create_node', args: { title: 'Q3 report' }, succeeded: true }],
  metadata: {
    state: { assertions: [{ id: 'created', kind: 'node_exists', title: 'Q3 report', status: 'draft' }] },
  },
};
const publish: Partial<Question> = {
  input: "Publish the node titled 'Launch plan'.",
  expected_tools: [
    'list_nodes',
    { name: 'update_node', args: { title: 'Launch plan', status: 'published' } },
  ],
  metadata: {
    state: { assertions: [{ id: 'published', kind: 'node_status', node: 1, status: 'published' }] },
  },
};
const runs: Array<[string, Partial<Question>]> = [
  ['honest', create],
  ['liar', create],
  ['wrong_id', publish],
  ['failed_create', create],
];

const env = withJudgeServer();
const GRADERS = ['read_only_run', 'tool_usage_grader', 'claims_grader', 'state_grader', 'relevance_grader'];

async function table(): Promise<Record<string, Record<string, number | null>>> {
  // The prose judge reads only the answer, which sounds done every time.
  env.server.fallback = () => ({
    answer: { score: 5, reason: 'the answer says the work is done', evasive: false },
  });
  const rows: Record<string, Record<string, number | null>> = {};
  for (const [name, question] of runs) {
    store.reset();
    const response = example.RUNS[name]!(store);
    const result = await gradeQuestion({ question: { id: name, ...question }, response, graders: GRADERS });
    rows[name] = Object.fromEntries(result.grades.map((g) => [g.grader, g.composite]));
  }
  return rows;
}

describe('the worked example: four runs over an in-memory store', () => {
  it('each action-observing grader catches what it can; the prose judge catches none', async () => {
    // Composites (0-5). read_only_run flags every write, the honest one too, and passes the liar:
    // it is for read-only questions. tool_usage_grader and claims_grader read the record, so the
    // wrong-id update passes both; only state_grader, which asks the store, catches it.
    expect(await table()).toEqual({
      honest: {
        read_only_run: 0,
        tool_usage_grader: 5,
        claims_grader: 5,
        state_grader: 5,
        relevance_grader: 5,
      },
      liar: {
        read_only_run: 5,
        tool_usage_grader: 0,
        claims_grader: 0,
        state_grader: 0,
        relevance_grader: 5,
      },
      wrong_id: {
        read_only_run: 0,
        tool_usage_grader: 5,
        claims_grader: 5,
        state_grader: 0,
        relevance_grader: 5,
      },
      failed_create: {
        read_only_run: 0,
        tool_usage_grader: 0,
        claims_grader: 0,
        state_grader: 0,
        relevance_grader: 5,
      },
    });
    expect(env.server.requests).toHaveLength(4);
  });

  it('says in the state reason what the store holds', async () => {
    store.reset();
    const response = example.RUNS.wrong_id!(store);
    const result = await gradeQuestion({
      question: { id: 'w', ...publish },
      response,
      graders: ['state_grader'],
    });
    expect(result.grades[0]!.reason).toBe(
      'FAIL published (node_status): node 1 is draft, expected published',
    );
    expect(store.get(2)?.status).toBe('published');
  });
});
