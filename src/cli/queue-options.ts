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
