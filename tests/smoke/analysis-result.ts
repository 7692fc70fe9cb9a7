/**
 * The documented AnalysisResult (src/pipeline/types.ts, README "--json"), written
 * out independently of the product's own loose store schema and checked strictly: a
 * field added, renamed or retyped in the JSON users parse fails the smoke test.
 */
import { z } from 'zod';

const usage = {
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  cachedPromptTokens: z.number().int().min(0),
  cacheWriteTokens: z.number().int().min(0).optional(),
};
/** What a run's usage (and each agent's) adds: the cache's writes and what it saved. */
const cacheTotals = {
  cacheWriteTokens: z.number().int().min(0),
  cacheSavedUsd: z.number().min(0).nullable(),
};
const price = z.number().positive().nullable();
const fraction = z.number().nullable();

const toolCall = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().min(0),
});

const failureKinds = ['model', 'timeout', 'budget', 'interrupted', 'schema', 'replay-miss', 'limit'] as const;
const modelFailure = { kind: z.string().min(1), status: z.number().int().nullable() };

const failureSchema = z.strictObject({
  kind: z.enum(failureKinds),
  message: z.string(),
  model: z.strictObject({ ...modelFailure, retryable: z.boolean() }).optional(),
});

/** AnalysisResult.failure (src/pipeline/run-failure.ts). */
const runFailureSchema = z.strictObject({
  stage: z.enum(['market', 'plan', 'desks', 'decision', 'save']),
  kind: z.enum([...failureKinds, 'market', 'save']),
  message: z.string().min(1),
  retryable: z.boolean(),
  model: z.strictObject(modelFailure).optional(),
});

export const agentReportSchema = z.strictObject({
  agent: z.enum(['quant', 'risk', 'execution', 'sentiment']),
  status: z.enum(['ok', 'failed']),
  text: z.string(),
  toolCalls: z.array(toolCall),
  usage: z.strictObject(usage),
  model: z.string().min(1),
  durationMs: z.number().min(0),
  error: z.string().nullable(),
  failure: failureSchema.nullable(),
});

const bar = z.strictObject({
  date: z.iso.date(),
  open: price,
  high: price,
  low: price,
  close: price,
  adjClose: price,
  volume: z.number().int().min(0).nullable(),
});

/** Who answered one part of the snapshot (src/market/source.ts). */
const partVendor = z.strictObject({
  vendor: z.string(),
  label: z.string(),
  shortLabel: z.string(),
  cached: z.boolean(),
});

/** Fundamentals as filed (src/market/fundamentals-types.ts): every figure a number with its period, form and acceptance. */
const fundamentalFigure = z.strictObject({
  concept: z.string(),
  value: z.number(),
  unit: z.enum(['currency', 'per-share', 'shares']),
  periodStart: z.iso.date().optional(),
  periodEnd: z.iso.date(),
  form: z.string(),
  acceptedAt: z.iso.datetime(),
  restated: z
    .strictObject({ firstValue: z.number(), firstForm: z.string(), firstAcceptedAt: z.iso.datetime() })
    .optional(),
});

const fundamentalPeriod = z.strictObject({
  kind: z.enum(['quarter', 'year']),
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
  label: z.string(),
  figures: z.array(fundamentalFigure),
  revenueGrowthYoY: fraction.optional(),
  grossMargin: fraction.optional(),
  operatingMargin: fraction.optional(),
});

const fundamentals = z.strictObject({
  vendor: z.string(),
  vendorLabel: z.string(),
  currency: z.string(),
  quarters: z.array(fundamentalPeriod),
  years: z.array(fundamentalPeriod),
  valuation: z.array(
    z.strictObject({
      name: z.enum(['marketCap', 'peTrailing', 'priceToSales', 'priceToBook', 'fcfYield']),
      value: z.number().nullable(),
      note: z.string().optional(),
      inputs: z.string(),
    }),
  ),
  filings: z.array(
    z.strictObject({
      form: z.string(),
      acceptedAt: z.iso.datetime(),
      items: z.array(z.string()).optional(),
      accession: z.string().optional(),
    }),
  ),
  insiderFilings90d: z.number().int().min(0).nullable(),
  shareBasis: z
    .strictObject({ asTradedClose: z.number(), adjustedClose: z.number(), splitFactor: z.number() })
    .optional(),
  notes: z.array(z.string()),
});

