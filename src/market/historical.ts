import { isoDay } from '../clock.js';
import type { Bar, QuoteStats } from './types.js';

/**
 * A historical snapshot sees nothing after its day. A vendor's quote and key statistics
 * (market cap, P/E, beta, yield, analyst targets, margins, growth) exist only as of
 * today, so a run as of a past close drops them, and its price is that session's close
 * from the daily bars. The same quote stands in when no source had a quote at all (a
 * failover to daily bars).
 */

/** The close of one session of the ticker's exchange, as an instant. */
export type SessionCloseOf = (day: string) => Date;

function lastTwoCloses(bars: readonly Bar[]): { last: Bar | null; previous: Bar | null } {
  const priced = bars.filter((bar) => typeof bar.close === 'number' && Number.isFinite(bar.close));
  return { last: priced[priced.length - 1] ?? null, previous: priced[priced.length - 2] ?? null };
}

export function pointInTimeQuote(bars: readonly Bar[], asOf: Date, closeOf: SessionCloseOf): QuoteStats {
  const { last, previous } = lastTwoCloses(bars);
  const price = last?.close ?? null;
  const change = price !== null && previous?.close ? price - previous.close : null;
  return {
    ...noQuoteStats,
    price,
    // The session's close on the symbol's exchange; a bar of an earlier day keeps its own date.
    priceTime:
      last === null ? null : last.date === isoDay(asOf) ? asOf.toISOString() : closeOf(last.date).toISOString(),
    change,
    changePercent: change !== null && previous?.close ? (change / previous.close) * 100 : null,
  };
}

/** A quote with nothing known: what a source that has only daily bars gives, before the bars price it. */
export const noQuoteStats: QuoteStats = {
  price: null,
  priceTime: null,
  change: null,
  changePercent: null,
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

/**
 * What the agents (and the reader) are told about a historical snapshot. `quoteVendor`
 * is the short name of the vendor whose today-only statistics were left out (none when
 * no source had a quote).
 */
export function historicalNotes(bars: readonly Bar[], asOf: Date, quoteVendor: string | null): string[] {
  const day = isoDay(asOf);
  const price = `historical run as of the ${day} close: the price is that session's close from the daily bars`;
  const notes = [
    quoteVendor === null
      ? price
      : `${price}; ${quoteVendor}'s market cap, P/E, beta, dividend yield, analyst target and recommendation, margins, growth and debt/equity are today's values, not as of ${day}, and are left out`,
  ];
  const { last } = lastTwoCloses(bars);
  if (last !== null && last.date !== day) notes.push(`no daily bar for ${day}; the last one is ${last.date}`);
  return notes;
}
