import { isoDay } from '../clock.js';
import { conversionNote } from './currency.js';
import { historicalNotes, pointInTimeQuote, type SessionCloseOf } from './historical.js';
import { computeIndicators } from './indicators.js';
import { historyWindow, renderSnapshotText } from './snapshot-text.js';
import type { SnapshotVendors, SourceQuote } from './source.js';
import type { MarketSnapshot } from './types.js';

/**
 * One snapshot from what the sources answered, whoever they were: the indicators, the
 * price of a past close, the notes about history and timing, the text block. Vendor-
 * neutral: the vendor appears only by the names its record carries.
 */

export interface AssemblyRequest {
  symbol: string;
  asOf: Date;
  historical: boolean;
  closeOf: SessionCloseOf;
}

export interface Gathered {
  parts: SourceQuote;
  vendors: SnapshotVendors;
  /** Why an earlier source was passed over (the failover), for the data notes. */
  failover: string[];
}

export function assembleSnapshot(request: AssemblyRequest, gathered: Gathered): MarketSnapshot {
  const { symbol, asOf, historical, closeOf } = request;
  const { parts, vendors } = gathered;
  const { bars, identity } = parts;
  const indicators = computeIndicators(bars);
  const quote = historical || vendors.quote === null ? pointInTimeQuote(bars, asOf, closeOf) : parts.quote;
  const quoteVendor = vendors.quote?.shortLabel ?? null;
  const warnings = [
    ...gathered.failover,
    ...parts.notes,
    ...(parts.conversion ? [conversionNote(parts.conversion)] : []),
    ...historyNotes(bars, asOf),
    ...(historical
      ? historicalNotes(bars, asOf, quoteVendor)
      : quoteVendor === null
        ? []
        : quoteTimingNotes(quote.priceTime, indicators.asOfBar, asOf, quoteVendor)),
  ];
  const source = vendors.bars.vendor;
  const units = {
    ...(parts.conversion ? { units: parts.conversion } : {}),
    ...(parts.splitBasis ? { splitBasis: parts.splitBasis } : {}),
  };
  const data = {
    symbol,
    asOf: asOf.toISOString(),
    identity,
    quote,
    bars,
    indicators,
    warnings,
    source,
    vendors,
    ...units,
  };
  // The key order of a saved snapshot (result.json, the cache) stays as it always was; the record comes last.
  return {
    symbol,
    asOf: data.asOf,
    identity,
    quote,
    bars,
    indicators,
    text: renderSnapshotText(data),
    warnings,
    source,
    vendors,
    ...units,
  };
}

/**
 * A vendor's quote and key statistics are always today's: for a past as-of date they
 * come from after it, and a halted or stale symbol can carry a quote older than its bars.
 */
function quoteTimingNotes(priceTime: string | null, lastBar: string | null, asOf: Date, vendor: string): string[] {
  if (!priceTime) return [];
  const quoteDay = priceTime.slice(0, 10);
  if (quoteDay > isoDay(asOf)) {
    return [
      `the quote and key statistics are ${vendor}'s values of ${quoteDay}, after the as-of date ${isoDay(asOf)}; the daily bars and technicals stop at ${lastBar ?? isoDay(asOf)}`,
    ];
  }
  if (lastBar && quoteDay < lastBar)
    return [`the quote is from ${quoteDay}, older than the last daily bar (${lastBar})`];
  if (lastBar && quoteDay > lastBar) {
    return [
      `the quote (${priceTime.slice(0, 16).replace('T', ' ')} UTC) is newer than the last daily bar (${lastBar}): last price and day change are the quote's; the technicals stop at ${lastBar}`,
    ];
  }
  return [];
}

/** Data notes about the bars themselves: a short history, skipped sessions. */
function historyNotes(bars: MarketSnapshot['bars'], asOf: Date): string[] {
  const notes: string[] = [];
  const window = historyWindow(bars);
  if (window.sessions === 0) {
    notes.push(`no daily bars up to ${isoDay(asOf)}; technicals are not available`);
    return notes;
  }
  if (!window.coversYear) {
    notes.push(
      `only ${window.sessions} daily sessions (${window.first} → ${window.last}): 1-year figures cover this shorter window, the 1-year return is not available`,
    );
  }
  const skipped = bars.length - window.sessions;
  if (skipped > 0) notes.push(`${skipped} session(s) without a price were skipped`);
  return notes;
}