export const marketSnapshotSchema = z.strictObject({
  symbol: z.string(),
  asOf: z.iso.datetime(),
  identity: z.strictObject({
    symbol: z.string(),
    name: z.string().nullable(),
    exchange: z.string().nullable(),
    currency: z.string().nullable(),
    quoteType: z.string().nullable(),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
  }),
  quote: z.strictObject({
    price,
    priceTime: z.iso.datetime().nullable(),
    change: fraction,
    changePercent: fraction,
    marketCap: fraction,
    trailingPE: fraction,
    forwardPE: fraction,
    beta: fraction,
    fiftyTwoWeekHigh: price,
    fiftyTwoWeekLow: price,
    averageVolume: fraction,
    dividendYield: fraction,
    targetMeanPrice: price,
    recommendation: z.string().nullable(),
    profitMargin: fraction,
    revenueGrowth: fraction,
    debtToEquity: fraction,
    earningsDate: z.iso.date().nullable().optional(),
  }),
  bars: z.array(bar),
  fundamentals: fundamentals.optional(),
  indicators: z.strictObject({
    asOfBar: z.iso.date().nullable(),
    lastClose: price,
    returns: z.strictObject({ d1: fraction, w1: fraction, m1: fraction, m3: fraction, m6: fraction, y1: fraction }),
    sma20: price,
    sma50: price,
    sma200: price,
    distanceFromSma20: fraction,
    distanceFromSma50: fraction,
    distanceFromSma200: fraction,
    rsi14: fraction,
    atr14: fraction,
    volatility20d: fraction,
    volatility1y: fraction,
    maxDrawdown1y: fraction,
    high52w: price,
    low52w: price,
    distanceFromHigh52w: fraction,
    distanceFromLow52w: fraction,
    averageVolume20d: fraction,
    averageVolume1y: fraction,
    volumeRatio: fraction,
    support: price,
    resistance: price,
  }),
  text: z.string().startsWith('MARKET DATA — '),
  warnings: z.array(z.string()),
  source: z.string(),
  vendors: z
    .strictObject({ bars: partVendor, quote: partVendor.nullable(), profile: partVendor.nullable() })
    .optional(),
  units: z.strictObject({ quoted: z.string(), currency: z.string(), factor: z.number() }).optional(),
});

const decisionSchema = z.strictObject({
  action: z.enum(['BUY', 'SELL', 'HOLD']),
  conviction: z.number().min(0).max(100),
  timeHorizon: z.string(),
  positionSizePct: z.number().min(0).max(100),
  orderType: z.enum(['market', 'limit']),
  entry: price,
  stopLoss: price,
  takeProfit: price,
  rationale: z.string(),
  keyRisks: z.array(z.string()),
  dissent: z.string().nullable(),
});

const findingSchema = z.strictObject({
  rule: z.string(),
  severity: z.enum(['info', 'warning', 'error']),
  message: z.string(),
});

/** A figure of the prose and its status (docs/claims.md). */
const claimSchema = z
  .strictObject({
    agent: z.string().min(1),
    field: z.string().regex(/^(report|plan\.thesis|plan\.briefs\.\w+|decision\.(rationale|dissent|keyRisks\.\d+))$/),
    text: z.string().min(1),
    start: z.number().int().min(0),
    end: z.number().int().min(0),
    value: z.union([z.number(), z.string()]),
    unit: z.enum(['currency', 'percent', 'number', 'atr', 'ratio', 'date']),
    quantity: z.string().min(1).optional(),
    status: z.enum(['verified', 'derived', 'contradicted', 'unsourced']),
    source: z.string().min(1).optional(),
    sourceValue: z.union([z.number(), z.string()]).optional(),
    sourceText: z.string().min(1).optional(),
    via: z.string().min(1).optional(),
  })
  .refine((claim) => claim.end > claim.start, 'a claim spans at least one character')
  .refine((claim) => claim.status === 'unsourced' || claim.source !== undefined, 'a sourced claim names its source');

const count = z.number().int().min(0);
const claimCounts = {
  total: count,
  verified: count,
  derived: count,
  unsourced: count,
  contradicted: count,
  verifiedShare: z.number().min(0).max(1).nullable(),
};

