/**
 * Daily returns aligned across names and a Ledoit–Wolf shrunk covariance of them
 * (Ledoit & Wolf 2004, "A well-conditioned estimator for large-dimensional covariance
 * matrices": the sample covariance pulled toward a scaled identity by the optimal
 * intensity, as scikit-learn's `ledoit_wolf` computes it). Pure and deterministic:
 * fixed summation order, no randomness.
 */

/** Sessions in a year: annualises a daily variance and bounds the window. */
export const sessionsPerYear = 252;
/** Fewer common returns than this estimate nothing worth a limit. */
export const minimumReturns = 60;

export interface AlignedReturns {
  tickers: string[];
  /** returns[t][i]: simple return of tickers[i] on the t-th common session. */
  returns: number[][];
  /** The common sessions, one per row. */
  dates: string[];
}

/**
 * Simple daily returns over the sessions every ticker has a close for, the last
 * `window` of them (252 by default: a year).
 */
export function alignedReturns(
  series: ReadonlyArray<{ ticker: string; closes: ReadonlyArray<{ date: string; close: number }> }>,
  window = sessionsPerYear,
): AlignedReturns {
  const tickers = series.map((entry) => entry.ticker);
  const maps = series.map((entry) => {
    const byDate = new Map<string, number>();
    for (const { date, close } of entry.closes) if (Number.isFinite(close) && close > 0) byDate.set(date, close);
    return byDate;
  });
  if (maps.length === 0) return { tickers, returns: [], dates: [] };
  const common = [...maps[0]!.keys()].filter((date) => maps.every((byDate) => byDate.has(date))).sort();
  const used = common.slice(-(window + 1));
  const returns: number[][] = [];
  for (let row = 1; row < used.length; row += 1) {
    returns.push(maps.map((byDate) => byDate.get(used[row]!)! / byDate.get(used[row - 1]!)! - 1));
  }
  return { tickers, returns, dates: used.slice(1) };
}

export interface ShrunkCovariance {
  /** Daily covariance, p × p. */
  matrix: number[][];
  /** The intensity toward the scaled identity, 0 to 1. */
  shrinkage: number;
}

/** Ledoit–Wolf shrinkage of the sample covariance of `returns` (rows: observations). */
export function ledoitWolf(returns: readonly (readonly number[])[]): ShrunkCovariance {
  const n = returns.length;
  const p = returns[0]?.length ?? 0;
  if (n === 0 || p === 0) return { matrix: [], shrinkage: 0 };
  const means = Array.from({ length: p }, (_, i) => returns.reduce((sum, row) => sum + row[i]!, 0) / n);
  const x = returns.map((row) => row.map((value, i) => value - means[i]!));
  const sample = Array.from({ length: p }, (_, i) =>
    Array.from({ length: p }, (_, j) => x.reduce((sum, row) => sum + row[i]! * row[j]!, 0) / n),
  );
  const mu = sample.reduce((sum, row, i) => sum + row[i]!, 0) / p;
  let delta = 0;
  for (let i = 0; i < p; i += 1) {
    for (let j = 0; j < p; j += 1) delta += (sample[i]![j]! - (i === j ? mu : 0)) ** 2;
  }
  let beta = 0;
  for (const row of x) {
    for (let i = 0; i < p; i += 1) {
      for (let j = 0; j < p; j += 1) beta += (row[i]! * row[j]! - sample[i]![j]!) ** 2;
    }
  }
  beta /= n * n;
  const shrinkage = delta === 0 ? 0 : Math.min(beta, delta) / delta;
  const matrix = sample.map((row, i) =>
    row.map((value, j) => (1 - shrinkage) * value + (i === j ? shrinkage * mu : 0)),
  );
  return { matrix, shrinkage };
}

/** Annualised volatility (fraction) of weights `w` under a daily covariance. */
export function portfolioVolatility(weights: readonly number[], daily: readonly (readonly number[])[]): number {
  return Math.sqrt(Math.max(0, quadraticForm(weights, daily)) * sessionsPerYear);
}

export function quadraticForm(weights: readonly number[], matrix: readonly (readonly number[])[]): number {
  let total = 0;
  for (let i = 0; i < weights.length; i += 1) {
    if (weights[i] === 0) continue;
    for (let j = 0; j < weights.length; j += 1) total += weights[i]! * matrix[i]![j]! * weights[j]!;
  }
  return total;
}
