import { computeIndicators } from '../../src/market/indicators.js';
import { renderSnapshotText } from '../../src/market/snapshot-text.js';
import type { Bar, MarketData, MarketSnapshot } from '../../src/market/types.js';
import { makeBars } from './results.js';

/** A small, fixed snapshot for pipeline tests: last close 100, ATR 2.5. */
export function makeSnapshot(symbol = 'ACME', overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const bars: Bar[] = Array.from({ length: 30 }, (_, index) => {
    const close = 90 + index / 3;
    return {
      date: `2026-10-${String(index + 1).padStart(2, '0')}`,
      open: close,
      high: close + 1,
      low: close - 1,
      close,
      adjClose: close,
      volume: 1_000_000,
    };
  });
  return {
    symbol,
    asOf: '2026-11-27T21:00:00.000Z',
    identity: {
      symbol,
      name: 'Acme Robotics Corp',
      exchange: 'NMS',
      currency: 'USD',
      quoteType: 'EQUITY',
      sector: 'Technology',
      industry: 'Robotics',
    },
    quote: {
      price: 100,
      priceTime: '2026-11-27T21:00:00.000Z',
      change: 1.5,
      changePercent: 1.52,
      marketCap: 50e9,
      trailingPE: 30,
      forwardPE: 25,
      beta: 1.2,
      fiftyTwoWeekHigh: 120,
      fiftyTwoWeekLow: 70,
      averageVolume: 1_000_000,
      dividendYield: null,
      targetMeanPrice: 115,
      recommendation: 'buy',
      profitMargin: 0.2,
      revenueGrowth: 0.15,
      debtToEquity: 40,
    },
    bars,
    indicators: {
      asOfBar: '2026-11-27',
      lastClose: 100,
      returns: { d1: 0.015, w1: 0.02, m1: 0.05, m3: 0.1, m6: 0.12, y1: 0.3 },
      sma20: 97,
      sma50: 95,
      sma200: 90,
      distanceFromSma20: 0.031,
      distanceFromSma50: 0.053,
      distanceFromSma200: 0.111,
      rsi14: 61,
      atr14: 2.5,
      volatility20d: 0.3,
      volatility1y: 0.35,
      maxDrawdown1y: -0.22,
      high52w: 120,
      low52w: 70,
      distanceFromHigh52w: -0.167,
      distanceFromLow52w: 0.429,
      averageVolume20d: 1_100_000,
      averageVolume1y: 1_000_000,
      volumeRatio: 1.1,
      support: 95,
      resistance: 105,
    },
    text: `MARKET DATA — ${symbol} (Acme Robotics Corp), as of 2026-11-27\nLast close: 100.00 USD (2026-11-27)\nATR(14): 2.50 USD (2026-11-27)`,
    warnings: [],
    source: 'test',
    ...overrides,
  };
}

/**
 * A snapshot whose indicators and market block are computed from its own bars by the real
 * src/market code (indicators.ts, snapshot-text.ts), the way a Yahoo snapshot is: for tests
 * where the numbers a model or a reader sees must agree with the bars a chart draws.
 * makeSnapshot keeps its fixed numbers (the guardrail tests depend on them).
 */
export function snapshotFromBars(bars: Bar[] = makeBars(260), symbol = 'ACME'): MarketSnapshot {
  const base = makeSnapshot(symbol);
  const indicators = computeIndicators(bars);
  const lastBar = bars.at(-1);
  const asOf = lastBar ? `${lastBar.date}T21:00:00.000Z` : base.asOf;
  const data = {
    ...base,
    asOf,
    bars,
    indicators,
    quote: { ...base.quote, price: indicators.lastClose, priceTime: asOf },
  };
  return { ...data, text: renderSnapshotText(data) };
}

export function fakeMarket(
  snapshot: MarketSnapshot | ((ticker: string) => MarketSnapshot | Promise<MarketSnapshot>) = makeSnapshot(),
): MarketData & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async snapshot(ticker) {
      calls.push(ticker);
      return typeof snapshot === 'function' ? snapshot(ticker) : { ...snapshot, symbol: ticker };
    },
  };
}
