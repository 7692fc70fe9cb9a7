/**
 * P9: `evaluate` over thousands of saved runs (issue #34, item 4). 2,000 saved runs of 260
 * bars each are scored and summarised in process — prices from memory, so the figure is
 * evaluate's own work (session calendar, outcomes, attribution with its 2,000-resample
 * bootstrap), not the network. Before the time-zone formatter was cached, each bar cost a
 * new Intl.DateTimeFormat (~24 ms a run, ~40 s for 2,000); the figure also measures that
 * construction, so the ratio shows what the cache saves on this machine.
 */
import { evaluateRuns, type PriceSource } from '../src/evaluate/evaluate.js';
import type { PricedSession } from '../src/evaluate/outcome.js';
import { seededRandom } from '../src/evaluate/statistics.js';
import { summarize } from '../src/evaluate/summary.js';
import { exchangeCalendar } from '../src/market/calendar/index.js';
import type { Bar } from '../src/market/types.js';
import type { AnalysisResult } from '../src/result/types.js';

const nyse = exchangeCalendar('XNYS');

export interface EvaluateFigures {
  runs: number;
  barsPerRun: number;
  wallMs: number;
  /** CPU time of the same span: what the work costs, whatever else the machine is doing. */
  cpuMs: number;
  /** Measured cost of one `new Intl.DateTimeFormat(...)` with a time zone, as every bar paid before the cache. */
  formatterMs: number;
  scored: number;
}

const tickers = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'];

function sessionsFrom(first: string, count: number): string[] {
  const days = [first];
  while (days.length < count) days.push(nyse.adjacentSession(days[days.length - 1]!, 1));
  return days;
}

function pathOf(days: readonly string[], seed: number): PricedSession[] {
  const random = seededRandom(seed);
  let close = 100;
  return days.map((date) => {
    const open = close;
    close = open * (1 + (random() - 0.49) * 0.03);
    return { date, open, high: Math.max(open, close) * 1.004, low: Math.min(open, close) * 0.996, close };
  });
}

/** Only the fields evaluate reads: a saved run as the store would hand it over. */
function savedRun(index: number, ticker: string, path: readonly PricedSession[], asOfIndex: number): AnalysisResult {
  const bars: Bar[] = path
    .slice(asOfIndex - 259, asOfIndex + 1)
    .map((session) => ({ ...session, adjClose: session.close, volume: 1_000_000 }));
  const asOf = nyse.closeAt(path[asOfIndex]!.date).toISOString();
  return {
    runId: `bench-${index}`,
    ticker,
    asOf,
    asOfMode: 'historical',
    contamination: { label: 'clean', models: [], reason: '' },
    status: 'ok',
    demo: false,
    market: { bars, identity: { sector: 'Technology' } },
    decision: {
      action: index % 3 === 0 ? 'SELL' : 'BUY',
      conviction: (index * 37) % 100,
      orderType: 'market',
      entry: null,
      stopLoss: null,
      takeProfit: null,
    },
    usage: { costUsd: 0.03, byAgent: {} },
  } as unknown as AnalysisResult;
}

function measureFormatter(): number {
  const count = 200;
  const started = performance.now();
  for (let index = 0; index < count; index += 1)
    new Intl.DateTimeFormat('en-US', { timeZone: nyse.exchange.zone, timeZoneName: 'longOffset' }).formatToParts(
      new Date(),
    );
  return (performance.now() - started) / count;
}

export async function measureEvaluate(runs = 2000): Promise<EvaluateFigures> {
  const days = sessionsFrom('2023-01-03', 760);
  const paths = new Map(tickers.map((ticker, index) => [ticker, pathOf(days, index + 1)]));
  paths.set('SPY', pathOf(days, 99));
  const results = Array.from({ length: runs }, (_, index) => {
    const ticker = tickers[index % tickers.length]!;
    return savedRun(index, ticker, paths.get(ticker)!, 300 + (index % 400));
  });
  const prices: PriceSource = {
    bars: async (ticker, { from, to }) =>
      (paths.get(ticker) ?? [])
        .filter((session) => session.date >= from && session.date <= to)
        .map((session) => ({ ...session, adjClose: session.close, volume: 1_000_000 })),
  };
  const now = new Date(nyse.closeAt(days[days.length - 1]!).getTime() + 86_400_000);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const evaluation = await evaluateRuns(results, { horizons: [5, 21, 63], benchmark: 'SPY', now }, prices);
  const summary = summarize(evaluation, 1);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const scored = summary.groups.find((group) => group.horizon === 5)?.strategies[0]?.count ?? 0;
  return { runs, barsPerRun: 260, wallMs, cpuMs, formatterMs: measureFormatter(), scored };
}
