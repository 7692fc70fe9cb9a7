import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { PortfolioInfeasibleError } from '../../src/portfolio/errors.js';
import type { DecisionInput, PortfolioInput, PortfolioPlan } from '../../src/portfolio/types.js';
import { walk } from './support.js';

/**
 * Random books, decisions and limits. Every plan is checked against the limits from
 * its own output (shares × price ÷ NAV), independently of the constructor's checker;
 * a refusal must be a PortfolioInfeasibleError that names its constraint.
 */

const tickers = ['AAA', 'BBB', 'CCC', 'DDD', 'EEE', 'FFF'];
const sectors = ['Technology', 'Energy', 'Health Care'];
const tolerancePct = 1e-4;

const nameArbitrary = fc.record({
  price: fc.double({ min: 1, max: 2000, noNaN: true }),
  sector: fc.constantFrom(...sectors, null),
  heldValue: fc.option(fc.integer({ min: 0, max: 15_000 }), { nil: null }),
  fractionalLot: fc.boolean(),
  decided: fc.integer({ min: 0, max: 3 }).map((value) => value > 0),
  action: fc.constantFrom('BUY', 'SELL', 'HOLD'),
  conviction: fc.integer({ min: 0, max: 100 }),
  size: fc.double({ min: 0, max: 25, noNaN: true }),
  limit: fc.boolean(),
  entryOffset: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
  stopOffset: fc.option(fc.double({ min: -0.4, max: 0.4, noNaN: true }), { nil: null }),
  flagged: fc.integer({ min: 0, max: 3 }).map((value) => value === 0),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

const limitsArbitrary = fc.record({
  minCashPct: fc.double({ min: 0, max: 40, noNaN: true }),
  maxWeightPct: fc.double({ min: 2, max: 60, noNaN: true }),
  maxSectorPct: fc.double({ min: 5, max: 100, noNaN: true }),
  maxGrossPct: fc.double({ min: 20, max: 200, noNaN: true }),
  maxNetPct: fc.double({ min: 10, max: 150, noNaN: true }),
  maxRiskPct: fc.double({ min: 0.25, max: 5, noNaN: true }),
  targetVolPct: fc.option(fc.double({ min: 2, max: 40, noNaN: true }), { nil: null }),
  maxTurnoverPct: fc.option(fc.double({ min: 1, max: 150, noNaN: true }), { nil: null }),
  minTradeUsd: fc.double({ min: 0, max: 2000, noNaN: true }),
  fractional: fc.boolean(),
  allowShort: fc.boolean(),
  includeFlagged: fc.boolean(),
});

const bookArbitrary = fc
  .record({
    names: fc.array(nameArbitrary, { minLength: tickers.length, maxLength: tickers.length }),
    cash: fc.integer({ min: 0, max: 200_000 }),
    limits: limitsArbitrary,
  })
  .map(({ names, cash, limits }): PortfolioInput => {
    const positions = names.flatMap((name, index) =>
      name.heldValue === null || Math.floor(name.heldValue / name.price) === 0
        ? []
        : [
            {
              symbol: tickers[index]!,
              quantity: Math.floor(name.heldValue / name.price) + (name.fractionalLot ? 0.5 : 0),
              costBasis: null,
              currency: null,
            },
          ],
    );
    const decisions = names.flatMap((name, index): DecisionInput[] => {
      if (!name.decided) return [];
      const buy = name.action === 'BUY';
      const entry = name.limit ? name.price * (1 + name.entryOffset) : null;
      return [
        {
          ticker: tickers[index]!,
          runId: `run-${index}`,
          asOf: '2026-11-27T21:00:00.000Z',
          action: name.action as DecisionInput['action'],
          conviction: name.conviction,
          positionSizePct: name.size,
          orderType: name.limit ? 'limit' : 'market',
          entry,
          stopLoss: name.stopOffset === null ? null : name.price * (1 + (buy ? -1 : 1) * Math.abs(name.stopOffset)),
          flagged: name.flagged,
        },
      ];
    });
    const market = names.map((name, index) => {
      const closes = walk(name.seed, 120, name.price);
      return {
        ticker: tickers[index]!,
        price: name.price,
        currency: 'USD',
        sector: name.sector,
        priceDay: '2026-11-27',
        closes,
      };
    });
    return { holdings: { cash, positions }, decisions, market, limits, clock: '2026-11-27T21:00:00.000Z' };
  })
  .filter((book) => book.market.length > 0);

function stopFraction(decision: DecisionInput, price: number): number | null {
  if (decision.stopLoss === null || decision.action === 'HOLD') return null;
  const buy = decision.action === 'BUY';
  const resting =
    decision.orderType === 'limit' &&
    decision.entry !== null &&
    (buy ? decision.entry <= price : decision.entry >= price);
  const fill = resting ? decision.entry! : price;
  const distance = buy ? fill - decision.stopLoss : decision.stopLoss - fill;
  return distance > 0 ? distance / fill : null;
}

/** Every limit, checked from the plan's own numbers. */
function checkPlan(book: PortfolioInput, plan: PortfolioPlan): void {
  const { limits } = book;
  // From the inputs, not the plan's rounded figures: NAV and prices exactly as given.
  const priceOf = (ticker: string) => book.market.find((entry) => entry.ticker === ticker)!.price;
  const nav = book.holdings.positions.reduce(
    (sum, position) => sum + position.quantity * priceOf(position.symbol),
    book.holdings.cash,
  );
  const weights = plan.targets.map((target) => (target.shares * priceOf(target.ticker) * 100) / nav);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const net = sum(weights);
  const gross = sum(weights.map(Math.abs));
  expect(100 - net).toBeGreaterThanOrEqual(limits.minCashPct - tolerancePct);
  expect((plan.cash * 100) / nav).toBeGreaterThanOrEqual(limits.minCashPct - 0.01 / nav - tolerancePct);
  expect(gross).toBeLessThanOrEqual(limits.maxGrossPct + tolerancePct);
  expect(Math.abs(net)).toBeLessThanOrEqual(limits.maxNetPct + tolerancePct);
  const bySector = new Map<string, number>();
  plan.targets.forEach((target, index) => {
    const sector = book.market.find((entry) => entry.ticker === target.ticker)!.sector ?? 'Unknown';
    bySector.set(sector, (bySector.get(sector) ?? 0) + Math.abs(weights[index]!));
  });
  for (const total of bySector.values()) expect(total).toBeLessThanOrEqual(limits.maxSectorPct + tolerancePct);
  const held = new Map(book.holdings.positions.map((position) => [position.symbol, position.quantity]));
  const decisions = new Map(book.decisions.map((decision) => [decision.ticker, decision]));
  plan.targets.forEach((target, index) => {
    const weight = weights[index]!;
    expect(Math.abs(weight)).toBeLessThanOrEqual(limits.maxWeightPct + tolerancePct);
    expect(Number.isFinite(target.shares)).toBe(true);
    const decision = decisions.get(target.ticker);
    const usable = decision && (!decision.flagged || limits.includeFlagged);
    if (!usable) {
      // Held and not analysed, or excluded: kept exactly.
      expect(target.action).toBe('HELD');
      expect(target.shares).toBe(held.get(target.ticker) ?? 0);
      return;
    }
    // Whole-share trades: only a close, or a flip to short, leaves a holding's own fraction behind.
    if (!limits.fractional && target.shares > 0) {
      expect(Number.isInteger(Math.round((target.shares - target.currentShares) * 1e6) / 1e6)).toBe(true);
    }
    if (!limits.fractional && target.shares < 0) expect(Number.isInteger(target.shares)).toBe(true);
    if (target.shares < 0) expect(limits.allowShort && decision.action === 'SELL').toBe(true);
    const fraction = stopFraction(decision, priceOf(target.ticker));
    const grew = Math.abs(target.shares) > Math.abs(target.currentShares) + 1e-9;
    if (grew && (decision.action === 'BUY' || target.shares < 0)) {
      expect(fraction).not.toBeNull();
      expect(Math.abs(weight) * fraction!).toBeLessThanOrEqual(limits.maxRiskPct + tolerancePct);
    }
  });
  for (const order of plan.orders) {
    expect(order.quantity).toBeGreaterThan(0);
    expect(Number.isFinite(order.tradeValue) && order.tradeValue >= 0).toBe(true);
    const holding = held.get(order.ticker) ?? 0;
    if (order.side === 'SELL' && order.quantity > holding + 1e-9) {
      expect(limits.allowShort && decisions.get(order.ticker)?.action === 'SELL').toBe(true);
    }
  }
  if (limits.maxTurnoverPct !== null) {
    const turnover = sum(plan.targets.map((target, index) => Math.abs(weights[index]! - target.currentWeight)));
    expect(turnover).toBeLessThanOrEqual(limits.maxTurnoverPct + 1e-3);
  }
  if (limits.targetVolPct !== null)
    expect(plan.risk.estVolPct!).toBeLessThanOrEqual(limits.targetVolPct + tolerancePct);
}

/** fc.assert, with the counterexample printed without its price history (which would bury the failure). */
function assertProperty(property: fc.IProperty<[PortfolioInput]>, parameters: fc.Parameters<[PortfolioInput]>): void {
  const details = fc.check(property, parameters);
  if (!details.failed) return;
  const example = details.counterexample?.[0];
  const brief = example && { ...example, market: example.market.map(({ closes: _, ...rest }) => rest) };
  throw new Error(
    `property failed (seed ${details.seed}, path ${details.counterexample ? details.counterexamplePath : ''}): ${String((details.errorInstance as Error | undefined)?.message ?? 'no error')}\n${JSON.stringify(brief)}`,
  );
}

describe('constructPortfolio properties', () => {
  it('every book meets every limit, or the refusal names the conflict', () => {
    let built = 0;
    let refused = 0;
    const reasons = new Map<string, number>();
    assertProperty(
      fc.property(bookArbitrary, (book) => {
        let plan: PortfolioPlan;
        try {
          plan = constructPortfolio(book);
        } catch (error) {
          expect(error).toBeInstanceOf(PortfolioInfeasibleError);
          expect((error as PortfolioInfeasibleError).constraint).toBeTruthy();
          expect((error as Error).message).toMatch(/--[a-z-]+|net asset value|currency|daily returns/);
          refused += 1;
          reasons.set(
            (error as PortfolioInfeasibleError).constraint,
            (reasons.get((error as PortfolioInfeasibleError).constraint) ?? 0) + 1,
          );
          return;
        }
        built += 1;
        checkPlan(book, plan);
      }),
      { numRuns: 3000, seed: 30 },
    );
    // The generator must exercise real books, not only refusals.
    expect(built).toBeGreaterThan(refused / 4);
    expect(built).toBeGreaterThan(500);
  }, 180_000);

  it('identical inputs give identical bytes, whatever the order of the inputs', () => {
    assertProperty(
      fc.property(bookArbitrary, (book) => {
        const run = (input: PortfolioInput) => {
          try {
            return JSON.stringify(constructPortfolio(input));
          } catch (error) {
            return `refused: ${(error as Error).message}`;
          }
        };
        const reordered: PortfolioInput = {
          ...book,
          holdings: { ...book.holdings, positions: [...book.holdings.positions].reverse() },
          decisions: [...book.decisions].reverse(),
          market: [...book.market].reverse(),
        };
        const first = run(book);
        expect(run(book)).toBe(first);
        expect(run(reordered)).toBe(first);
      }),
      { numRuns: 1000, seed: 31 },
    );
  }, 180_000);
});
