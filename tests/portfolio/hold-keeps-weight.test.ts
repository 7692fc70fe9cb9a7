// Issue 45 item 5 and issue 47 item 19, hand-worked: a HOLD keeps its weight unless a limit on
// that position itself binds, room under a sector cap goes to a new buy only as far as it
// exists, --csv lists orders only, and a HOLD with a stop keeps no more than loses --max-risk.
import { describe, expect, it } from 'vitest';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { renderOrdersCsv } from '../../src/report/portfolio.js';
import { decision, input, limits, market } from './support.js';

// NAV 100,000 USD: HELD 289 shares at 100 = 28,900 (28.9 %, Technology), cash 71,100.
// NEWT (Technology, 50.00) is a BUY of 10 % with a higher conviction than the HOLD.
// --max-sector-pct 30 leaves 30 − 28.9 = 1.1 % for NEWT: 1,100 / 50 = 22 shares.
const held = { cash: 71_100, positions: [{ symbol: 'HELD', quantity: 289, costBasis: null, currency: null }] };

describe('a HOLD beside a new BUY in the same sector', () => {
  const book = input({
    holdings: held,
    decisions: [
      decision('HELD', { action: 'HOLD', conviction: 55, positionSizePct: 0, stopLoss: null }),
      decision('NEWT', { conviction: 80, positionSizePct: 10, stopLoss: 45 }),
    ],
    market: [market('HELD', 100), market('NEWT', 50)],
    limits: limits({ maxSectorPct: 30, maxWeightPct: 30 }),
  });

  it('keeps the HOLD whole, and the cap binds the buy at 22 shares', () => {
    const plan = constructPortfolio(book);
    expect(plan.targets.map((target) => [target.ticker, target.currentShares, target.shares, target.binding])).toEqual([
      ['HELD', 289, 289, null],
      ['NEWT', 0, 22, 'max-sector'],
    ]);
    expect(plan.orders.map((order) => [order.ticker, order.side, order.quantity])).toEqual([['NEWT', 'BUY', 22]]);
  });

  it('--csv lists the one order, not the HOLD', () => {
    const rows = renderOrdersCsv(constructPortfolio(book)).trim().split('\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^NEWT,BUY,22,/);
  });
});

describe('a HOLD whose loss at its stop is above --max-risk', () => {
  // HELD at 28.9 % with its stop at 80 (20 % below 100): at most 2 % / 0.20 = 10 % may be kept.
  // 10,000 / 100 = 100 shares kept; 189 sold, and the clamp says why.
  it('is cut to the risk bound with a clamp, never kept silently', () => {
    const plan = constructPortfolio(
      input({
        holdings: held,
        decisions: [decision('HELD', { action: 'HOLD', conviction: 55, positionSizePct: 0, stopLoss: 80 })],
        market: [market('HELD', 100)],
        limits: limits({ maxSectorPct: 100, maxWeightPct: 100, maxRiskPct: 2 }),
      }),
    );
    expect(plan.targets.map((target) => [target.ticker, target.shares, target.binding])).toEqual([
      ['HELD', 100, 'risk-per-trade'],
    ]);
    expect(plan.clamps).toEqual([
      expect.objectContaining({ ticker: 'HELD', constraint: 'risk-per-trade', before: 28.9, after: 10 }),
    ]);
    expect(plan.orders.map((order) => [order.ticker, order.side, order.quantity])).toEqual([['HELD', 'SELL', 189]]);
  });

  it('a HOLD with no stop keeps its weight under the same limits', () => {
    const plan = constructPortfolio(
      input({
        holdings: held,
        decisions: [decision('HELD', { action: 'HOLD', conviction: 55, positionSizePct: 0, stopLoss: null })],
        market: [market('HELD', 100)],
        limits: limits({ maxSectorPct: 100, maxWeightPct: 100, maxRiskPct: 2 }),
      }),
    );
    expect(plan.orders).toEqual([]);
    expect(plan.clamps).toEqual([]);
  });
});
