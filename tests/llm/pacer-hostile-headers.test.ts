// Issue 47 items 9 and 10: headers on ordinary answers cannot stall a run. A tiny quota
// announced on a 200 (limit 1, remaining 0) once held the next request for 83 hours, and a
// daily window learnt from one answer held every later one; now any wait the headers imply is
// capped at the 429 cap, a limit smaller than the request that was just answered is ignored,
// a healthy answer resets a learnt window, and a wait is said through the notice.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maxImpliedWaitMs } from '../../src/llm/pacer-buckets.js';
import { createPacer, maxRateLimitWaitMs, systemClock } from '../../src/llm/pacer.js';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const day = 24 * 3_600_000;

async function admittedWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(ms);
  return done;
}

describe('headers that announce a hostile quota', () => {
  it('the cap on implied waits is the 429 cap', () => {
    expect(maxImpliedWaitMs).toBe(60_000);
    expect(maxRateLimitWaitMs).toBe(maxImpliedWaitMs);
  });

  it('ignores limit-tokens 1 / remaining 0 on a 200: smaller than the request that just went through', async () => {
    const pacer = createPacer({ clock: systemClock });
    const first = await pacer.acquire(3_000);
    first.observe({ requests: {}, tokens: { limit: 1, remaining: 0, resetMs: 83 * 3_600_000 } });
    first.finish(3_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(await admittedWithin(pacer.acquire(3_000), 0)).toBe(true);
    expect((await pacer.stats()).limits.tokensPerMinute).toBeUndefined();
  });

  it('limit-requests 2, remaining 0, reset 24h: the next request waits at most a minute, and says so', async () => {
    const pacer = createPacer({ clock: systemClock });
    const first = await pacer.acquire(100);
    first.observe({ requests: { limit: 2, remaining: 0, resetMs: day }, tokens: {} });
    first.finish(100);
    await vi.advanceTimersByTimeAsync(0);
    const notices: number[] = [];
    const next = pacer.acquire(100, undefined, (waitMs) => notices.push(waitMs));
    expect(await admittedWithin(next, 1_000)).toBe(false);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toBeGreaterThan(1_000);
    expect(notices[0]).toBeLessThanOrEqual(maxImpliedWaitMs);
    expect(await admittedWithin(next, maxImpliedWaitMs)).toBe(true);
    // Told once per request, not once per sleep.
    expect(notices).toHaveLength(1);
  });

  it('a healthy answer after a hostile one resets the learnt window to a minute', async () => {
    const pacer = createPacer({ clock: systemClock });
    const first = await pacer.acquire(10);
    first.observe({ requests: { limit: 100, remaining: 0, resetMs: day }, tokens: {} });
    first.finish(10);
    await vi.advanceTimersByTimeAsync(maxImpliedWaitMs);
    const second = await pacer.acquire(10);
    second.observe({ requests: { limit: 100, remaining: 100, resetMs: 0 }, tokens: {} });
    second.finish(10);
    await vi.advanceTimersByTimeAsync(0);
    expect((await pacer.stats()).limits.requestsPerMinute).toBeCloseTo(100);
  });

  it('says nothing when a request goes at once', async () => {
    const pacer = createPacer({ ceilings: { requestsPerMinute: 600 }, clock: systemClock });
    const notices: number[] = [];
    await pacer.acquire(10, undefined, (waitMs) => notices.push(waitMs));
    expect(notices).toEqual([]);
  });
});
