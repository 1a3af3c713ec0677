import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  captureLogsAsync,
  configure,
  getGrader,
  gradeQuestion,
  type JudgeCacheEntry,
} from '../../src/index.js';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.js';
import { buildContext } from '../../src/grading/context.js';
import { TEST_KEY, useServer } from './judge-env.js';

let server: OpenAIServer;
let cacheDir: string;
beforeAll(async () => {
  server = await startOpenAIServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  cacheDir = mkdtempSync(join(tmpdir(), 'ai-eval-cache-'));
  useServer(server, { cacheDir });
});

const question = { id: 'q', input: 'Name the capital of France.', expected_facts: ['Paris'] };
const run = (graders: string[] = ['relevance_grader', 'fact_match_grader'], trial = 1) =>
  gradeQuestion({ question, response: 'Paris.', graders, trial });

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('the replay cache', () => {
  it('records answers, then replays them with the server stopped', async () => {
    const recorder = await startOpenAIServer();
    useServer(recorder, { cacheDir, cache: 'record' });
    recorder.fallback = (request) =>
      request.prompt.includes('dimension: fact match')
        ? { answer: { score: 5, reason: 'all facts' } }
        : { answer: { score: 4, reason: 'relevant' } };
    const recorded = await run();
    expect(recorded.grades.map((g) => g.score)).toEqual([4, 5]);
    const entries = files(cacheDir);
    expect(entries).toHaveLength(2);
    expect(entries.every((f) => f.endsWith('.json'))).toBe(true);
    for (const file of entries) {
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(TEST_KEY);
      expect(text.toLowerCase()).not.toContain('authorization');
      const entry = JSON.parse(text) as JudgeCacheEntry;
      expect(entry).toMatchObject({ v: 1, model: 'test-judge', trial: 1 });
      expect(entry.prompt).toContain('Name the capital of France.');
    }
    await recorder.close();

    configure({ judge: { cache: 'replay' } });
    const replayed = await run();
    expect(replayed.grades.map((g) => [g.score, g.reason, g.error])).toEqual([
      [4, 'relevant', false],
      [5, 'all facts', false],
    ]);
    // Replayed grades cost nothing, so they carry no usage.
    expect(replayed.grades.every((g) => g.usage === undefined)).toBe(true);
    expect(recorder.requests).toHaveLength(2);
  });

  it('in replay mode, a miss is an errored grade naming the entry and calls nothing', async () => {
    configure({ judge: { cache: 'replay' } });
    const result = await run(['relevance_grader']);
    const grade = result.grades[0]!;
    expect(grade).toMatchObject({ score: null, error: true });
    expect(grade.reason).toMatch(
      /^judge cache miss in replay mode: no entry .*\.json for relevance_grader \(model test-judge, trial 1\)/,
    );
    expect(grade.reason).toContain(cacheDir);
    expect(server.requests).toHaveLength(0);
  });

  it('in auto mode, calls once and replays the same call; the trial is part of the key', async () => {
    configure({ judge: { cache: 'auto' } });
    server.script({ answer: { score: 3, reason: 'first' } }, { answer: { score: 1, reason: 'trial two' } });
    expect((await run(['relevance_grader'])).grades[0]!.score).toBe(3);
    expect((await run(['relevance_grader'])).grades[0]!.reason).toBe('first');
    expect(server.requests).toHaveLength(1);
    expect((await run(['relevance_grader'], 2)).grades[0]!.reason).toBe('trial two');
    expect(server.requests).toHaveLength(2);
    expect(files(cacheDir)).toHaveLength(2);
  });

  it('grades a call the cache answers without a promise; a live call still waits, a miss errs at once', async () => {
    const relevance = getGrader('relevance_grader');
    const grade = (trial: number) =>
      relevance.grade(question.input, 'Paris.', buildContext(question), { result: relevance.result, trial });
    configure({ judge: { cache: 'auto' } });
    server.script({ answer: { score: 3, reason: 'recorded' } });
    const live = grade(1);
    expect(live).toBeInstanceOf(Promise);
    expect(await live).toMatchObject({ score: 3, reason: 'recorded', judgeCall: { outcome: 'scored' } });
    // The same call again: read from the cache, graded at once, the same grade.
    const replayed = grade(1);
    expect(replayed).not.toBeInstanceOf(Promise);
    expect(replayed).toMatchObject({ score: 3, reason: 'recorded', judgeCall: { outcome: 'scored' } });
    expect(server.requests).toHaveLength(1);
    // In replay mode a miss is an errored grade, also given at once, never a zero.
    configure({ judge: { cache: 'replay' } });
    const missed = grade(2);
    expect(missed).not.toBeInstanceOf(Promise);
    expect(missed).toMatchObject({ score: null, error: true, judgeCall: { outcome: 'failed' } });
    expect(server.requests).toHaveLength(1);
  });

  it("hands the question's signal to a live call only; a replayed call does not need it", async () => {
    configure({ judge: { cache: 'auto' } });
    server.script({ answer: { score: 4, reason: 'slow' }, delayMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('test timeout')), 100);
    const live = await gradeQuestion({
      question,
      response: 'Paris.',
      graders: ['relevance_grader'],
      signal: controller.signal,
    });
    expect(live.grades[0]).toMatchObject({
      score: null,
      error: true,
      reason: 'the judge call was aborted (test timeout or cancellation)',
    });
    server.script({ answer: { score: 3, reason: 'recorded' } });
    expect((await run(['relevance_grader'])).grades[0]!.reason).toBe('recorded');
    // Replayed with the signal already aborted: nothing waits on it, the answer is read.
    const replayed = await gradeQuestion({
      question,
      response: 'Paris.',
      graders: ['relevance_grader'],
      signal: AbortSignal.abort(),
    });
    expect(replayed.grades[0]).toMatchObject({ score: 3, reason: 'recorded', error: false });
    expect(server.requests).toHaveLength(2);
  });

  it('keys on the model and the full prompt', async () => {
    configure({ judge: { cache: 'auto' } });
    await run(['relevance_grader']);
    configure({ judge: { model: 'another-model' } });
    await run(['relevance_grader']);
    configure({ judge: { model: 'test-judge', prompts: { relevance_grader: 'X %s %s %s %s' } } });
    await run(['relevance_grader']);
    expect(server.requests).toHaveLength(3);
    expect(files(cacheDir)).toHaveLength(3);
  });

  it('keys on the decoding settings: another seed is another entry', async () => {
    configure({ judge: { cache: 'auto', seed: 1 } });
    server.script({ answer: { score: 2, reason: 'seed one' } }, { answer: { score: 5, reason: 'seed two' } });
    expect((await run(['relevance_grader'])).grades[0]!.reason).toBe('seed one');
    configure({ judge: { seed: 2 } });
    expect((await run(['relevance_grader'])).grades[0]!.reason).toBe('seed two');
    expect(server.requests.map((r) => r.body.seed)).toEqual([1, 2]);
    expect(server.requests).toHaveLength(2);
    expect(files(cacheDir)).toHaveLength(2);
    // Back on the first seed, the first entry replays.
    configure({ judge: { seed: 1 } });
    expect((await run(['relevance_grader'])).grades[0]!.reason).toBe('seed one');
    expect(server.requests).toHaveLength(2);
  });

  it('reads the mode from AI_EVAL_JUDGE_CACHE when the configuration sets none', async () => {
    useServer(server, { cacheDir, cache: undefined });
    process.env.AI_EVAL_JUDGE_CACHE = 'replay';
    try {
      const grade = (await run(['relevance_grader'])).grades[0]!;
      expect(grade.reason).toContain('judge cache miss in replay mode');
      process.env.AI_EVAL_JUDGE_CACHE = 'sometimes';
      const bad = (await run(['relevance_grader'])).grades[0]!;
      expect(bad.error).toBe(true);
      expect(bad.reason).toContain(
        'AI_EVAL_JUDGE_CACHE) must be one of auto, record, replay, off, got "sometimes"',
      );
    } finally {
      delete process.env.AI_EVAL_JUDGE_CACHE;
    }
    expect(server.requests).toHaveLength(0);
  });

  it('treats an empty AI_EVAL_JUDGE_CACHE as unset (cache off), as CI YAML often sets it', async () => {
    useServer(server, { cacheDir, cache: undefined });
    const saved = process.env.AI_EVAL_JUDGE_CACHE;
    process.env.AI_EVAL_JUDGE_CACHE = '';
    try {
      server.script({ answer: { score: 4, reason: 'live' } }, { answer: { score: 3, reason: 'live again' } });
      expect((await run(['relevance_grader'])).grades[0]).toMatchObject({ score: 4, error: false });
      // Off: nothing recorded, so the same call asks the model again.
      expect((await run(['relevance_grader'])).grades[0]).toMatchObject({ score: 3, error: false });
      expect(server.requests).toHaveLength(2);
      expect(files(cacheDir)).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.AI_EVAL_JUDGE_CACHE;
      else process.env.AI_EVAL_JUDGE_CACHE = saved;
    }
  });

  describe('in replay mode, an entry that is there but unreadable', () => {
    /** Records the relevance entry, then spoils it with `spoil(file)`; replays, and returns the grade. */
    async function replaySpoiled(spoil: (file: string) => void) {
      configure({ judge: { cache: 'auto' } });
      server.script({ answer: { score: 2, reason: 'recorded' } });
      await run(['relevance_grader']);
      const [file] = files(cacheDir);
      spoil(file!);
      configure({ judge: { cache: 'replay' } });
      const grade = (await run(['relevance_grader'])).grades[0]!;
      expect(grade).toMatchObject({ score: null, error: true, judgeCall: { outcome: 'failed' } });
      expect(grade.reason).not.toContain('cache miss');
      expect(grade.reason).not.toContain('no entry');
      expect(grade.reason).toContain(
        `judge cache entry ${file!} for relevance_grader (model test-judge, trial 1) is there but unreadable: `,
      );
      expect(grade.reason).toContain('no model was called. Delete it and record it again');
      expect(server.requests).toHaveLength(1);
      return grade.reason;
    }

    it('is not JSON', async () => {
      const reason = await replaySpoiled((file) => writeFileSync(file, '{"v": 1, "key": "trunc'));
      expect(reason).toMatch(/unreadable: it is not JSON \(.+\)/);
    });

    it('is empty', async () => {
      const reason = await replaySpoiled((file) => writeFileSync(file, ''));
      expect(reason).toContain('unreadable: the file is empty');
    });

    it('is a directory', async () => {
      const reason = await replaySpoiled((file) => {
        rmSync(file);
        mkdirSync(file);
      });
      expect(reason).toContain('unreadable: it is a directory, not a file');
    });

    it("holds another key's entry", async () => {
      const reason = await replaySpoiled((file) =>
        writeFileSync(file, JSON.stringify({ v: 1, key: 'not-this-key', content: 'x', refusal: null })),
      );
      expect(reason).toContain('unreadable: it holds the entry of another key (not-this-key)');
    });

    it('has another shape', async () => {
      const reason = await replaySpoiled((file) => writeFileSync(file, JSON.stringify([1, 2])));
      expect(reason).toContain('unreadable: it does not have the shape of a version 1 entry');
    });
  });

  it('ignores a corrupt entry with a warning and re-records it', async () => {
    configure({ judge: { cache: 'auto' } });
    server.script({ answer: { score: 2, reason: 'recorded' } }, { answer: { score: 4, reason: 'fresh' } });
    await run(['relevance_grader']);
    const [file] = files(cacheDir);
    writeFileSync(file!, '{"v": 1, "key": "trunc');
    const { value, logs } = await captureLogsAsync(() => run(['relevance_grader']));
    expect(value.grades[0]).toMatchObject({ score: 4, reason: 'fresh', error: false });
    expect(
      logs.some(
        (l) => l.level === 'warn' && l.message.includes(`ignoring corrupt judge cache entry ${file}`),
      ),
    ).toBe(true);
    expect((JSON.parse(readFileSync(file!, 'utf8')) as JudgeCacheEntry).content).toContain('fresh');

    writeFileSync(file!, JSON.stringify({ v: 1, key: 'not-this-key', content: 'x', refusal: null }));
    configure({ judge: { cache: 'replay' } });
    const replay = await run(['relevance_grader']);
    expect(replay.grades[0]!.reason).toContain('is there but unreadable: it holds the entry of another key');
    expect(server.requests).toHaveLength(2);
  });

  it("stores hash-keyed answers only with cacheStore 'answers': no prompt, no question or response text", async () => {
    useServer(server, { cacheDir, cache: 'auto', cacheStore: 'answers' });
    server.fallback = () => ({ answer: { score: 4, reason: 'relevant' } });
    await run(['relevance_grader']);
    const [file] = files(cacheDir);
    const text = readFileSync(file!, 'utf8');
    const entry = JSON.parse(text) as JudgeCacheEntry;
    expect(entry).not.toHaveProperty('prompt');
    expect(entry.content).toContain('"score":4');
    expect(text).not.toContain('capital of France');
    expect(text).not.toContain('Paris.');
    // It replays like any other entry.
    const replayed = await run(['relevance_grader']);
    expect(server.requests).toHaveLength(1);
    expect(replayed.grades[0]).toMatchObject({ score: 4, judgeCall: { source: 'cache', outcome: 'scored' } });
  });

  it("marks each judge grade with how the call went, for the report's judge health", async () => {
    useServer(server, { cacheDir, cache: 'off' });
    server.script(
      { content: null, refusal: 'I cannot help with that.' },
      { content: 'It is a four.' },
      { answer: { score: 9, reason: 'very good' } },
      { answer: { score: 4, reason: 'fine' } },
      { status: 400, body: { error: { message: 'bad request' } } },
    );
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push((await run(['relevance_grader'])).grades[0]!.judgeCall);
    expect(outcomes).toEqual([
      { source: 'live', outcome: 'refused' },
      { source: 'live', outcome: 'unparseable' },
      { source: 'live', outcome: 'clamped' },
      { source: 'live', outcome: 'scored' },
      { outcome: 'failed' },
    ]);
  });

  it('keeps the prompt in an entry by default', async () => {
    useServer(server, { cacheDir, cache: 'auto' });
    await run(['relevance_grader']);
    const entry = JSON.parse(readFileSync(files(cacheDir)[0]!, 'utf8')) as JudgeCacheEntry;
    expect(entry.prompt).toContain('capital of France');
  });

  it('writes entries atomically, leaving no temporary files', async () => {
    configure({ judge: { cache: 'record' } });
    await Promise.all([1, 2, 3, 4].map((trial) => run(['relevance_grader', 'completeness_grader'], trial)));
    const written = files(cacheDir);
    expect(written).toHaveLength(8);
    expect(written.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const file of written) expect(() => JSON.parse(readFileSync(file, 'utf8')) as unknown).not.toThrow();
  });

  it('replays a recorded malformed answer as the same error', async () => {
    configure({ judge: { cache: 'auto' } });
    server.script({ content: 'no json here' });
    const first = (await run(['relevance_grader'])).grades[0]!;
    const second = (await run(['relevance_grader'])).grades[0]!;
    expect(first).toMatchObject({ error: true });
    expect(second.reason).toBe(first.reason);
    expect(server.requests).toHaveLength(1);
  });
});
