import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { greedyMatching, maximumMatching } from '../../src/graders/matching.js';
import { FALLBACK_MARKER, toolUsageGrader } from '../../src/graders/tool-usage.js';
import { getGrader } from '../../src/registry/graders.js';
import type { ExpectedTool, Gradable, GradeResult, ToolCall } from '../../src/grading/types.js';
import { gradeQuestion } from '../../src/run/grade-question.js';
import { ROOT } from '../helpers/paths.js';

const call = (function_name: string, args: Record<string, unknown> = {}): ToolCall => ({
  function_name,
  arguments: args,
});

async function grade(expected_tools: unknown, response: Gradable): Promise<GradeResult> {
  const result = await gradeQuestion({
    question: { id: 'q', input: 'do it', expected_tools: expected_tools as ExpectedTool[] },
    response,
    graders: ['tool_usage_grader'],
  });
  return result.grades[0]!;
}

const run = (calls: ToolCall[], output = 'done'): Gradable => ({ output, toolCalls: calls });

describe('tool_usage_grader attributes', () => {
  it('is shipped, 0-5 and declares observesActions', () => {
    const grader = getGrader('tool_usage_grader');
    expect(grader).toBe(toolUsageGrader);
    expect([grader.minScore, grader.maxScore, grader.observesActions, grader.llm]).toEqual([
      0,
      5,
      true,
      false,
    ]);
    expect(grader.displayLabel).toBe('Tool usage (0-5)');
  });

  it('exports the fallback marker as the literal phrase', () => {
    expect(FALLBACK_MARKER).toBe('no tool-call record available');
  });
});

