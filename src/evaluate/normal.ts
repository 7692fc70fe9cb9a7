/**
 * The standard normal distribution's CDF and its inverse, to about 1e-15: the Deflated
 * Sharpe Ratio is a probability and is checked to 1e-6 against a hand computation.
 */

const polynomial = (coefficients: readonly number[], x: number) =>
  coefficients.reduce((sum, coefficient) => sum * x + coefficient, 0);

/** Hart's coefficients, highest power first. */
const hartNumerator = [
  0.0352624965998911, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871, 221.213596169931,
  220.206867912376,
];
const hartDenominator = [
  0.0883883476483184, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831,
  793.826512519948, 440.413735824752,
];

/** Φ(x), after Hart (1968) as given by West, "Better approximations to cumulative normal functions" (2005). */
export function normalCdf(x: number): number {
  const z = Math.abs(x);
  const e = Math.exp((-z * z) / 2);
  let tail: number;
  if (z > 37) tail = 0;
  else if (z < 7.07106781186547) tail = (e * polynomial(hartNumerator, z)) / polynomial(hartDenominator, z);
  else tail = e / (z + 1 / (z + 2 / (z + 3 / (z + 4 / (z + 0.65))))) / 2.506628274631;
  return x > 0 ? 1 - tail : tail;
}

const a = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
];
const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const c = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];

/** Φ⁻¹(p) for 0 < p < 1: Acklam's rational approximation, then one Halley step on normalCdf. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = polynomial(c, q) / (polynomial(d, q) * q + 1);
  } else if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -polynomial(c, q) / (polynomial(d, q) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = (polynomial(a, r) * q) / (polynomial(b, r) * r + 1);
  }
  const error = normalCdf(x) - p;
  const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}
