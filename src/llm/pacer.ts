/**
 * Paces model requests to the provider's quota instead of running into it. One pacer
 * per (base URL, API key, model) is shared by every analysis in the process
 * (`pacerFor`); each request waits its turn (first come, first served) until the
 * request and token buckets hold its budget — its estimated prompt tokens plus its
 * `max_tokens`, which OpenAI counts in full when it admits a request — then reserves it.
 * The buckets learn the quota from each answer's headers (or start from --rpm / --tpm),
 * and a 429 pauses every request of the pacer for as long as the server says.
 *
 * With no limit headers and no flags the buckets stay unknown and admit everything at
 * once: the behaviour before the pacer existed.
 */
import { createHash } from 'node:crypto';
import { maxImpliedWaitMs, memoryBucketStore, type BucketStore, type Ceilings } from './pacer-buckets.js';
import type { RateLimitInfo } from './rate-limit-headers.js';

/** Time as the pacer sees it; tests hand in fake timers' clock. */
export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The longest a 429 makes requests wait, whatever the server asks (a daily limit would say hours). */
export const maxRateLimitWaitMs = maxImpliedWaitMs;
/** A wait for budget this long or longer is said on stderr: a run that holds still says why. */
const noticeWaitMs = 1_000;
/** A 429 without retry-after or reset headers waits this long, doubling per 429 in a row. */
const fallbackRateLimitWaitMs = 1_000;

/** A request's budget, held from before it is sent until its answer (or failure). */
export interface Reservation {
  /** The server's headers arrived: the buckets follow them. */
  observe(info: RateLimitInfo): void;
  /** The answer is complete: counts the tokens it used. */
  finish(usedTokens: number): void;
  /** The server answered 429: pauses every request of the pacer; returns the wait in ms. */
  rateLimited(info: RateLimitInfo): number;
  /** The request failed otherwise: nothing is learnt. */
  cancel(): void;
}

export interface PacerStats {
  requests: number;
  /** Summed over requests: time spent waiting for budget (or for a 429's pause) before being sent. */
  waitedMs: number;
  rateLimited: number;
  /** Prompt + completion tokens the answers reported. */
  tokensUsed: number;
  /** From the first request's start to the last answer's end, 0 before any. */
  activeMs: number;
  limits: { requestsPerMinute?: number; tokensPerMinute?: number };
}

/** Told once per request that waits a while for budget, with how long it is asked to wait. */
export type WaitNotice = (waitMs: number) => void;

export interface Pacer {
  /** Waits until one request of `tokens` estimated tokens may be sent, and reserves it. */
  acquire(tokens: number, signal?: AbortSignal, onWait?: WaitNotice): Promise<Reservation>;
  stats(): Promise<PacerStats>;
}

export interface PacerOptions {
  ceilings?: Ceilings;
  clock?: PacerClock;
  /** Where the buckets live; by default in this process. */
  store?: BucketStore;
}

export function createPacer(options: PacerOptions = {}): Pacer {
  const clock = options.clock ?? systemClock;
  const store = options.store ?? memoryBucketStore(options.ceilings ?? {}, () => clock.now());
  const totals = { requests: 0, waitedMs: 0, rateLimited: 0, tokensUsed: 0 };
  let firstAt: number | undefined;
  let lastAt: number | undefined;
  let limitedInARow = 0;
  // First come, first served: each request waits for the one before it to be admitted.
  let line: Promise<unknown> = Promise.resolve();

  const admit = async (tokens: number, signal: AbortSignal | undefined, onWait?: WaitNotice): Promise<number> => {
    let told = false;
    for (;;) {
      if (signal?.aborted) throw abortError();
      const taken = await store.take(tokens);
      if (taken.granted) return taken.ticket;
      // Whatever a store says (Redis state written by another worker included), no one wait passes the cap.
      const waitMs = Math.min(maxImpliedWaitMs, taken.waitMs);
      if (!told && waitMs >= noticeWaitMs) onWait?.(waitMs);
      told ||= waitMs >= noticeWaitMs;
      await clock.sleep(waitMs, signal);
    }
  };

  const reservation = (ticket: number): Reservation => {
    let open = true;
    const close = () => {
      const wasOpen = open;
      open = false;
      return wasOpen;
    };
    return {
      observe(info) {
        if (!open) return;
        limitedInARow = 0;
        void store.observe(ticket, info).catch(() => undefined);
      },
      finish(usedTokens) {
        totals.tokensUsed += usedTokens;
        lastAt = clock.now();
        if (close()) void store.release(ticket).catch(() => undefined);
      },
      rateLimited(info) {
        totals.rateLimited += 1;
        limitedInARow += 1;
        const waitMs = rateLimitWait(info, limitedInARow);
        if (close()) void store.observe(ticket, info).catch(() => undefined);
        void store.pauseFor(waitMs).catch(() => undefined);
        return waitMs;
      },
      cancel() {
        if (close()) void store.release(ticket).catch(() => undefined);
      },
    };
  };

  return {
    async acquire(tokens, signal, onWait) {
      const queuedAt = clock.now();
      firstAt ??= queuedAt;
      const turn = line.then(() => admit(tokens, signal, onWait));
      line = turn.catch(() => undefined);
      const ticket = await turn;
      totals.requests += 1;
      totals.waitedMs += clock.now() - queuedAt;
      return reservation(ticket);
    },
    async stats() {
      const activeMs = firstAt === undefined || lastAt === undefined ? 0 : Math.max(0, lastAt - firstAt);
      return { ...totals, activeMs, limits: await store.limits() };
    },
  };
}

