import { describe, expect, it } from 'vitest';
import { alignedReturns, ledoitWolf, portfolioVolatility } from '../../src/portfolio/covariance.js';

describe('ledoitWolf', () => {
  // Expected values computed independently with numpy, following scikit-learn's ledoit_wolf
  // (assume_centered=False): shrinkage 0.5304 toward the scaled identity.
  const returns = [
    [0.01, -0.02, 0.005],
    [0.003, 0.01, -0.007],
    [-0.015, 0.004, 0.012],
    [0.02, -0.01, 0.0],
    [0.0, 0.006, -0.004],
    [-0.008, -0.003, 0.009],
  ];
  const expected = [
    [0.00011100167814269882, -3.0083219341415832e-5, -1.9411895221173783e-5],
    [-3.0083219341415832e-5, 9.937802314131049e-5, -1.0997464832963378e-5],
    [-1.9411895221173783e-5, -1.0997464832963378e-5, 7.156474316043514e-5],
  ];

  it('matches the reference shrinkage and matrix', () => {
    const { matrix, shrinkage } = ledoitWolf(returns);
    expect(shrinkage).toBeCloseTo(0.5303573736812793, 12);
    matrix.forEach((row, i) => row.forEach((value, j) => expect(value).toBeCloseTo(expected[i]![j]!, 15)));
  });

  it('annualises the portfolio variance over 252 sessions', () => {
    const { matrix } = ledoitWolf(returns);
    const daily = matrix[0]![0]!;
    expect(portfolioVolatility([1, 0, 0], matrix)).toBeCloseTo(Math.sqrt(daily * 252), 12);
  });
});

describe('alignedReturns', () => {
  it('uses only the sessions every name has, the last `window` returns', () => {
    const aligned = alignedReturns(
      [
        {
          ticker: 'A',
          closes: [
            { date: '2026-01-02', close: 10 },
            { date: '2026-01-05', close: 11 },
            { date: '2026-01-06', close: 12.1 },
          ],
        },
        {
          ticker: 'B',
          closes: [
            { date: '2026-01-02', close: 20 },
            { date: '2026-01-06', close: 22 },
          ],
        },
      ],
      252,
    );
    expect(aligned.dates).toEqual(['2026-01-06']);
    expect(aligned.returns[0]![0]).toBeCloseTo(0.21, 12);
    expect(aligned.returns[0]![1]).toBeCloseTo(0.1, 12);
  });
});
