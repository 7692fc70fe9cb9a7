import { describe, expect, it } from 'vitest';
import { simulateTrade, type TradePlan } from '../../src/evaluate/outcome.js';
import { acmePath } from './support.js';

/** Every expected number is read off the path in support.ts by hand. Entry index 1 = 2025-06-03. */

const buy = (overrides: Partial<TradePlan>): TradePlan => ({
  action: 'BUY',
  orderType: 'market',
  entry: null,
  stopLoss: 95,
  takeProfit: 120,
  ...overrides,
});
const sell = (overrides: Partial<TradePlan>): TradePlan => ({
  action: 'SELL',
  orderType: 'market',
  entry: null,
  stopLoss: 110,
  takeProfit: 80,
  ...overrides,
});

describe('simulateTrade on the synthetic path', () => {
  it('BUY, target touched first: 06-04 high 106 reaches 105 → +5.00 %', () => {
    const outcome = simulateTrade(buy({ stopLoss: 95, takeProfit: 105 }), acmePath, 1, 5);
    expect(outcome).toEqual({
      outcome: 'target',
      entryDate: '2025-06-03',
      entryPrice: 100,
      exitDate: '2025-06-04',
      exitPrice: 105,
      stockReturn: expect.closeTo(0.05, 12),
      signedReturn: expect.closeTo(0.05, 12),
    });
  });

  it('BUY, stop touched first: 06-03 low 99 reaches 99.5 → −0.50 %', () => {
    const outcome = simulateTrade(buy({ stopLoss: 99.5, takeProfit: 110 }), acmePath, 1, 5);
    expect(outcome).toMatchObject({ outcome: 'stop', exitDate: '2025-06-03', exitPrice: 99.5 });
    expect(outcome.signedReturn).toBeCloseTo(-0.005, 12);
  });

  it('BUY, the session gaps through the stop: out at the open, not at the stop', () => {
    // Stop 97.5: lows 99, 100, 103, 98 stay above it; 06-09 opens at 95.
    const outcome = simulateTrade(buy({ stopLoss: 97.5, takeProfit: 120 }), acmePath, 1, 5);
    expect(outcome).toMatchObject({ outcome: 'stop', exitDate: '2025-06-09', exitPrice: 95 });
    expect(outcome.signedReturn).toBeCloseTo(-0.05, 12);
  });

  it('SELL, target touched first: 06-03 low 99 reaches 99.5 → +0.50 %', () => {
    const outcome = simulateTrade(sell({ stopLoss: 103, takeProfit: 99.5 }), acmePath, 1, 5);
    expect(outcome).toMatchObject({ outcome: 'target', exitDate: '2025-06-03', exitPrice: 99.5 });
    expect(outcome.stockReturn).toBeCloseTo(-0.005, 12);
    expect(outcome.signedReturn).toBeCloseTo(0.005, 12);
  });

  it('SELL, stop touched first: 06-03 high 102 reaches 101.5 → −1.50 %', () => {
    const outcome = simulateTrade(sell({ stopLoss: 101.5, takeProfit: 90 }), acmePath, 1, 5);
    expect(outcome).toMatchObject({ outcome: 'stop', exitDate: '2025-06-03', exitPrice: 101.5 });
    expect(outcome.signedReturn).toBeCloseTo(-0.015, 12);
  });

  it('neither level: the close of the horizon’s last session (3 sessions → 06-05 close 104)', () => {
    const outcome = simulateTrade(buy({ stopLoss: 90, takeProfit: 120 }), acmePath, 1, 3);
    expect(outcome).toMatchObject({ outcome: 'horizon', exitDate: '2025-06-05', exitPrice: 104 });
    expect(outcome.signedReturn).toBeCloseTo(0.04, 12);
  });

  it('a session touching both levels, opening between them: ambiguous, no return', () => {
    // 06-03: low 99 ≤ 99.5 and high 102 ≥ 101.5, open 100 between them.
    const outcome = simulateTrade(buy({ stopLoss: 99.5, takeProfit: 101.5 }), acmePath, 1, 5);
    expect(outcome).toMatchObject({
      outcome: 'ambiguous',
      entryPrice: 100,
      exitDate: '2025-06-03',
      signedReturn: null,
      stockReturn: null,
    });
  });

  it('HOLD: an abstention, with what the stock did (06-03 open 100 → 06-05 close 104)', () => {
    const outcome = simulateTrade(
      { action: 'HOLD', orderType: 'market', entry: null, stopLoss: null, takeProfit: null },
      acmePath,
      1,
      3,
    );
    expect(outcome).toMatchObject({ outcome: 'abstained', signedReturn: null });
    expect(outcome.stockReturn).toBeCloseTo(0.04, 12);
  });

  it('a horizon not yet elapsed: pending; but a level touched before the data ends is final', () => {
    expect(simulateTrade(buy({ stopLoss: 90, takeProfit: 120 }), acmePath, 1, 10).outcome).toBe('pending');
    expect(simulateTrade(buy({ stopLoss: 95, takeProfit: 105 }), acmePath, 1, 10).outcome).toBe('target');
    // No session after the decision at all.
    expect(simulateTrade(buy({}), acmePath, acmePath.length, 5)).toMatchObject({ outcome: 'pending', entryDate: null });
  });

  it('a limit that never fills within the horizon: unfilled (pending while the horizon runs)', () => {
    // BUY limit 95: lows 99, 100, 103, 98, 94 — only 06-09 reaches it, the 5th session.
    expect(simulateTrade(buy({ orderType: 'limit', entry: 95 }), acmePath, 1, 4).outcome).toBe('unfilled');
    expect(simulateTrade(buy({ orderType: 'limit', entry: 93 }), acmePath, 1, 8).outcome).toBe('pending');
  });

  it('a limit filled intraday: at the limit, exits checked from the next session', () => {
    // BUY limit 99.5: 06-03 opens 100 > 99.5, low 99 reaches it → filled at 99.5; stop 99 is
    // touched the same day (low 99) but that may precede the fill, so it is not checked; 06-04 high 106 ≥ 105.
    const outcome = simulateTrade(
      buy({ orderType: 'limit', entry: 99.5, stopLoss: 99, takeProfit: 105 }),
      acmePath,
      1,
      5,
    );
    expect(outcome).toMatchObject({
      outcome: 'target',
      entryDate: '2025-06-03',
      entryPrice: 99.5,
      exitDate: '2025-06-04',
      exitPrice: 105,
    });
    expect(outcome.signedReturn).toBeCloseTo(105 / 99.5 - 1, 12);
  });

  it('a limit already through at the open fills at the open', () => {
    // SELL limit 104: 06-03 opens 100 < 104, high 102 < 104; 06-04 high 106 ≥ 104 → filled at 104; 06-05 close 104, horizon 3.
    const outcome = simulateTrade(sell({ orderType: 'limit', entry: 104 }), acmePath, 1, 3);
    expect(outcome).toMatchObject({
      outcome: 'horizon',
      entryDate: '2025-06-04',
      entryPrice: 104,
      exitDate: '2025-06-05',
      exitPrice: 104,
      signedReturn: -0,
    });
    // BUY limit 102: 06-03 opens 100 ≤ 102 → filled at the open, 100.
    expect(simulateTrade(buy({ orderType: 'limit', entry: 102 }), acmePath, 1, 3)).toMatchObject({
      entryDate: '2025-06-03',
      entryPrice: 100,
    });
  });
});
