import { z } from 'zod';
import { UsageError } from '../errors.js';
import { defaultLimits } from '../guardrails/limits.js';
import { baseUrlProblem } from '../llm/endpoints.js';
import { serviceTiers } from '../llm/types.js';
import { tickerSchema } from '../market/ticker.js';
import { workerIds } from '../result/types.js';
import { searchChoices } from '../search/types.js';
import { formatZodIssues } from '../zod-issues.js';
import { defaultMinAgreement } from '../pipeline/stability.js';

/**
 * A RunRequest is everything that decides one analysis, as data: the CLI (one ticker,
 * several, a universe), a queue job, an MCP call each build one, and runAndSave
 * (src/run/run-and-save.ts) runs it. It is JSON, validated by this one schema wherever
 * it comes from, and versioned: a queue job's data is a RunRequest, and a worker refuses
 * a version it does not know instead of guessing.
 */

export const runRequestVersion = 1;

/** Control characters or line breaks in a model name would forge lines on stderr and in reports. */
export const unsafeInName = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export const modelName = z
  .string()
  .trim()
  .min(1, '--model must not be empty')
  .refine((value) => !unsafeInName.test(value), '--model must not contain control characters or line breaks');

/** `live`: as of the moment it runs; `historical`: as of that session's close on the ticker's exchange (src/run/as-of.ts). */
export const requestAsOfSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('live') }),
  z.object({
    kind: z.literal('historical'),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'as-of day must be YYYY-MM-DD'),
  }),
]);
export type RequestAsOf = z.infer<typeof requestAsOfSchema>;

const percent = (name: string) =>
  z.number().positive(`${name} must be greater than 0`).max(100, `${name} must be at most 100`);

const cassetteSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('record'), path: z.string().min(1) }),
  z.object({ mode: z.literal('replay'), path: z.string().min(1) }),
  // The cassette shipped with the package (--demo).
  z.object({ mode: z.literal('demo') }),
]);

/**
 * The request's fields, declared once: the catalogue's entries name them (`request` in
 * src/cli/option-catalogue.ts), MCP `analyze` picks the ones an assistant may set
 * (src/mcp/analyze-input.ts) with their bounds, messages and descriptions, and the saved
 * run's `options` are the request under these names (src/run/run-record.ts).
 */
