// The pacer under fake timers: reservations never exceed the bucket, the bucket follows
// the server's remaining-tokens, and a 429 holds every request back as long as it asks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModelError } from '../../src/errors.js';
import { pacedCall } from '../../src/llm/paced-call.js';
import { createPacer, pacerKey, rateLimitWait, systemClock } from '../../src/llm/pacer.js';
import type { ChatRequest, ChatResponse } from '../../src/llm/types.js';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const start = Date.parse('2026-01-01T00:00:00Z');
const headers = (tokens: { limit?: number; remaining?: number; resetMs?: number }) => ({ requests: {}, tokens });

describe('the token bucket', () => {
  it('never lets the tokens reserved pass the bucket and its refill, whatever the sizes', async () => {
    const capacity = 10_000;
    const pacer = createPacer({ ceilings: { tokensPerMinute: capacity }, clock: systemClock });
    const sizes = Array.from({ length: 40 }, (_, index) => 500 + ((index * 7919) % 3_000));
    const granted: Array<{ at: number; tokens: number }> = [];
    const all = sizes.map((tokens) =>
      pacer.acquire(tokens).then((reservation) => {
        granted.push({ at: Date.now() - start, tokens });
        reservation.finish(tokens);
      }),
    );
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    await Promise.all(all);

    expect(granted).toHaveLength(sizes.length);
    let reserved = 0;
    for (const grant of granted) {
      reserved += grant.tokens;
      // What the bucket held at the start plus what it refilled since, at capacity per minute.
      expect(reserved).toBeLessThanOrEqual(capacity + (grant.at * capacity) / 60_000 + 1);
    }
    // And it is not idle: the last grant comes about when the refill allows it.
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(granted.at(-1)!.at).toBeLessThanOrEqual(((total - capacity) * 60_000) / capacity + 60_000);
  });

  it('serves requests in arrival order: a large one is not starved by small ones', async () => {
    const pacer = createPacer({ ceilings: { tokensPerMinute: 1_000 }, clock: systemClock });
    const order: string[] = [];
    const first = pacer.acquire(900).then(() => order.push('first'));
    const large = pacer.acquire(1_000).then(() => order.push('large'));
    const small = pacer.acquire(10).then(() => order.push('small'));
    await vi.advanceTimersByTimeAsync(120_000);
    await Promise.all([first, large, small]);
    expect(order).toEqual(['first', 'large', 'small']);
  });

  it('follows x-ratelimit-remaining-tokens, less what was sent after and is not answered yet', async () => {
    const pacer = createPacer({ clock: systemClock });
    // Unknown quota: everything goes at once, as before the pacer.
    const one = await pacer.acquire(1_000);
    const two = await pacer.acquire(1_000);
    // The server: 6,000 a minute, 2,500 left, full again in 35 s (so it refills at 100 per second).
    one.observe(headers({ limit: 6_000, remaining: 2_500, resetMs: 35_000 }));
    await vi.advanceTimersByTimeAsync(0);
    expect((await pacer.stats()).limits.tokensPerMinute).toBeCloseTo(6_000);

    // 2,500 less request two's 1,000 (sent after one, unanswered) = 1,500 free: a 1,500 request goes at once.
    let third = false;
    void pacer.acquire(1_500).then(() => (third = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(third).toBe(true);

    // Request two's answer: 1,500 left, less the third's 1,500 unanswered = 0; 2,000 more needs 20 s of refill.
    two.observe(headers({ limit: 6_000, remaining: 1_500, resetMs: 45_000 }));
    await vi.advanceTimersByTimeAsync(0);
    let fourth = false;
    void pacer.acquire(2_000).then(() => (fourth = true));
    await vi.advanceTimersByTimeAsync(19_000);
    expect(fourth).toBe(false);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(fourth).toBe(true);
  });

  it('raises the level when the server says more is left than was reserved (max_tokens not used)', async () => {
    const pacer = createPacer({ ceilings: { tokensPerMinute: 10_000 }, clock: systemClock });
    const first = await pacer.acquire(9_000);
    first.observe(headers({ limit: 10_000, remaining: 9_000, resetMs: 6_000 }));
    await vi.advanceTimersByTimeAsync(0);
    let next = false;
    void pacer.acquire(8_000).then(() => (next = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(next).toBe(true);
  });

  it('admits everything at once with no flags and no headers', async () => {
    const pacer = createPacer({ clock: systemClock });
    const all = await Promise.all(Array.from({ length: 50 }, () => pacer.acquire(100_000)));
    expect(all).toHaveLength(50);
    expect((await pacer.stats()).waitedMs).toBe(0);
  });

  it('gives up waiting when the request is aborted', async () => {
    const pacer = createPacer({ ceilings: { requestsPerMinute: 1 }, clock: systemClock });
    await pacer.acquire(1);
    const controller = new AbortController();
    const waiting = pacer.acquire(1, controller.signal);
    const settled = waiting.then(
      () => 'granted',
      (error: Error) => error.name,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(await settled).toBe('AbortError');
  });
});

const request: ChatRequest = { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], maxTokens: 100 };
const answer: ChatResponse = {
  message: { role: 'assistant', content: 'ok' },
  finishReason: 'stop',
  usage: { promptTokens: 5, completionTokens: 1, cachedPromptTokens: 0 },
  model: 'gpt-test',
};
const limited = (rateLimit: ConstructorParameters<typeof ModelError>[3]) =>
  new ModelError('rate limit hit (429)', 'rate-limited', 429, rateLimit);

describe('a 429', () => {
  it('with retry-after-ms 1500 waits 1.5 s before the retry, and holds back every other request meanwhile', async () => {
    const pacer = createPacer({ clock: systemClock });
    const sent: number[] = [];
    let calls = 0;
    const call = pacedCall(pacer, request, 2, async () => {
      sent.push(Date.now() - start);
      calls += 1;
      if (calls === 1) throw limited({ rateLimit: { retryAfterMs: 1_500, requests: {}, tokens: {} } });
      return answer;
    });
    await vi.advanceTimersByTimeAsync(0);
    // Another analysis's request, made during the pause, waits for it too.
    const otherSent: number[] = [];
    const other = pacedCall(pacer, request, 2, async () => {
      otherSent.push(Date.now() - start);
      return answer;
    });
    await vi.advanceTimersByTimeAsync(1_499);
    expect(sent).toEqual([0]);
    expect(otherSent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toBe(answer);
    await other;
    expect(sent).toEqual([0, 1_500]);
    expect(otherSent).toEqual([1_500]);
    const stats = await pacer.stats();
    expect(stats.rateLimited).toBe(1);
    expect(stats.waitedMs).toBe(3_000);
  });

  it('that never clears ends after the retries, with the error', async () => {
    const pacer = createPacer({ clock: systemClock });
    let calls = 0;
    const call = pacedCall(pacer, request, 2, async () => {
      calls += 1;
      throw limited({ rateLimit: { retryAfterMs: 100, requests: {}, tokens: {} } });
    }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await call).toBeInstanceOf(ModelError);
    expect(calls).toBe(3);
  });

  it('waits as the quota resets when there is no retry-after, and never past the cap', () => {
    expect(rateLimitWait({ requests: {}, tokens: { remaining: 0, resetMs: 2_500 } })).toBe(2_500);
    expect(rateLimitWait({ retryAfterMs: 86_400_000, requests: {}, tokens: {} })).toBe(60_000);
    expect(rateLimitWait({ requests: {}, tokens: {} }, 1)).toBe(1_000);
    expect(rateLimitWait({ requests: {}, tokens: {} }, 3)).toBe(4_000);
  });
});

describe('pacerKey', () => {
  it('keeps no API key in the key, and tells keys apart', () => {
    const one = pacerKey('https://api.openai.com/v1/', 'sk-secret-one', 'gpt-4.1');
    expect(one).not.toContain('sk-secret');
    expect(one).toBe(pacerKey('https://api.openai.com/v1', 'sk-secret-one', 'gpt-4.1'));
    expect(one).not.toBe(pacerKey('https://api.openai.com/v1', 'sk-secret-two', 'gpt-4.1'));
  });
});
