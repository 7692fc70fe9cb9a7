/**
 * Is conviction calibrated? Conviction (0–100) in five buckets against the hit rate in
 * each, and the Brier score of conviction/100 read as the probability that the position
 * makes money: mean((p − won)²), 0 for perfect foresight, 0.25 for a constant 50, and
 * worse than 0.25 when conviction points the wrong way.
 */

export interface CalibrationBucket {
  /** Conviction from (inclusive) … to (exclusive; the last bucket includes 100). */
  from: number;
  to: number;
  n: number;
  hitRate: number | null;
}

export interface Calibration {
  buckets: CalibrationBucket[];
  /** Null with no scored decision. */
  brier: number | null;
}

export interface CalibrationInput {
  conviction: number;
  won: boolean;
}

const bucketWidth = 20;

function bucketIndex(conviction: number): number {
  return Math.min(4, Math.max(0, Math.floor(conviction / bucketWidth)));
}

export function calibrationOf(items: readonly CalibrationInput[]): Calibration {
  const buckets = Array.from({ length: 5 }, (_, index) => ({
    from: index * bucketWidth,
    to: (index + 1) * bucketWidth,
    n: 0,
    hits: 0,
  }));
  let squared = 0;
  for (const { conviction, won } of items) {
    const bucket = buckets[bucketIndex(conviction)]!;
    bucket.n += 1;
    if (won) bucket.hits += 1;
    const probability = Math.min(1, Math.max(0, conviction / 100));
    squared += (probability - (won ? 1 : 0)) ** 2;
  }
  return {
    buckets: buckets.map(({ from, to, n, hits }) => ({ from, to, n, hitRate: n > 0 ? hits / n : null })),
    brier: items.length > 0 ? squared / items.length : null,
  };
}
