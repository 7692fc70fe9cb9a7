import { z } from 'zod';
import { maximumNesting, nestingBeyond } from '../json-depth.js';
import type { AnalysisResult } from './types.js';
import { formatZodIssues } from '../zod-issues.js';
import { decisionSchema } from './schemas.js';
import { savedRunOptionsSchema } from './run-options.js';

/**
 * A saved result.json, checked loosely: the fields the listing and the renderers
 * read must have the right shape; unknown fields pass through, and lists a run
 * saved by an older version may lack default to empty. Market data is checked only
 * for its outline — the renderers treat any missing number as "n/a".
 */

const usageNumbers = {
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedPromptTokens: z.number().default(0),
};

const agentUsage = z.looseObject({
  model: z.string(),
  ...usageNumbers,
  costUsd: z.number().nullable(),
});

const toolCall = z.looseObject({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
});

const report = z.looseObject({
  agent: z.string(),
  status: z.enum(['ok', 'failed']),
  text: z.string(),
  toolCalls: z.array(toolCall).default([]),
  usage: z.looseObject(usageNumbers),
  model: z.string(),
  durationMs: z.number(),
  error: z.string().nullable().default(null),
  // Runs saved before typed failures have none: readers fall back to `error`.
  failure: z.looseObject({ kind: z.string(), message: z.string() }).nullable().default(null),
});

/** The Director's own schema, loosened: a saved decision is what the model was held to. */
const decision = decisionSchema.loose();

const finding = z.looseObject({
  rule: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});

/** A claim as the renderers read it (src/result/claims.ts); runs saved before claims have none. */
const claim = z.looseObject({
  agent: z.string(),
  field: z.string(),
  text: z.string(),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  value: z.union([z.number(), z.string()]),
  unit: z.enum(['currency', 'percent', 'number', 'atr', 'ratio', 'date']),
  status: z.enum(['verified', 'derived', 'contradicted', 'unsourced']),
  quantity: z.string().optional(),
  source: z.string().optional(),
  sourceValue: z.union([z.number(), z.string()]).optional(),
  sourceText: z.string().optional(),
  crossed: z.string().optional(),
  crossedSource: z.string().optional(),
  via: z.string().optional(),
});

const claimCounts = {
  total: z.number(),
  verified: z.number(),
  derived: z.number(),
  unsourced: z.number(),
  contradicted: z.number(),
  verifiedShare: z.number().nullable(),
};

const market = z.looseObject({
  symbol: z.string(),
  identity: z.looseObject({}),
  quote: z.looseObject({}),
  indicators: z.looseObject({}),
  bars: z.array(z.looseObject({ date: z.string(), close: z.number().nullable() })).default([]),
});

export const savedResultSchema = z.looseObject({
  runId: z.string(),
  ticker: z.string(),
  asOf: z.string(),
  status: z.enum(['ok', 'degraded', 'flagged', 'failed', 'interrupted']),
  mode: z.enum(['full', 'agents']).default('full'),
  market: market.nullable().default(null),
  plan: z.looseObject({ thesis: z.string() }).nullable().default(null),
  reports: z.array(report).default([]),
  decision: decision.nullable().default(null),
  guardrails: z.array(finding).default([]),
  decisionHistory: z.array(z.looseObject({ decision, guardrails: z.array(finding).default([]) })).optional(),
  usage: z.looseObject({
    ...usageNumbers,
    costUsd: z.number().nullable(),
    byAgent: z.record(z.string(), agentUsage).default({}),
    search: z
      .looseObject({
        provider: z.string(),
        model: z.string().nullable(),
        searches: z.number(),
        promptTokens: z.number(),
        completionTokens: z.number(),
        costUsd: z.number().nullable(),
      })
      .optional(),
  }),
  search: z
    .looseObject({ provider: z.enum(['exa', 'openai', 'none', 'custom']), model: z.string().nullable() })
    .optional(),
  warnings: z.array(z.string()).default([]),
  demo: z.boolean().default(false),
  startedAt: z.string(),
  durationMs: z.number(),
  error: z.string().nullable().default(null),
  // Added with --as-of; runs saved before then have neither (and were live).
  asOfMode: z.enum(['live', 'historical']).optional(),
  contamination: z
    .looseObject({
      label: z.enum(['clean', 'contaminated', 'unknown']),
      models: z.array(z.looseObject({ model: z.string(), cutoff: z.string().nullable() })).default([]),
      reason: z.string(),
    })
    .optional(),
  autohedgeVersion: z.string().optional(),
  // Runs saved before `options` took the request's names are read into them.
  options: savedRunOptionsSchema.optional(),
  // Added with claims (docs/claims.md); older runs have neither.
  claims: z.array(claim).optional(),
  claimsSummary: z
    .looseObject({ ...claimCounts, byAgent: z.record(z.string(), z.looseObject(claimCounts)).default({}) })
    .optional(),
});

export type ParsedResult = { ok: true; result: AnalysisResult } | { ok: false; problem: string };

/** Parse result.json text; never throws. */
export function parseSavedResult(text: string): ParsedResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Never the parser's message: it quotes the file's first characters, which may be anything
    // (a hand-placed file, or a link out of the store to a file that is not ours).
    return { ok: false, problem: `result.json is not valid JSON (${text.length.toLocaleString('en-US')} characters)` };
  }
  const deep = nestingBeyond(raw);
  if (deep) return { ok: false, problem: `result.json nests more than ${maximumNesting} levels deep (at ${deep})` };
  const parsed = savedResultSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      problem: `result.json is not a saved run (${formatZodIssues(parsed.error, { limit: 1, root: 'result' })})`,
    };
  }
  // The shape the renderers read was checked above; the rest passes through as saved,
  // in the saved key order, so `runs show --json` prints what was written.
  return { ok: true, result: inOrderOf(raw, parsed.data) as AnalysisResult };
}

/**
 * A result as `run_get` would read it back from the store: every field the schema
 * defaults filled in, keys in the result's own order. The MCP `analyze` tool returns this,
 * so its structuredContent matches the outputSchema (the same schema) as a saved run does.
 */
export function asSavedResult(result: AnalysisResult): AnalysisResult {
  const plain: unknown = JSON.parse(JSON.stringify(result));
  return inOrderOf(plain, savedResultSchema.parse(plain)) as AnalysisResult;
}

/** `value` with object keys in the order `original` had them; keys zod added (defaults) go last. */
function inOrderOf(original: unknown, value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item, index) => inOrderOf(Array.isArray(original) ? original[index] : undefined, item));
  }
  if (typeof value !== 'object' || value === null) return value;
  const source =
    typeof original === 'object' && original !== null && !Array.isArray(original)
      ? (original as Record<string, unknown>)
      : {};
  const record = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (key in record) ordered[key] = inOrderOf(source[key], record[key]);
  for (const key of Object.keys(record)) if (!(key in ordered)) ordered[key] = inOrderOf(undefined, record[key]);
  return ordered;
}
