import type { MarketData, MarketSnapshot, SnapshotOptions } from './types.js';

/**
 * Market data that fetches one snapshot per ticker (live or historical) and hands the same
 * one to every later asker: a watch cycle's triggers and that ticker's analysis read the
 * very same data, and a replayed cassette (`--demo`, `--replay`), which answers each
 * recorded request once, is asked for each quote once. A failed fetch is not kept, so a
 * later asker tries again. Made per scope (one watch cycle): the next scope fetches anew.
 * (probe's sharedMarket, src/probe/run-probe.ts, is the same idea for its two runs.)
 */
export function snapshotOncePerTicker(market: MarketData): MarketData {
  const fetched = new Map<string, Promise<MarketSnapshot>>();
  return {
    ...market,
    snapshot(ticker: string, options: SnapshotOptions): Promise<MarketSnapshot> {
      // A live and a historical snapshot of one ticker differ (the quote, the price's basis).
      const key = `${ticker.trim().toUpperCase()}|${options.historical === true}`;
      const held = fetched.get(key);
      if (held) return held;
      const fetching = market.snapshot(ticker, options);
      fetched.set(key, fetching);
      fetching.catch(() => fetched.delete(key));
      return fetching;
    },
  };
}
