import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile } from '../../src/evaluate/normal.js';
import {
  deflatedSharpe,
  expectedMaximumSharpe,
  momentsOf,
  probabilisticSharpe,
  sharpeRatio,
} from '../../src/evaluate/sharpe.js';

/**
 * The Deflated Sharpe Ratio against hand computations. The reference numbers were worked
 * out step by step (Φ and Φ⁻¹ from a statistics library, the rest by the formula of
 * Bailey & López de Prado 2014), and each intermediate is asserted, so a slip shows where.
 */

describe('the normal distribution', () => {
  it('Φ and Φ⁻¹ agree with reference values to 1e-12', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 12);
    expect(normalCdf(-3)).toBeCloseTo(0.001349898031630093, 12);
    expect(normalQuantile(0.9)).toBeCloseTo(1.2815515655446004, 12);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 12);
    expect(normalQuantile(0.999999)).toBeCloseTo(4.753424308817087, 9);
    for (const p of [1e-6, 0.01, 0.3, 0.5, 0.77, 0.99]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 12);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('moments and the Sharpe ratio', () => {
  it('mean, sample sd, population skew and kurtosis by hand', () => {
    const moments = momentsOf([0.02, -0.01, 0.03, 0, -0.02, 0.05])!;
    // mean 0.07/6; Σ(x−m)² = 0.0034833…; sd = √(Σ/5); m₃/m₂^1.5 and m₄/m₂² from the same deviations.
    expect(moments.mean).toBeCloseTo(0.0116666666666667, 14);
    expect(moments.standardDeviation).toBeCloseTo(0.0263944438597722, 14);
    expect(moments.skew).toBeCloseTo(0.232998556249625, 12);
    expect(moments.kurtosis).toBeCloseTo(1.74137496852178, 12);
    expect(sharpeRatio(moments)).toBeCloseTo(0.442012217747381, 12);
    expect(momentsOf([0.01])).toBeNull();
    expect(momentsOf([0.01, 0.01, 0.01])).toBeNull();
  });
});

describe('the Deflated Sharpe Ratio', () => {
  it('SR 0.2 over 60 decisions, skew −0.5, kurtosis 4.2, 12 configurations: 0.451903698 (to 1e-6)', () => {
    // V = 1/(n−1) = 1/59. Φ⁻¹(1 − 1/12) = 1.38299412710064, Φ⁻¹(1 − 1/(12e)) = 1.87122976935815.
    // SR₀ = √(1/59) · (0.4227843·1.38299 + 0.5772157·1.87123) = 0.216739981588931
    expect(expectedMaximumSharpe(12, 1 / 59)).toBeCloseTo(0.216739981588931, 12);
    // √(1 + 0.5·0.2 + (4.2 − 1)/4 · 0.04) = √1.132 = 1.06395488626163
    // z = (0.2 − 0.21674) · √59 / 1.06395 = −0.120853092609037 → Φ(z) = 0.451903698213787
    const input = { sharpe: 0.2, n: 60, skew: -0.5, kurtosis: 4.2, trials: 12 };
    expect(Math.abs(deflatedSharpe(input)! - 0.451903698213787)).toBeLessThan(1e-6);
    expect(deflatedSharpe(input)).toBeCloseTo(0.451903698213787, 10);
  });

  it('one configuration: SR₀ = 0 and the DSR is the probabilistic Sharpe against zero', () => {
    const input = { sharpe: 0.2, n: 60, skew: -0.5, kurtosis: 4.2, trials: 1 };
    expect(expectedMaximumSharpe(1, 1 / 59)).toBe(0);
    // Φ(0.2 · √59 / 1.06395) = Φ(1.44387) = 0.92561442241099
    expect(deflatedSharpe(input)).toBeCloseTo(0.92561442241099, 10);
    expect(probabilisticSharpe(input, 0)).toBeCloseTo(0.92561442241099, 10);
  });

  it("reproduces the paper's worked example (SR 2.5 a year, 1,250 days, skew −3, kurtosis 10, 100 trials, V 0.5 a year): 0.9004", () => {
    const dsr = deflatedSharpe({
      sharpe: 2.5 / Math.sqrt(250),
      n: 1250,
      skew: -3,
      kurtosis: 10,
      trials: 100,
      trialVariance: 0.5 / 250,
    });
    expect(dsr).toBeCloseTo(0.9003968344493903, 8);
  });

  it('more configurations tried deflate the same Sharpe further', () => {
    const at = (trials: number) => deflatedSharpe({ sharpe: 0.3, n: 40, skew: 0, kurtosis: 3, trials })!;
    expect(at(1)).toBeGreaterThan(at(2));
    expect(at(2)).toBeGreaterThan(at(10));
    expect(at(10)).toBeGreaterThan(at(1000));
    expect(deflatedSharpe({ sharpe: 0.3, n: 1, skew: 0, kurtosis: 3, trials: 1 })).toBeNull();
  });
});
