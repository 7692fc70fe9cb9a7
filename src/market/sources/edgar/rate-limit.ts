import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SEC's fair-access limit: at most 10 requests a second from one user. A sliding window:
 * a request starts only when fewer than `limit` started in the last `windowMs`. One limiter
 * per process, shared by every ticker a universe or a worker asks about.
 */

export interface RequestLimiter {
  /** Resolves when the next request may start (and counts it as started). */
  acquire(signal?: AbortSignal): Promise<void>;
}

export interface LimiterOptions {
  limit?: number;
  windowMs?: number;
  now?: () => number;
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const secRequestsPerSecond = 10;

export function createRequestLimiter(options: LimiterOptions = {}): RequestLimiter {
  const limit = options.limit ?? secRequestsPerSecond;
  const windowMs = options.windowMs ?? 1_000;
  const now = options.now ?? (() => Date.now());
  const wait = options.wait ?? ((ms, signal) => sleep(ms, undefined, signal ? { signal } : undefined));
  const starts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const next = async (signal?: AbortSignal) => {
    for (;;) {
      const time = now();
      while (starts.length > 0 && starts[0]! <= time - windowMs) starts.shift();
      if (starts.length < limit) {
        starts.push(time);
        return;
      }
      await wait(starts[0]! + windowMs - time, signal);
    }
  };
  return {
    acquire(signal) {
      // One after another, so the window is checked by one caller at a time.
      const turn = queue.then(() => next(signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}
