import { adjustedCloses, maxDrawdownWindow, yearOfCloses } from './indicators.js';
import type { Bar, MarketSnapshot } from './types.js';

/**
 * The snapshot as the agents see it: one labelled block, every number with its unit
 * and date, every gap said out loud so a model does not fill it from memory. Kept
 * under about 1,200 tokens (≈ 4,800 characters) for a fully populated symbol.
 */

export const notAvailable = 'not available — do not estimate';

/** The block's budget in characters (≈ 1,200 tokens at 4 characters a token). */
export const snapshotTextBudgetChars = 4_800;

type SnapshotData = Omit<MarketSnapshot, 'text'>;

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Prices: 4 decimals below 2 (currencies, penny stocks), else 2. */
export function formatPrice(value: number | null | undefined, unit: string): string {
  if (!isNumber(value)) return notAvailable;
  const decimals = Math.abs(value) < 2 ? 4 : 2;
  return `${value.toFixed(decimals)} ${unit}`;
}

/** A price difference (a day's change) with the decimals of the price it changes, so −1.75 on a 270 stock is not shown as −1.7532. */
export function formatPriceChange(
  value: number | null | undefined,
  price: number | null | undefined,
  unit: string,
): string {
  if (!isNumber(value)) return notAvailable;
  const decimals = Math.abs(isNumber(price) ? price : value) < 2 ? 4 : 2;
  return `${value > 0 ? '+' : ''}${value.toFixed(decimals)} ${unit}`;
}

/** Large quantities with a scale: 3.64 T, 54.84 M, 12.30 K. */
export function formatQuantity(value: number | null | undefined, unit: string): string {
  if (!isNumber(value)) return notAvailable;
  const scales: Array<[number, string]> = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of scales) {
    if (Math.abs(value) >= size) return `${(value / size).toFixed(2)} ${suffix} ${unit}`;
  }
  return `${Math.round(value)} ${unit}`;
}

/** A fraction as a percentage; `signed` adds + to gains (returns, distances). */
export function formatFraction(value: number | null | undefined, signed = false): string {
  if (!isNumber(value)) return notAvailable;
  return formatPercent(value * 100, signed);
}

export function formatPercent(value: number | null | undefined, signed = false): string {
  if (!isNumber(value)) return notAvailable;
  const sign = signed && value > 0 ? '+' : '';
  return `${sign}${value.toFixed(2)} %`;
}

export function formatNumber(value: number | null | undefined, decimals = 2): string {
  if (!isNumber(value)) return notAvailable;
  return value.toFixed(decimals);
}

function formatTime(iso: string | null): string | null {
  if (!iso) return null;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

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
  const spanDays = first && last ? (Date.parse(last) - Date.parse(first)) / 86_400_000 : 0;
  return { sessions: closes.length, first, last, coversYear: closes.length > 252 || spanDays >= 350 };
}

