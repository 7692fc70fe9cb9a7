import { exchangeCalendar, type ExchangeCalendar } from '../market/calendar/index.js';
import type { PricedSession } from './outcome.js';
import { mean, wilsonInterval, type Interval } from './statistics.js';

/**
 * The market regime a decision was made in: the benchmark's close-to-close trend over
 * the 63 sessions (a quarter) up to the run's as-of session — `up` above +5 %, `down`
 * below −5 %, else `flat`. Only sessions closed by the run's clock count, so the label
 * uses nothing the run could not have known.
 */

export type Regime = 'up' | 'down' | 'flat';

export const regimeLookback = 63;
export const regimeThreshold = 0.05;

export function regimeOfTrend(trend: number): Regime {
  return trend > regimeThreshold ? 'up' : trend < -regimeThreshold ? 'down' : 'flat';
}

/**
 * The benchmark's trend into an as-of instant, from its sessions in date order: the last
 * session closed by `asOf` against the one 63 sessions before it. Null when the bars do
 * not reach that far back. Days are the benchmark's own exchange's (by default the US one).
 */
export function benchmarkTrend(
  sessions: readonly PricedSession[],
  asOf: Date,
  calendar: ExchangeCalendar = exchangeCalendar('XNYS'),
): number | null {
  const day = calendar.localDay(asOf);
  // Binary search for the last session on or before the as-of day (thousands of runs, one benchmark).
  let low = 0;
  let high = sessions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sessions[middle]!.date <= day) low = middle + 1;
    else high = middle;
  }
  let last = low - 1;
  // A run made during its day's session has not seen that day's close.
  if (last >= 0 && sessions[last]!.date === day && calendar.closeAt(day).getTime() > asOf.getTime()) last -= 1;
  const first = last - regimeLookback;
  if (first < 0) return null;
  return sessions[last]!.close / sessions[first]!.close - 1;
}

export interface RegimeStats {
  n: number;
  hitRate: number | null;
  /** Wilson 95 % interval of the hit rate, [low, high]. */
  hitRateCI: [number, number] | null;
  meanExcess: number | null;
}

export interface RegimeInput {
  regime: Regime | null;
  won: boolean;
  excess: number | null;
}

const asPair = (interval: Interval | null): [number, number] | null =>
  interval === null ? null : [interval.low, interval.high];

function statsOf(items: readonly RegimeInput[]): RegimeStats {
  const hits = items.filter((item) => item.won).length;
  return {
    n: items.length,
    hitRate: items.length > 0 ? hits / items.length : null,
    hitRateCI: asPair(wilsonInterval(hits, items.length)),
    meanExcess: mean(items.flatMap((item) => (item.excess === null ? [] : [item.excess]))),
  };
}

/** Count, hit rate (Wilson) and mean excess per regime; decisions with no label are left to the caller to count. */
export function regimeBreakdown(items: readonly RegimeInput[]): Record<Regime, RegimeStats> {
  const of = (regime: Regime) => statsOf(items.filter((item) => item.regime === regime));
  return { up: of('up'), down: of('down'), flat: of('flat') };
}