export const analysisResultSchema = z.strictObject({
  runId: z.string().regex(/^\d{8}T\d{6}Z-[A-Z0-9_]+-[0-9a-f]{6}$/),
  ticker: z.string(),
  asOf: z.iso.datetime(),
  status: z.enum(['ok', 'degraded', 'flagged', 'failed', 'interrupted']),
  mode: z.enum(['full', 'agents']),
  market: marketSnapshotSchema.nullable(),
  plan: z
    .strictObject({
      thesis: z.string().min(1),
      briefs: z.strictObject({ quant: z.string(), risk: z.string(), execution: z.string(), sentiment: z.string() }),
    })
    .nullable(),
  reports: z.array(agentReportSchema),
  decision: decisionSchema.nullable(),
  guardrails: z.array(findingSchema),
  decisionHistory: z
    .array(z.strictObject({ decision: decisionSchema, guardrails: z.array(findingSchema) }))
    .min(1)
    .optional(),
  reviewFailure: failureSchema.optional(),
  usage: z.strictObject({
    ...usage,
    ...cacheTotals,
    costUsd: z.number().min(0).nullable(),
    byAgent: z.record(
      z.string(),
      z.strictObject({
        model: z.string(),
        ...usage,
        ...cacheTotals,
        flexPromptTokens: z.number().int().min(1).optional(),
        costUsd: z.number().min(0).nullable(),
      }),
    ),
    toolCalls: z.record(z.string(), z.number().int().min(1)).optional(),
    search: z
      .strictObject({
        provider: z.enum(['exa', 'openai']),
        model: z.string().nullable(),
        searches: z.number().int().min(1),
        promptTokens: z.number().int().min(0),
        completionTokens: z.number().int().min(0),
        costUsd: z.number().min(0).nullable(),
      })
      .optional(),
  }),
  warnings: z.array(z.string()),
  demo: z.boolean(),
  startedAt: z.iso.datetime(),
  durationMs: z.number().min(0),
  error: z.string().nullable(),
  failure: runFailureSchema.optional(),
  asOfMode: z.enum(['live', 'historical']),
  contamination: z.strictObject({
    label: z.enum(['clean', 'contaminated', 'unknown']),
    models: z.array(z.strictObject({ model: z.string(), cutoff: z.iso.date().nullable() })),
    reason: z.string().min(1),
  }),
  autohedgeVersion: z
    .string()
    .regex(/^\d+\.\d+\.\d+/)
    .optional(),
  options: z
    .strictObject({
      models: z.record(z.string(), z.string().min(1)),
      baseUrlHost: z.string().min(1),
      limits: z.strictObject({
        maxPositionPct: z.number().positive(),
        maxRiskPct: z.number().positive(),
        minRewardRisk: z.number().positive(),
      }),
      maxCostUsd: z.number().positive().nullable(),
      search: z.string().min(1),
      agents: z.array(z.string()),
      version: z.literal(1),
      asOf: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('live') }),
        z.strictObject({ kind: z.literal('historical'), day: z.iso.date() }),
      ]),
      blind: z.literal(true).optional(),
      samples: z.number().int().min(2).optional(),
      minAgreement: z.number().min(0).max(1).optional(),
      serviceTier: z.enum(['flex', 'default']).optional(),
    })
    .optional(),
  blind: z.strictObject({ alias: z.string().min(1), scale: z.number().positive() }).optional(),
  stability: z
    .strictObject({
      k: z.number().int().min(2),
      agreement: z.number().min(0).max(1),
      actions: z.strictObject({ BUY: z.number().int(), SELL: z.number().int(), HOLD: z.number().int() }),
      spread: z.strictObject({
        positionSizePct: z.number().min(0).nullable(),
        entry: z.number().min(0).nullable(),
        stopLoss: z.number().min(0).nullable(),
        takeProfit: z.number().min(0).nullable(),
      }),
      failed: z.number().int().min(0),
    })
    .optional(),
  search: z
    .strictObject({ provider: z.enum(['exa', 'openai', 'none', 'custom']), model: z.string().nullable() })
    .optional(),
  claims: z.array(claimSchema),
  claimsSummary: z.strictObject({ ...claimCounts, byAgent: z.record(z.string(), z.strictObject(claimCounts)) }),
});

export type CheckedResult = z.infer<typeof analysisResultSchema>;
