/**
 * The analysing process, spawned by run.ts so the servers and the pipeline do not
 * share one event loop: runs real analyses against the loopback services and prints
 * one JSON line of what it measured.
 *
 *   node dist/bench/bench/driver.js '<DriverConfig JSON>'
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/pipeline/analyze.js';
import { analyzeEach, analyzeMany } from '../src/universe/analyze-many.js';
import { describePacing, pacingSummary, processPacers } from '../src/llm/pacer.js';
import { renderRunFiles } from '../src/report/run-files.js';
import { saveRun } from '../src/store/run-store.js';
import { benchDeps, type ServiceAddresses, type ServiceWait } from './services.js';

export interface DriverConfig extends ServiceAddresses {
  /**
   * `sequential`: one analysis after another, each timed; `many`: all at once under a
   * limit, timed together; `universe`: streamed as `analyze --universe --jsonl` does —
   * each result written out and saved to a run store as it finishes, none kept.
   */
  mode: 'sequential' | 'many' | 'universe';
  tickers: string[];
  concurrency: number;
  asOf: string;
  /** P14: the layout to send (default cacheable). */
  promptLayout?: 'cacheable' | 'legacy';
}

export interface TickerRun {
  ticker: string;
  status: string;
  error: string | null;
  /** analyze() wall time. */
  wallMs: number;
  /** Date.now() when analyze() was called, when the snapshot was in (sequential mode), and when analyze() returned. */
  startedAt: number;
  snapshotAt: number;
  endedAt: number;
  /** This analysis's waits on Yahoo and Exa (sequential mode). */
  waits: ServiceWait[];
  promptTokens: number;
}

export interface DriverOutput {
  runs: TickerRun[];
  /** Every analysis together, start to end; in many and universe mode, after one warm-up analysis. */
  wallMs: number;
  /** Universe mode: the process's peak RSS (MB) after the first third of the tickers, and at the end. */
  peakRssMb?: { firstThird: number; end: number };
  /** Universe mode: the live heap (MB) after a full GC at the same two points: flat when nothing is kept. */
  heapAfterGcMb?: { firstThird: number; end: number };
  /** Universe mode: results by status (the runs themselves are not kept). */
  statuses?: Record<string, number>;
  /** Universe mode: what the process's pacers did (waits for budget, 429s met). */
  pacing?: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One analysis after another, each with the fresh clients a CLI invocation builds, each timed. */
async function sequential(config: DriverConfig, asOf: Date): Promise<DriverOutput> {
  const started = performance.now();
  const runs: TickerRun[] = [];
  for (const ticker of config.tickers) {
    const waits: ServiceWait[] = [];
    const deps = benchDeps(config, repoRoot, (wait) => waits.push(wait));
    let snapshotAt = 0;
    const market = deps.market;
    deps.market = {
      snapshot: (symbol, options) => market.snapshot(symbol, options).finally(() => (snapshotAt = Date.now())),
    };
    const startedAt = Date.now();
    const before = performance.now();
    const result = await analyze(
      ticker,
      { asOf, ...(config.promptLayout ? { promptLayout: config.promptLayout } : {}) },
      deps,
    );
    runs.push({
      ticker,
      status: result.status,
      error: result.error,
      wallMs: performance.now() - before,
      startedAt,
      snapshotAt,
      endedAt: Date.now(),
      waits,
      promptTokens: result.usage.promptTokens,
    });
  }
  return { runs, wallMs: performance.now() - started };
}

/** Every ticker through analyzeMany with one set of clients, as `autohedge analyze A B C …` runs them. */
async function many(config: DriverConfig, asOf: Date): Promise<DriverOutput> {
  const deps = benchDeps(config, repoRoot);
  // The first analysis in a process loads the SDKs: P1's cold figure, not a matter of concurrency.
  await analyze('WARM', { asOf }, deps);
  const started = performance.now();
  const outcomes = await analyzeMany(
    config.tickers,
    config.concurrency,
    () => ({ asOf }),
    () => deps,
  );
  const wallMs = performance.now() - started;
  const runs = outcomes.map((outcome): TickerRun => {
    const startedAt = outcome.result ? Date.parse(outcome.result.startedAt) : 0;
    const durationMs = outcome.result?.durationMs ?? 0;
    return {
      ticker: outcome.ticker,
      status: outcome.result?.status ?? 'threw',
      error: outcome.result?.error ?? (outcome.error === undefined ? null : String(outcome.error)),
      wallMs: durationMs,
      startedAt,
      snapshotAt: 0,
      endedAt: startedAt + durationMs,
      waits: [],
      promptTokens: outcome.result?.usage.promptTokens ?? 0,
    };
  });
  return { runs, wallMs };
}

const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
/** The live heap after a full collection (the driver runs with --expose-gc in universe mode). */
const heapAfterGcMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1e6;
};

/** A universe as the CLI streams one: JSONL out, each run saved, nothing kept but counters. */
async function universe(config: DriverConfig, asOf: Date): Promise<DriverOutput> {
  const deps = benchDeps(config, repoRoot);
  await analyze('WARM', { asOf }, deps);
  const home = mkdtempSync(path.join(tmpdir(), 'autohedge-bench-universe-'));
  const sink = createWriteStream(devNull);
  const statuses: Record<string, number> = {};
  let finished = 0;
  let firstThird = 0;
  let heapFirstThird = 0;
  const started = performance.now();
  try {
    await analyzeEach(config.tickers, {
      concurrency: config.concurrency,
      run: (ticker) => analyze(ticker, { asOf }, deps),
      onOutcome: async (outcome) => {
        const status = outcome.result?.status ?? 'threw';
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (outcome.result) {
          sink.write(`${JSON.stringify(outcome.result)}\n`);
          await saveRun(home, outcome.result, { transcript: [], ...renderRunFiles(outcome.result) });
        }
        finished += 1;
        if (finished === Math.ceil(config.tickers.length / 3)) {
          firstThird = peakRssMb();
          heapFirstThird = heapAfterGcMb();
        }
      },
    });
    const wallMs = performance.now() - started;
    const stats = await pacingSummary(processPacers());
    return {
      runs: [],
      wallMs,
      ...(stats ? { pacing: describePacing(stats) } : {}),
      peakRssMb: { firstThird, end: peakRssMb() },
      heapAfterGcMb: { firstThird: heapFirstThird, end: heapAfterGcMb() },
      statuses,
    };
  } finally {
    sink.end();
    rmSync(home, { recursive: true, force: true });
  }
}

const config = JSON.parse(process.argv[2] ?? '{}') as DriverConfig;
const modes = { sequential, many, universe } as const;
const output = await modes[config.mode](config, new Date(config.asOf));
process.stdout.write(`${JSON.stringify(output)}\n`);
