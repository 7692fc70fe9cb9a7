import { fundamentalsLines } from './fundamentals-text.js';
import { adjustedCloses, maxDrawdownWindow, yearOfCloses } from './indicators.js';
import {
  formatFraction,
  formatNumber,
  formatPercent,
  formatPrice,
  formatPriceChange,
  formatQuantity,
  isNumber,
  notAvailable,
} from './snapshot-format.js';
import { describeMinorUnit } from './currency.js';
import type { Bar, MarketSnapshot } from './types.js';

/**
 * The snapshot as the agents see it: one labelled block, every number with its unit
 * and date, every gap said out loud so a model does not fill it from memory. Kept
 * under about 1,200 tokens (≈ 4,800 characters) for a fully populated symbol. A blind
 * snapshot (`blindSnapshot()`) is written with its alias, in blind price units and with
 * session offsets: no calendar date, year or weekday.
 */

/** The block's budget in characters (≈ 1,200 tokens at 4 characters a token). */
export const snapshotTextBudgetChars = 4_800;

type SnapshotData = Omit<MarketSnapshot, 'text'>;

/** The stretch of history the technicals cover, in words. */
export function historyWindow(bars: readonly Bar[]): {
  sessions: number;
  first: string | null;
  last: string | null;
  coversYear: boolean;
} {
  const closes = adjustedCloses(bars);
  const first = closes[0]?.date ?? null;
  const last = closes[closes.length - 1]?.date ?? null;
  // A blind snapshot's days are offsets (D-251): no span in days, so only the count decides.
  const span = first && last ? (Date.parse(last) - Date.parse(first)) / 86_400_000 : 0;
  const spanDays = Number.isFinite(span) ? span : 0;
  return { sessions: closes.length, first, last, coversYear: closes.length > 252 || spanDays >= 350 };
}

/** What every section writes with: the price unit, the day labels, the year window, the vendors' names. */
interface Writer {
  data: SnapshotData;
  /** "Source: …": every vendor that answered a part, from the snapshot's record. */
  sourceLabel: string;
  /** The quote's vendor after a figure ("52-week range (<vendor>)"); null when no source had a quote. */
  quoteVendor: string | null;
  currency: string;
  money: (value: number | null) => string;
  /** The as-of day (`2026-11-27`, or `D-0` when blind). */
  day: string;
  /** The last bar's day, or the as-of day. */
  barDay: string;
  dated: (value: string) => string;
  window: ReturnType<typeof historyWindow>;
  yearLabel: string;
}

function writerFor(data: SnapshotData): Writer {
  const currency = data.blind ? 'blind units' : (data.identity.currency ?? 'in the listing currency');
  const barDay = data.indicators.asOfBar;
  const window = historyWindow(data.bars);
  return {
    data,
    ...vendorNames(data),
    currency,
    // A price converted from minor units keeps their precision: 308.8 pence is 3.0880 GBP, not 3.09.
    money: (value) => formatPrice(value, currency, data.units ? 4 : 2),
    day: data.asOf.slice(0, 10),
    barDay: barDay ?? data.asOf.slice(0, 10),
    dated: (value) => (value === notAvailable || !barDay ? value : `${value} (${barDay})`),
    window,
    yearLabel:
      window.coversYear || window.first === null ? '1 year' : `${window.sessions} sessions since ${window.first}`,
  };
}

/** A snapshot saved before the vendor was recorded names none. */
const unrecorded = 'not recorded';

function vendorNames({ vendors }: SnapshotData): { sourceLabel: string; quoteVendor: string | null } {
  if (!vendors) return { sourceLabel: unrecorded, quoteVendor: unrecorded };
  const quoteVendor = vendors.quote?.shortLabel ?? null;
  if (vendors.quote === null)
    return { sourceLabel: `${vendors.bars.label} (daily bars only; no quote, key statistics or profile)`, quoteVendor };
  const labels = [...new Set([vendors.bars.label, vendors.quote.label, vendors.profile?.label ?? vendors.bars.label])];
  return { sourceLabel: labels.join(' and '), quoteVendor };
}

