import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BoundedStdioServerTransport } from './server-transport.js';
import { z } from 'zod';
import type { RunEvent } from '../events.js';
import type { MarketSnapshot } from '../market/types.js';
import { workerIds, type AnalysisResult, type WorkerId } from '../result/types.js';
import type { RunSummary } from '../store/run-store.js';

/**
 * `autohedge mcp`: the library's market data, analyses and saved runs as MCP tools
 * over stdio. This module owns only the protocol side; what each tool does comes
 * from the CLI's handlers (the same analyze() and run store as every other shell).
 */
export interface ServeHandlers {
  market(ticker: string, signal: AbortSignal): Promise<MarketSnapshot>;
  analyze(input: AnalyzeInput, signal: AbortSignal, onEvent: (event: RunEvent) => void): Promise<AnalysisResult>;
  runsList(limit: number): Promise<RunSummary[]>;
  runGet(id: string): Promise<AnalysisResult>;
}

export interface AnalyzeInput {
  ticker: string;
  agents?: WorkerId[];
  maxCostUsd?: number;
  /** A past NYSE session (YYYY-MM-DD): the run as of its close, as `analyze --as-of`. */
  asOf?: string;
  /** The identity and calendar hidden from every model (docs/blind.md). */
  blind?: boolean;
  /** The Director's decision this many times; the run is flagged below 0.6 agreement. */
  samples?: number;
}

export interface ServeOptions {
  name: string;
  version: string;
  /** The CLI's one line for a failure (no stack): what an isError result says. */
  errorLine(error: unknown): string;
  /** The default per-call spending cap, USD. */
  maxCostUsd: number;
}

const ticker = z.string().min(1).max(20).describe('Ticker symbol, e.g. NVDA');

const snapshotOutput = z.looseObject({ symbol: z.string(), asOf: z.string(), text: z.string(), source: z.string() });
const resultOutput = z.looseObject({ runId: z.string(), ticker: z.string(), status: z.string(), asOf: z.string() });

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: true } as const;

type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function failure(options: ServeOptions, error: unknown): ToolResult {
  return { content: [{ type: 'text', text: options.errorLine(error) }], isError: true };
}

function ok(text: string, structured: object): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
}

/** One server instance: the four tools. */
export function buildServer(
  handlers: ServeHandlers,
  options: ServeOptions,
  track: <T>(work: Promise<T>) => Promise<T>,
): McpServer {
  const server = new McpServer({ name: options.name, version: options.version });
  const guarded = async (work: () => Promise<ToolResult>): Promise<ToolResult> => {
    try {
      return await track(work());
    } catch (error) {
      return failure(options, error);
    }
  };

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

  server.registerTool(
    'analyze',
    {
      title: 'Analyse a ticker',
      description: `Runs the autohedge desk (Director plan, Quant, Risk, Execution, Sentiment, decision, guardrails) on one ticker and returns the AnalysisResult. Spends model tokens: capped at $${options.maxCostUsd} per call unless maxCostUsd says less. Not investment advice.`,
      inputSchema: z.object({
        ticker,
        agents: z
          .array(z.enum(workerIds))
          .min(1)
          .optional()
          .describe('Run only these desks on the market data, with no Director'),
        maxCostUsd: z
          .number()
          .positive()
          .max(options.maxCostUsd)
          .optional()
          .describe(`Spending cap for this call in USD (at most ${options.maxCostUsd})`),
        blind: z
          .boolean()
          .optional()
          .describe(
            'Hide the company and the calendar from the models (alias, prices scaled to 100, no search or MCP)',
          ),
        samples: z
          .number()
          .int()
          .min(1)
          .max(9)
          .optional()
          .describe('Ask the Director for its decision this many times and report how much it moves (default 1)'),
        asOf: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe("Analyse as of this past US session's close (YYYY-MM-DD), seeing nothing after it"),
      }),
      outputSchema: resultOutput,
      annotations: { ...readOnly, idempotentHint: false },
    },
    async (input, context) =>
      guarded(async () => {
        const progress = progressReporter(context.mcpReq._meta?.progressToken, (params) =>
          context.mcpReq.notify({ method: 'notifications/progress', params }),
        );
        const result = await handlers.analyze(input, context.mcpReq.signal, progress.sink);
        // The client drops progress that arrives after the result: send it all first.
        await progress.flushed();
        return ok(summarize(result), result);
      }),
  );

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
        const runs = await handlers.runsList(input.limit ?? 20);
        const lines = runs.map(
          (run) => `${run.runId}  ${run.ticker ?? '?'}  ${run.action ?? '-'}  ${run.status ?? run.state}`,
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
  return server;
}

type ProgressParams = { progressToken: string | number; progress: number; total?: number; message?: string };

/** Progress notifications while a run goes on, in order, when the caller sent a progressToken. */
function progressReporter(
  token: unknown,
  send: (params: ProgressParams) => Promise<void>,
): { sink: (event: RunEvent) => void; flushed: () => Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  if (typeof token !== 'string' && typeof token !== 'number') return { sink: () => {}, flushed: () => chain };
  let progress = 0;
  const sink = (event: RunEvent) => {
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
 * that cuts calls silent for about a minute hears from a long run.
 */
function progressMessage(event: RunEvent): string | null {
  switch (event.type) {
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

/** Why the server stopped: the host closed stdin, or the caller's signal (SIGINT, SIGTERM, SIGHUP: src/cli/main.ts). */
export type ServeEnd = 'stdin-closed' | 'aborted';

/**
 * Serves over stdio until stdin closes or `stop` aborts (the CLI's signals); then
 * aborts every call in flight, waits briefly for it to be saved, and closes.
 */
export async function serveMcpStdio(
  handlers: ServeHandlers,
  options: ServeOptions,
  stop: AbortSignal | undefined,
): Promise<ServeEnd> {
  const inFlight = new Set<Promise<unknown>>();
  const shutdown = new AbortController();
  const combined = stop ? AbortSignal.any([stop, shutdown.signal]) : shutdown.signal;
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  };
  const wrapped: ServeHandlers = {
    ...handlers,
    market: (symbol, signal) => handlers.market(symbol, AbortSignal.any([signal, combined])),
    analyze: (input, signal, onEvent) => handlers.analyze(input, AbortSignal.any([signal, combined]), onEvent),
  };
  const restoreConsole = consoleToStderr();
  const handle = serveStdio(() => buildServer(wrapped, options, track), {
    onerror: () => {},
    transport: new BoundedStdioServerTransport(),
  });
  const listeners: Array<[string, () => void]> = [];
  const ended = new Promise<ServeEnd>((resolve) => {
    const on = (event: string, target: NodeJS.EventEmitter, end: ServeEnd) => {
      const listener = () => resolve(end);
      target.once(event, listener);
      listeners.push([event, () => target.removeListener(event, listener)]);
    };
    on('end', process.stdin, 'stdin-closed');
    on('close', process.stdin, 'stdin-closed');
    if (combined.aborted) resolve('aborted');
    else combined.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  const end = await ended;
  for (const [, remove] of listeners) remove();
  shutdown.abort(new Error('interrupted'));
  // An aborted analysis still saves itself as interrupted; give it a moment, not forever.
  await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => setTimeout(resolve, 1_200).unref())]);
  await handle.close().catch(() => {});
  process.stdin.pause();
  process.stdin.destroy();
  restoreConsole();
  return end;
}

/**
 * stdout is the JSON-RPC channel: a library's stray console.log (an SDK notice, a
 * deprecation line) would corrupt it, so while serving, console output goes to stderr.
 */
function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  return () => Object.assign(console, saved);
}
