import { UsageError } from '../errors.js';
import { defaultRedisUrl } from '../queue/defaults.js';

/** --redis, else AUTOHEDGE_REDIS_URL, else the local default; redis:// or rediss:// only. */
export function redisUrlFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const value = flag ?? (env.AUTOHEDGE_REDIS_URL?.trim() || defaultRedisUrl);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--redis must be a redis:// or rediss:// URL (got '${value.replace(/\/\/[^@/]*@/, '//***@')}')`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new UsageError(`--redis must be a redis:// or rediss:// URL (got a ${url.protocol} URL)`);
  return value;
}

/**
 * The queue a command uses: --queue, or under --demo the demo's own queue beside it
 * (`<queue>-demo`), so a demo worker never takes a real job and a real worker never a
 * demo one. `enqueue --demo` and `worker --demo` name the same one.
 */
export function queueNameFrom(queue: string, demo: boolean | undefined): string {
  return demo ? `${queue}-demo` : queue;
}
