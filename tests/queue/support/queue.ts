import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

/** A fresh queue name per test, so tests sharing one Redis never see each other's jobs. */
export const queueName = (label: string) => `test-${label}-${randomBytes(3).toString('hex')}`;

/** The test's own view of a queue: what a Redis operator would look at. */
export function inspectQueue(url: string, name: string) {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(name, { connection });
  return {
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

/** Polls until `condition` holds, or fails after `timeoutMs` saying what was awaited. */
export async function eventually<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