/** "GBP" or, for a quote converted from pence, "GBP (converted from GBp, pence)". */
function currencyText(data: SnapshotData): string {
  const currency = data.identity.currency ?? notAvailable;
  return data.units ? `${currency} (converted from ${describeMinorUnit(data.units)})` : currency;
}

export function renderSnapshotText(snapshot: SnapshotData): string {
  const writer = writerFor(snapshot);
  return [
    ...(snapshot.blind ? blindHeaderLines(writer) : headerLines(writer)),
    ...quoteLines(writer),
    ...technicalLines(writer),
    ...levelLines(writer),
    ...fundamentalsLines({ fundamentals: snapshot.fundamentals, blind: snapshot.blind, day: writer.day }),
    ...noteLines(snapshot.warnings),
  ].join('\n');
}

function headerLines({ data, day, sourceLabel }: Writer): string[] {
  const { identity } = data;
  return [
    `MARKET DATA — ${data.symbol} (${identity.name ?? 'name not available'}), as of ${day}`,
    `Source: ${sourceLabel}. Use these numbers; where one is "${notAvailable}", say it is missing instead of supplying it.`,
    '',
    'IDENTITY',
    `Symbol: ${identity.symbol} | Type: ${identity.quoteType ?? notAvailable} | Exchange: ${identity.exchange ?? notAvailable} | Currency: ${currencyText(data)}`,
    `Sector: ${identity.sector ?? notAvailable} | Industry: ${identity.industry ?? notAvailable}`,
  ];
}

/** The blind run's header: the alias, what was changed, and nothing that names the company or the day. */
function blindHeaderLines({ data, sourceLabel }: Writer): string[] {
  const { identity } = data;
  return [
    `MARKET DATA — ${data.symbol} (blind: the company and the calendar are hidden), as of session D-0`,
    `Source: ${sourceLabel}, blinded. Every price is in blind units, scaled so the last close is 100.00; ratios, percentages, RSI, volatility, returns and volumes are as reported. Days are session offsets: D-0 is the as-of session, D-21 is 21 sessions earlier. Use these numbers; where one is "${notAvailable}", say it is missing instead of supplying it.`,
    '',
    'IDENTITY',
    `Company: ${identity.name ?? data.symbol} | Type: ${identity.quoteType ?? notAvailable}`,
    `Sector: ${identity.sector ?? notAvailable}`,
  ];
}