describe('tool_usage_grader with a record', () => {
  it('skips a question without expected_tools', async () => {
    const g = await grade(undefined, run([call('search')]));
    expect(g).toMatchObject({ score: null, skipped: true, error: false });
    expect(g.reason).toContain('no expected_tools');
  });

  it('scores presence and lists each expectation met or missed', async () => {
    const g = await grade(['search', 'fetch_page'], run([call('search')]));
    expect(g.score).toBe(2.5);
    expect(g.reason).toContain(
      '1/2 expected tools met among 1 recorded call (from the agent tool-call record)',
    );
    expect(g.reason).toContain('met: search (call #1)');
    expect(g.reason).toContain('missed: fetch_page (never called)');
  });

  it('scores an empty record (ran, called nothing) as 0, not as no record', async () => {
    const g = await grade(['search'], run([]));
    expect(g).toMatchObject({ score: 0, error: false, skipped: false });
    expect(g.reason).not.toContain(FALLBACK_MARKER);
    expect(g.reason).toContain('among 0 recorded calls');
  });

  it('matches a tool by function_name or plugin_id', async () => {
    const g = await grade(
      ['node_tools', 'search'],
      run([{ function_name: 'list_nodes', plugin_id: 'node_tools', arguments: {} }, call('search')]),
    );
    expect(g.score).toBe(5);
  });

  it('matches args as a subset with deep equality', async () => {
    const calls = [call('search', { q: 'drupal', filters: { type: ['page', 'article'] }, limit: 10 })];
    expect((await grade([{ name: 'search', args: { q: 'drupal' } }], run(calls))).score).toBe(5);
    expect(
      (await grade([{ name: 'search', args: { filters: { type: ['page', 'article'] } } }], run(calls))).score,
    ).toBe(5);
    const order = await grade(
      [{ name: 'search', args: { filters: { type: ['article', 'page'] } } }],
      run(calls),
    );
    expect(order.score).toBe(0);
    expect(order.reason).toContain('called 1 time, none with those arguments');
    const missingKey = await grade([{ name: 'search', args: { page: 2 } }], run(calls));
    expect(missingKey.score).toBe(0);
  });

  it('never matches args against arguments that did not parse', async () => {
    const g = await grade(
      [{ name: 'search', args: { q: 'x' } }],
      run([{ function_name: 'search', arguments: '{"q": "x"' }]),
    );
    expect(g.score).toBe(0);
  });

  it('requires an after call to come after some call of the named tool', async () => {
    const ok = await grade(
      [{ name: 'save_node', after: 'load_node' }],
      run([call('load_node'), call('save_node')]),
    );
    expect(ok.score).toBe(5);
    const early = await grade(
      [{ name: 'save_node', after: 'load_node' }],
      run([call('save_node'), call('load_node')]),
    );
    expect(early.score).toBe(0);
    expect(early.reason).toContain('none after load_node');
    const never = await grade([{ name: 'save_node', after: 'load_node' }], run([call('save_node')]));
    expect(never.reason).toContain('after load_node, which was never called');
    // Any earlier call of the anchor counts, and the anchor call itself is not consumed.
    const anchorReused = await grade(
      ['load_node', { name: 'save_node', after: 'load_node' }],
      run([call('load_node'), call('save_node')]),
    );
    expect(anchorReused.score).toBe(5);
  });

  it('checks times as an exact count of matching calls, consuming none', async () => {
    const calls = [call('search', { q: 'a' }), call('search', { q: 'b' }), call('search', { q: 'a' })];
    expect((await grade([{ name: 'search', times: 3 }], run(calls))).score).toBe(5);
    const two = await grade([{ name: 'search', times: 2 }], run(calls));
    expect(two.score).toBe(0);
    expect(two.reason).toContain('missed: search exactly 2 times (3 matching calls)');
    // With args, only the calls matching the args are counted.
    expect((await grade([{ name: 'search', args: { q: 'a' }, times: 2 }], run(calls))).score).toBe(5);
    // times consumes no calls: the presence entries still find all three.
    expect(
      (await grade([{ name: 'search', times: 3 }, 'search', 'search', 'search'], run(calls))).score,
    ).toBe(5);
  });

  it('times: 0 forbids a tool', async () => {
    expect((await grade([{ name: 'delete_node', times: 0 }], run([call('search')]))).score).toBe(5);
    const g = await grade([{ name: 'delete_node', times: 0 }], run([call('delete_node')]));
    expect(g.score).toBe(0);
    expect(g.reason).toContain('missed: delete_node exactly 0 times (1 matching call)');
  });

  it('lets one call satisfy at most one expectation', async () => {
    const g = await grade(['search', 'search'], run([call('search')]));
    expect(g.score).toBe(2.5);
    expect(g.reason).toContain('matching call #1 already satisfied another expectation');
  });

  it('assigns calls by maximum matching where a greedy pairing gets it wrong', async () => {
    // Greedy, in entry order: 'search' takes call #1 (q=drupal), leaving the args entry only call #2
    // (q=php), which does not match: 1 of 2. The maximum matching gives 'search' call #2 instead.
    const expectations = ['search', { name: 'search', args: { q: 'drupal' } }];
    const calls = [call('search', { q: 'drupal' }), call('search', { q: 'php' })];
    const candidates = [[0, 1], [0]];
    expect(greedyMatching(candidates, 2)).toEqual([0, -1]);
    const g = await grade(expectations, run(calls));
    expect(g.score).toBe(5);
    expect(g.reason).toContain('met: search (call #2)');
    expect(g.reason).toContain('met: search with {"q":"drupal"} (call #1)');
  });

  it('finds a longer augmenting path with after constraints', async () => {
    // Three entries over three calls where only one full assignment exists.
    const expectations = [
      'search',
      { name: 'search', after: 'load_node' },
      { name: 'search', args: { q: 'x' }, after: 'load_node' },
    ];
    const calls = [
      call('search', { q: 'x' }),
      call('load_node'),
      call('search', { q: 'y' }),
      call('search', { q: 'x' }),
    ];
    const g = await grade(expectations, run(calls));
    expect(g.score).toBe(5);
    expect(g.reason).toMatch(/met: search \(call #1\).*met: search after load_node \(call #3\).*call #4/);
  });

  it('reports an error naming the index and the problem for malformed entries', async () => {
    const g = await grade(
      ['search', { name: '' }, 42, { name: 'x', times: -1 }, { name: 'y', arg: {} }, { name: 'z', after: 3 }],
      run([]),
    );
    expect(g).toMatchObject({ score: null, error: true, skipped: false });
    expect(g.reason).toContain('expected_tools[1].name: must be a non-empty string');
    expect(g.reason).toContain(
      'expected_tools[2]: expected a tool name or { name, args?, after?, times?, succeeded?, critical? }, got 42',
    );
    expect(g.reason).toContain('expected_tools[3].times: must be a whole number');
    expect(g.reason).toContain("expected_tools[4]: unknown key 'arg'");
    expect(g.reason).toContain('expected_tools[5].after: must be a non-empty tool name');
    expect((await grade('search', run([]))).reason).toContain('expected_tools must be a list');
    expect((await grade([], run([]))).error).toBe(true);
  });
});

describe('tool_usage_grader without a record', () => {
  it('scores plain presence from the response text and carries the fallback marker', async () => {
    const g = await grade(['search', 'fetch_page'], 'I used Search to look it up.');
    expect(g).toMatchObject({ score: 2.5, error: false });
    expect(g.reason).toContain(FALLBACK_MARKER);
    expect(g.reason).toContain('met: search (named in the response)');
    expect(g.reason).toContain('missed: fetch_page (not named in the response)');
  });

  it('needs the tool name as a whole word', async () => {
    expect((await grade(['search'], 'the research shows')).score).toBe(0);
    expect((await grade(['list_nodes'], 'I called list_nodes.')).score).toBe(5);
  });

  it('treats a run with neither toolCalls nor messages as having no record', async () => {
    const g = await grade(['search'], { output: 'used search' });
    expect(g.reason).toContain(FALLBACK_MARKER);
    expect(g.score).toBe(5);
  });

  it('errors when args, after or times need a record, naming them', async () => {
    const g = await grade(
      ['search', { name: 'save_node', args: { id: 1 } }, { name: 'x', after: 'y' }, { name: 'z', times: 0 }],
      'I used search and save_node',
    );
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toContain(FALLBACK_MARKER);
    expect(g.reason).toContain('cannot be checked');
    expect(g.reason).toContain('expected_tools[1] (save_node with {"id":1})');
    expect(g.reason).toContain('expected_tools[2] (x after y)');
    expect(g.reason).toContain('expected_tools[3] (z exactly 0 times)');
  });
});

describe('maximumMatching', () => {
  it('matches as many as the best assignment on random graphs, and never fewer than greedy', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const left = 1 + Math.floor(random() * 6);
      const right = 1 + Math.floor(random() * 6);
      const candidates = Array.from({ length: left }, () =>
        Array.from({ length: right }, (_, r) => r).filter(() => random() < 0.4),
      );
      const matching = maximumMatching(candidates, right);
      // Valid: each left gets one of its candidates, no right used twice.
      const used = matching.filter((r) => r >= 0);
      expect(new Set(used).size).toBe(used.length);
      matching.forEach((r, l) => r >= 0 && expect(candidates[l]).toContain(r));
      expect(used.length).toBe(bruteForceMaximum(candidates, right));
      expect(used.length).toBeGreaterThanOrEqual(
        greedyMatching(candidates, right).filter((r) => r >= 0).length,
      );
    }
  });

  it('gives each left vertex the right vertex plain augmenting paths give it (reasons name the call)', () => {
    // The first free candidate is taken without a search; the search runs only where it is taken.
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 500; round++) {
      const left = 1 + Math.floor(random() * 7);
      const right = 1 + Math.floor(random() * 7);
      const candidates = Array.from({ length: left }, () =>
        Array.from({ length: right }, (_, r) => r).filter(() => random() < 0.5),
      );
      expect(maximumMatching(candidates, right)).toEqual(kuhn(candidates, right));
    }
  });

  it('handles long augmenting chains without recursion', () => {
    // Left i (i < n) takes right i at once; the last left wants right 0 only, which re-seats every
    // earlier left one place along: one augmenting path n steps long, too deep for recursion.
    const n = 100_000;
    const candidates = Array.from({ length: n + 1 }, (_, i) => (i === n ? [0] : [i, i + 1]));
    const matching = maximumMatching(candidates, n + 1);
    expect(matching[n]).toBe(0);
    expect(matching[0]).toBe(1);
    expect(matching.filter((r) => r >= 0)).toHaveLength(n + 1);
  });
});

