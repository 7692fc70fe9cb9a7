import type { Bar, Indicators } from './types.js';

/**
 * Technical indicators as pure functions over daily bars.
 *
 * Conventions, chosen so a model can trust every number it is shown:
 * - A bar whose value is missing (null, NaN, ±Infinity, or a non-positive price) is
 *   skipped, not treated as zero: every "last N" below means the last N sessions that
 *   carry that value. Nothing here returns NaN; too little data returns null.
 * - Close-based figures (returns, SMAs, RSI, volatility, drawdown) use the adjusted
 *   close (adjClose, falling back to close), so splits and dividends are not read as
 *   price moves. Adjusted closes are anchored to the latest session (scaled so its
 *   adjusted close equals its traded close), so the SMAs read in today's prices even
 *   when the vendor adjusted them for dividends paid after the as-of date; a bar without an
 *   adjusted close keeps its traded close, unscaled. Levels a trader
 *   acts on (last close, 52-week high/low, ATR, support and resistance) use the traded
 *   prices the vendor reports.
 * - Year-window figures (1-year volatility, drawdown, 52-week high/low, 1-year average
 *   volume) use the last 252 sessions, or all sessions when the history is shorter (a
 *   recent listing); the text block names the window it covers. The 1-year return is
 *   stricter: it needs a bar a year back (see periodReturns).
 */

export const tradingDaysPerYear = 252;

/** Sessions back for each return horizon. */
export const returnLookbacks = { d1: 1, w1: 5, m1: 21, m3: 63, m6: 126, y1: 252 } as const;

/** Support and resistance are the lowest low and highest high of this many sessions. */
export const swingWindow = 20;

export interface Point {
  date: string;
  value: number;
}

