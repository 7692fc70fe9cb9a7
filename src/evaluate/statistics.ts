/**
 * The statistics of an evaluation, as pure functions of plain numbers, so each one can
 * be checked against a hand computation.
 */

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95 % interval. */
const z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion: unlike the normal approximation it stays
 * inside [0, 1] and is honest for small counts and rates near 0 or 1. Null for n = 0.
 */
export function wilsonInterval(successes: number, trials: number, z = z95): Interval | null {
  if (trials <= 0) return null;
  const rate = successes / trials;
  const z2 = z * z;
  const centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** 1-based ranks, ties sharing the average of the ranks they span. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((left, right) => left.value - right.value);
  const result = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let position = start; position <= end; position += 1) result[order[position]!.index] = rank;
    start = end + 1;
  }
  return result;
}

function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const meanX = mean(xs)!;
  const meanY = mean(ys)!;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  xs.forEach((x, index) => {
    const dx = x - meanX;
    const dy = ys[index]! - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  });
  if (varianceX === 0 || varianceY === 0) return null;
  return covariance / Math.sqrt(varianceX * varianceY);
}

/**
 * Spearman's rank correlation (Pearson on average ranks, so ties are handled). Null
 * with fewer than three pairs or when either side is constant: no correlation exists.
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new Error('spearman: the two series differ in length');
  if (xs.length < 3) return null;
  return pearson(ranks(xs), ranks(ys));
}

// The seeded generator and shuffle live in src/random.ts: the stability samples use them too.
export { seededRandom, shuffle } from '../random.js';
