import { z } from 'zod';
import { UsageError } from '../errors.js';
import { baseUrlProblem } from '../llm/endpoints.js';
import { workerIds, type WorkerId } from '../result/types.js';

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
});

export type AnalyzeCliOptions = z.infer<typeof analyzeOptionsSchema>;

export function parseOptions<Schema extends z.ZodType>(schema: Schema, raw: unknown): z.infer<Schema> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new UsageError(issue?.message ?? 'invalid options');
}
