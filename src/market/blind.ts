import { blindNotes } from './blind-text.js';
import { blindFundamentals } from './fundamentals-blind.js';
import { renderSnapshotText } from './snapshot-text.js';
import type { Bar, Identity, Indicators, MarketSnapshot, QuoteStats } from './types.js';

/**
 * A blind snapshot: the same numbers with the identity and the calendar taken out, so a
 * model has to read the data instead of remembering the stock. Pure: the input is never
 * mutated, and the same snapshot always blinds the same way.
 *
 * - every identity field becomes the alias (`Company A`) or goes: symbol, name, exchange
 *   and currency; the sector is kept (it says what kind of business, not which one), the
 *   industry is dropped (with a sector it often names the company);
 * - every price-denominated value is divided by `scale` so the last close is 100.00:
 *   bars, last price, day change, moving averages, ATR, support/resistance, the 52-week
 *   range, the analyst target, market cap; ratios, percentages, RSI, volatility,
 *   returns and volumes (in shares) are unchanged;
 * - dates become session offsets: `D-0` is the session of the last bar (the as-of
 *   session), `D-21` the bar 21 sessions before it.
 */

/** The default alias of the one company of a run. */
export const defaultAlias = 'Company A';

/** Levels a decision carries, in the snapshot's price units. */
export interface PriceLevels {
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
}

/** The way back from blind units to the real ones. */
export interface Unblind {
  alias: string;
  /** Real price = blind price × scale (the last close ÷ 100; 1 when the snapshot has no price at all). */
  scale: number;
  price(blind: number | null): number | null;
  /** A decision (or anything with levels) with its entry, stop and target in real prices. */
  levels<T extends PriceLevels>(blind: T): T;
  /** The real day of a session offset (`D-3` → `2026-11-24`); null for an offset the bars do not hold. */
  session(offset: string): string | null;
}

export interface BlindSnapshot {
  snapshot: MarketSnapshot;
  unblind: Unblind;
}

export interface BlindOptions {
  /** Default `Company A`; a run of several companies gives each its own (`alphabeticalAlias`). */
  alias?: string;
}

/** `Company A` … `Company Z`, `Company AA` …: a stable alias per index. */
export function alphabeticalAlias(index: number): string {
  let name = '';
  for (let rest = index; rest >= 0; rest = Math.floor(rest / 26) - 1)
    name = String.fromCharCode(65 + (rest % 26)) + name;
  return `Company ${name}`;
}

/** `D-0` for the last bar, `D-1` for the one before it, …. */
export function sessionOffset(sessionsBack: number): string {
  return `D-${sessionsBack}`;
}

export function blindSnapshot(snapshot: MarketSnapshot, options: BlindOptions = {}): BlindSnapshot {
  const alias = options.alias ?? defaultAlias;
  const scale = scaleOf(snapshot);
  const offsets = sessionOffsets(snapshot.bars);
  const price = (value: number | null): number | null => (isNumber(value) ? value / scale : null);
  const data: Omit<MarketSnapshot, 'text'> = {
    symbol: alias,
    asOf: sessionOffset(0),
    identity: blindIdentity(snapshot.identity, alias),
    quote: blindQuote(snapshot.quote, price),
    bars: snapshot.bars.map((bar) => blindBar(bar, offsets, price)),
    indicators: blindIndicators(snapshot.indicators, offsets, price),
    warnings: blindNotes(snapshot.warnings, { identity: snapshot.identity, symbol: snapshot.symbol, alias, offsets }),
    ...(snapshot.fundamentals ? { fundamentals: blindFundamentalsOf(snapshot, scale, alias) } : {}),
    source: snapshot.source,
    ...(snapshot.vendors ? { vendors: snapshot.vendors } : {}),
    blind: true,
  };
  return { snapshot: { ...data, text: renderSnapshotText(data) }, unblind: unblindFor(alias, scale, offsets) };
}

