/**
 * The bucket arithmetic of the pacer, in one process: a token bucket for requests and
 * one for tokens, each refilling continuously at capacity / window. The same rules run
 * in Redis for workers that share a quota (src/queue/shared-budget.ts); both stores
 * answer the pacer through the BucketStore interface.
 *
 * A request reserves its estimated tokens before it is sent. When the server answers,
 * its `x-ratelimit-remaining-*` is the truth: the level becomes what it says, less what
 * was reserved by requests sent after this one and not yet answered (the server may not
 * have counted them). Nothing is refunded when an answer used fewer tokens than reserved:
 * the server keeps them until its window refills, and so does the bucket.
 */
import type { QuotaState, RateLimitInfo } from './rate-limit-headers.js';

/** A quota set on the command line (--rpm / --tpm), per minute; the server's own, when lower, wins. */
export interface Ceilings {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

export type TakeResult = { granted: true; ticket: number } | { granted: false; waitMs: number };

/** What the pacer needs from wherever the buckets live (this process, or Redis). */
export interface BucketStore {
  /** Reserve one request and `tokens` tokens, or say how long until they could be. */
  take(tokens: number): Promise<TakeResult>;
  /** The server's headers for the request holding `ticket`. */
  observe(ticket: number, info: RateLimitInfo): Promise<void>;
  /** The request holding `ticket` ended without the server's headers: it no longer counts as unanswered. */
  release(ticket: number): Promise<void>;
  /** Nothing is sent for `ms` from now (a 429's retry-after), by any user of the store. */
  pauseFor(ms: number): Promise<void>;
  /** The quotas as known now, per minute; undefined while unknown. */
  limits(): Promise<{ requestsPerMinute?: number; tokensPerMinute?: number }>;
}

export interface Bucket {
  /** Undefined while the quota is unknown: the bucket then admits everything. */
  capacity?: number;
  /** The time the bucket takes to refill from empty. */
  windowMs: number;
  level: number;
  updatedAt: number;
}

export const minuteMs = 60_000;
/**
 * The longest any header may make a request wait: the same cap as a 429's pause. A bucket
 * refills from empty within its window, so a window kept under this bounds every wait the
 * headers imply — a daily quota announced on ordinary answers costs a minute, not a day.
 */
export const maxImpliedWaitMs = 60_000;
/** A learnt window is kept inside these bounds, so one odd header cannot stall or unleash the pacer. */
const shortestWindowMs = 100;
const longestWindowMs = maxImpliedWaitMs;

export function newBucket(capacity: number | undefined, now: number): Bucket {
  return { ...(capacity !== undefined ? { capacity } : {}), windowMs: minuteMs, level: capacity ?? 0, updatedAt: now };
}

export function refill(bucket: Bucket, now: number): void {
  if (bucket.capacity === undefined) return;
  const elapsed = Math.max(0, now - bucket.updatedAt);
  bucket.level = Math.min(bucket.capacity, bucket.level + (elapsed * bucket.capacity) / bucket.windowMs);
  bucket.updatedAt = now;
}

/** How long until `bucket` holds `amount` (a request larger than the bucket waits for a full one); 0 = now. */
export function waitFor(bucket: Bucket, amount: number): number {
  if (bucket.capacity === undefined) return 0;
  const needed = Math.min(amount, bucket.capacity);
  if (bucket.level >= needed) return 0;
  return Math.ceil(((needed - bucket.level) * bucket.windowMs) / bucket.capacity);
}

/**
 * Learns the quota from one answer's headers: the limit (under the ceiling), the window
 * from how far the bucket is from full and how soon it resets, and the level from
 * `remaining` less `reservedAfter`. A limit smaller than the request that was just
 * answered (`ownAmount`) cannot be true — that request went through — so such headers
 * teach nothing. A bucket the answer shows nearly full is healthy: its window goes back to
 * a minute, so one odd answer's long window does not outlive it.
 */
export function learn(
  bucket: Bucket,
  quota: QuotaState,
  ceilingPerMinute: number | undefined,
  reservedAfter: number,
  now: number,
  ownAmount = 1,
): void {
  refill(bucket, now);
  bucket.windowMs = Math.min(bucket.windowMs, longestWindowMs);
  if (quota.limit !== undefined && quota.limit < ownAmount) return;
  if (quota.limit !== undefined) {
    bucket.capacity = Math.min(quota.limit, ceilingPerMinute ?? Number.POSITIVE_INFINITY);
    const used = quota.limit - (quota.remaining ?? quota.limit);
    // Only a clear signal: a bucket 1 % from full says little about its window, except that it is healthy.
    if (quota.resetMs !== undefined && quota.resetMs > 0 && used >= quota.limit / 100)
      bucket.windowMs = clamp((quota.resetMs * quota.limit) / used, shortestWindowMs, longestWindowMs);
    else if (used < quota.limit / 100) bucket.windowMs = minuteMs;
  }
  if (quota.remaining !== undefined && bucket.capacity !== undefined)
    bucket.level = Math.min(bucket.capacity, quota.remaining - reservedAfter);
  bucket.updatedAt = now;
}

export function perMinute(bucket: Bucket): number | undefined {
  return bucket.capacity === undefined ? undefined : (bucket.capacity * minuteMs) / bucket.windowMs;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** The buckets of one process: the store a pacer uses unless workers share one in Redis. */
export function memoryBucketStore(ceilings: Ceilings, now: () => number): BucketStore {
  const requests = newBucket(ceilings.requestsPerMinute, now());
  const tokens = newBucket(ceilings.tokensPerMinute, now());
  /** Tickets sent and not yet answered, with the tokens each reserved. */
  const unanswered = new Map<number, number>();
  let nextTicket = 1;
  let pausedUntil = 0;

  return {
    async take(amount) {
      const at = now();
      refill(requests, at);
      refill(tokens, at);
      const waitMs = Math.max(pausedUntil - at, waitFor(requests, 1), waitFor(tokens, amount));
      if (waitMs > 0) return { granted: false, waitMs };
      if (requests.capacity !== undefined) requests.level -= 1;
      if (tokens.capacity !== undefined) tokens.level -= amount;
      const ticket = nextTicket++;
      unanswered.set(ticket, amount);
      return { granted: true, ticket };
    },
    async observe(ticket, info) {
      const own = unanswered.get(ticket) ?? 0;
      unanswered.delete(ticket);
      const after = [...unanswered].filter(([other]) => other > ticket);
      const at = now();
      learn(requests, info.requests, ceilings.requestsPerMinute, after.length, at);
      const reserved = after.reduce((total, [, amount]) => total + amount, 0);
      learn(tokens, info.tokens, ceilings.tokensPerMinute, reserved, at, own);
    },
    async release(ticket) {
      unanswered.delete(ticket);
    },
    async pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
    async limits() {
      return { requestsPerMinute: perMinute(requests), tokensPerMinute: perMinute(tokens) };
    },
  };
}
