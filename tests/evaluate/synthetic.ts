import type { PricedSession } from '../../src/evaluate/outcome.js';
import { seededRandom } from '../../src/evaluate/statistics.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { chartOf } from './support.js';

const nyse = exchangeCalendar('XNYS');

/**
 * Synthetic price paths for the attribution tests, served by the loopback Yahoo stand-in.
 * Every session opens at the previous close (no overnight gap), so a decision's entry
 * (the next open) is its as-of close and a position's return over a horizon is exactly
 * the compounded daily returns of the sessions it spans.
 */

/** The US sessions from `first` on. */
export function sessionDays(first: string, count: number): string[] {
  const days = [first];
  while (days.length < count) days.push(nyse.adjacentSession(days[days.length - 1]!, 1));
  return days;
}

/** A path from daily returns: open = previous close, high/low a hair around the body. */
export function pathOf(days: readonly string[], returns: readonly number[], start = 100): PricedSession[] {
  let close = start;
  return days.map((date, index) => {
    const open = close;
    close = index === 0 ? start : open * (1 + returns[index]!);
    return {
      date,
      open,
      high: Math.max(open, close) * 1.0005,
      low: Math.min(open, close) * 0.9995,
      close,
    };
  });
}

/** Standard normal draws from mulberry32 (Box–Muller), repeatable by seed. */
export function normals(seed: number, count: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const u = Math.max(random(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  });
}

/** A saved historical run as of a session's close, holding only that session as its bars. */
export function runAt(
  runId: string,
  ticker: string,
  session: PricedSession,
  decision: Partial<Decision> = {},
  overrides: Partial<AnalysisResult> = {},
): AnalysisResult {
  const bar = { ...session, adjClose: session.close, volume: 1_000_000 };
  return makeResult({
    runId,
    ticker,
    asOf: nyse.closeAt(session.date).toISOString(),
    asOfMode: 'historical',
    contamination: { label: 'clean', models: [], reason: '' },
    market: makeMarket({ symbol: ticker, bars: [bar] }),
    decision: makeDecision({
      action: 'BUY',
      orderType: 'market',
      entry: null,
      stopLoss: null,
      takeProfit: null,
      ...decision,
    }),
    ...overrides,
  });
}

/** The real Yahoo client over the loopback stand-in, answering each symbol's chart from `paths`. */
export function marketOf(paths: Record<string, readonly PricedSession[]>) {
  const charts: string[] = [];
  const router = createYahooRouter(
    acmeRoutes({
      chart: (symbol) => {
        charts.push(symbol);
        const path = paths[symbol];
        if (!path) throw new Error(`no synthetic path for ${symbol}`);
        return chartOf(symbol, path);
      },
    }),
  );
  const prices = createYahooMarketData({ fetch: router.fetch }) as Required<ReturnType<typeof createYahooMarketData>>;
  return { prices, charts };
}
