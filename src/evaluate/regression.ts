import { seededRandom } from './statistics.js';

/**
 * Ordinary least squares of y on one or two regressors with an intercept, and a seeded
 * pairs bootstrap of the intercept. Pure functions of plain numbers: the intercept of
 * a decision's signed return on the benchmark's return over the same dates is its
 * alpha per decision, the slope its beta.
 */

export interface OlsFit {
  intercept: number;
  /** One slope per regressor, in the order given. */
  slopes: number[];
  n: number;
}

/** Fewer scored decisions than this, and a regression says nothing: "too few to regress". */
export const minimumRegressionSize = 8;

/** Solves the normal equations by Gaussian elimination with partial pivoting; null when singular. */
function solve(matrix: number[][], vector: number[]): number[] | null {
  const size = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index]!]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1)
      if (Math.abs(a[row]![column]!) > Math.abs(a[pivot]![column]!)) pivot = row;
    const scale = Math.max(...a.map((row) => Math.abs(row[column]!)));
    if (scale === 0 || Math.abs(a[pivot]![column]!) <= 1e-12 * scale) return null;
    [a[column], a[pivot]] = [a[pivot]!, a[column]!];
    for (let row = 0; row < size; row += 1) {
      if (row === column) continue;
      const factor = a[row]![column]! / a[column]![column]!;
      for (let k = column; k <= size; k += 1) a[row]![k]! -= factor * a[column]![k]!;
    }
  }
  return a.map((row, index) => row[size]! / row[index]!);
}

/**
 * y = a + b₁x₁ (+ b₂x₂) by least squares, on centred data (better conditioned). Null
 * when a regressor is constant or the two are collinear: no slope is defined.
 */
export function ols(y: readonly number[], regressors: ReadonlyArray<readonly number[]>): OlsFit | null {
  const n = y.length;
  if (n === 0 || regressors.length === 0 || regressors.some((x) => x.length !== n)) return null;
  const centre = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / n;
  const meanY = centre(y);
  const means = regressors.map(centre);
  const centred = regressors.map((x, index) => x.map((value) => value - means[index]!));
  const dy = y.map((value) => value - meanY);
  const dot = (left: readonly number[], right: readonly number[]) =>
    left.reduce((sum, value, index) => sum + value * right[index]!, 0);
  const gram = centred.map((left) => centred.map((right) => dot(left, right)));
  const slopes = solve(
    gram,
    centred.map((x) => dot(x, dy)),
  );
  if (slopes === null) return null;
  const intercept = meanY - slopes.reduce((sum, slope, index) => sum + slope * means[index]!, 0);
  return { intercept, slopes, n };
}

/** The p-quantile of sorted values, linearly interpolated (R's type 7, NumPy's default). */
export function quantile(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export interface BootstrapOptions {
  seed: number;
  resamples: number;
}

/**
 * The intercept of y on [1, x…] from the raw normal equations of one resample, the rows
 * picked by `random`. Sums are accumulated as rows are drawn — no arrays per draw, since
 * an evaluation runs thousands of draws over thousands of decisions.
 */
function resampledIntercept(
  y: readonly number[],
  regressors: ReadonlyArray<readonly number[]>,
  random: () => number,
): number | null {
  if (regressors.length === 1) return resampledSimpleIntercept(y, regressors[0]!, random);
  const n = y.length;
  const size = regressors.length + 1;
  const gram = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const moment = new Array<number>(size).fill(0);
  const row = new Array<number>(size).fill(1);
  for (let draw = 0; draw < n; draw += 1) {
    const pick = Math.floor(random() * n);
    for (let column = 1; column < size; column += 1) row[column] = regressors[column - 1]![pick]!;
    for (let left = 0; left < size; left += 1) {
      moment[left]! += row[left]! * y[pick]!;
      for (let right = left; right < size; right += 1) gram[left]![right]! += row[left]! * row[right]!;
    }
  }
  for (let left = 1; left < size; left += 1)
    for (let right = 0; right < left; right += 1) gram[left]![right] = gram[right]![left]!;
  return solve(gram, moment)?.[0] ?? null;
}

/** One regressor (the common case), in scalars: a = (Σy − bΣx)/n, b = (nΣxy − ΣxΣy)/(nΣx² − (Σx)²). */
function resampledSimpleIntercept(y: readonly number[], x: readonly number[], random: () => number): number | null {
  const n = y.length;
  let sumX = 0;
  let sumY = 0;
  let sumXX = 0;
  let sumXY = 0;
  for (let draw = 0; draw < n; draw += 1) {
    const pick = Math.floor(random() * n);
    const xi = x[pick]!;
    const yi = y[pick]!;
    sumX += xi;
    sumY += yi;
    sumXX += xi * xi;
    sumXY += xi * yi;
  }
  const spread = n * sumXX - sumX * sumX;
  // Every pick the same benchmark move: no slope, so no intercept either.
  if (!(spread > 1e-12 * n * sumXX)) return null;
  const slope = (n * sumXY - sumX * sumY) / spread;
  return (sumY - slope * sumX) / n;
}

/**
 * A 95 % percentile interval of the OLS intercept from a pairs bootstrap: `resamples`
 * draws of n rows with replacement (mulberry32 from `seed`, so the same seed gives the
 * same interval on every machine). A draw whose regressors are degenerate (every row
 * the same benchmark move) is left out; null when every draw is.
 */
export function bootstrapInterceptInterval(
  y: readonly number[],
  regressors: ReadonlyArray<readonly number[]>,
  options: BootstrapOptions,
): [number, number] | null {
  const random = seededRandom(options.seed);
  const intercepts: number[] = [];
  for (let draw = 0; draw < options.resamples; draw += 1) {
    const intercept = resampledIntercept(y, regressors, random);
    if (intercept !== null) intercepts.push(intercept);
  }
  if (intercepts.length === 0) return null;
  intercepts.sort((left, right) => left - right);
  return [quantile(intercepts, 0.025), quantile(intercepts, 0.975)];
}
