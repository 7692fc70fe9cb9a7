// The pacer against a loopback OpenAI-compatible server that enforces a small quota the
// way OpenAI does (prompt + max_tokens charged at admission, x-ratelimit-* headers, 429
// with retry-after-ms), through the real SDK over real HTTP: 8 analyses' worth of calls
// at once meet no 429 once the limits are learnt from the first answer.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import { createPacerRegistry, pacerKey } from '../../src/llm/pacer.js';
import { createQuota } from '../../testkit/quota.js';
import { startOpenAIServer, textAnswer, type OpenAIServer } from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const prompt = 'Analyse the quarter. '.repeat(50); // ~1,050 characters: ~263 tokens for the server

describe('pacing against an enforced quota', () => {
  it('8 concurrent analyses: 429s only before the limits are learnt, none after; every call answered', async () => {
    // 3,000 tokens and 40 requests per second; a call costs ~263 + 200 tokens.
    const quota = createQuota({ requests: 40, tokens: 3_000, windowMs: 1_000 });
    const refusedAt: number[] = [];
    const admitted = new Set<number>();
    server = await startOpenAIServer((body, index, request) => {
      const refusal = quota.admit(body);
      if (refusal) {
        refusedAt.push(request.receivedAt);
        return refusal;
      }
      admitted.add(index);
      return {
        ...textAnswer(`answer ${index}`, { usage: { prompt_tokens: 263, completion_tokens: 20 }, delayMs: 30 }),
        headers: quota.headers(),
      };
    });
    const pacers = createPacerRegistry();
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, pacers, maxRetries: 3 });
    const analysis = async () => {
      for (let call = 0; call < 6; call += 1)
        await model.complete({ model: 'gpt-test', messages: [{ role: 'user', content: prompt }], maxTokens: 200 });
    };

    await Promise.all(Array.from({ length: 8 }, analysis));

    const answered = server.requests.filter((request) => request.answeredAt !== undefined);
    const firstAnswerAt = Math.min(...[...admitted].map((index) => server!.requests[index]!.answeredAt!));
    expect(quota.admittedRequests).toBe(48);
    expect(answered.length).toBe(48 + quota.refused);
    // The first wave (8 × ~463 tokens > 3,000) goes before anything is known; after, not one 429.
    expect(quota.refused).toBeLessThanOrEqual(8);
    expect(refusedAt.every((at) => at <= firstAnswerAt)).toBe(true);
    const stats = await pacers.get(pacerKey(server.url, 'sk-test', 'gpt-test')).stats();
    expect(stats.limits.tokensPerMinute).toBeCloseTo(180_000, -3);
    expect(stats.rateLimited).toBe(quota.refused);
    expect(stats.waitedMs).toBeGreaterThan(0);
  }, 30_000);
});
