/**
 * A Redis step that may not hold a run: ioredis queues commands while it reconnects, so a
 * step against a Redis that stopped would wait until it came back. Bounded, such a step
 * fails after `ms`, and its caller goes on without it.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Redis did not answer in time')), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** How long a Redis step of a running analysis may take before the analysis goes on without it. */
export const redisStepTimeoutMs = 2_000;
