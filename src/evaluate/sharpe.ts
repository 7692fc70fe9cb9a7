import { normalCdf, normalQuantile } from './normal.js';

/**
 * The Sharpe ratio of a series of per-decision returns and the Deflated Sharpe Ratio of
 * Bailey & López de Prado, "The Deflated Sharpe Ratio: Correcting for Selection Bias,
 * Backtest Overfitting and Non-Normality" (Journal of Portfolio Management, 2014):
 *
 *   SR₀ = √V · ((1 − γ) Φ⁻¹(1 − 1/N) + γ Φ⁻¹(1 − 1/(N e)))          expected maximum Sharpe of N trials
 *   DSR = Φ( (SR − SR₀) √(n − 1) / √(1 − γ₃ SR + (γ₄ − 1)/4 · SR²) )  probabilistic Sharpe against SR₀
 *
 * with γ Euler–Mascheroni, γ₃ the skewness and γ₄ the (non-excess) kurtosis of the
 * returns, n their count. V, the variance of the Sharpe ratios across the N trials, is
 * not known here (the other configurations' returns are not at hand), so by default it
 * is the Sharpe estimator's variance when the true Sharpe is zero, 1/(n − 1): the other
 * configurations are taken as skill-less draws of the same length. With N = 1, SR₀ = 0
 * and the DSR is the plain probabilistic Sharpe against zero.
 */

const eulerGamma = 0.5772156649015329;

export interface Moments {
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1). */
  standardDeviation: number;
  /** m₃ / m₂^{3/2}, population moments. */
  skew: number;
  /** m₄ / m₂², population moments (3 for a normal distribution). */
  kurtosis: number;
}

/** Null with fewer than two values or when every value is the same (no Sharpe exists). */
export function momentsOf(values: readonly number[]): Moments | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const central = (power: number) => values.reduce((sum, value) => sum + (value - mean) ** power, 0) / n;
  const m2 = central(2);
  if (!(m2 > 0)) return null;
  return {
    n,
    mean,
    standardDeviation: Math.sqrt((m2 * n) / (n - 1)),
    skew: central(3) / m2 ** 1.5,
    kurtosis: central(4) / m2 ** 2,
  };
}

/** Mean over sample standard deviation, per decision (not annualised: decisions are not evenly spaced). */
export function sharpeRatio(moments: Moments): number {
  return moments.mean / moments.standardDeviation;
}

/** The expected maximum Sharpe ratio among `trials` independent trials whose Sharpes have variance `variance`. */
export function expectedMaximumSharpe(trials: number, variance: number): number {
  if (!Number.isInteger(trials) || trials < 1) throw new RangeError(`trials must be a whole number ≥ 1, got ${trials}`);
  if (trials === 1) return 0;
  return (
    Math.sqrt(variance) *
    ((1 - eulerGamma) * normalQuantile(1 - 1 / trials) + eulerGamma * normalQuantile(1 - 1 / (trials * Math.E)))
  );
}

export interface DeflatedSharpeInput {
  sharpe: number;
  n: number;
  skew: number;
  kurtosis: number;
  trials: number;
  /** The variance of the trials' Sharpe ratios; default 1/(n − 1) (see above). */
  trialVariance?: number;
}

/** The probability that the true Sharpe exceeds `benchmark`, given the sample's length, skew and kurtosis. */
export function probabilisticSharpe(
  input: Pick<DeflatedSharpeInput, 'sharpe' | 'n' | 'skew' | 'kurtosis'>,
  benchmark: number,
): number | null {
  const { sharpe, n, skew, kurtosis } = input;
  const spread = 1 - skew * sharpe + ((kurtosis - 1) / 4) * sharpe * sharpe;
  if (n < 2 || !(spread > 0)) return null;
  return normalCdf(((sharpe - benchmark) * Math.sqrt(n - 1)) / Math.sqrt(spread));
}

/** The Deflated Sharpe Ratio, a probability in [0, 1]; null when it is not defined (n < 2, or a degenerate sample). */
export function deflatedSharpe(input: DeflatedSharpeInput): number | null {
  if (input.n < 2) return null;
  const variance = input.trialVariance ?? 1 / (input.n - 1);
  return probabilisticSharpe(input, expectedMaximumSharpe(input.trials, variance));
}
