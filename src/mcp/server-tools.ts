import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { desksOf } from '../../agents/roster.js';
import { defaultBenchmark, defaultHorizons, defaultSeed, longestHorizon } from '../evaluate/defaults.js';
import { tickerSchema } from '../market/ticker.js';
import { formatCost } from '../report/format.js';
import { asSavedResult, savedResultSchema } from '../result/result-schema.js';
import type { AnalysisResult } from '../result/types.js';
import type { RunSummary } from '../store/run-store.js';
import { analyzeInputSchema, type AnalyzeInput } from './analyze-input.js';
import type { AnalyzeEvent, ServeHandlers, ServeOptions } from './server.js';

/**
 * The tools `autohedge mcp` serves, one registration each: what a tool does comes from
 * the CLI's handlers (runAndSave, the run store, evaluate), its schema and text from here.
 */

// The CLI's own ticker rule (src/market/ticker.ts): 1–15 characters of a market symbol.
const ticker = tickerSchema.describe('Ticker symbol, e.g. NVDA');

const snapshotOutput = z.looseObject({ symbol: z.string(), asOf: z.string(), text: z.string(), source: z.string() });
/** A saved AnalysisResult, as `run_get` and `analyze` return it: the run store's own schema. */
const resultOutput = savedResultSchema.describe('The AnalysisResult, as saved to the run store');

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: true } as const;

type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export function failure(options: ServeOptions, error: unknown): ToolResult {
  return { content: [{ type: 'text', text: options.errorLine(error) }], isError: true };
}

function ok(text: string, structured: object): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
}

/** Runs a tool's work, any error becoming the CLI's one line as an isError result. */
export type Guarded = (work: () => Promise<ToolResult>) => Promise<ToolResult>;

export function registerMarket(server: McpServer, handlers: ServeHandlers, guarded: Guarded): void {
  server.registerTool(
    'market',
    {
      title: 'Market snapshot',
      description:
        'The market-data snapshot of one ticker (quote, indicators, recent bars) and the text block the agents read.',
      inputSchema: z.object({ ticker }),
      outputSchema: snapshotOutput,
      annotations: readOnly,
    },
    async (input, context) =>
      guarded(async () => {
        const snapshot = await handlers.market(input.ticker, context.mcpReq.signal);
        return ok(snapshot.text, snapshot);
      }),
  );
}

/** The roster's desks, by display name: "Quant, Risk, Execution, Sentiment". */
const deskList = desksOf()
  .map((definition) => definition.name)
  .join(', ');

export function registerAnalyze(
  server: McpServer,
  handlers: ServeHandlers,
  options: ServeOptions,
  guarded: Guarded,
): void {
  server.registerTool(
    'analyze',
    {
      title: 'Analyse a ticker',
      description: `Runs the autohedge desk (Director plan, ${deskList}, decision, guardrails) on one ticker and returns the AnalysisResult. Spends model tokens: capped at $${options.maxCostUsd} per call unless maxCostUsd says less, and at $${options.budgetUsd} over the server's lifetime (then calls are refused); ${options.concurrency} analyses at once, as many more wait their turn. Not investment advice.`,
      inputSchema: analyzeInputSchema(options.maxCostUsd, options.request),
      outputSchema: resultOutput,
      annotations: { ...readOnly, idempotentHint: false },
    },
    async (input, context) =>
      guarded(async () => {
        const progress = progressReporter(context.mcpReq._meta?.progressToken, (params) =>
          context.mcpReq.notify({ method: 'notifications/progress', params }),
        );
        const result = await handlers.analyze(input as AnalyzeInput, context.mcpReq.signal, progress.sink);
        // The client drops progress that arrives after the result: send it all first.
        await progress.flushed();
        return ok(summarize(result), asSavedResult(result));
      }),
  );
}

export function registerRuns(server: McpServer, handlers: ServeHandlers, guarded: Guarded): void {
  server.registerTool(
    'runs_list',
    {
      title: 'Saved runs',
      description: 'The saved analyses, newest first: run id, ticker, action, conviction, status, cost.',
      inputSchema: z.object({
        limit: z.number().int().min(1).max(500).optional().describe('At most this many (default 20)'),
      }),
      outputSchema: z.object({ runs: z.array(z.looseObject({ runId: z.string() })) }),
      annotations: { ...readOnly, openWorldHint: false },
    },
    async (input) =>
      guarded(async () => {
        // A demo replays a recording: as in `autohedge runs`, its token counts cost nothing.
        const runs = (await handlers.runsList(input.limit ?? 20)).map((run) =>
          run.demo ? { ...run, costUsd: 0 } : run,
        );
        const lines = runs.map(
          (run) =>
            `${run.runId}  ${run.ticker ?? '?'}  ${run.action ?? '-'}  ${run.status ?? run.state}  ${runCost(run)}`,
        );
        return ok(lines.length > 0 ? lines.join('\n') : 'no saved runs', { runs });
      }),
  );
  server.registerTool(
    'run_get',
    {
      title: 'One saved run',
      description: 'One saved AnalysisResult by run id (or a unique prefix of it).',
      inputSchema: z.object({ id: z.string().min(1).describe('Run id or a unique prefix') }),
      outputSchema: resultOutput,
      annotations: { ...readOnly, openWorldHint: false },
    },
    async (input) =>
      guarded(async () => {
        const result = await handlers.runGet(input.id);
        return ok(summarize(result), result);
      }),
  );
}

