import { exchangeCalendar } from '../../src/market/calendar/index.js';
import type { Bar, MarketData } from '../../src/market/types.js';
import { snapshotFromBars } from '../support/market.js';

const nyse = exchangeCalendar('XNYS');

/** `count` NYSE sessions ending on `last`, oldest first. */
export function sessionsEndingOn(last: string, count: number): string[] {
  const days = [last];
  while (days.length < count) days.unshift(nyse.adjacentSession(days[0]!, -1));
  return days;
}

export interface Planted {
  /** Day index (in the watch window) → what happens that session. */
  gapOn?: number;
  stopDipOn?: number;
  targetSpikeOn?: number;
  /** A steady daily return from the first watch day on, instead of the quiet back-and-forth. */
  driftPerDay?: number;
}

/**
 * A synthetic daily path: a quiet back-and-forth of ±0.3 % (so the 20-session volatility is
 * small but not zero), opens at the previous close, ranges of ±0.75 %; then the planted
 * events inside the watch window, relative to the close of the window's first day (day 0,
 * when every ticker gets its first call).
 */
export function syntheticPath(days: readonly string[], windowStart: number, start: number, planted: Planted): Bar[] {
  const bars: Bar[] = [];
  let close = start;
  let callPrice = start;
  days.forEach((date, index) => {
    const day = index - windowStart;
    let open = close;
    if (day === 0) callPrice = close;
    if (planted.gapOn === day) open = close * 1.06;
    const drift = planted.driftPerDay !== undefined && day >= 1;
    const next = drift
      ? open * (1 + planted.driftPerDay!)
      : planted.gapOn === day
        ? open
        : open * (index % 2 === 0 ? 1.003 : 0.997);
    let high = Math.max(open, next) * 1.0075;
    let low = Math.min(open, next) * 0.9925;
    if (planted.stopDipOn === day) low = callPrice * 0.93;
    if (planted.targetSpikeOn === day) high = callPrice * 1.11;
    close = next;
    const round = (value: number) => Math.round(value * 100) / 100;
    bars.push({
      date,
      open: round(open),
      high: round(high),
      low: round(low),
      close: round(close),
      adjClose: round(close),
      volume: 1_000_000,
    });
  });
  return bars;
}

/** Market data served from the paths, cut at the as-of day asked for: nothing after it. */
export function pathMarket(paths: Record<string, Bar[]>): MarketData & { fetched: number } {
  const market = {
    fetched: 0,
    async snapshot(ticker: string, options: { asOf: Date }) {
      market.fetched += 1;
      const day = options.asOf.toISOString().slice(0, 10);
      const bars = (paths[ticker] ?? []).filter((bar) => bar.date <= day);
      if (bars.length === 0) throw new Error(`no bars for ${ticker}`);
      return { ...snapshotFromBars(bars, ticker), symbol: ticker };
    },
  };
  return market as MarketData & { fetched: number };
}
