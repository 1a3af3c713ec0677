import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configure, gradeQuestion } from '../../src/index.js';
import { TEST_KEY, withJudgeServer } from '../judge/judge-env.js';

const env = withJudgeServer();

/** Secrets planted in everything a judge is given. None may reach the model or the cache. */
const CANARIES = {
  apiKey: 'CANARY-apikey-7f3a9c',
  password: 'CANARY-password-2b8e',
  bearer: 'CANARYbearer0d4c1e',
  clientSecret: 'CANARY-clientsecret-91aa',
  header: 'CANARYheader5e6f7a8b',
  inputKey: 'sk-CANARYinput0123456789ab',
  basicUser: 'canaryuser',
};

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('secrets in what a judge is given', () => {
  it('reach neither the model nor the judge cache; argument names and everything else do', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ai-eval-cache-'));
    configure({ judge: { cache: 'record', cacheDir } });
    env.server.fallback = () => ({
      // A judge that echoes the key it was sent with and a credential it saw.
      answer: { score: 4, reason: `fine; key ${TEST_KEY}, Bearer ${CANARIES.bearer}`, evasive: false },
    });
    const result = await gradeQuestion({
      question: {
        id: 'q',
        input: `Log in with ${CANARIES.inputKey} and list the users.`,
      },
      response: {
        output: `Done. I sent Authorization: Bearer ${CANARIES.header} and got 3 users.`,
        toolCalls: [
          {
            function_name: 'login',
            arguments: {
              user: 'bob',
              api_key: CANARIES.apiKey,
              password: CANARIES.password,
              options: {
                client_secret: CANARIES.clientSecret,
                headers: { Authorization: `Bearer ${CANARIES.bearer}` },
              },
              url: `https://${CANARIES.basicUser}:pw@internal.example/`,
            },
          },
          { function_name: 'list_users', arguments: { limit: 3 } },
        ],
      },
      graders: ['accuracy_grader', 'relevance_grader'],
    });
    expect(result.grades.map((g) => [g.error, g.score])).toEqual([
      [false, 4],
      [false, 4],
    ]);
    const sent = env.server.requests.map((r) => JSON.stringify(r.body)).join('\n');
    const cached = allFiles(cacheDir)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(cached).not.toBe('');
    for (const text of [sent, cached, JSON.stringify(result.grades)]) {
      for (const canary of [...Object.values(CANARIES), TEST_KEY]) expect(text).not.toContain(canary);
    }
    const accuracy = env.server.requests.find((r) => r.prompt.includes('dimension: accuracy'))!.prompt;
    expect(accuracy).toContain(
      '1. login {"user":"bob","api_key":"[redacted]","password":"[redacted]","options":{"client_secret":"[redacted]","headers":{"Authorization":"[redacted]"}},"url":"https://[redacted]@internal.example/"}',
    );
    expect(accuracy).toContain('2. list_users {"limit":3}');
    expect(accuracy).toContain('Done. I sent Authorization: [redacted] and got 3 users.');
    expect(accuracy).toContain('Log in with [redacted] and list the users.');
  });
});

describe('a configured key that cannot be a secret', () => {
  it("is not redacted from what the judge is sent (Ollama's placeholder 'ollama'), and cache keys do not depend on it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ai-eval-cache-'));
    configure({ judge: { apiKey: 'ollama', cache: 'record', cacheDir } });
    env.server.fallback = () => ({ answer: { score: 5, reason: 'explains ollama pull' } });
    const grade = async () =>
      (
        await gradeQuestion({
          question: { id: 'q', input: 'How do I pull a model with ollama?' },
          response: 'Run `ollama pull llama3.1`.',
          graders: ['relevance_grader'],
        })
      ).grades[0]!;
    expect(await grade()).toMatchObject({ score: 5, reason: 'explains ollama pull', error: false });
    const { prompt } = env.server.requests[0]!;
    expect(prompt).toContain('How do I pull a model with ollama?');
    expect(prompt).toContain('Run `ollama pull llama3.1`.');
    expect(prompt).not.toContain('[redacted]');
    // Recorded with the placeholder key, replayed without any key: the same entry.
    configure({ judge: { apiKey: undefined, cache: 'replay' } });
    expect(await grade()).toMatchObject({
      score: 5,
      reason: 'explains ollama pull',
      error: false,
      judgeCall: { source: 'cache' },
    });
    expect(env.server.requests).toHaveLength(1);
  });

  it('is still redacted everywhere once it is 16 characters long', async () => {
    const key = 'local-key-0123456';
    configure({ judge: { apiKey: key } });
    env.server.fallback = () => ({ answer: { score: 4, reason: `you sent ${key}` } });
    const grade = (
      await gradeQuestion({
        question: { id: 'q', input: `Is ${key} my key?` },
        response: 'Yes.',
        graders: ['relevance_grader'],
      })
    ).grades[0]!;
    expect(grade.reason).toBe('you sent [redacted]');
    expect(env.server.requests[0]!.prompt).toContain('Is [redacted] my key?');
  });
});
