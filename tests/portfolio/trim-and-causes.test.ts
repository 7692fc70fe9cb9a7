// Issue 44 items 10, 12 and 22, hand-worked through the public constructor and renderers.
import { describe, expect, it } from 'vitest';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { renderPortfolioHtml } from '../../src/report/portfolio-html.js';
import { renderPortfolioMarkdown, renderPortfolioTerminal } from '../../src/report/portfolio.js';
import { decision, input, limits, market } from './support.js';

// NAV 100,000 USD: ACME 150 shares at 100 = 15,000 (15 %), cash 85,000. A BUY sized 4 %
// wants 4,000 / 100 = 40 shares: 110 are sold. That sale is a trim of a BUY, not a SELL call.
const book = input({
  holdings: { cash: 85_000, positions: [{ symbol: 'ACME', quantity: 150, costBasis: null, currency: null }] },
  decisions: [decision('ACME', { action: 'BUY', conviction: 64, positionSizePct: 4 })],
  market: [market('ACME', 100)],
  limits: limits({ maxWeightPct: 20, maxSectorPct: 100 }),
});

describe('a BUY sized below the weight held', () => {
  const plan = constructPortfolio(book);
  const report = { plan, asOf: '2026-11-27T21:00:00.000Z', lastSession: '2026-11-27', demo: false };

  it('is a SELL order to the broker, named a trim of the BUY', () => {
    expect(plan.orders).toEqual([expect.objectContaining({ ticker: 'ACME', side: 'SELL', quantity: 110, trim: true })]);
    expect(plan.orders[0]!.reason).toBe('BUY, sized 4 % (conviction 64, run run-ACME): trim');
  });

  it('reads TRIM in the terminal, and the binding names the decision size', () => {
    const text = renderPortfolioTerminal(report, { unicode: true });
    expect(text).toContain('TRIM 110 ACME market');
    expect(text).not.toMatch(/SELL 110 ACME/);
    const row = text.split('\n').find((line) => line.startsWith('ACME'));
    expect(row).toMatch(/decision size 4 %$/);
    expect(renderPortfolioMarkdown(report, null)).toContain('| decision size 4 % |');
    expect(renderPortfolioHtml(report)).toContain('>TRIM<');
  });

  it('says "as of the 2026-11-27 close", not an ISO instant', () => {
    const text = renderPortfolioTerminal(report, { unicode: true });
    expect(text).toContain('Book as of the 2026-11-27 close:');
    expect(text).not.toContain('T21:00');
    expect(renderPortfolioMarkdown(report, null)).toContain('# Proposed portfolio as of the 2026-11-27 close');
    expect(renderPortfolioHtml(report)).toContain('Proposed portfolio as of the 2026-11-27 close');
  });
});

describe('a held name above --max-weight-pct that cannot be traded', () => {
  const held = {
    cash: 70_000,
    positions: [{ symbol: 'ACME', quantity: 300, costBasis: null, currency: null }],
  };
  const tight = limits({ maxWeightPct: 20, maxSectorPct: 100 });

  it('says there is no saved decision, and how to get one', () => {
    const missing = [
      { ticker: 'ACME', reason: 'no saved finished decision (run `autohedge analyze ACME`, or --analyze)' },
    ];
    expect(() =>
      constructPortfolio(input({ holdings: held, market: [market('ACME', 100)], limits: tight, missing })),
    ).toThrow(
      /not traded \(no usable decision\): no saved finished decision \(run `autohedge analyze ACME`, or --analyze\)$/,
    );
  });

  it('says that the newest decision is flagged, and names --include-flagged', () => {
    const flagged = [decision('ACME', { flagged: true })];
    expect(() =>
      constructPortfolio(input({ holdings: held, decisions: flagged, market: [market('ACME', 100)], limits: tight })),
    ).toThrow(/not traded \(no usable decision\): run run-ACME was flagged by the guardrails \(use --include-flagged/);
  });

  it('names analyze and --analyze when no decision was asked for', () => {
    expect(() => constructPortfolio(input({ holdings: held, market: [market('ACME', 100)], limits: tight }))).toThrow(
      /no decision of it was asked for \(name it, run `autohedge analyze ACME`, or --analyze\)$/,
    );
  });
});

describe('the amounts of a limit order (issue 44 item 11)', () => {
  // NAV 100,000, all cash; a BUY of 5 % at a 95 limit, last price 100: 5,000 / 100 = 50 shares.
  const plan = constructPortfolio(
    input({
      decisions: [decision('ACME', { positionSizePct: 5, orderType: 'limit', entry: 95, stopLoss: 90 })],
      market: [market('ACME', 100)],
      limits: limits({ maxWeightPct: 20, maxSectorPct: 100, maxRiskPct: 100 }),
    }),
  );

  it('has one trade value, at the last price, and a distinct position value', () => {
    expect(plan.orders).toEqual([
      expect.objectContaining({ ticker: 'ACME', side: 'BUY', quantity: 50, limitPrice: 95, tradeValue: 5000 }),
    ]);
    expect(plan.targets[0]).toMatchObject({ ticker: 'ACME', shares: 50, tradeValue: 5000, positionValue: 5000 });
    expect(plan.targets[0]).not.toHaveProperty('notional');
  });

  it('shows the same amount in the table and the order line', () => {
    const text = renderPortfolioTerminal({ plan, asOf: '2026-11-27T21:00:00.000Z', demo: false }, { unicode: true });
    expect(text).toContain('trade value');
    expect(text).not.toContain('notional');
    expect(text).toContain('BUY 50 ACME limit 95.00 USD ≈ 5,000.00 USD');
    expect(text.split('\n').find((line) => line.startsWith('ACME'))).toContain('5,000.00');
    expect(text).not.toContain('4,750.00');
  });
});
