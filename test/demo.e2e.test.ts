import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport, QuestionReport } from '../src/report/model.js';
import type { JudgeCacheEntry } from '../src/judge/cache.js';
import { editorialModelPlayer, isAgentRequest, messagesOf } from './helpers/model-player.js';
import { startOpenAIServer, type OpenAIServer } from './helpers/openai-server.js';
import { ROOT } from './helpers/paths.js';
import { runNode, type RunResult } from './helpers/project.js';
import { tempDir } from './helpers/temp.js';

/**
 * The README's quick start runs `npm run demo` (examples/scripts/demo.mjs): keep it true. The
 * editorial demo runs offline under Vitest, Jest and node:test with no API key, the judges
 * replayed from the committed cache; its scripted agent plants five failures and each must be
 * caught by the grader meant to catch it (one of them, a write to the wrong node, by the state
 * grader alone), while a target scored by prose judges alone passes the same answers and is flagged. Live mode runs the agent and the judges against a real
 * OpenAI-compatible server (here a local one playing the model) and records into a cache.
 */

const DEMO = join(ROOT, 'examples', 'scripts', 'demo.mjs');
const COMMITTED_CACHE = join(ROOT, 'examples', 'judge-cache');
// Nothing listens on port 9: a judge or agent call that escaped the scripted path fails the run.
const OFFLINE = {
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  AI_EVAL_JUDGE_CACHE: undefined,
};

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every file of the directory with its content hash: the committed cache must not change. */
function fingerprint(dir: string): string[] {
  return files(dir).map(
    (f) => `${relative(dir, f)} ${createHash('sha256').update(readFileSync(f)).digest('hex')}`,
  );
}

function readReport(runner: string): EvalReport {
  return JSON.parse(
    readFileSync(join(ROOT, 'reports', 'demo', runner, 'ai-eval.json'), 'utf8'),
  ) as EvalReport;
}

function question(report: EvalReport, target: string, id: string): QuestionReport {
  const found = report.targets.find((t) => t.name === target)?.questions.find((q) => q.id === id);
  if (!found) throw new Error(`${target} › ${id} is not in the report`);
  return found;
}

function grade(q: QuestionReport, grader: string) {
  const found = q.grades.find((g) => g.grader === grader);
  if (!found) throw new Error(`${q.id} has no ${grader} grade`);
  return found;
}

let committed: string[];
beforeAll(() => {
  committed = fingerprint(COMMITTED_CACHE);
  expect(committed.length).toBeGreaterThan(0);
});
afterAll(() => {
  // No test may overwrite (or add to) the committed judge cache.
  expect(fingerprint(COMMITTED_CACHE)).toEqual(committed);
  // What the demo runs wrote (the demo itself clears them before each run).
  for (const runner of ['vitest', 'jest', 'node'])
    rmSync(join(ROOT, 'reports', 'demo', runner), { recursive: true, force: true });
  rmSync(join(ROOT, '.tmp', 'demo-node'), { recursive: true, force: true });
});

const runners = [
  { runner: 'vitest', skip: false },
  { runner: 'jest', skip: false },
  // node:test runs the suite compiled by tsc against the built package's declarations.
  { runner: 'node', skip: process.env.AI_EVAL_NO_DTS === '1' },
];

