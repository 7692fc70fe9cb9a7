/**
 * The queue's connection to Redis. bullmq and ioredis are optional dependencies,
 * imported here on first use only, so nothing loads them unless `worker` or
 * `enqueue` runs; a missing package or an unreachable server is one ConfigError.
 */
import { ConfigError, errorCode, errorMessage } from '../errors.js';

export type BullMq = typeof import('bullmq');
type RedisModule = typeof import('ioredis');
export type RedisClient = InstanceType<RedisModule['Redis']>;

export { defaultRedisUrl } from './defaults.js';

export interface QueueModules {
  bullmq: BullMq;
  /** A client for BullMQ: maxRetriesPerRequest null, as its workers require. */
  connect(url: string): RedisClient;
}

/** The two optional packages, or a ConfigError saying how to install them. */
export async function loadQueueModules(): Promise<QueueModules> {
  let bullmq: BullMq;
  let redis: { Redis?: RedisModule['Redis']; default?: unknown };
  try {
    [bullmq, redis] = await Promise.all([
      import('bullmq'),
      import('ioredis') as Promise<{ Redis?: RedisModule['Redis']; default?: unknown }>,
    ]);
  } catch (error) {
    throw new ConfigError(
      `the job queue needs the optional packages bullmq and ioredis, which are not installed (${firstLine(errorMessage(error))}): run \`npm install bullmq ioredis\``,
      { cause: error },
    );
  }
  // ioredis is CommonJS: the class is a named export or hangs off the default one.
  const Redis = redis.Redis ?? (redis.default as { Redis: RedisModule['Redis'] }).Redis;
  return {
    bullmq,
    // A socket to a Redis that went away never closes cleanly: ioredis would hold the process
    // for its default 2 s disconnect timeout after a SIGTERM.
    connect: (url) => new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, disconnectTimeout: 200 }),
  };
}

/** The URL with any password replaced, for messages. */
export function displayRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '<invalid Redis URL>';
  }
}

/**
 * Connects `client` and pings the server, failing fast with a clear ConfigError when
 * Redis is not there (instead of BullMQ retrying the connection forever).
 */
export async function ensureReachable(client: RedisClient, url: string, timeoutMs = 3_000): Promise<void> {
  const shown = displayRedisUrl(url);
  let timer: NodeJS.Timeout | undefined;
  // ioredis rejects connect() with "Connection is closed."; the cause (ECONNREFUSED) comes as an event.
  let cause: unknown;
  const onError = (error: unknown) => (cause ??= error);
  client.on('error', onError);
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([client.connect().then(() => client.ping()), timeout]);
  } catch (error) {
    client.disconnect();
    const code = errorCode(cause) ?? errorCode(error);
    throw new ConfigError(
      `cannot reach Redis at ${shown} (${code ?? firstLine(errorMessage(error))}): start redis-server, or point --redis / AUTOHEDGE_REDIS_URL at yours`,
    );
  } finally {
    clearTimeout(timer);
    client.off('error', onError);
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
