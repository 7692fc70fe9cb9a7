import type { SplitEvent } from './fundamentals-types.js';

/**
 * One share basis. A price series adjusted today divides every close before a later split
 * by its ratio: AAPL closed at 300.35 on 2020-01-02, shown as 75.09 after the 4:1 split of
 * 2020-08-31. A filing states per-share figures and share counts on the basis of its own
 * day. Valuing a company as of day D needs all three on D's basis: the close as traded on
 * D, and each filed figure carried over the splits between its filing and D. Indicators keep
 * the adjusted series (returns and averages must not jump at a split). Pure functions.
 */

/** A split counts from its day's session: noon UTC of that day, before any US or European open. */
function splitInstant(split: SplitEvent): number {
  return Date.parse(`${split.date}T12:00:00Z`);
}

function product(splits: readonly SplitEvent[]): number {
  return splits.reduce((factor, split) => factor * split.ratio, 1);
}

const usable = (split: SplitEvent) => Number.isFinite(split.ratio) && split.ratio > 0;

/** The splits after day D through today: today's adjusted close × this = the close as traded on D. */
export function splitFactorAfter(splits: readonly SplitEvent[], day: string): number {
  return product(splits.filter((split) => usable(split) && split.date > day));
}

/** The close as traded on D from today's adjusted close (rounded to the cent it traded at when above 2). */
export function asTradedClose(adjustedClose: number, splits: readonly SplitEvent[], day: string): number {
  const traded = adjustedClose * splitFactorAfter(splits, day);
  return Math.abs(traded) >= 2 ? Math.round(traded * 100) / 100 : traded;
}

/** The splits that took effect after a filing was accepted and on or before day D. */
export function splitFactorBetween(splits: readonly SplitEvent[], acceptedAt: string, day: string): number {
  const accepted = Date.parse(acceptedAt);
  return product(splits.filter((split) => usable(split) && splitInstant(split) > accepted && split.date <= day));
}

/** A filed figure on D's basis: a per-share amount divided by the splits since its filing, a share count multiplied. */
export function onBasisOf(value: number, unit: 'currency' | 'per-share' | 'shares', factor: number): number {
  if (unit === 'per-share') return value / factor;
  if (unit === 'shares') return value * factor;
  return value;
}
