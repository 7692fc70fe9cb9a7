import { describe, expect, it } from 'vitest';
import { mean, median, ranks, seededRandom, shuffle, spearman, wilsonInterval } from '../../src/evaluate/statistics.js';

/** Each figure below is worked out by hand in the comment beside it. */

describe('Wilson interval', () => {
  it('7 hits of 10', () => {
    // p = 0.7, z² = 3.8415: centre = (0.7 + 0.19207) / 1.38415 = 0.644485;
    // half = (1.96 / 1.38415) · √(0.021 + 0.0096037) = 1.415998 · 0.174939 = 0.247713.
    const interval = wilsonInterval(7, 10)!;
    expect(interval.low).toBeCloseTo(0.3968, 4);
    expect(interval.high).toBeCloseTo(0.8922, 4);
  });

  it('0 of 5 stays inside [0, 1]; 0 trials has none', () => {
    // p = 0: centre = (3.8415/10) / 1.7683 = 0.21724; half = 1.10838 · √(3.8415/100) = 0.21724.
    const interval = wilsonInterval(0, 5)!;
    expect(interval.low).toBeCloseTo(0, 10);
    expect(interval.high).toBeCloseTo(0.4345, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('Spearman', () => {
  it('a perfect rank agreement and a perfect inversion', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 25, 100])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('five pairs without ties: 1 − 6Σd² / n(n² − 1)', () => {
    // ranks x: 1 2 3 4 5; ranks y of [2, 1, 4, 3, 5]: 2 1 4 3 5; d² = 1+1+1+1+0 = 4;
    // ρ = 1 − 24 / 120 = 0.8.
    expect(spearman([10, 20, 30, 40, 50], [0.02, 0.01, 0.04, 0.03, 0.05])).toBeCloseTo(0.8, 12);
  });

  it('ties get average ranks', () => {
    expect(ranks([5, 1, 5, 3])).toEqual([3.5, 1, 3.5, 2]);
    // x ranks 1, 2.5, 2.5, 4; y ranks 1 2 3 4: Pearson on ranks = 4.5 / √(4.5 · 5) = 0.948683.
    expect(spearman([60, 70, 70, 80], [0.1, 0.2, 0.3, 0.4])).toBeCloseTo(0.948683, 6);
  });

  it('no correlation with fewer than three pairs or a constant side', () => {
    expect(spearman([1, 2], [1, 2])).toBeNull();
    expect(spearman([50, 50, 50], [0.1, 0.2, 0.3])).toBeNull();
  });
});

describe('mean, median', () => {
  it('odd and even counts, and none', () => {
    expect(mean([0.01, -0.02, 0.04])).toBeCloseTo(0.01, 12);
    expect(median([0.04, -0.02, 0.01])).toBe(0.01);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
  });
});

describe('seeded random', () => {
  it('the same seed gives the same sequence and the same shuffle; another seed does not', () => {
    const first = seededRandom(42);
    const second = seededRandom(42);
    const a = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => second())).toEqual(a);
    expect(a.every((value) => value >= 0 && value < 1)).toBe(true);
    const items = ['BUY', 'BUY', 'SELL', 'BUY', 'SELL', 'SELL', 'BUY'];
    expect(shuffle(items, seededRandom(7))).toEqual(shuffle(items, seededRandom(7)));
    expect(shuffle(items, seededRandom(7)).sort()).toEqual([...items].sort());
    expect(Array.from({ length: 5 }, seededRandom(43))).not.toEqual(a);
  });
});
