/**
 * Closing a worker: with Redis up, it takes no new job and lets those in flight finish;
 * with Redis gone (ECONNREFUSED, the server stopped), there is nothing to finish against
 * and nothing to wait for — BullMQ's graceful close would wait for a reconnection that
 * never comes, so a SIGTERM would be ignored until the process manager's SIGKILL. The
 * runs in flight are then interrupted and saved as interrupted (as the CLI saves a run
 * Ctrl-C stops), and the worker is closed by force, its connections dropped at once; the
 * jobs it held go back to the queue when their lock expires, as after a crash.
 */
import type { RedisClient } from './redis.js';

export interface ClosingParts {
  worker: import('bullmq').Worker;
  queue: import('bullmq').Queue;
  connection: RedisClient;
  log: (line: string) => void;
  /** Ends the analyses in flight (interrupted, saved) before a close at once drops their connections. */
  interruptInFlight?: () => Promise<void>;
}

/** BullMQ's wrapper around each ioredis client it owns (public on its backend). */
interface BullConnection {
  client: Promise<{ disconnect(): void }>;
}

/** How often a graceful close looks whether Redis went away meanwhile. */
const watchIntervalMs = 100;
/** The most a forced close waits for BullMQ to let go of its connections. */
const forcedCloseMs = 300;

export async function closeWorker(parts: ClosingParts): Promise<void> {
  const { connection } = parts;
  try {
    if (connection.status !== 'ready') {
      parts.log(`autohedge worker: Redis is unreachable (${connection.status}): closing at once`);
      await forceClose(parts);
      return;
    }
    if ((await Promise.race([gracefulClose(parts), redisGone(connection)])) === 'gone') {
      parts.log('autohedge worker: Redis went away while the analyses in flight finished: closing at once');
      await forceClose(parts);
    }
  } finally {
    connection.disconnect();
  }
}

async function gracefulClose({ worker, queue }: ClosingParts): Promise<'closed'> {
  await worker.close();
  await queue.close();
  return 'closed';
}

/** Resolves once the connection is no longer ready; polling stops when the process has nothing else to do. */
function redisGone(connection: RedisClient): Promise<'gone'> {
  return new Promise((resolve) => {
    const watch = setInterval(() => {
      if (connection.status === 'ready') return;
      clearInterval(watch);
      resolve('gone');
    }, watchIntervalMs);
    watch.unref();
  });
}

async function forceClose({ worker, queue, connection, interruptInFlight }: ClosingParts): Promise<void> {
  // Runs in flight would otherwise die with the process, unsaved: they end interrupted and are saved first.
  await interruptInFlight?.();
  connection.disconnect();
  // The worker's own clients (its copy of the connection and the blocking one) would keep
  // reconnecting, and the process alive: they are dropped too.
  const backend = worker.backend as unknown as Partial<Record<'connection' | 'blockingConnection', BullConnection>>;
  for (const owned of [backend.connection, backend.blockingConnection])
    void owned?.client.then((client) => client.disconnect()).catch(() => undefined);
  const dropped = Promise.allSettled([worker.close(true), queue.disconnect()]);
  await Promise.race([dropped, new Promise((resolve) => setTimeout(resolve, forcedCloseMs))]);
}