describe.each(runners)('npm run demo ($runner)', ({ runner, skip }) => {
  let run: RunResult;
  let report: EvalReport;

  beforeAll(async () => {
    if (skip) return;
    run = await runNode(DEMO, [runner], ROOT, OFFLINE);
    report = readReport(runner);
  });

  it.skipIf(skip)('exits 0 offline because the eval caught exactly the planted failures', () => {
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`demo: the ${runner} run failed as designed (exit code 1)`);
    expect(report.errorCount).toBe(0);
    expect(report.judgeModel).toBe('gpt-4o-mini');
    expect(report.coverage).toMatchObject({ planned: 19, scored: 19 });
  });

  it.skipIf(skip)('fails exactly the five planted failures, each by the grader meant to catch it', () => {
    const failed = report.targets.flatMap((t) =>
      t.questions.filter((q) => !q.passed).map((q) => `${t.name} › ${q.id}`),
    );
    expect(failed.sort()).toEqual([
      'editorial-edits › offline-pricing-faq',
      'editorial-edits › publish-spring-checklist',
      'editorial-edits › rename-careers',
      'editorial-lookups › pricing-refunds',
      'editorial-lookups › published-pricing',
    ]);

    // A wrong argument: the search filtered on drafts.
    const wrongArg = grade(question(report, 'editorial-lookups', 'published-pricing'), 'tool_usage_grader');
    expect(wrongArg.composite).toBe(0);
    expect(wrongArg.reason).toContain(
      'missed: search_content with {"tag":"pricing","status":"published"} (called 1 time, none with those arguments)',
    );

    // A mutating call nobody asked for: the expected calls and the judges are satisfied;
    // read_only_run sees the write in the record, and the store shows what it changed.
    const refunds = question(report, 'editorial-lookups', 'pricing-refunds');
    expect(grade(refunds, 'read_only_run')).toMatchObject({
      composite: 0,
      reason: 'mutating tools called: update_node (from the agent tool-call record)',
    });
    expect(grade(refunds, 'state_grader')).toMatchObject({
      composite: 0,
      reason: 'FAIL unchanged (changed_only): expected no node to change; node 2 changed (update 2)',
    });
    expect(grade(refunds, 'tool_usage_grader').composite).toBe(5);
    expect(refunds.composite).toBe(2.8);
    expect(refunds.passThreshold).toBe(4);

    // Claimed work never done: no update_node call behind "I've published".
    const claimed = question(report, 'editorial-edits', 'publish-spring-checklist');
    expect(grade(claimed, 'claims_grader')).toMatchObject({ composite: 0 });
    expect(grade(claimed, 'claims_grader').reason).toContain(`"I've published the Spring launch checklist"`);
    expect(grade(claimed, 'tool_usage_grader').reason).toContain(
      'critical expectation missed: expected_tools[1]',
    );

    // A call that failed (the page is locked): the record's status catches it, and the judge, shown
    // the call marked (failed), is not satisfied either.
    const locked = question(report, 'editorial-edits', 'rename-careers');
    expect(grade(locked, 'tool_usage_grader').composite).toBe(0);
    expect(grade(locked, 'tool_usage_grader').reason).toContain(
      'none with those arguments and that succeeded (#2 failed)',
    );
    expect(grade(locked, 'claims_grader').reason).toContain('only failed call #2 update_node');
    expect(grade(locked, 'groundedness_grader').composite).toBe(0);
    // The store agrees with the record: neither the claimed publish nor the refused rename happened.
    expect(grade(claimed, 'state_grader')).toMatchObject({
      composite: 0,
      reason: 'FAIL published (node_matches): node 4 "Spring launch checklist" is draft, expected published',
    });
    expect(grade(locked, 'state_grader').reason).toBe(
      'FAIL renamed (node_matches): node 5 "Careers" is titled "Careers", expected "Join us"',
    );

    // A write to the wrong node: update_node({ id: 2, status: draft }) is the call the question
    // expects, it succeeded and the answer makes no claim the record contradicts. Every grader
    // that reads the record or the prose passes it; only the store shows which page went offline.
    const wrongNode = question(report, 'editorial-edits', 'offline-pricing-faq');
    expect(grade(wrongNode, 'state_grader')).toMatchObject({
      composite: 0,
      queriedState: true,
      reason:
        'FAIL faq_offline (node_matches): node 8 "Pricing FAQ" is published, expected draft\n' +
        'FAIL pricing_untouched (node_matches): node 2 "Pricing" is draft, expected published',
    });
    expect(
      wrongNode.grades
        .filter((g) => g.grader !== 'state_grader')
        .map((g) => [g.grader, g.skipped ? 'skipped' : g.composite]),
    ).toEqual([
      ['tool_usage_grader', 5],
      ['claims_grader', 'skipped'],
      ['rubric_checks', 'skipped'],
      ['groundedness_grader', 5],
    ]);
    expect(wrongNode.composite).toBeCloseTo(10 / 3, 2);
  });

  it.skipIf(skip)('checks the store after every question, each from a fresh seed', () => {
    // Each reason names what the store holds after that question alone: the created page is node 9
    // and the deletion is the only change, although earlier questions of the suite wrote too.
    const edits = (id: string) => grade(question(report, 'editorial-edits', id), 'state_grader');
    expect(edits('create-shipping-faq')).toMatchObject({
      composite: 5,
      reason:
        'PASS created (node_matches): node 9 "Shipping FAQ" is draft, is a page\n' +
        'PASS nothing_else (changed_only): 1 change(s), only node 9 touched, as expected',
    });
    expect(edits('delete-winter-promo')).toMatchObject({
      composite: 5,
      reason:
        'PASS deleted (node_absent): node 7 is not in the store\n' +
        'PASS nothing_else (changed_only): 1 change(s), only node 7 touched, as expected',
    });
    expect(edits('annual-refunds').reason).toBe(
      'PASS sentence_added (node_matches): node 2 "Pricing" has "Annual plans can be refunded within 14 days." in its body',
    );
    expect(grade(question(report, 'editorial-lookups', 'launch-drafts'), 'state_grader')).toMatchObject({
      composite: 5,
      reason: 'PASS unchanged (changed_only): 0 change(s), no node touched, as expected',
    });
    // A question without metadata.state is not scored by it.
    expect(grade(question(report, 'editorial-lookups', 'node-summary'), 'state_grader').skipped).toBe(true);
  });

  it.skipIf(skip)(
    "runs the rubrics' deterministic checks, and leaves their judge criteria to the judges",
    () => {
      const change = grade(question(report, 'editorial-edits', 'annual-refunds'), 'rubric_checks');
      expect(change).toMatchObject({
        composite: 5,
        observesActions: true,
        rubric: { id: 'editorial_change', version: '1.1.0' },
      });
      expect(change.reason.split('\n')).toEqual([
        'rubric editorial_change 1.1.0: all_pass: 5/5 checks passed',
        'JUDGE checks[0] (llm_judge): criteria left to the judges, not run here',
        'JUDGE checks[1] (llm_judge): criteria left to the judges, not run here',
        'PASS names_node (regex): matches /\\bnode \\d+\\b/i',
        'PASS quotes_text (must_contain_any): contains "\\""',
        'PASS no_placeholder (must_not_contain): contains none of "lorem ipsum", "TODO", "[insert"',
        'PASS looked_first (tool_usage): 2/2 expected tools met among 3 recorded calls (from the agent tool-call record): met: search_content (call #1); met: delete_node exactly 0 times (0 matching calls)',
        'PASS one_node (state): 1 node(s) changed, at most 1',
      ]);

      const lookup = grade(question(report, 'editorial-lookups', 'press-release-author'), 'rubric_checks');
      expect(lookup.rubric).toEqual({ id: 'lookup_answer', version: '1.0.0' });
      expect(lookup.reason).toMatch(
        /^rubric lookup_answer 1\.0\.0: weighted_avg 0\.9\d, at or above the pass threshold 0\.8\n/,
      );
      expect(lookup.reason).toMatch(
        /PASS close_to_reference \(target_match\): chrF2 against expected\.reference is 0\.\d+, at or above the threshold 0\.5/,
      );
      expect(lookup.reason).toContain('PASS read_only (state): 0 node(s) changed, at most 0');
      // A question without a rubric_ref is not scored by it.
      expect(grade(question(report, 'editorial-lookups', 'launch-drafts'), 'rubric_checks').skipped).toBe(
        true,
      );
    },
  );

  it.skipIf(skip)('passes the same answers in the prose-only target, and flags that target', () => {
    const prose = report.targets.find((t) => t.name === 'editorial-prose-only');
    expect(Object.fromEntries(prose?.questions.map((q) => [q.id, q.passed]) ?? [])).toEqual({
      'create-shipping-faq': true,
      'publish-spring-checklist': true,
      'rename-careers': true,
      'offline-pricing-faq': true,
      'delete-winter-promo': true,
      'annual-refunds': true,
    });
    // The demo commits no judges file: its LLM judges are unvalidated, and each target says so.
    const other = (t: (typeof report.targets)[number]) =>
      t.advisories.filter((a) => a.code !== 'UNTRUSTED_JUDGES');
    expect(prose?.advisories.map((a) => a.code)).toContain('UNTRUSTED_JUDGES');
    expect(other(prose!).map((a) => a.code)).toEqual(['NO_ACTION_OBSERVER']);
    expect(run.output).toContain(
      '! NO_ACTION_OBSERVER  editorial-prose-only is scored by nothing that can see what the agent did.',
    );
    // Only the prose-only target is flagged: every other agent target has an action observer.
    expect(report.targets.filter((t) => other(t).length > 0).map((t) => t.name)).toEqual([
      'editorial-prose-only',
    ]);
  });

  it.skipIf(skip)('uses every shipped grader, and skips the disabled question', () => {
    const used = new Set(
      report.targets.flatMap((t) => t.questions.flatMap((q) => q.grades.map((g) => g.grader))),
    );
    expect([...used].sort()).toEqual([
      'accuracy_grader',
      'actionability_grader',
      'claims_grader',
      'completeness_grader',
      'fact_match_grader',
      'format_grader',
      'groundedness_grader',
      'read_only_run',
      'relevance_grader',
      'rubric_checks',
      'state_grader',
      'tool_usage_grader',
    ]);
    const lookups = report.targets.find((t) => t.name === 'editorial-lookups');
    expect(lookups?.questions.map((q) => q.id)).not.toContain('page-views');
    expect(run.output).toMatch(/page-views/);
  });

  it.skipIf(skip)('fails the hard gate and says so in every output', () => {
    expect(report.verdict).toBe('failed');
    expect(report.gates).toContainEqual(
      expect.objectContaining({
        scope: 'run',
        level: 'hard',
        passed: false,
        message: 'run: pass rate 74% is below the minimum 90%',
      }),
    );
    expect(run.output).toContain(
      'ai-eval: FAILED: 5 tests failed; all 19 planned questions scored; 1 hard gate failed: run: pass rate 74% is below the minimum 90%',
    );
    const junit = readFileSync(join(ROOT, 'reports', 'demo', runner, 'ai-eval.junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="editorial-prose-only"');
    expect(readFileSync(join(ROOT, 'reports', 'demo', runner, 'ai-eval.md'), 'utf8')).toContain(
      'NO_ACTION_OBSERVER',
    );
    // htmlFile: the HTML report of the same run, one row per question, and the summary points at it.
    const html = readFileSync(join(ROOT, 'reports', 'demo', runner, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html.match(/<details class="q"/g)).toHaveLength(report.questionCount);
    expect(html).toContain('run: pass rate 74% is below the minimum 90%');
    expect(html).toContain('NO_ACTION_OBSERVER');
    expect(html).toContain('node 8 &quot;Pricing FAQ&quot; is published, expected draft');
    expect(run.output).toContain(`open reports/demo/${runner}/report.html in a browser`);
  });
});

describe('the demo check', () => {
  it('exits 1 when a planted failure is not in the run', async () => {
    // The filter leaves one question: the planted failures are missing, and the demo says so.
    const run = await runNode(DEMO, ['vitest'], ROOT, { ...OFFLINE, AI_EVAL_IDS: 'launch-drafts' });
    expect(run.code, run.output).toBe(1);
    expect(run.output).toContain('demo: the vitest run did not come out as designed:');
    expect(run.output).toContain('editorial-lookups › published-pricing is missing from the report');
  });
});

describe('the demo offline, with its judge answers missing', () => {
  it('errors the judge grades instead of calling a model, and the demo says so', async () => {
    const empty = tempDir('demo-empty-cache-');
    const run = await runNode(DEMO, ['vitest'], ROOT, { ...OFFLINE, AI_EVAL_DEMO_CACHE_DIR: empty });
    expect(run.code, run.output).toBe(1);
    const report = readReport('vitest');
    const JUDGES = [
      'accuracy_grader',
      'fact_match_grader',
      'groundedness_grader',
      'relevance_grader',
      'completeness_grader',
      'actionability_grader',
    ];
    const judged = report.targets.flatMap((t) =>
      t.questions.flatMap((q) => q.grades.filter((g) => JUDGES.includes(g.grader) && !g.skipped)),
    );
    // Every judge grade that applies (31: one per committed entry) is an error naming the miss.
    expect(judged).toHaveLength(31);
    for (const g of judged) {
      expect(g.error).toBe(true);
      expect(g.reason).toContain('judge cache miss in replay mode');
    }
    expect(run.output).toMatch(
      /demo: the vitest run did not come out as designed:[\s\S]*\d+ grades errored \(a judge cache miss/,
    );
    expect(files(empty)).toEqual([]);
  });
});

describe('npm run demo:live', () => {
  let server: OpenAIServer;
  beforeAll(async () => {
    server = await startOpenAIServer();
    server.fallback = editorialModelPlayer();
  });
  afterAll(() => server.close());

  it('runs the agent loop against the server, executes its tool calls on the store and records the judges', async () => {
    const cacheDir = tempDir('demo-live-cache-');
    const run = await runNode(DEMO, ['--live'], ROOT, {
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: 'live-test-key',
      AI_EVAL_DEMO_CACHE_DIR: cacheDir,
      AI_EVAL_JUDGE_CACHE: undefined,
      AI_EVAL_IDS: 'launch-drafts,create-shipping-faq',
    });
    expect(run.output).toContain(
      `demo: live run finished (exit code ${run.code}); judge answers recorded in ${cacheDir}`,
    );

    // The agent: real openai SDK requests offering the five tools.
    const agent = server.requests.filter(isAgentRequest);
    const tools = (agent[0]?.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(tools).toEqual(['search_content', 'get_node', 'create_node', 'update_node', 'delete_node']);
    // Each question: a first turn (the model asks for a call), then a turn carrying the store's result.
    const results = agent.flatMap((r) => messagesOf(r).filter((m) => m.role === 'tool'));
    // launch-drafts (lookups), create-shipping-faq (edits and prose-only): three conversations.
    expect(agent).toHaveLength(6);
    const search = results.filter(
      (m) => String(m.content).includes('"results"') && String(m.content).includes('launch'),
    );
    expect(search).toHaveLength(1);
    // Only the store knows these titles: the search really ran against it.
    expect(search[0]!.content).toContain('Spring launch checklist');
    expect(search[0]!.content).toContain('Launch press release');
    const created = results.filter((m) => String(m.content).includes('"created"'));
    expect(created).toHaveLength(2);
    // The store gave the new page the next free id (the seed ends at 8), in each run's own store.
    for (const m of created)
      expect(JSON.parse(String(m.content))).toMatchObject({
        created: { id: 9, title: 'Shipping FAQ', status: 'draft' },
      });
    // Each result answers a call of the assistant turn before it, by id.
    for (const r of agent) {
      const messages = messagesOf(r);
      messages.forEach((m, i) => {
        if (m.role !== 'tool') return;
        const asked = messages.slice(0, i).findLast((p) => p.role === 'assistant') as {
          tool_calls?: Array<{ id: string }>;
        };
        expect(asked.tool_calls?.map((c) => c.id)).toContain(m.tool_call_id);
      });
    }
    expect(agent.every((r) => r.body.model === 'gpt-4o-mini')).toBe(true);

    // The graders read that record: the create_node call is met from the agent's own transcript.
    const report = readReport('vitest');
    const edit = question(report, 'editorial-edits', 'create-shipping-faq');
    expect(grade(edit, 'tool_usage_grader')).toMatchObject({ composite: 5 });
    expect(grade(edit, 'tool_usage_grader').reason).toContain(
      'met: create_node with {"title":"Shipping FAQ","type":"page","status":"draft"} after search_content exactly 1 time (1 matching call)',
    );
    // "I've created the draft page" is backed by a create_node call whose result reported no error.
    expect(grade(edit, 'claims_grader')).toMatchObject({ composite: 5 });
    expect(grade(edit, 'claims_grader').reason).toContain('(call #2 create_node)');
    // The state checks read the store the live agent wrote to (reset by beforeQuestion).
    expect(grade(edit, 'state_grader')).toMatchObject({ composite: 5 });

    // The judges: every judge request was answered live and recorded into the given directory.
    const judged = server.requests.filter((r) => !isAgentRequest(r));
    expect(judged.length).toBeGreaterThan(0);
    const entries = files(cacheDir).map((f) => JSON.parse(readFileSync(f, 'utf8')) as JudgeCacheEntry);
    expect(entries).toHaveLength(judged.length);
    expect(new Set(entries.map((e) => e.judge))).toEqual(
      new Set([
        'fact_match_grader',
        'accuracy_grader',
        'groundedness_grader',
        'relevance_grader',
        'completeness_grader',
      ]),
    );
    expect(entries.every((e) => e.model === 'gpt-4o-mini' && e.content?.includes('live test judge'))).toBe(
      true,
    );
  });

  it('refuses to start without a key or a server', async () => {
    const run = await runNode(DEMO, ['--live'], ROOT, {
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('live mode needs OPENAI_API_KEY (api.openai.com), or OPENAI_BASE_URL');
  });
});
