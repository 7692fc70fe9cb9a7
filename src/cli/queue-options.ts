import { z } from 'zod';
import { UsageError } from '../errors.js';
import { defaultAttempts, defaultBackoffMs, defaultQueueName } from '../queue/jobs.js';
import { defaultRedisUrl } from '../queue/redis.js';
import { analyzeOptionsSchema } from './options.js';

const got = (issue: { input?: unknown }) => ` (got '${String(issue.input)}')`;

const seconds = (flag: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a number of seconds${got(issue)}` })
    .transform((value) => Math.round(Number(value) * 1000))
    .refine((value) => value >= 100, { error: (issue) => `${flag} must be at least 0.1 seconds${got(issue)}` });

const wholeNumber = (flag: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,2}$/, { error: (issue) => `${flag} must be a whole number from 1 to 999${got(issue)}` })
    .transform(Number);

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

const queueOptions = {
  redis: z.string().optional(),
  queue: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: (issue) => `--queue must be 1–64 letters, digits, - or _${got(issue)}` })
    .default(defaultQueueName),
  quiet: z.boolean().default(false),
  verbose: z.boolean().default(false),
};

const analyzeShape = analyzeOptionsSchema.shape;

export const workerOptionsSchema = z.object({
  ...queueOptions,
  concurrency: analyzeShape.concurrency,
  model: analyzeShape.model,
  baseUrl: analyzeShape.baseUrl,
  search: analyzeShape.search,
  maxCost: analyzeShape.maxCost,
  rpm: analyzeShape.rpm,
  tpm: analyzeShape.tpm,
  maxPosition: analyzeShape.maxPosition,
  maxRisk: analyzeShape.maxRisk,
  minRewardRisk: analyzeShape.minRewardRisk,
  stallInterval: seconds('--stall-interval'),
  rateLimitPause: seconds('--rate-limit-pause'),
  save: z.boolean().default(true),
});
export type WorkerCliOptions = z.infer<typeof workerOptionsSchema>;

/** A day (YYYY-MM-DD: the end of that UTC day) or an ISO instant. */
const asOfSchema = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success, {
    error: (issue) => `--as-of must be a day (YYYY-MM-DD) or an ISO instant${got(issue)}`,
  })
  .transform((value) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value))
  .refine((date) => !Number.isNaN(date.getTime()), { error: '--as-of is not a real date' });

export const enqueueOptionsSchema = z.object({
  ...queueOptions,
  universe: analyzeShape.universe,
  asOf: asOfSchema.optional(),
  wait: z.boolean().default(false),
  attempts: wholeNumber('--attempts')
    .optional()
    .transform((value) => value ?? defaultAttempts),
  backoff: seconds('--backoff')
    .optional()
    .transform((value) => value ?? defaultBackoffMs),
  json: z.boolean().default(false),
  jsonl: z.boolean().default(false),
});
export type EnqueueCliOptions = z.infer<typeof enqueueOptionsSchema>;
