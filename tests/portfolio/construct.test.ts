import { describe, expect, it } from 'vitest';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { PortfolioInfeasibleError } from '../../src/portfolio/errors.js';
import { decision, input, limits, market, walk } from './support.js';

describe('constructPortfolio: a hand-worked book', () => {
  // NAV 100,000 USD, all cash. AAA and BBB are Technology, CCC Energy; --max-sector-pct 15.
  // AAA (conviction 80) wants 10 %: it fits; 10,000 / 123.45 = 81.0 → 81 shares.
  // BBB (70) wants 8 %, but Technology has 15 − 10 = 5 % left: 5,000 / 47.30 = 105.7 → 105 shares.
  // CCC (60) wants 10 %; its stop is 25 % below 41.20, so 2 % at risk allows 8 %: 8,000 / 41.20 = 194.2 → 194 shares.
  const book = input({
    decisions: [
      decision('AAA', { conviction: 80, positionSizePct: 10, stopLoss: 111.105 }),
      decision('BBB', { conviction: 70, positionSizePct: 8, stopLoss: 42.57 }),
      decision('CCC', { conviction: 60, positionSizePct: 10, stopLoss: 30.9 }),
    ],
    market: [market('AAA', 123.45), market('BBB', 47.3), market('CCC', 41.2, { sector: 'Energy' })],
    limits: limits({ maxSectorPct: 15 }),
  });

  it('gives the exact shares, orders and cash', () => {
    const plan = constructPortfolio(book);
    expect(plan.status).toBe('proposed');
    expect(plan.targets.map((target) => [target.ticker, target.shares, target.binding])).toEqual([
      ['AAA', 81, null],
      ['BBB', 105, 'max-sector'],
      ['CCC', 194, 'risk-per-trade'],
    ]);
    expect(plan.orders).toEqual([
      expect.objectContaining({ ticker: 'AAA', side: 'BUY', quantity: 81, tradeValue: 9999.45 }),
      expect.objectContaining({ ticker: 'BBB', side: 'BUY', quantity: 105, tradeValue: 4966.5 }),
      expect.objectContaining({ ticker: 'CCC', side: 'BUY', quantity: 194, tradeValue: 7992.8 }),
    ]);
    expect(plan.cash).toBe(77041.25);
    expect(plan.risk.cashPct).toBe(77.0412);
  });

  it('logs each clamp with the weights before and after', () => {
    const plan = constructPortfolio(book);
    expect(plan.clamps).toEqual([
      expect.objectContaining({ ticker: 'BBB', constraint: 'max-sector', before: 8, after: 5 }),
      expect.objectContaining({ ticker: 'CCC', constraint: 'risk-per-trade', before: 10, after: 8 }),
    ]);
    expect(plan.clamps[0]!.message).toContain('sector Technology is full at --max-sector-pct 15');
  });

  it('is byte-identical for the same inputs, in any input order', () => {
    const first = JSON.stringify(constructPortfolio(book));
    const shuffled = { ...book, decisions: [...book.decisions].reverse(), market: [...book.market].reverse() };
    expect(JSON.stringify(constructPortfolio(shuffled))).toBe(first);
    expect(JSON.stringify(constructPortfolio(book))).toBe(first);
  });
});

