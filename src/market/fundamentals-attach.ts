import { isoDay } from '../clock.js';
import { CassetteError, InterruptedError } from '../errors.js';
import { asTradedClose, splitFactorAfter } from './fundamentals-basis.js';
import type { Fundamentals, SplitEvent } from './fundamentals-types.js';
import type { MarketSource } from './source.js';
import { renderSnapshotText } from './snapshot-text.js';
import type { MarketData, MarketSnapshot, SnapshotOptions } from './types.js';

/**
 * The fundamentals joined to a snapshot: the one call site between the price source and a
 * fundamentals source. A historical run values the company at the close as traded on D
 * (today's adjusted close × the splits since), with filed per-share figures carried to D's
 * basis; the technicals keep the adjusted series. A failed fundamentals source costs the
 * snapshot its fundamentals and one data note, never the run.
 */

export interface FundamentalsJoin {
  source: MarketSource;
  /** Today's date for the split window (the run's recorded clock, so a replay asks the same). */
  today: () => Date;
}

/** Splits are looked for this far back, so a figure filed before a recent split is carried over it. */
const splitLookbackDays = 4 * 366;

export function withFundamentals(market: MarketData, join: FundamentalsJoin): MarketData {
  return {
    ...market,
    snapshot: async (ticker, options) => {
      const snapshot = await market.snapshot(ticker, options);
      const attached = await attachFundamentals(market, join, snapshot, options);
      return attached ?? snapshot;
    },
  };
}

function rethrowIfFinal(error: unknown, options: SnapshotOptions): void {
  if (error instanceof CassetteError || error instanceof InterruptedError) throw error;
  if (options.signal?.aborted) throw new InterruptedError();
}

async function splitsFor(
  market: MarketData,
  join: FundamentalsJoin,
  snapshot: MarketSnapshot,
  options: SnapshotOptions,
): Promise<{ splits: SplitEvent[]; note?: string }> {
  if (!market.splits) return { splits: [] };
  const from = isoDay(new Date(options.asOf.getTime() - splitLookbackDays * 86_400_000));
  try {
    const splits = await market.splits(snapshot.symbol, { from, to: isoDay(join.today()), signal: options.signal });
    return { splits };
  } catch (error) {
    rethrowIfFinal(error, options);
    return { splits: [], note: 'split events not available: per-share figures are as filed and the close as adjusted' };
  }
}

async function attachFundamentals(
  market: MarketData,
  join: FundamentalsJoin,
  snapshot: MarketSnapshot,
  options: SnapshotOptions,
): Promise<MarketSnapshot | null> {
  const fundamentals = join.source.fundamentals;
  if (!fundamentals) return null;
  const historical = options.historical === true;
  const day = isoDay(options.asOf);
  const price = snapshot.quote.price;
  let found: Fundamentals | undefined;
  let shareBasis: Fundamentals['shareBasis'];
  try {
    const { splits, note } = await splitsFor(market, join, snapshot, options);
    const factor = splitFactorAfter(splits, day);
    // Bars already as traded on D (Tiingo's window) are not multiplied by the later splits again.
    const asTraded = snapshot.splitBasis === 'as-traded';
    const traded = historical && price !== null && !asTraded ? asTradedClose(price, splits, day) : price;
    const adjusted = asTraded && price !== null ? Math.round((price / factor) * 1e6) / 1e6 : price;
    if (historical && traded !== null && adjusted !== null && factor !== 1)
      shareBasis = { asTradedClose: traded, adjustedClose: adjusted, splitFactor: factor };
    found = await fundamentals.call(join.source, {
      ticker: snapshot.symbol,
      asOfClose: options.asOf.toISOString(),
      historical,
      asTradedClose: traded,
      splits,
      signal: options.signal,
    });
    if (found && note) found = { ...found, notes: [...found.notes, note] };
  } catch (error) {
    rethrowIfFinal(error, options);
    const reason = error instanceof Error ? error.message : String(error);
    return withData(snapshot, undefined, [`fundamentals unavailable: ${reason}`]);
  }
  if (!found) return null;
  return withData(snapshot, shareBasis ? { ...found, shareBasis } : found, []);
}

function withData(snapshot: MarketSnapshot, fundamentals: Fundamentals | undefined, notes: string[]): MarketSnapshot {
  const { text: _text, ...data } = snapshot;
  const next = {
    ...data,
    ...(fundamentals ? { fundamentals } : {}),
    warnings: [...snapshot.warnings, ...notes],
  };
  return { ...next, text: renderSnapshotText(next) };
}
