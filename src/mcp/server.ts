import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BoundedStdioServerTransport, defaultMaxInFlight } from './server-transport.js';
import type { RunEvent } from '../events.js';
import {
  failure,
  registerAnalyze,
  registerEvaluate,
  registerMarket,
  registerRuns,
  type EvaluateInput,
  type Guarded,
} from './server-tools.js';
import type { MarketSnapshot } from '../market/types.js';
import type { AnalysisResult } from '../result/types.js';
import type { RequestDeclaration } from '../run/request.js';
import type { AnalyzeInput } from './analyze-input.js';

import type { RunSummary } from '../store/run-store.js';

/**
 * `autohedge mcp`: the library's market data, analyses and saved runs as MCP tools
 * over stdio. This module owns only the protocol side; what each tool does comes
 * from the CLI's handlers (the same analyze() and run store as every other shell).
 */
export interface ServeHandlers {
  market(ticker: string, signal: AbortSignal): Promise<MarketSnapshot>;
  analyze(input: AnalyzeInput, signal: AbortSignal, onEvent: (event: AnalyzeEvent) => void): Promise<AnalysisResult>;
  runsList(limit: number): Promise<RunSummary[]>;
  runGet(id: string): Promise<AnalysisResult>;
  /** `autohedge evaluate --json`'s value for these options. */
  evaluate(input: EvaluateInput, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** What an analyze call reports as it goes: the run's events, and its wait for a slot before it starts. */
export type AnalyzeEvent = RunEvent | { type: 'queued'; message: string };

export type { AnalyzeInput } from './analyze-input.js';

export interface ServeOptions {
  name: string;
  version: string;
  /** The CLI's one line for a failure (no stack): what an isError result says. */
  errorLine(error: unknown): string;
  /** The default per-call spending cap, USD. */
  maxCostUsd: number;
  /** The server's spend over its lifetime, USD (said in the analyze tool's description). */
  budgetUsd: number;
  /** Analyses at once. */
  concurrency: number;
  /** The request `analyze` takes its input from (default: the built-in one; a test may extend it). */
  request?: RequestDeclaration;
}

/** One server instance: the five tools. */
export function buildServer(
  handlers: ServeHandlers,
  options: ServeOptions,
  track: <T>(work: Promise<T>) => Promise<T>,
): McpServer {
  const server = new McpServer({ name: options.name, version: options.version });
  const guarded: Guarded = async (work) => {
    try {
      return await track(work());
    } catch (error) {
      return failure(options, error);
    }
  };
  registerMarket(server, handlers, guarded);
  registerAnalyze(server, handlers, options, guarded);
  registerRuns(server, handlers, guarded);
  registerEvaluate(server, handlers, guarded);
  return server;
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
    // Room for the analyses running and waiting (twice --concurrency) and a few other requests besides.
    transport: new BoundedStdioServerTransport({
      maxInFlight: Math.max(defaultMaxInFlight, 2 * options.concurrency + 4),
    }),
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