function isPrice(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isQuantity(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * Adjusted closes in the latest session's prices (adjClose × the adjustment anchor),
 * skipping bars without a usable price. A bar with no adjusted close keeps its traded
 * close as is: the anchor converts adjusted prices to traded ones, and scaling a price
 * that is already traded would read as a move that never happened.
 */
export function adjustedCloses(bars: readonly Bar[]): Point[] {
  const anchor = adjustmentAnchor(bars);
  const points: Point[] = [];
  for (const bar of bars) {
    const value = isPrice(bar.adjClose) ? bar.adjClose * anchor : bar.close;
    if (isPrice(value)) points.push({ date: bar.date, value });
  }
  return points;
}

/**
 * close ÷ adjClose of the latest bar that has both: multiplying adjusted closes by it
 * puts them in the latest session's prices. 1 when no bar has both.
 */
export function adjustmentAnchor(bars: readonly Bar[]): number {
  for (let index = bars.length - 1; index >= 0; index -= 1) {
    const bar = bars[index]!;
    if (isPrice(bar.close) && isPrice(bar.adjClose)) return bar.close / bar.adjClose;
  }
  return 1;
}

/** The last bar with a traded close (close, else adjClose). */
export function lastTradedClose(bars: readonly Bar[]): Point | null {
  for (let index = bars.length - 1; index >= 0; index -= 1) {
    const bar = bars[index]!;
    const value = isPrice(bar.close) ? bar.close : bar.adjClose;
    if (isPrice(value)) return { date: bar.date, value };
  }
  return null;
}

/** Return over `lookback` sessions: last ÷ value `lookback` sessions earlier − 1. */
export function periodReturn(values: readonly number[], lookback: number): number | null {
  if (lookback < 1 || values.length <= lookback) return null;
  const last = values[values.length - 1]!;
  const base = values[values.length - 1 - lookback]!;
  return last / base - 1;
}

const dayMs = 86_400_000;

/** A history this long (in calendar days) counts as a year for the 1-year return. */
const yearSpanDays = 350;

function daysBetween(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs;
}

/**
 * Returns over 1 day, 1 week (5 sessions), 1 month (21), 3 months (63), 6 months
 * (126) and 1 year (252). With fewer than 253 closes the 1-year return falls back to
 * the first close, but only when that close is at least 350 calendar days back (a
 * year of holidays can leave 250 sessions); a six-month history has no 1-year return.
 */
export function periodReturns(closes: readonly Point[]): Indicators['returns'] {
  const values = closes.map((point) => point.value);
  let y1 = periodReturn(values, returnLookbacks.y1);
  if (y1 === null && closes.length >= 2) {
    const first = closes[0]!;
    const last = closes[closes.length - 1]!;
    if (daysBetween(first.date, last.date) >= yearSpanDays) y1 = last.value / first.value - 1;
  }
  return {
    d1: periodReturn(values, returnLookbacks.d1),
    w1: periodReturn(values, returnLookbacks.w1),
    m1: periodReturn(values, returnLookbacks.m1),
    m3: periodReturn(values, returnLookbacks.m3),
    m6: periodReturn(values, returnLookbacks.m6),
    y1,
  };
}

/** Simple moving average of the last `period` values. */
export function simpleMovingAverage(values: readonly number[], period: number): number | null {
  if (period < 1 || values.length < period) return null;
  return mean(values.slice(-period));
}

/** Fractional distance of `value` from `reference`: value ÷ reference − 1. */
export function distanceFrom(value: number | null, reference: number | null): number | null {
  if (value === null || reference === null || reference === 0) return null;
  return value / reference - 1;
}

/**
 * RSI with Wilder's smoothing: the first average gain/loss is the simple mean of the
 * first `period` changes, each later one is (previous × (period − 1) + current) ÷ period.
 * All gains → 100; no movement at all → 50. Needs period + 1 values.
 */
export function relativeStrengthIndex(values: readonly number[], period = 14): number | null {
  if (period < 1 || values.length < period + 1) return null;
  let averageGain = 0;
  let averageLoss = 0;
  for (let index = 1; index <= period; index += 1) {
    const change = values[index]! - values[index - 1]!;
    if (change > 0) averageGain += change;
    else averageLoss -= change;
  }
  averageGain /= period;
  averageLoss /= period;
  for (let index = period + 1; index < values.length; index += 1) {
    const change = values[index]! - values[index - 1]!;
    averageGain = (averageGain * (period - 1) + Math.max(change, 0)) / period;
    averageLoss = (averageLoss * (period - 1) + Math.max(-change, 0)) / period;
  }
  if (averageLoss === 0) return averageGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + averageGain / averageLoss);
}

/**
 * True ranges of consecutive bars that have high, low and close:
 * max(high − low, |high − previous close|, |low − previous close|). The first
 * complete bar has no previous close, so it contributes no range.
 */
export function trueRanges(bars: readonly Bar[]): number[] {
  const ranges: number[] = [];
  let previousClose: number | null = null;
  for (const bar of bars) {
    if (!isPrice(bar.high) || !isPrice(bar.low) || !isPrice(bar.close)) continue;
    if (previousClose !== null) {
      ranges.push(Math.max(bar.high - bar.low, Math.abs(bar.high - previousClose), Math.abs(bar.low - previousClose)));
    }
    previousClose = bar.close;
  }
  return ranges;
}

/** Average true range with Wilder's smoothing; needs `period` true ranges (period + 1 bars). */
export function averageTrueRange(bars: readonly Bar[], period = 14): number | null {
  const ranges = trueRanges(bars);
  if (period < 1 || ranges.length < period) return null;
  let average = mean(ranges.slice(0, period));
  for (let index = period; index < ranges.length; index += 1) {
    average = (average * (period - 1) + ranges[index]!) / period;
  }
  return average;
}

/** Natural-log returns between consecutive values. */
export function logReturns(values: readonly number[]): number[] {
  const returns: number[] = [];
  for (let index = 1; index < values.length; index += 1) returns.push(Math.log(values[index]! / values[index - 1]!));
  return returns;
}

/**
 * Annualised volatility: the sample standard deviation (n − 1) of the last `window`
 * daily log returns × √252. Needs `minimum` returns (at least two).
 */
export function annualisedVolatility(values: readonly number[], window: number, minimum = window): number | null {
  const returns = logReturns(values).slice(-window);
  if (returns.length < Math.max(minimum, 2)) return null;
  const average = mean(returns);
  let squares = 0;
  for (const value of returns) squares += (value - average) ** 2;
  return Math.sqrt(squares / (returns.length - 1)) * Math.sqrt(tradingDaysPerYear);
}

/** Largest peak-to-trough fall, as a fraction ≤ 0 (0 when the series never falls). */
export function maxDrawdown(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  let peak = values[0]!;
  let worst = 0;
  for (const value of values) {
    if (value > peak) peak = value;
    worst = Math.min(worst, value / peak - 1);
  }
  return worst;
}

/**
 * The largest peak-to-trough fall of dated closes, with the dates of its peak and
 * trough (the same figure maxDrawdown gives, placed in time). null with fewer than
 * two closes or when the series never falls.
 */
export function maxDrawdownWindow(points: readonly Point[]): { drawdown: number; peak: string; trough: string } | null {
  if (points.length < 2) return null;
  let peak = points[0]!;
  let worst: { drawdown: number; peak: string; trough: string } | null = null;
  for (const point of points) {
    if (point.value > peak.value) peak = point;
    const drawdown = point.value / peak.value - 1;
    if (drawdown < (worst?.drawdown ?? 0)) worst = { drawdown, peak: peak.date, trough: point.date };
  }
  return worst;
}

/** The closes the year-window figures use: the last 253 (a year of returns). */
export function yearOfCloses(bars: readonly Bar[]): Point[] {
  return adjustedCloses(bars).slice(-(tradingDaysPerYear + 1));
}

/** Highest high and lowest low of the bars, skipping missing values. */
export function highLowRange(bars: readonly Bar[]): { high: number | null; low: number | null } {
  let high: number | null = null;
  let low: number | null = null;
  for (const bar of bars) {
    if (isPrice(bar.high) && (high === null || bar.high > high)) high = bar.high;
    if (isPrice(bar.low) && (low === null || bar.low < low)) low = bar.low;
  }
  return { high, low };
}

/**
 * Recent swing levels: the lowest low (support) and highest high (resistance) of the
 * last `window` sessions that carry both — the range a breakout or breakdown would
 * leave. Needs `window` such sessions.
 */
export function swingLevels(
  bars: readonly Bar[],
  window = swingWindow,
): { support: number | null; resistance: number | null } {
  const complete = bars.filter((bar) => isPrice(bar.high) && isPrice(bar.low));
  if (window < 1 || complete.length < window) return { support: null, resistance: null };
  const { high, low } = highLowRange(complete.slice(-window));
  return { support: low, resistance: high };
}

/** Volumes, skipping bars without one (a reported 0 is kept: it is data). */
export function volumes(bars: readonly Bar[]): number[] {
  const values: number[] = [];
  for (const bar of bars) if (isQuantity(bar.volume)) values.push(bar.volume);
  return values;
}

/** Mean of the last `window` values; at least `minimum` of them are required. */
export function trailingMean(values: readonly number[], window: number, minimum = window): number | null {
  const recent = values.slice(-window);
  if (recent.length === 0 || recent.length < minimum) return null;
  return mean(recent);
}

/** Every indicator the snapshot carries, from bars in date order. */
export function computeIndicators(bars: readonly Bar[]): Indicators {
  const closes = adjustedCloses(bars);
  const values = closes.map((point) => point.value);
  const yearValues = values.slice(-(tradingDaysPerYear + 1));
  const yearBars = bars.slice(-tradingDaysPerYear);
  const last = lastTradedClose(bars);
  const lastAdjusted = values.length > 0 ? values[values.length - 1]! : null;

  const sma20 = simpleMovingAverage(values, 20);
  const sma50 = simpleMovingAverage(values, 50);
  const sma200 = simpleMovingAverage(values, 200);

  const range = highLowRange(yearBars);
  const lastClose = last?.value ?? null;
  const sessionVolumes = volumes(bars);
  const averageVolume20d = trailingMean(sessionVolumes, 20);
  const averageVolume1y = trailingMean(sessionVolumes, tradingDaysPerYear, 20);
  const levels = swingLevels(bars);

  return {
    asOfBar: last?.date ?? null,
    lastClose,
    returns: periodReturns(closes),
    sma20,
    sma50,
    sma200,
    distanceFromSma20: distanceFrom(lastAdjusted, sma20),
    distanceFromSma50: distanceFrom(lastAdjusted, sma50),
    distanceFromSma200: distanceFrom(lastAdjusted, sma200),
    rsi14: relativeStrengthIndex(values, 14),
    atr14: averageTrueRange(bars, 14),
    volatility20d: annualisedVolatility(values, 20),
    volatility1y: annualisedVolatility(yearValues, tradingDaysPerYear, 20),
    maxDrawdown1y: maxDrawdown(yearValues),
    high52w: range.high,
    low52w: range.low,
    distanceFromHigh52w: distanceFrom(lastClose, range.high),
    distanceFromLow52w: distanceFrom(lastClose, range.low),
    averageVolume20d,
    averageVolume1y,
    volumeRatio:
      averageVolume20d !== null && averageVolume1y !== null && averageVolume1y > 0
        ? averageVolume20d / averageVolume1y
        : null,
    support: levels.support,
    resistance: levels.resistance,
  };
}
