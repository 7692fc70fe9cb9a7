// The rate-limit headers of OpenAI-compatible servers, read for the pacer: each format a
// server sends, and whatever garbage one might.
import { describe, expect, it } from 'vitest';
import {
  hasRateLimitInfo,
  parseDuration,
  parseRateLimitHeaders,
  parseRetryAfter,
} from '../../src/llm/rate-limit-headers.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseDuration', () => {
  it.each([
    ['6m0s', 360_000],
    ['20ms', 20],
    ['1s', 1_000],
    ['1.5s', 1_500],
    ['1h2m3s', 3_723_000],
    ['0s', 0],
    ['250us', 0.25],
    ['2', 2_000],
    ['0.5', 500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 6);
  });

  it.each(['', 'soon', '-1s', '5 minutes', 's', '1x', 'NaN', '1e3s'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => expect(parseRetryAfter('3', now)).toBe(3_000));
  it('reads an HTTP date, measured from now', () =>
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7_000));
  it('reads a date already past as no wait', () =>
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0));
  it.each(['-5', 'tomorrow-ish garbage', ''])('ignores %j', (text) =>
    expect(parseRetryAfter(text, now)).toBeUndefined(),
  );
});

describe('parseRateLimitHeaders', () => {
  it('reads every OpenAI header from a fetch Headers', () => {
    const headers = new Headers({
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-remaining-tokens': '29000',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-reset-tokens': '6m0s',
      'retry-after-ms': '1500',
      'retry-after': '2',
    });
    expect(parseRateLimitHeaders(headers, now)).toEqual({
      retryAfterMs: 1_500,
      requests: { limit: 500, remaining: 499, resetMs: 120 },
      tokens: { limit: 30_000, remaining: 29_000, resetMs: 360_000 },
    });
  });

  it('prefers retry-after-ms, else reads retry-after as seconds or a date', () => {
    expect(parseRateLimitHeaders({ 'retry-after': '2' }, now).retryAfterMs).toBe(2_000);
    expect(parseRateLimitHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:01 GMT' }, now).retryAfterMs).toBe(1_000);
    expect(parseRateLimitHeaders({ 'retry-after-ms': 'soon', 'retry-after': '4' }, now).retryAfterMs).toBe(4_000);
  });

  it('is empty when there are no headers', () => {
    const info = parseRateLimitHeaders(new Headers(), now);
    expect(info).toEqual({ requests: {}, tokens: {} });
    expect(hasRateLimitInfo(info)).toBe(false);
    expect(parseRateLimitHeaders(undefined, now)).toEqual({ requests: {}, tokens: {} });
  });

  it('leaves out garbage, keeping what can be read', () => {
    const info = parseRateLimitHeaders(
      {
        'x-ratelimit-limit-tokens': 'lots',
        'x-ratelimit-remaining-tokens': '-3',
        'x-ratelimit-reset-tokens': 'whenever',
        'x-ratelimit-limit-requests': '0',
        'x-ratelimit-remaining-requests': '12',
        'retry-after-ms': '-1',
      },
      now,
    );
    expect(info).toEqual({ requests: { remaining: 12 }, tokens: {} });
    expect(hasRateLimitInfo(info)).toBe(true);
  });
});