export const runRequestFields = {
  version: z.literal(runRequestVersion),
  ticker: tickerSchema.describe('Ticker symbol, e.g. NVDA'),
  asOf: requestAsOfSchema.default({ kind: 'live' }),
  /** `--agent`: only these desks, with no Director; empty for the full chain. */
  agents: z
    .array(z.enum(workerIds))
    .default([])
    .transform((ids) => [...new Set(ids)])
    .describe('Run only these desks on the market data, with no Director'),
  /** One model for every agent; absent: AUTOHEDGE_MODEL[_<ID>] and the defaults, where it runs. */
  model: modelName.optional(),
  /** The OpenAI-compatible server; absent: OPENAI_BASE_URL, else the SDK's default. */
  baseUrl: z
    .string()
    .superRefine((value, context) => {
      const problem = baseUrlProblem(value, 'baseUrl');
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  /** What backs Sentiment's search; absent: AUTOHEDGE_SEARCH, else exa, where it runs. */
  search: z.enum(searchChoices).optional(),
  limits: z
    .object({
      maxPositionPct: percent('maxPositionPct').default(defaultLimits.maxPositionPct),
      maxRiskPct: percent('maxRiskPct').default(defaultLimits.maxRiskPct),
      minRewardRisk: z.number().positive('minRewardRisk must be greater than 0').default(defaultLimits.minRewardRisk),
    })
    .strict()
    .prefault({}),
  /** The cap of the run's scope in USD (one command, a universe, an MCP call, a job); null: none. */
  maxCostUsd: z.number().positive('maxCostUsd must be greater than 0').nullable().default(null),
  /** MCP servers whose allow-listed tools the desks get; absent: AUTOHEDGE_MCP_CONFIG, where it runs. */
  mcpConfig: z.string().min(1).optional(),
  cassette: cassetteSchema.optional(),
  /** Bypass the market-data cache. */
  refresh: z.boolean().default(false),
  /** Save the run under $AUTOHEDGE_HOME/runs. */
  save: z.boolean().default(true),
  /** Also write the run's files into this directory. */
  out: z.string().min(1).optional(),
  /** The identity and calendar hidden from every model; no search, no MCP tools (docs/blind.md). */
  blind: z
    .boolean()
    .default(false)
    .describe('Hide the company and the calendar from the models (alias, prices scaled to 100, no search or MCP)'),
  /** The Director's decision step this many times on the same reports (src/pipeline/stability.ts). */
  samples: z
    .number()
    .int()
    .min(1, 'samples must be at least 1')
    .max(25, 'samples must be at most 25')
    .default(1)
    .describe('Ask the Director for its decision this many times and report how much it moves (default 1)'),
  /** Below this share of samples on the modal action the run is flagged; absent: 0.6. */
  minAgreement: z
    .number()
    .min(0)
    .max(1, 'minAgreement must be at most 1')
    .optional()
    .describe(
      `With samples of 2 or more: below this share of samples on one action the run is flagged (default ${defaultMinAgreement})`,
    ),
  /** `flex`: cheaper, slower model calls where the model has the tier (a 400 falls back to default once); absent: default. */
  serviceTier: z.enum(serviceTiers).optional(),
};

/** What an assistant may set in an MCP `analyze` call: the analysis, never where it runs or what it writes. */
export const assistantFields = ['ticker', 'agents', 'maxCostUsd', 'blind', 'samples', 'minAgreement', 'asOf'] as const;

/** The request's fields as one object, before the rules across fields: what `.pick` and `.extend` start from. */
export const runRequestObject = z.object(runRequestFields).strict();

/** The request's fields and the rules across them: what parses a request. */
export function withRequestRules<Schema extends z.ZodType<Parameters<typeof blindAndSamplesProblems>[0]>>(
  object: Schema,
): Schema {
  return object.superRefine((request, context) => {
    for (const message of blindAndSamplesProblems(request)) context.addIssue({ code: 'custom', message, path: [] });
  });
}

export const runRequestSchema = withRequestRules(runRequestObject);

/**
 * What cannot go with --blind or --samples, whoever built the request: a blind run has no
 * search and no MCP tools (a query or a call could name the company), and samples repeat
 * the Director, which --agent does not run.
 */
export function blindAndSamplesProblems(request: {
  blind: boolean;
  search?: string | undefined;
  mcpConfig?: string | undefined;
  samples: number;
  agents: readonly string[];
  minAgreement?: number | undefined;
}): string[] {
  const problems: string[] = [];
  if (request.blind && request.search !== undefined && request.search !== 'none')
    problems.push(
      `--blind turns web search off (a query would name the company): it cannot be combined with --search ${request.search}`,
    );
  if (request.blind && request.mcpConfig !== undefined)
    problems.push(
      '--blind turns MCP tools off (a call or a result could name the company): it cannot be combined with --mcp-config',
    );
  if (request.samples > 1 && request.agents.length > 0)
    problems.push("--samples repeats the Director's decision, and --agent runs no Director: choose one");
  if (request.minAgreement !== undefined && request.samples < 2)
    problems.push('--min-agreement needs --samples 2 or more');
  return problems;
}

export type RunRequest = z.output<typeof runRequestSchema>;
/** What a caller writes: defaults may be left out. */
export type RunRequestInput = z.input<typeof runRequestSchema>;

/** A request that cannot be run: `unknownVersion` when it names a version this autohedge does not know. */
export class RunRequestError extends UsageError {
  constructor(
    message: string,
    readonly unknownVersion: boolean,
  ) {
    super(message);
  }
}

/**
 * The request as declared: its fields, the rules across them, and which an assistant may
 * set. The built-in one is `runRequest`; `extendRunRequest` adds fields (a test's fixture
 * option, a library caller's own) that then travel every path a built-in field does.
 */
export interface RequestDeclaration {
  object: z.ZodObject;
  schema: z.ZodType;
  assistantFields: readonly string[];
}

export const runRequest: RequestDeclaration = { object: runRequestObject, schema: runRequestSchema, assistantFields };

/** The built-in request with more fields; `assistant`: those of them an MCP `analyze` call may set. */
export function extendRunRequest(fields: z.ZodRawShape, assistant: readonly string[] = []): RequestDeclaration {
  const object = runRequestObject.extend(fields);
  // The built-in fields are all there: the rules across them read those.
  const schema = withRequestRules(object as unknown as typeof runRequestObject);
  return { object, schema, assistantFields: [...assistantFields, ...assistant] };
}

/** The one way in: any value (flags, a job's data, MCP arguments) to a RunRequest, or a RunRequestError. */
export function parseRunRequest(value: unknown, declaration: RequestDeclaration = runRequest): RunRequest {
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof value === 'object' && value !== null && version !== runRequestVersion) {
    throw new RunRequestError(
      `unknown run request version ${JSON.stringify(version ?? null).slice(0, 40)} (this autohedge reads version ${runRequestVersion})`,
      true,
    );
  }
  const parsed = declaration.schema.safeParse(value);
  if (!parsed.success)
    throw new RunRequestError(
      `invalid run request: ${formatZodIssues(parsed.error, { limit: 1, root: 'request' })}`,
      false,
    );
  // An extended declaration's request is the built-in one with fields of its own.
  return parsed.data as RunRequest;
}