function blindFundamentalsOf(snapshot: MarketSnapshot, scale: number, alias: string) {
  const fundamentals = snapshot.fundamentals!;
  const hidden = [snapshot.symbol, snapshot.identity.name ?? ''];
  // Filed figures are on the basis of the close as traded: scale them by it, so P/E is unchanged.
  const tradedScale = scale * (fundamentals.shareBasis?.splitFactor ?? 1);
  return blindFundamentals(fundamentals, { scale: tradedScale, bars: snapshot.bars, hidden, alias });
}

/** real ÷ blind: the last close (or the last price there is) ÷ 100. */
function scaleOf(snapshot: MarketSnapshot): number {
  const lastBarClose = [...snapshot.bars].reverse().find((bar) => isPositive(bar.close))?.close;
  const reference = [snapshot.indicators.lastClose, snapshot.quote.price, lastBarClose].find(isPositive);
  return reference === undefined ? 1 : reference / 100;
}

/** Each bar's day → its offset from the last bar. */
function sessionOffsets(bars: readonly Bar[]): Map<string, string> {
  return new Map(bars.map((bar, index) => [bar.date, sessionOffset(bars.length - 1 - index)]));
}

function unblindFor(alias: string, scale: number, offsets: Map<string, string>): Unblind {
  const days = new Map([...offsets].map(([day, offset]) => [offset, day]));
  const price = (blind: number | null) => (isNumber(blind) ? blind * scale : null);
  return {
    alias,
    scale,
    price,
    levels: (blind) => ({
      ...blind,
      entry: price(blind.entry),
      stopLoss: price(blind.stopLoss),
      takeProfit: price(blind.takeProfit),
    }),
    session: (offset) => days.get(offset) ?? null,
  };
}

function blindIdentity(identity: Identity, alias: string): Identity {
  return {
    symbol: alias,
    name: alias,
    exchange: null,
    currency: null,
    quoteType: identity.quoteType,
    sector: identity.sector,
    industry: null,
  };
}

type Scale = (value: number | null) => number | null;

function blindQuote(quote: QuoteStats, price: Scale): QuoteStats {
  return {
    ...quote,
    price: price(quote.price),
    priceTime: null,
    change: price(quote.change),
    marketCap: price(quote.marketCap),
    fiftyTwoWeekHigh: price(quote.fiftyTwoWeekHigh),
    fiftyTwoWeekLow: price(quote.fiftyTwoWeekLow),
    targetMeanPrice: price(quote.targetMeanPrice),
    // A calendar day: hidden like every other.
    ...(quote.earningsDate !== undefined ? { earningsDate: null } : {}),
  };
}

function blindBar(bar: Bar, offsets: Map<string, string>, price: Scale): Bar {
  return {
    date: offsets.get(bar.date) ?? hiddenDay,
    open: price(bar.open),
    high: price(bar.high),
    low: price(bar.low),
    close: price(bar.close),
    adjClose: price(bar.adjClose),
    volume: bar.volume,
  };
}

/** A day that is no bar of the snapshot (it should not happen): named, never shown. */
const hiddenDay = 'D-?';

function blindIndicators(indicators: Indicators, offsets: Map<string, string>, price: Scale): Indicators {
  return {
    ...indicators,
    asOfBar: indicators.asOfBar === null ? null : (offsets.get(indicators.asOfBar) ?? hiddenDay),
    // Exactly 100, not 99.99999999999999 from the division.
    lastClose: isNumber(indicators.lastClose) ? 100 : null,
    sma20: price(indicators.sma20),
    sma50: price(indicators.sma50),
    sma200: price(indicators.sma200),
    atr14: price(indicators.atr14),
    high52w: price(indicators.high52w),
    low52w: price(indicators.low52w),
    support: price(indicators.support),
    resistance: price(indicators.resistance),
  };
}

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isPositive(value: number | null | undefined): value is number {
  return isNumber(value) && value > 0;
}