/**
 * How long a 429 pauses the pacer: the server's retry-after (-ms), else the reset of the
 * quota it reports exhausted, else a doubling fallback — never more than maxRateLimitWaitMs.
 */
export function rateLimitWait(info: RateLimitInfo, inARow = 1): number {
  const exhausted = [info.requests, info.tokens]
    .filter((quota) => quota.remaining === 0 && quota.resetMs !== undefined)
    .map((quota) => quota.resetMs!);
  const asked =
    info.retryAfterMs ??
    (exhausted.length > 0 ? Math.max(...exhausted) : fallbackRateLimitWaitMs * 2 ** Math.min(inARow - 1, 6));
  return Math.min(maxRateLimitWaitMs, Math.max(0, asked));
}

/** The key a pacer is shared under; the API key enters hashed, so no secret sits in a map or in Redis. */
export function pacerKey(baseURL: string, apiKey: string | undefined, model: string): string {
  const key = createHash('sha256')
    .update(apiKey ?? '')
    .digest('hex')
    .slice(0, 16);
  return `${baseURL.replace(/\/+$/, '')}|${key}|${model}`;
}

export interface PacerRegistry {
  /** The one pacer for this key, made on first use. */
  get(key: string): Pacer;
  /** Every pacer made so far, by key. */
  entries(): Array<[string, Pacer]>;
}

/** A registry of pacers; `makeStore` decides where each key's buckets live (this process, or Redis). */
export function createPacerRegistry(
  options: { ceilings?: Ceilings; clock?: PacerClock; makeStore?: (key: string) => BucketStore } = {},
): PacerRegistry {
  const pacers = new Map<string, Pacer>();
  return {
    get(key) {
      let pacer = pacers.get(key);
      if (!pacer) {
        pacer = createPacer({
          ...(options.ceilings ? { ceilings: options.ceilings } : {}),
          ...(options.clock ? { clock: options.clock } : {}),
          ...(options.makeStore ? { store: options.makeStore(key) } : {}),
        });
        pacers.set(key, pacer);
      }
      return pacer;
    },
    entries: () => [...pacers],
  };
}

function abortError(): Error {
  const error = new Error('the request was aborted while it waited for rate-limit budget');
  error.name = 'AbortError';
  return error;
}

const processRegistries = new Map<string, PacerRegistry>();

/**
 * The process's pacers for these ceilings: every model built in this process with the
 * same --rpm / --tpm (the CLI's sessions, the MCP server's analyses) shares one pacer per
 * (base URL, key, model).
 */
export function processPacers(ceilings: Ceilings = {}): PacerRegistry {
  const id = JSON.stringify([ceilings.requestsPerMinute ?? null, ceilings.tokensPerMinute ?? null]);
  let registry = processRegistries.get(id);
  if (!registry) {
    registry = createPacerRegistry({ ceilings });
    processRegistries.set(id, registry);
  }
  return registry;
}

/** What every pacer of a registry did, added up; null when none was used. */
export async function pacingSummary(registry: PacerRegistry): Promise<PacerStats | null> {
  const all = await Promise.all(registry.entries().map(([, pacer]) => pacer.stats()));
  const used = all.filter((stats) => stats.requests > 0);
  if (used.length === 0) return null;
  const sum = (pick: (stats: PacerStats) => number) => used.reduce((total, stats) => total + pick(stats), 0);
  const known = (pick: (stats: PacerStats) => number | undefined) => {
    const values = used.map(pick).filter((value): value is number => value !== undefined);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : undefined;
  };
  const requestsPerMinute = known((stats) => stats.limits.requestsPerMinute);
  const tokensPerMinute = known((stats) => stats.limits.tokensPerMinute);
  return {
    requests: sum((stats) => stats.requests),
    waitedMs: sum((stats) => stats.waitedMs),
    rateLimited: sum((stats) => stats.rateLimited),
    tokensUsed: sum((stats) => stats.tokensUsed),
    activeMs: Math.max(...used.map((stats) => stats.activeMs)),
    limits: {
      ...(requestsPerMinute !== undefined ? { requestsPerMinute } : {}),
      ...(tokensPerMinute !== undefined ? { tokensPerMinute } : {}),
    },
  };
}

/** One line for --verbose and the universe's summary: waits, 429s, tokens/min against the quota. */
export function describePacing(stats: PacerStats): string {
  const minutes = stats.activeMs / 60_000;
  const achieved = minutes > 0 ? Math.round(stats.tokensUsed / minutes) : 0;
  const limit = stats.limits.tokensPerMinute;
  const against =
    limit !== undefined
      ? ` of ${Math.round(limit).toLocaleString('en-US')} allowed (${Math.round((achieved / limit) * 100)} %)`
      : ' (no token limit announced)';
  return (
    `rate limits: ${stats.requests} model requests waited ${(stats.waitedMs / 1000).toFixed(1)} s in all for budget, ` +
    `${stats.rateLimited} answered 429; ${achieved.toLocaleString('en-US')} tokens/min${against}`
  );
}
