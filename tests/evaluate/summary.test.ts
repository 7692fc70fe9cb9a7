import { describe, expect, it } from 'vitest';
import type { DecisionRow, Evaluation, HorizonResult } from '../../src/evaluate/evaluate.js';
import { seededRandom, shuffle } from '../../src/evaluate/statistics.js';
import { summarize } from '../../src/evaluate/summary.js';

/** summarize() on hand-made rows whose buy-and-hold returns all differ, so a baseline's every call shows. */

function row(
  runId: string,
  action: 'BUY' | 'SELL',
  conviction: number,
  stockReturn: number,
  momentum: 'BUY' | 'SELL' | null,
): DecisionRow {
  const horizon: HorizonResult = {
    horizon: 5,
    outcome: 'horizon',
    entryDate: '2025-06-03',
    entryPrice: 100,
    exitDate: '2025-06-09',
    exitPrice: 100 * (1 + stockReturn),
    stockReturn,
    signedReturn: action === 'BUY' ? stockReturn : -stockReturn,
    benchmarkReturn: 0,
    excess: action === 'BUY' ? stockReturn : -stockReturn,
    buyAndHold: { stockReturn, benchmarkReturn: 0 },
  };
  return {
    runId,
    ticker: runId.toUpperCase(),
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'historical',
    contamination: 'clean',
    action,
    conviction,
    orderType: 'market',
    entry: null,
    stopLoss: null,
    takeProfit: null,
    rescaled: null,
    momentum,
    entrySession: '2025-06-03',
    horizons: [horizon],
    problem: null,
  };
}

const moves = [0.01, -0.02, 0.03, -0.04, 0.05, -0.06];
const actions = ['BUY', 'SELL', 'BUY', 'BUY', 'SELL', 'SELL'] as const;
const rows = moves.map((move, index) =>
  row(`r${index}`, actions[index]!, 10 * (index + 1), move, index % 2 === 0 ? 'BUY' : 'SELL'),
);
const evaluation: Evaluation = {
  evaluatedAt: '2025-06-10T12:00:00.000Z',
  horizons: [5],
  benchmark: 'SPY',
  decisions: rows,
  warnings: [],
};

describe('summarize on hand-made rows', () => {
  it('the random baseline is the desks’ own mix shuffled by the seed, applied row by row', () => {
    for (const seed of [1, 2, 99]) {
      const random = summarize(evaluation, seed).groups[0]!.strategies.find((item) => item.strategy === 'random')!;
      const mix = shuffle([...actions], seededRandom(seed));
      const signed = moves.map((move, index) => (mix[index] === 'BUY' ? move : -move));
      expect(random.hits).toBe(signed.filter((value) => value > 0).length);
      expect(random.meanExcess).toBeCloseTo(signed.reduce((sum, value) => sum + value, 0) / signed.length, 12);
    }
    // Different seeds give different calls here (so the seed is really used).
    const means = [1, 2, 3, 4, 5].map((seed) => summarize(evaluation, seed).groups[0]!.strategies[3]!.meanExcess);
    expect(new Set(means.map((value) => value!.toFixed(6))).size).toBeGreaterThan(1);
  });

  it('desks, always BUY and momentum by hand', () => {
    const [desks, always, momentum] = summarize(evaluation, 1).groups[0]!.strategies;
    // Desks: BUY +1 %, SELL +2 %, BUY +3 %, BUY −4 %, SELL −5 %, SELL +6 % → 4 hits, mean +0.5 %.
    expect(desks).toMatchObject({ count: 6, hits: 4 });
    expect(desks!.meanExcess).toBeCloseTo(0.005, 12);
    // Spearman: conviction 10…60 against excess [1, 2, 3, −4, −5, 6] % → ranks [3, 4, 5, 2, 1, 6]; Σd² = 4+4+4+4+16+0 = 32; ρ = 1 − 192/210.
    expect(desks!.spearman).toBeCloseTo(1 - 192 / 210, 12);
    // Always BUY: the moves themselves, 3 up; mean −0.5 %.
    expect(always).toMatchObject({ count: 6, hits: 3 });
    expect(always!.meanExcess).toBeCloseTo(-0.005, 12);
    // Momentum BUY, SELL, BUY, SELL, BUY, SELL: +1, +2, +3, +4, +5, +6 % → every call right.
    expect(momentum).toMatchObject({ count: 6, hits: 6 });
    expect(momentum!.meanExcess).toBeCloseTo(0.035, 12);
  });
});
