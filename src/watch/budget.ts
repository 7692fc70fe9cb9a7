import type { RunSummary } from '../store/run-store.js';

/**
 * The monthly budget of `watch --budget-usd`: the spend is read from the saved runs'
 * recorded cost in the calendar month (UTC) of `now`, so it holds across cycles and
 * restarts. Each analysis runs under its own cap of `worstCaseUsd`, so "the next run's
 * worst case" is a bound the run cannot pass, not an estimate.
 */

export function monthKey(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}

/** The priced cost of the runs started in `now`'s month; demo runs spent nothing. */
export function monthSpend(runs: readonly RunSummary[], now: Date): number {
  const month = monthKey(now);
  return runs
    .filter((run) => run.state === 'ok' && !run.demo && run.when.slice(0, 7) === month)
    .reduce((sum, run) => sum + (run.costUsd ?? 0), 0);
}

export interface Admission<Item> {
  admitted: Item[];
  /** Left for a later cycle: the month's budget could not take their worst case. */
  skipped: Item[];
}

/**
 * Admits candidates in the order given (most urgent first) while the month's spend plus
 * every admitted run's worst case stays within the budget; no budget admits all.
 */
export function admitWithinBudget<Item>(
  candidates: readonly Item[],
  spentUsd: number,
  budgetUsd: number | undefined,
  worstCaseUsd: number,
): Admission<Item> {
  if (budgetUsd === undefined) return { admitted: [...candidates], skipped: [] };
  const room = Math.max(0, budgetUsd - spentUsd);
  // A tiny tolerance so that, say, 4 × 0.25 fits a room of 1.00 despite floating point.
  const fits = Math.floor((room + 1e-9) / worstCaseUsd);
  return { admitted: candidates.slice(0, fits), skipped: candidates.slice(fits) };
}