describe('constructPortfolio: rules', () => {
  it('keeps a held name that was not analysed and lists it', () => {
    const plan = constructPortfolio(
      input({
        holdings: { cash: 50_000, positions: [{ symbol: 'OLD', quantity: 40, costBasis: null, currency: null }] },
        decisions: [decision('NEW', { positionSizePct: 5, stopLoss: 90 })],
        market: [market('OLD', 100, { sector: 'Utilities' }), market('NEW', 100)],
      }),
    );
    expect(plan.held).toEqual([
      expect.objectContaining({ ticker: 'OLD', quantity: 40, reason: expect.stringContaining('held, not analysed') }),
    ]);
    expect(plan.targets.find((target) => target.ticker === 'OLD')).toMatchObject({
      action: 'HELD',
      shares: 40,
      currentShares: 40,
    });
    expect(plan.orders.map((order) => order.ticker)).toEqual(['NEW']);
  });

  it('excludes a flagged decision unless --include-flagged', () => {
    const flagged = input({
      holdings: { cash: 10_000, positions: [{ symbol: 'FLG', quantity: 10, costBasis: null, currency: null }] },
      decisions: [decision('FLG', { action: 'SELL', flagged: true, runId: 'run-flagged' })],
      market: [market('FLG', 100)],
    });
    const plan = constructPortfolio(flagged);
    expect(plan.excluded).toEqual([{ ticker: 'FLG', reason: expect.stringContaining('flagged') }]);
    expect(plan.orders).toEqual([]);
    expect(plan.held[0]).toMatchObject({ ticker: 'FLG', reason: expect.stringContaining('excluded') });
    const included = constructPortfolio({ ...flagged, limits: limits({ includeFlagged: true }) });
    expect(included.orders).toEqual([expect.objectContaining({ ticker: 'FLG', side: 'SELL', quantity: 10 })]);
  });

  it('without --allow-short a SELL reduces to zero; with it, goes short to −size', () => {
    const selling = input({
      holdings: { cash: 9_000, positions: [{ symbol: 'SSS', quantity: 10, costBasis: null, currency: null }] },
      decisions: [decision('SSS', { action: 'SELL', positionSizePct: 5, stopLoss: 110 })],
      market: [market('SSS', 100)],
    });
    const long = constructPortfolio(selling);
    expect(long.orders).toEqual([expect.objectContaining({ side: 'SELL', quantity: 10 })]);
    expect(long.targets[0]!.shares).toBe(0);
    const short = constructPortfolio({ ...selling, limits: limits({ allowShort: true }) });
    // −5 % of NAV 10,000 at 100 is −5 shares: sell the 10 held and 5 more.
    expect(short.targets[0]!.shares).toBe(-5);
    expect(short.orders).toEqual([expect.objectContaining({ side: 'SELL', quantity: 15 })]);
  });

  it('a HOLD keeps the position, trimmed only by a limit', () => {
    const plan = constructPortfolio(
      input({
        holdings: { cash: 8_000, positions: [{ symbol: 'HLD', quantity: 20, costBasis: null, currency: null }] },
        decisions: [decision('HLD', { action: 'HOLD', positionSizePct: 0 })],
        market: [market('HLD', 100)],
      }),
    );
    // 2,000 of 10,000 is 20 %: --max-weight-pct 10 trims it to 10 shares.
    expect(plan.targets[0]).toMatchObject({ shares: 10, binding: 'max-weight' });
  });

  it('refuses a cash floor the untraded positions cannot leave, naming it', () => {
    const run = () =>
      constructPortfolio(
        input({
          holdings: { cash: 1_000, positions: [{ symbol: 'OLD', quantity: 100, costBasis: null, currency: null }] },
          market: [market('OLD', 100)],
          limits: limits({ maxWeightPct: 100, maxSectorPct: 100, minCashPct: 20 }),
        }),
      );
    expect(run).toThrow(PortfolioInfeasibleError);
    expect(run).toThrow(/cash at 9\.09 % is below --min-cash-pct 20/);
  });

  it('drops a trade below --min-trade-usd', () => {
    const plan = constructPortfolio(
      input({
        holdings: { cash: 1_000, positions: [] },
        decisions: [decision('TNY', { positionSizePct: 5, stopLoss: 9 })],
        market: [market('TNY', 10)],
      }),
    );
    expect(plan.orders).toEqual([]);
    expect(plan.clamps).toEqual([expect.objectContaining({ ticker: 'TNY', constraint: 'min-trade' })]);
  });

  it('scales the trades to the turnover cap', () => {
    const plan = constructPortfolio(
      input({
        decisions: [decision('AAA', { positionSizePct: 10, stopLoss: 90 })],
        market: [market('AAA', 100)],
        limits: limits({ maxTurnoverPct: 4 }),
      }),
    );
    expect(plan.targets[0]).toMatchObject({ shares: 40, binding: 'turnover' });
    expect(plan.risk.turnoverPct).toBe(4);
  });

  it('holds the book to --target-vol-pct', () => {
    const closes = walk(7, 300);
    const plan = constructPortfolio(
      input({
        decisions: [decision('VOL', { positionSizePct: 10, stopLoss: closes.at(-1)!.close * 0.9 })],
        market: [market('VOL', closes.at(-1)!.close, { closes })],
        limits: limits({ targetVolPct: 1 }),
      }),
    );
    expect(plan.risk.estVolPct).toBeLessThanOrEqual(1);
    expect(plan.targets[0]!.binding).toBe('target-vol');
  });

  it('refuses --target-vol-pct without enough history', () => {
    expect(() =>
      constructPortfolio(
        input({ decisions: [decision('NEW')], market: [market('NEW', 10)], limits: limits({ targetVolPct: 10 }) }),
      ),
    ).toThrow(/at least 60 daily returns/);
  });

  it('flags a price older than the last session', () => {
    const plan = constructPortfolio(
      input({
        decisions: [decision('OLD', { stopLoss: 90 })],
        market: [market('OLD', 100, { priceDay: '2026-11-20' })],
      }),
    );
    expect(plan.targets[0]!.stale).toBe(true);
    expect(plan.warnings).toEqual(['OLD: the price 100 is from 2026-11-20, older than the last session (2026-11-27)']);
  });

  it('warns when a decision did not see the last sessions', () => {
    const plan = constructPortfolio(
      input({
        decisions: [decision('OLD', { stopLoss: 90, asOf: '2026-11-20T21:00:00.000Z', runId: 'run-old' })],
        market: [market('OLD', 100)],
      }),
    );
    // 2026-11-23, 24, 25 and 27 (the 26th is Thanksgiving): four sessions.
    expect(plan.warnings).toEqual([
      "OLD: the decision (run run-old) is as of 2026-11-20, 4 sessions before the book's last session (2026-11-27)",
    ]);
  });

  it('a BUY without a stop adds nothing', () => {
    const plan = constructPortfolio(
      input({ decisions: [decision('NOS', { stopLoss: null })], market: [market('NOS', 10)] }),
    );
    expect(plan.orders).toEqual([]);
    expect(plan.clamps[0]).toMatchObject({ constraint: 'no-stop' });
  });
});
