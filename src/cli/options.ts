import { z } from 'zod';
import { UsageError } from '../errors.js';
import { parseDay } from '../market/calendar/index.js';
import { workerIds, type WorkerId } from '../result/types.js';
import { serviceTiers } from '../llm/types.js';
import { formatZodIssues } from '../zod-issues.js';

/**
 * The zod side of the option catalogue (src/cli/option-catalogue.ts): the value types
 * its entries are built from. Loaded only when a command runs, so `--help` never pays
 * for zod; every field reads the raw value commander hands over (a string, a boolean
 * or a list) and names its flag in the message.
 */

/** The value as typed, so a message shows what was wrong with it. */
const got = (issue: { input?: unknown }) => ` (got '${String(issue.input)}')`;

export const positiveInteger = (flag: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: (issue) => `${flag} must be a whole number of at least 1${got(issue)}` })
    .transform(Number)
    .refine((value) => value >= 1, { error: (issue) => `${flag} must be at least 1${got(issue)}` });

export const positiveNumber = (flag: string, max?: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a positive number${got(issue)}` })
    .transform(Number)
    .refine((value) => value > 0, { error: (issue) => `${flag} must be greater than 0${got(issue)}` })
    .refine((value) => max === undefined || value <= max, {
      error: (issue) => `${flag} must be at most ${max}${got(issue)}`,
    });

/** A share between 0 and 1 inclusive (`--min-agreement 0.6`). */
export const shareOfOne = (flag: string) =>
  z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, { error: (issue) => `${flag} must be a number from 0 to 1${got(issue)}` })
    .transform(Number);

/** Seconds as typed, in milliseconds. */
export const seconds = (flag: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a number of seconds${got(issue)}` })
    .transform((value) => Math.round(Number(value) * 1000))
    .refine((value) => value >= 100, { error: (issue) => `${flag} must be at least 0.1 seconds${got(issue)}` });

export const wholeNumber = (flag: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,2}$/, { error: (issue) => `${flag} must be a whole number from 1 to 999${got(issue)}` })
    .transform(Number);

export { modelName, unsafeInName } from '../run/request.js';

/** `--agent` ids, each a desk, each once. */
export const desks = z
  .array(z.string())
  .default([])
  .superRefine((ids, context) => {
    for (const id of ids) {
      if (!(workerIds as readonly string[]).includes(id)) {
        context.addIssue({ code: 'custom', message: `unknown agent '${id}' (choose from ${workerIds.join(', ')})` });
      }
    }
  })
  .transform((ids) => [...new Set(ids)] as WorkerId[]);

export const path = z.string().min(1);
/** A TCP port, 0 for any free one. */
export const port = z
  .string()
  .regex(/^\d{1,5}$/, { error: (issue) => `--port must be a whole number from 0 to 65535${got(issue)}` })
  .transform(Number)
  .refine((value) => value <= 65535, {
    error: (issue) => `--port must be a whole number from 0 to 65535${got(issue)}`,
  });
export const flag = z.boolean().default(false);
export const text = z.string();

/** --service-tier: flex or default. */
export const serviceTier = z.enum(serviceTiers, {
  error: (issue) => `--service-tier must be flex or default${got(issue)}`,
});

export const queueName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: (issue) => `--queue must be 1–64 letters, digits, - or _${got(issue)}` });

/** A calendar day, YYYY-MM-DD, for the flag named. */
export const day = (flag: string) =>
  z.string().transform((value, context) => {
    const parsed = parseDay(value);
    if (parsed === null)
      context.addIssue({ code: 'custom', message: `${flag} must be a date as YYYY-MM-DD${got({ input: value })}` });
    return parsed ?? value;
  });

/** Comma-separated whole numbers of sessions, sorted, each once. */
export const sessionList = (flag: string, longest: number) =>
  z.string().transform((value, context) => {
    const parts = value.split(',').map((part) => part.trim());
    const horizons = parts.map(Number);
    if (parts.some((part) => !/^\d+$/.test(part)) || horizons.some((horizon) => horizon < 1 || horizon > longest)) {
      context.addIssue({
        code: 'custom',
        message: `${flag} must be whole numbers of sessions from 1 to ${longest}, separated by commas (got '${value}')`,
      });
    }
    return [...new Set(horizons)].sort((left, right) => left - right);
  });

/** Basis points from 0 (a cost may be zero) to 10,000. */
export const basisPoints = (flag: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a number of basis points${got(issue)}` })
    .transform(Number)
    .refine((value) => value <= 10_000, { error: (issue) => `${flag} must be at most 10000${got(issue)}` });

export const seed = (flag: string) =>
  z
    .string()
    .refine((value) => /^\d{1,9}$/.test(value), { error: (issue) => `${flag} must be a whole number${got(issue)}` })
    .transform(Number);

/** A number from `min` to `max` (percentages and amounts of `autohedge portfolio`), as typed. */
export const boundedNumber = (flag: string, min: number, max?: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a number of at least ${min}${got(issue)}` })
    .transform(Number)
    .refine((value) => value >= min && (max === undefined || value <= max), {
      error: (issue) => `${flag} must be from ${min} to ${max ?? 'any size'}${got(issue)}`,
    });

/** An amount of money that may be negative (cash on margin). */
export const amount = (flag: string) =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, { error: (issue) => `${flag} must be a number of USD${got(issue)}` })
    .transform(Number);
/** `30m`, `4h`, `1d`: an interval in milliseconds, at least a minute. */
export const interval = (flag: string) =>
  z.string().transform((value, context) => {
    const match = /^(\d{1,4})(m|h|d)$/.exec(value.trim());
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
    if (!match) {
      context.addIssue({
        code: 'custom',
        message: `${flag} must be a number of minutes, hours or days such as 30m, 4h, 1d${got({ input: value })}`,
      });
      return 0;
    }
    return Number(match[1]) * unit[match[2] as keyof typeof unit];
  });

/** A webhook: http(s), no credentials in it to leak into logs (a token in its path is its own business). */
export const webhookUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}, '--notify must be an http(s) URL without user:password@');

export { z };

export function parseOptions<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.infer<Schema> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  // Each option's message names its flag ("--samples must be …"): the message alone.
  throw new UsageError(formatZodIssues(result.error, { limit: 1, paths: false }) || 'invalid options');
}

/** --rpm / --tpm as the pacer's ceilings (src/llm/pacer-buckets.ts). */
export function ceilingsOf(options: { rpm?: number | undefined; tpm?: number | undefined }): {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
} {
  return {
    ...(options.rpm !== undefined ? { requestsPerMinute: options.rpm } : {}),
    ...(options.tpm !== undefined ? { tokensPerMinute: options.tpm } : {}),
  };
}
