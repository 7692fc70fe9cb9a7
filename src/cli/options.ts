import { z } from 'zod';
import { UsageError } from '../errors.js';
import { workerIds, type WorkerId } from '../pipeline/types.js';

/** The value as typed, so a message shows what was wrong with it. */
const got = (issue: { input?: unknown }) => ` (got '${String(issue.input)}')`;

const positiveInteger = (flag: string) =>
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

/**
 * What is wrong with an OpenAI-compatible base URL, named by where it came from
 * (`--base-url` or `OPENAI_BASE_URL`), or null. Credentials in the URL are refused
 * rather than moved: userinfo never reaches the server as a key (the SDK sends its own
 * Authorization header), and a URL is printed in errors and saved in cassettes.
 */
export function baseUrlProblem(value: string, source: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${source} must be an http(s) URL (got '${value}')`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${source} must be an http(s) URL, not ${url.protocol}`;
  if (url.username || url.password) {
    return `${source} must not carry credentials (user:password@host): put the key in OPENAI_API_KEY, which is sent as the Authorization header`;
  }
  return null;
}

/** Control characters or line breaks in a model name would forge lines on stderr and in reports. */
export const unsafeInName = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const modelName = z
  .string()
  .min(1, '--model must not be empty')
  .refine((value) => !unsafeInName.test(value), '--model must not contain control characters or line breaks');

/** Everything `analyze` accepts, validated once at the boundary. */
export const analyzeOptionsSchema = z.object({
  agent: z
    .array(z.string())
    .default([])
    .superRefine((ids, context) => {
      for (const id of ids) {
        if (!(workerIds as readonly string[]).includes(id)) {
          context.addIssue({ code: 'custom', message: `unknown agent '${id}' (choose from ${workerIds.join(', ')})` });
        }
      }
    })
    .transform((ids) => [...new Set(ids)] as WorkerId[]),
  model: modelName.optional(),
  baseUrl: z
    .string()
    .superRefine((value, context) => {
      const problem = baseUrlProblem(value, '--base-url');
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  json: z.boolean().default(false),
  /** One AnalysisResult per line on stdout as each finishes. */
  jsonl: z.boolean().default(false),
  /** A file of tickers (lines, or CSV with a ticker/symbol column). */
  universe: z.string().min(1).optional(),
  /** Skip tickers with a finished run for the same as-of day in the run store. */
  resume: z.boolean().default(false),
  concurrency: positiveInteger('--concurrency'),
  maxPosition: positiveNumber('--max-position', 100),
  maxRisk: positiveNumber('--max-risk', 100),
  minRewardRisk: positiveNumber('--min-reward-risk'),
  maxCost: positiveNumber('--max-cost').optional(),
  /** Checked with AUTOHEDGE_SEARCH by resolveSearchChoice (src/search/choice.ts). */
  search: z.string().optional(),
  record: z.string().min(1).optional(),
  replay: z.string().min(1).optional(),
  demo: z.boolean().default(false),
  save: z.boolean().default(true),
  out: z.string().min(1).optional(),
  trace: z.boolean().default(false),
  refresh: z.boolean().default(false),
  /** `--as-of YYYY-MM-DD`: checked against the calendar by resolveAsOf(). */
  asOf: z.string().min(1).optional(),
  quiet: z.boolean().default(false),
  verbose: z.boolean().default(false),
  mcpConfig: z.string().min(1).optional(),
  /** Identity and calendar hidden from every model (docs/blind.md). */
  blind: z.boolean().default(false),
  /** The Director's decision step this many times. */
  samples: positiveInteger('--samples').default(1),
  minAgreement: shareOfOne('--min-agreement').optional(),
});

export type AnalyzeCliOptions = z.infer<typeof analyzeOptionsSchema>;

export function parseOptions<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.infer<Schema> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UsageError(issue?.message ?? 'invalid options');
}
