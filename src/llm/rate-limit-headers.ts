/**
 * The rate-limit headers OpenAI-compatible servers send on every answer, a 429 included:
 * `retry-after` (seconds or an HTTP date), `retry-after-ms`, and for requests and tokens
 * `x-ratelimit-limit-*`, `x-ratelimit-remaining-*`, `x-ratelimit-reset-*` (a duration
 * such as `6m0s`, `20ms`, `1s`, or plain seconds). A header that is missing or cannot be
 * read is left out: a garbled header never stops a call, it only teaches the pacer less.
 */

import type { QuotaState, RateLimitInfo } from '../rate-limit.js';

export type { QuotaState, RateLimitInfo };

/** What the parser reads headers from: a fetch `Headers`, or a plain record (lower-case names). */
export type HeaderSource = Pick<Headers, 'get'> | Record<string, string | string[] | undefined>;

const unitMs: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001, µs: 0.001, ns: 1e-6 };

/**
 * A Go-style duration (`6m0s`, `1h2m3.5s`, `20ms`, `0s`) or a bare number of seconds
 * (`1.5`), in milliseconds; undefined for anything else (negative, empty, `soon`).
 */
export function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g))
    total += Number(amount) * unitMs[unit!]!;
  return Number.isFinite(total) ? total : undefined;
}

/** `retry-after`: delay-seconds, or an HTTP date (RFC 9110 §10.2.3) measured from `now`. */
export function parseRetryAfter(text: string | undefined, now: number): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only a date-like value: Date.parse accepts bare numbers like "-5" as years.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The rate-limit information in a response's headers; empty when the server sends none. */
export function parseRateLimitHeaders(headers: HeaderSource | undefined, now: number): RateLimitInfo {
  const get = headerReader(headers);
  const retryAfterMs = nonNegative(numberOf(get('retry-after-ms'))) ?? parseRetryAfter(get('retry-after'), now);
  return {
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    requests: quota(get, 'requests'),
    tokens: quota(get, 'tokens'),
  };
}

/** True when the headers told anything about a quota or a wait. */
export function hasRateLimitInfo(info: RateLimitInfo): boolean {
  return (
    info.retryAfterMs !== undefined || Object.keys(info.requests).length > 0 || Object.keys(info.tokens).length > 0
  );
}

function quota(get: (name: string) => string | undefined, which: 'requests' | 'tokens'): QuotaState {
  const limit = positive(numberOf(get(`x-ratelimit-limit-${which}`)));
  const remaining = nonNegative(numberOf(get(`x-ratelimit-remaining-${which}`)));
  const resetMs = parseDuration(get(`x-ratelimit-reset-${which}`));
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetMs !== undefined ? { resetMs } : {}),
  };
}

function headerReader(headers: HeaderSource | undefined): (name: string) => string | undefined {
  if (!headers) return () => undefined;
  if (typeof headers.get === 'function') {
    const source = headers as Pick<Headers, 'get'>;
    return (name) => source.get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  return (name) => {
    const value = record[name];
    return Array.isArray(value) ? value[0] : value;
  };
}

function numberOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*-?\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}

function nonNegative(value: number | undefined): number | undefined {
  return value !== undefined && value >= 0 && Number.isFinite(value) ? value : undefined;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 && Number.isFinite(value) ? value : undefined;
}
