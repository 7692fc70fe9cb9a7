import { describe, expect, it } from 'vitest';
import { bootstrapInterceptInterval, ols, quantile } from '../../src/evaluate/regression.js';

describe('ols', () => {
  it('one regressor, by hand: y = 1 + 2x exactly, and a small noisy case', () => {
    expect(ols([1, 3, 5, 7], [[0, 1, 2, 3]])).toMatchObject({ n: 4 });
    const exact = ols([1, 3, 5, 7], [[0, 1, 2, 3]])!;
    expect(exact.intercept).toBeCloseTo(1, 12);
    expect(exact.slopes[0]).toBeCloseTo(2, 12);
    // x = 1, 2, 3; y = 2, 2, 5: x̄ 2, ȳ 3, Sxy = (−1)(−1) + 0 + (1)(2) = 3, Sxx = 2 → b 1.5, a 3 − 3 = 0.
    const noisy = ols([2, 2, 5], [[1, 2, 3]])!;
    expect(noisy.slopes[0]).toBeCloseTo(1.5, 12);
    expect(noisy.intercept).toBeCloseTo(0, 12);
  });

  it('two regressors recover y = 0.5 + 2x₁ − 3x₂; constant or collinear regressors have no fit', () => {
    const x1 = [0, 1, 2, 3, 4, 5];
    const x2 = [1, 0, 2, 1, 3, 1];
    const y = x1.map((value, index) => 0.5 + 2 * value - 3 * x2[index]!);
    const fit = ols(y, [x1, x2])!;
    expect(fit.intercept).toBeCloseTo(0.5, 10);
    expect(fit.slopes[0]).toBeCloseTo(2, 10);
    expect(fit.slopes[1]).toBeCloseTo(-3, 10);
    expect(ols([1, 2, 3], [[4, 4, 4]])).toBeNull();
    expect(
      ols(
        [1, 2, 3],
        [
          [1, 2, 3],
          [2, 4, 6],
        ],
      ),
    ).toBeNull();
  });

  it('quantile interpolates like R type 7', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.025)).toBeCloseTo(11, 12);
  });
});

describe('bootstrapInterceptInterval', () => {
  const x = Array.from({ length: 30 }, (_, index) => Math.sin(index) / 50);
  const y = x.map((value, index) => 0.001 + 1.2 * value + Math.cos(index * 7) / 200);

  it('the same seed gives the same interval; another seed another', () => {
    const first = bootstrapInterceptInterval(y, [x], { seed: 7, resamples: 500 });
    const again = bootstrapInterceptInterval(y, [x], { seed: 7, resamples: 500 });
    const other = bootstrapInterceptInterval(y, [x], { seed: 8, resamples: 500 });
    expect(first).toEqual(again);
    expect(other).not.toEqual(first);
    const fit = ols(y, [x])!;
    expect(first![0]).toBeLessThan(fit.intercept);
    expect(first![1]).toBeGreaterThan(fit.intercept);
  });
});