/** What the `evaluate` tool takes: the selection and scoring options of `autohedge evaluate`. */
export const evaluateInput = z.object({
  runIds: z
    .array(z.string().min(1))
    .optional()
    .describe('Runs to score (ids or unique prefixes); default: every saved run with a decision'),
  since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('Only runs as of this day (YYYY-MM-DD) or later'),
  horizons: z
    .array(z.number().int().min(1).max(longestHorizon))
    .min(1)
    .optional()
    .describe(`Horizons in trading sessions (default ${defaultHorizons.join(', ')})`),
  benchmark: tickerSchema.optional().describe(`Excess returns against this ticker (default ${defaultBenchmark})`),
  seed: z.number().int().min(0).optional().describe(`Seed of the random baseline (default ${defaultSeed})`),
  includeDemo: z.boolean().optional().describe('Also score demo runs (synthetic data)'),
  forwardOnly: z
    .boolean()
    .optional()
    .describe('Score only decisions sealed in the ledger before their outcome, as `evaluate --forward-only`'),
  trustLocalClock: z
    .boolean()
    .optional()
    .describe(
      "With forwardOnly: judge 'before the outcome' by the record's own recordedAt instead of an RFC 3161 anchor, as `evaluate --trust-local-clock`",
    ),
});
export type EvaluateInput = z.infer<typeof evaluateInput>;

export function registerEvaluate(server: McpServer, handlers: ServeHandlers, guarded: Guarded): void {
  server.registerTool(
    'evaluate',
    {
      title: 'Score saved decisions',
      description:
        'Scores saved decisions against the prices that came after them, with baselines and a Wilson interval: the JSON of `autohedge evaluate --json`. Reads saved runs and price history; spends no model tokens.',
      inputSchema: evaluateInput,
      outputSchema: z.looseObject({ decisions: z.array(z.looseObject({})), summary: z.looseObject({}) }),
      annotations: { ...readOnly, idempotentHint: true },
    },
    async (input, context) =>
      guarded(async () => {
        const evaluation = await handlers.evaluate(input, context.mcpReq.signal);
        const decisions = (evaluation.decisions as unknown[]).length;
        const scored = `${decisions} decision(s) scored; the evaluation is in structuredContent`;
        // The assistant reads the text first: a demo evaluation says so before anything else.
        const banner = demoBannerOf(evaluation);
        return ok(banner === null ? scored : `${banner}\n${scored}`, evaluation);
      }),
  );
}

/** The DEMO line of an evaluation of demo runs (evaluationDocument's `demo.banner`), or null. */
function demoBannerOf(evaluation: Record<string, unknown>): string | null {
  const demo = evaluation.demo as { banner?: unknown } | undefined;
  return typeof demo?.banner === 'string' ? demo.banner : null;
}

/** A run's cost as `autohedge runs` shows it: none for a demo, unknown when unpriced. */
function runCost(run: RunSummary): string {
  if (run.demo) return 'cost none (demo)';
  if (run.state !== 'ok' || run.costUsd === null) return 'cost unknown';
  return `cost ${formatCost(run.costUsd)}`;
}

type ProgressParams = { progressToken: string | number; progress: number; total?: number; message?: string };

/** Progress notifications while a run goes on, in order, when the caller sent a progressToken. */
function progressReporter(
  token: unknown,
  send: (params: ProgressParams) => Promise<void>,
): { sink: (event: AnalyzeEvent) => void; flushed: () => Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  if (typeof token !== 'string' && typeof token !== 'number') return { sink: () => {}, flushed: () => chain };
  let progress = 0;
  const sink = (event: AnalyzeEvent) => {
    const message = progressMessage(event);
    if (message === null) return;
    progress += 1;
    const params = { progressToken: token, progress, message };
    // A lost notification must not fail the run.
    chain = chain.then(() => send(params)).catch(() => {});
  };
  return { sink, flushed: () => chain };
}

/**
 * Each desk's start and end, and in between each model answer and tool call, so a host
 * that cuts calls silent for about a minute hears from a long run; before it starts, its
 * wait for a slot.
 */
function progressMessage(event: AnalyzeEvent): string | null {
  switch (event.type) {
    case 'queued':
      return event.message;
    case 'agent-start':
      return `${event.agent}: running`;
    case 'agent-end':
      return `${event.agent}: ${event.status === 'ok' ? 'done' : `failed (${event.error ?? 'unknown error'})`}`;
    case 'model-call':
      return `${event.agent}: model answered (call ${event.call})`;
    case 'tool-call':
      return `${event.agent}: calling ${event.name}`;
    default:
      return null;
  }
}

/** Action, conviction, levels, status and guardrail findings in a few lines. */
export function summarize(result: AnalysisResult): string {
  const lines = [
    `${result.ticker}: status ${result.status}${result.demo ? ' (DEMO: synthetic data)' : ''}, run ${result.runId}`,
  ];
  const decision = result.decision;
  if (decision) {
    const level = (value: number | null) => (value === null ? '-' : String(value));
    lines.push(
      `${decision.action} with conviction ${decision.conviction}/100, size ${decision.positionSizePct}% (${decision.orderType}), entry ${level(decision.entry)}, stop ${level(decision.stopLoss)}, target ${level(decision.takeProfit)}`,
    );
  } else {
    lines.push(
      result.mode === 'agents'
        ? `desk reports only: ${result.reports.map((report) => `${report.agent} ${report.status}`).join(', ')}`
        : 'no decision',
    );
  }
  for (const finding of result.guardrails) lines.push(`guardrail ${finding.severity}: ${finding.message}`);
  if (result.error) lines.push(`error: ${result.error}`);
  return lines.join('\n');
}