function quoteLines({ data, money, currency, quoteVendor }: Writer): string[] {
  const { quote } = data;
  const priceTime = formatTime(quote.priceTime);
  const change = isNumber(quote.change)
    ? `; day change ${formatPriceChange(quote.change, quote.price, currency)} (${formatPercent(quote.changePercent, true)})`
    : '';
  const range =
    isNumber(quote.fiftyTwoWeekLow) && isNumber(quote.fiftyTwoWeekHigh)
      ? `${money(quote.fiftyTwoWeekLow)} – ${money(quote.fiftyTwoWeekHigh)}`
      : notAvailable;
  return [
    '',
    `QUOTE & KEY STATISTICS (${quoteVendor ?? 'from the last daily bar'}${priceTime ? `, quote time ${priceTime}` : ''})`,
    `Last price: ${money(quote.price)}${isNumber(quote.price) && priceTime ? ` (${quote.priceTime!.slice(0, 10)})` : ''}${change}`,
    `Market cap: ${formatQuantity(quote.marketCap, currency)}`,
    `P/E: trailing ${formatNumber(quote.trailingPE)}; forward ${formatNumber(quote.forwardPE)}`,
    `Beta (vs market): ${formatNumber(quote.beta)}`,
    `52-week range${quoteVendor ? ` (${quoteVendor})` : ''}: ${range}`,
    `Average daily volume (3 months): ${formatQuantity(quote.averageVolume, 'shares')}`,
    `Dividend yield: ${formatFraction(quote.dividendYield)}`,
    `Analyst mean target: ${money(quote.targetMeanPrice)} | Recommendation: ${quote.recommendation ?? notAvailable}`,
    `Profit margin: ${formatFraction(quote.profitMargin)} | Revenue growth (year over year): ${formatFraction(quote.revenueGrowth, true)}`,
    `Debt/equity: ${isNumber(quote.debtToEquity) ? `${quote.debtToEquity.toFixed(2)} % (${quoteVendor ?? 'the vendor'}'s figure: 100 % = debt equals equity)` : notAvailable}`,
  ];
}

function technicalLines(writer: Writer): string[] {
  const { data, money, dated, window, yearLabel, barDay } = writer;
  const { indicators } = data;
  const { returns } = indicators;
  const windowText =
    window.sessions > 0 ? `${window.sessions} daily sessions ${window.first} → ${window.last}` : 'no daily bars';
  const average = (label: string, value: number | null, distance: number | null) =>
    isNumber(value)
      ? `${label} ${money(value)} (close ${formatFraction(distance, true)} vs it)`
      : `${label} ${notAvailable}`;
  const atrShare =
    isNumber(indicators.atr14) && isNumber(indicators.lastClose)
      ? ` = ${formatFraction(indicators.atr14 / indicators.lastClose)} of close`
      : '';
  return [
    '',
    `TECHNICALS (${windowText}; adjusted closes; RSI and ATR with Wilder smoothing)`,
    `Last close: ${dated(money(indicators.lastClose))}`,
    `Returns to ${barDay}: 1 day ${formatFraction(returns.d1, true)}, 1 week ${formatFraction(returns.w1, true)}, 1 month ${formatFraction(returns.m1, true)}, 3 months ${formatFraction(returns.m3, true)}, 6 months ${formatFraction(returns.m6, true)}, 1 year ${formatFraction(returns.y1, true)}`,
    `Moving averages (${barDay}): ${average('SMA20', indicators.sma20, indicators.distanceFromSma20)}; ${average('SMA50', indicators.sma50, indicators.distanceFromSma50)}; ${average('SMA200', indicators.sma200, indicators.distanceFromSma200)}`,
    `RSI(14): ${dated(formatNumber(indicators.rsi14, 1))}`,
    `ATR(14): ${dated(isNumber(indicators.atr14) ? `${money(indicators.atr14)}${atrShare}` : notAvailable)}`,
    `Volatility (annualised, daily log returns): 20-day ${formatFraction(indicators.volatility20d)}; ${yearLabel} ${formatFraction(indicators.volatility1y)}`,
    `Max drawdown (${yearLabel}): ${drawdownText(indicators.maxDrawdown1y, data.bars)}`,
  ];
}

function levelLines({ data, money, yearLabel, barDay }: Writer): string[] {
  const { indicators } = data;
  const fromClose = (distance: number | null) =>
    isNumber(distance) ? ` (close ${formatFraction(distance, true)} from it)` : '';
  return [
    '',
    'LEVELS',
    `High/low of daily bars (${yearLabel}): high ${money(indicators.high52w)}${fromClose(indicators.distanceFromHigh52w)}; low ${money(indicators.low52w)}${fromClose(indicators.distanceFromLow52w)}`,
    `20-session swing levels (${barDay}): support (lowest low) ${money(indicators.support)}; resistance (highest high) ${money(indicators.resistance)}`,
    `Volume: 20-day average ${formatQuantity(indicators.averageVolume20d, 'shares')} vs ${yearLabel} average ${formatQuantity(indicators.averageVolume1y, 'shares')} (ratio ${formatNumber(indicators.volumeRatio)})`,
  ];
}

function noteLines(warnings: readonly string[]): string[] {
  return ['', 'DATA NOTES', ...(warnings.length === 0 ? ['- none'] : warnings.map((warning) => `- ${warning}`))];
}

function formatTime(iso: string | null): string | null {
  if (!iso) return null;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The drawdown dated by its peak and trough (when it happened), not by the last bar. */
function drawdownText(drawdown: number | null, bars: readonly Bar[]): string {
  if (!isNumber(drawdown)) return notAvailable;
  const window = maxDrawdownWindow(yearOfCloses(bars));
  return window
    ? `${formatFraction(drawdown)} (peak ${window.peak}, trough ${window.trough})`
    : `${formatFraction(drawdown)} (no fall in the window)`;
}