export function renderSnapshotText(snapshot: SnapshotData): string {
  const { identity, quote, indicators } = snapshot;
  const currency = identity.currency ?? 'in the listing currency';
  const money = (value: number | null) => formatPrice(value, currency);
  const day = snapshot.asOf.slice(0, 10);
  const barDay = indicators.asOfBar;
  const dated = (value: string) => (value === notAvailable || !barDay ? value : `${value} (${barDay})`);
  const window = historyWindow(snapshot.bars);
  const yearLabel =
    window.coversYear || window.first === null ? '1 year' : `${window.sessions} sessions since ${window.first}`;

  const lines: string[] = [];
  lines.push(`MARKET DATA — ${snapshot.symbol} (${identity.name ?? 'name not available'}), as of ${day}`);
  lines.push(
    `Source: Yahoo Finance. Use these numbers; where one is "${notAvailable}", say it is missing instead of supplying it.`,
  );

  lines.push('', 'IDENTITY');
  lines.push(
    `Symbol: ${identity.symbol} | Type: ${identity.quoteType ?? notAvailable} | Exchange: ${identity.exchange ?? notAvailable} | Currency: ${identity.currency ?? notAvailable}`,
  );
  lines.push(`Sector: ${identity.sector ?? notAvailable} | Industry: ${identity.industry ?? notAvailable}`);

  const priceTime = formatTime(quote.priceTime);
  lines.push('', `QUOTE & KEY STATISTICS (Yahoo${priceTime ? `, quote time ${priceTime}` : ''})`);
  const change = isNumber(quote.change)
    ? `; day change ${formatPriceChange(quote.change, quote.price, currency)} (${formatPercent(quote.changePercent, true)})`
    : '';
  lines.push(
    `Last price: ${money(quote.price)}${isNumber(quote.price) && priceTime ? ` (${quote.priceTime!.slice(0, 10)})` : ''}${change}`,
  );
  lines.push(`Market cap: ${formatQuantity(quote.marketCap, currency)}`);
  lines.push(`P/E: trailing ${formatNumber(quote.trailingPE)}; forward ${formatNumber(quote.forwardPE)}`);
  lines.push(`Beta (vs market): ${formatNumber(quote.beta)}`);
  lines.push(
    `52-week range (Yahoo): ${isNumber(quote.fiftyTwoWeekLow) && isNumber(quote.fiftyTwoWeekHigh) ? `${money(quote.fiftyTwoWeekLow)} – ${money(quote.fiftyTwoWeekHigh)}` : notAvailable}`,
  );
  lines.push(`Average daily volume (3 months): ${formatQuantity(quote.averageVolume, 'shares')}`);
  lines.push(`Dividend yield: ${formatFraction(quote.dividendYield)}`);
  lines.push(
    `Analyst mean target: ${money(quote.targetMeanPrice)} | Recommendation: ${quote.recommendation ?? notAvailable}`,
  );
  lines.push(
    `Profit margin: ${formatFraction(quote.profitMargin)} | Revenue growth (year over year): ${formatFraction(quote.revenueGrowth, true)}`,
  );
  lines.push(
    `Debt/equity: ${isNumber(quote.debtToEquity) ? `${quote.debtToEquity.toFixed(2)} % (Yahoo's figure: 100 % = debt equals equity)` : notAvailable}`,
  );

  const windowText =
    window.sessions > 0 ? `${window.sessions} daily sessions ${window.first} → ${window.last}` : 'no daily bars';
  lines.push('', `TECHNICALS (${windowText}; adjusted closes; RSI and ATR with Wilder smoothing)`);
  lines.push(`Last close: ${dated(money(indicators.lastClose))}`);
  const { returns } = indicators;
  lines.push(
    `Returns to ${barDay ?? day}: 1 day ${formatFraction(returns.d1, true)}, 1 week ${formatFraction(returns.w1, true)}, 1 month ${formatFraction(returns.m1, true)}, 3 months ${formatFraction(returns.m3, true)}, 6 months ${formatFraction(returns.m6, true)}, 1 year ${formatFraction(returns.y1, true)}`,
  );
  const average = (label: string, value: number | null, distance: number | null) =>
    isNumber(value)
      ? `${label} ${money(value)} (close ${formatFraction(distance, true)} vs it)`
      : `${label} ${notAvailable}`;
  lines.push(
    `Moving averages (${barDay ?? day}): ${average('SMA20', indicators.sma20, indicators.distanceFromSma20)}; ${average('SMA50', indicators.sma50, indicators.distanceFromSma50)}; ${average('SMA200', indicators.sma200, indicators.distanceFromSma200)}`,
  );
  lines.push(`RSI(14): ${dated(formatNumber(indicators.rsi14, 1))}`);
  const atrShare =
    isNumber(indicators.atr14) && isNumber(indicators.lastClose)
      ? ` = ${formatFraction(indicators.atr14 / indicators.lastClose)} of close`
      : '';
  lines.push(`ATR(14): ${dated(isNumber(indicators.atr14) ? `${money(indicators.atr14)}${atrShare}` : notAvailable)}`);
  lines.push(
    `Volatility (annualised, daily log returns): 20-day ${formatFraction(indicators.volatility20d)}; ${yearLabel} ${formatFraction(indicators.volatility1y)}`,
  );
  lines.push(`Max drawdown (${yearLabel}): ${drawdownText(indicators.maxDrawdown1y, snapshot.bars)}`);

  lines.push('', 'LEVELS');
  const fromClose = (distance: number | null) =>
    isNumber(distance) ? ` (close ${formatFraction(distance, true)} from it)` : '';
  lines.push(
    `High/low of daily bars (${yearLabel}): high ${money(indicators.high52w)}${fromClose(indicators.distanceFromHigh52w)}; low ${money(indicators.low52w)}${fromClose(indicators.distanceFromLow52w)}`,
  );
  lines.push(
    `20-session swing levels (${barDay ?? day}): support (lowest low) ${money(indicators.support)}; resistance (highest high) ${money(indicators.resistance)}`,
  );
  lines.push(
    `Volume: 20-day average ${formatQuantity(indicators.averageVolume20d, 'shares')} vs ${yearLabel} average ${formatQuantity(indicators.averageVolume1y, 'shares')} (ratio ${formatNumber(indicators.volumeRatio)})`,
  );

  lines.push('', 'DATA NOTES');
  if (snapshot.warnings.length === 0) lines.push('- none');
  for (const warning of snapshot.warnings) lines.push(`- ${warning}`);
  return lines.join('\n');
}

/** The drawdown dated by its peak and trough (when it happened), not by the last bar. */
function drawdownText(drawdown: number | null, bars: readonly Bar[]): string {
  if (!isNumber(drawdown)) return notAvailable;
  const window = maxDrawdownWindow(yearOfCloses(bars));
  return window
    ? `${formatFraction(drawdown)} (peak ${window.peak}, trough ${window.trough})`
    : `${formatFraction(drawdown)} (no fall in the window)`;
}
