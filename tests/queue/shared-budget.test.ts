// Workers that share a quota share the pacer's buckets in a real redis-server: the Lua
// scripts hold the same rules as the in-process buckets, and two "workers" (each its own
// Redis connection and pacer, as two processes have) stay under one enforced quota.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import { pacerKey, pacingSummary } from '../../src/llm/pacer.js';
import { loadQueueModules } from '../../src/queue/redis.js';
import { redisBucketStore, sharedPacers } from '../../src/queue/shared-budget.js';
import { createQuota } from '../../testkit/quota.js';
import { noRedisMessage, redisServerPath, startRedisServer, type RedisServer } from '../../testkit/redis-server.js';
import { startOpenAIServer, textAnswer } from '../support/openai-server.js';
import { queueName } from './support/queue.js';

const available = redisServerPath() !== null;
let redis: RedisServer;

describe.skipIf(!available)(available ? 'the pacer shared in Redis' : noRedisMessage, () => {
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('reserves against one bucket for every client, and follows the remaining-tokens header', async () => {
    const modules = await loadQueueModules();
    const [one, two] = [modules.connect(redis.url), modules.connect(redis.url)];
    const key = queueName('bucket');
    try {
      const first = redisBucketStore(one, key, { tokensPerMinute: 6_000 });
      const second = redisBucketStore(two, key, { tokensPerMinute: 6_000 });
      const a = await first.take(4_000);
      expect(a.granted).toBe(true);
      // The other client sees what the first reserved: 2,000 left, 3,000 needs ~10 s of refill.
      const refused = await second.take(3_000);
      expect(refused.granted).toBe(false);
      expect(refused.granted ? 0 : refused.waitMs).toBeGreaterThan(9_000);
      expect(refused.granted ? 0 : refused.waitMs).toBeLessThanOrEqual(10_000);
      // The server says 5,500 are left (the answer used less than reserved): 3,000 now fit.
      await first.observe(a.granted ? a.ticket : 0, {
        requests: {},
        tokens: { limit: 6_000, remaining: 5_500, resetMs: 5_000 },
      });
      expect((await second.take(3_000)).granted).toBe(true);
      expect(await first.limits()).toEqual({ tokensPerMinute: 6_000 });
      // A 429's pause holds every client.
      await second.pauseFor(2_000);
      const paused = await first.take(1);
      expect(paused.granted ? 0 : paused.waitMs).toBeGreaterThan(1_500);
    } finally {
      one.disconnect();
      two.disconnect();
    }
  });

  it('one answer announcing limit-requests 2, remaining 0, reset 24h stalls no fresh worker past the cap', async () => {
    const modules = await loadQueueModules();
    const [one, two] = [modules.connect(redis.url), modules.connect(redis.url)];
    const key = queueName('hostile');
    try {
      const first = redisBucketStore(one, key);
      const taken = await first.take(100);
      await first.observe(taken.granted ? taken.ticket : 0, {
        requests: { limit: 2, remaining: 0, resetMs: 86_400_000 },
        tokens: { limit: 1, remaining: 0, resetMs: 86_400_000 },
      });
      // A fresh worker: its wait is bounded by the cap, and the tiny token limit taught nothing.
      const fresh = redisBucketStore(two, key);
      const refused = await fresh.take(100);
      expect(refused.granted ? 0 : refused.waitMs).toBeLessThanOrEqual(60_000);
      expect(await first.limits()).not.toHaveProperty('tokensPerMinute');
      // A window an older worker saved at a day is re-learnt at the cap when read.
      await one.hset(`autohedge:pacer:${hashOf(key)}`, 'rwin', '86400000', 'rlevel', '0', 'rcap', '2');
      const again = await fresh.take(1);
      expect(again.granted ? 0 : again.waitMs).toBeLessThanOrEqual(60_000);
    } finally {
      one.disconnect();
      two.disconnect();
    }
  });

  it('two workers under one enforced quota: 429s only before the limits are learnt, and every call answered', async () => {
    const quota = createQuota({ requests: 40, tokens: 3_000, windowMs: 1_000 });
    const refused: number[] = [];
    const server = await startOpenAIServer((body, index) => {
      const refusal = quota.admit(body);
      if (refusal) {
        refused.push(index);
        return refusal;
      }
      return {
        ...textAnswer(`answer ${index}`, { usage: { prompt_tokens: 263, completion_tokens: 20 }, delayMs: 30 }),
        headers: quota.headers(),
      };
    });
    const modules = await loadQueueModules();
    const workers = await Promise.all([sharedPacers(modules, redis.url), sharedPacers(modules, redis.url)]);
    try {
      const prompt = 'Analyse the quarter. '.repeat(50);
      const analyses = workers.flatMap(({ pacers }) => {
        const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: server.url, pacers, maxRetries: 3 });
        return Array.from({ length: 4 }, async () => {
          for (let call = 0; call < 5; call += 1)
            await model.complete({ model: 'gpt-test', messages: [{ role: 'user', content: prompt }], maxTokens: 200 });
        });
      });
      await Promise.all(analyses);

      expect(quota.admittedRequests).toBe(40);
      // Eight analyses make their calls one after another: the first eight requests are all
      // that can be sent before an answer (or a 429) teaches a worker the quota, so at most
      // those are refused (a pacer that never learnt is refused again and again). Counted,
      // not placed in time: a loaded machine can bunch the server's own windows.
      const sentBeforeAnyAnswer = workers.length * 4;
      expect(refused.length).toBeLessThanOrEqual(sentBeforeAnyAnswer);
      // Both workers learnt the one quota: 3,000 tokens a second is 180,000 a minute.
      for (const { pacers } of workers) {
        const stats = await pacingSummary(pacers);
        expect(stats?.requests).toBeGreaterThan(0);
        expect(stats?.limits.tokensPerMinute).toBeCloseTo(180_000, -3);
      }
      const one = await workers[0]!.pacers.get(pacerKey(server.url, 'sk-test', 'gpt-test')).stats();
      const two = await workers[1]!.pacers.get(pacerKey(server.url, 'sk-test', 'gpt-test')).stats();
      expect(one.rateLimited + two.rateLimited).toBe(quota.refused);
    } finally {
      for (const worker of workers) worker.close();
      await server.close();
    }
  }, 30_000);
});

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 24);
}
