import { isoDay } from '../clock.js';
import { findCalendarOf } from './calendar/index.js';
import type { Bar, QuoteStats } from './types.js';

/**
 * A historical snapshot sees nothing after its day. Yahoo's quote and key statistics
 * (market cap, P/E, beta, yield, analyst targets, margins, growth) exist only as of
 * today, so a run as of a past close drops them, and its price is that session's close
 * from the daily bars.
 */

function lastTwoCloses(bars: readonly Bar[]): { last: Bar | null; previous: Bar | null } {
  const priced = bars.filter((bar) => typeof bar.close === 'number' && Number.isFinite(bar.close));
  return { last: priced[priced.length - 1] ?? null, previous: priced[priced.length - 2] ?? null };
}

export function pointInTimeQuote(bars: readonly Bar[], asOf: Date, symbol: string): QuoteStats {
  const { last, previous } = lastTwoCloses(bars);
  const calendar = findCalendarOf(symbol);
  const price = last?.close ?? null;
  const change = price !== null && previous?.close ? price - previous.close : null;
  return {
    price,
    // The session's close on the symbol's exchange; a bar of an earlier day keeps its own date.
    priceTime:
      last === null
        ? null
        : last.date === isoDay(asOf)
          ? asOf.toISOString()
          : (calendar?.closeAt(last.date).toISOString() ?? null),
    change,
    changePercent: change !== null && previous?.close ? (change / previous.close) * 100 : null,
    marketCap: null,
    trailingPE: null,
    forwardPE: null,
    beta: null,
    fiftyTwoWeekHigh: null,
    fiftyTwoWeekLow: null,
    averageVolume: null,
    dividendYield: null,
    targetMeanPrice: null,
    recommendation: null,
    profitMargin: null,
    revenueGrowth: null,
    debtToEquity: null,
  };
}

/** What the agents (and the reader) are told about a historical snapshot. */
export function historicalNotes(bars: readonly Bar[], asOf: Date): string[] {
  const day = isoDay(asOf);
  const notes = [
    `historical run as of the ${day} close: the price is that session's close from the daily bars; Yahoo's market cap, P/E, beta, dividend yield, analyst target and recommendation, margins, growth and debt/equity are today's values, not as of ${day}, and are left out`,
  ];
  const { last } = lastTwoCloses(bars);
  if (last !== null && last.date !== day) notes.push(`no daily bar for ${day}; the last one is ${last.date}`);
  return notes;
}
