// Issue 47 item 22: a worker's pacer whose Redis stops answering paces locally within a short
// timeout, instead of holding the run until Redis comes back.
import { describe, expect, it } from 'vitest';
import { memoryBucketStore, type BucketStore } from '../../src/llm/pacer-buckets.js';
import { withLocalFallback } from '../../src/queue/shared-budget.js';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';

const never = <T>() => new Promise<T>(() => undefined);
const hangingRedis: BucketStore = {
  take: () => never(),
  observe: () => never(),
  release: () => never(),
  pauseFor: () => never(),
  limits: () => never(),
};

describe('the Redis pacer with a local fallback', () => {
  it('a Redis that does not answer costs one short timeout, then the local buckets admit', async () => {
    const local = memoryBucketStore({ requestsPerMinute: 600 }, Date.now);
    const store = withLocalFallback(hangingRedis, local, 50);
    const started = Date.now();
    const first = await store.take(100);
    expect(first.granted).toBe(true);
    expect(first.granted && first.ticket).toBeLessThan(0);
    // Long before the hang would end (it never does): the next steps go local at once.
    const second = await store.take(100);
    expect(second.granted).toBe(true);
    await store.observe(first.granted ? first.ticket : 0, { requests: { limit: 600, remaining: 590 }, tokens: {} });
    await store.release(second.granted ? second.ticket : 0);
    expect((await store.limits()).requestsPerMinute).toBeCloseTo(600);
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
  }, 90_000);

  it('a Redis that answers is used, its tickets observed by it', async () => {
    const calls: string[] = [];
    const redis: BucketStore = {
      take: async () => (calls.push('take'), { granted: true, ticket: 7 }),
      observe: async (ticket) => void calls.push(`observe ${ticket}`),
      release: async (ticket) => void calls.push(`release ${ticket}`),
      pauseFor: async () => void calls.push('pause'),
      limits: async () => ({ requestsPerMinute: 42 }),
    };
    const store = withLocalFallback(redis, memoryBucketStore({}, Date.now), 1_000);
    const taken = await store.take(10);
    expect(taken).toEqual({ granted: true, ticket: 7 });
    await store.observe(7, { requests: {}, tokens: {} });
    expect(calls).toEqual(['take', 'observe 7']);
    expect(await store.limits()).toEqual({ requestsPerMinute: 42 });
  });
});