function bruteForceMaximum(candidates: number[][], right: number): number {
  const used = new Uint8Array(right);
  const best = (i: number): number => {
    if (i === candidates.length) return 0;
    let top = best(i + 1);
    for (const r of candidates[i]!) {
      if (used[r]) continue;
      used[r] = 1;
      top = Math.max(top, 1 + best(i + 1));
      used[r] = 0;
    }
    return top;
  };
  return best(0);
}

describe('tool_usage_grader: succeeded, critical and the tool catalog', () => {
  const failedCall = (name: string): ToolCall => ({ function_name: name, arguments: {}, status: 'error' });

  it('succeeded: true counts only a call that did not fail, and says which failed', async () => {
    const calls = [failedCall('create_ticket'), call('find_user')];
    const g = await grade([{ name: 'create_ticket', succeeded: true }, 'find_user'], run(calls));
    expect(g.score).toBe(2.5);
    expect(g.reason).toContain(
      'missed: create_ticket that succeeded (called 1 time, none that succeeded (#1 failed))',
    );
    // Without succeeded, the failed call still counts as a call made.
    expect((await grade(['create_ticket'], run(calls))).score).toBe(5);
    // A call whose outcome the input does not hold did not fail.
    expect((await grade([{ name: 'find_user', succeeded: true }], run(calls))).score).toBe(5);
    const retried = [failedCall('create_ticket'), { ...call('create_ticket'), status: 'ok' as const }];
    const met = await grade([{ name: 'create_ticket', succeeded: true }], run(retried));
    expect(met.reason).toContain('met: create_ticket that succeeded (call #2)');
  });

  it('a call awaiting approval (no result came back) counts as called, never as succeeded', async () => {
    const pending = JSON.parse(
      readFileSync(join(ROOT, 'fixtures', 'records', 'ai-sdk', 'approval-pending.json'), 'utf8'),
    ) as { value: unknown };
    const response: Gradable = { output: 'Deleted.', toolCalls: pending.value };
    expect((await grade(['delete_draft'], response)).score).toBe(5);
    const g = await grade([{ name: 'delete_draft', succeeded: true }], response);
    expect(g.score).toBe(0);
    expect(g.reason).toContain(
      'missed: delete_draft that succeeded (called 1 time, none that succeeded (no result came back for #1))',
    );
  });

  it('succeeded needs a record: without one the grade is an error naming the entry', async () => {
    const g = await grade([{ name: 'create_ticket', succeeded: true }], 'I created the ticket.');
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toContain('expected_tools[0] (create_ticket that succeeded)');
  });

  it('rejects non-boolean succeeded and critical', async () => {
    const g = await grade([{ name: 'x', succeeded: 'yes', critical: 1 }], run([]));
    expect(g.error).toBe(true);
    expect(g.reason).toContain('expected_tools[0].succeeded: must be true or false, got "yes"');
    expect(g.reason).toContain('expected_tools[0].critical: must be true or false, got 1');
  });

  it('tau-bench: 11 of 12 expected calls scores 4.58 and passes, unless the missing write is critical', async () => {
    const doc = JSON.parse(
      readFileSync(join(ROOT, 'fixtures', 'records', 'tau-bench', 'retail-exchange.json'), 'utf8'),
    ) as { task: { actions: { name: string; kwargs: Record<string, unknown> }[] }; value: unknown[] };
    const expected = doc.task.actions.map((a) => ({ name: a.name, args: a.kwargs }));
    const response = { output: 'Exchanged.', messages: doc.value };
    const partial = await gradeQuestion({
      question: { id: 't', input: 'x', expected_tools: expected },
      response,
      graders: ['tool_usage_grader'],
    });
    expect(partial.grades[0]!.score).toBeCloseTo(4.58, 2);
    expect(partial.passed).toBe(true);
    const critical = expected.map((e) =>
      e.name === 'exchange_delivered_order_items' ? { ...e, critical: true, succeeded: true } : e,
    );
    const strict = await gradeQuestion({
      question: { id: 't', input: 'x', expected_tools: critical },
      response,
      graders: ['tool_usage_grader'],
    });
    expect(strict.grades[0]).toMatchObject({ score: 0, composite: 0 });
    expect(strict.grades[0]!.reason).toMatch(
      /^critical expectation missed: expected_tools\[11\] \(exchange_delivered_order_items with \{.*\} that succeeded\); score 0 whatever else matched\. 11\/12 expected tools met among 12 recorded calls/,
    );
    expect(strict.passed).toBe(false);
  });

  it('critical applies to the response-text fallback too', async () => {
    const g = await grade([{ name: 'search', critical: true }, 'fetch_page'], 'I used fetch_page.');
    expect(g.score).toBe(0);
    expect(g.reason).toContain('critical expectation missed: expected_tools[0] (search)');
    expect(g.reason).toContain(FALLBACK_MARKER);
  });

  it('with a tool catalog, names an expected tool the agent was not given and the closest one', async () => {
    const result = await gradeQuestion({
      question: {
        id: 'q',
        input: 'x',
        expected_tools: ['list_node', { name: 'save_node', after: 'load_nod' }, 'web_search'],
      },
      response: run([call('list_nodes'), { function_name: 'web_search', arguments: {}, kind: 'hosted' }]),
      graders: ['tool_usage_grader'],
      target: {
        tools: [{ name: 'list_nodes', readOnly: true }, { name: 'save_node' }, { name: 'load_node' }],
      },
    });
    const g = result.grades[0]!;
    expect(g).toMatchObject({ score: null, error: true });
    expect(g.reason).toBe(
      "expected_tools names tools the agent was not given: expected_tools[0].name 'list_node' is not in the tool catalog (did you mean list_nodes?); expected_tools[1].after 'load_nod' is not in the tool catalog (did you mean load_node?). Fix the name, or add the tool to the target's tools.",
    );
  });

  it('with a catalog that knows every expected tool, grades as usual', async () => {
    const result = await gradeQuestion({
      question: { id: 'q', input: 'x', expected_tools: ['list_nodes'] },
      response: run([call('list_nodes')]),
      graders: ['tool_usage_grader'],
      target: { tools: { list_nodes: { description: 'an AI SDK tool', inputSchema: {} } } },
    });
    expect(result.grades[0]!.score).toBe(5);
  });
});

/** Kuhn's algorithm as textbooks write it (recursive, a search for every left vertex). */
function kuhn(candidates: number[][], right: number): number[] {
  const owner = new Array<number>(right).fill(-1);
  const match = new Array<number>(candidates.length).fill(-1);
  const seat = (l: number, seen: Set<number>): boolean => {
    for (const r of candidates[l]!) {
      if (seen.has(r)) continue;
      seen.add(r);
      if (owner[r] === -1 || seat(owner[r]!, seen)) {
        owner[r] = l;
        match[l] = r;
        return true;
      }
    }
    return false;
  };
  candidates.forEach((_, l) => seat(l, new Set()));
  return match;
}
