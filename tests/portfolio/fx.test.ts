import { describe, expect, it } from 'vitest';
import { createMarketData } from '../../src/market/service.js';
import { createYahooSource } from '../../src/market/sources/yahoo/index.js';
import type { FxClose, MarketData } from '../../src/market/types.js';
import { constructPortfolio } from '../../src/portfolio/construct.js';
import { PortfolioInfeasibleError } from '../../src/portfolio/errors.js';
import { inBaseCurrency } from '../../src/portfolio/inputs.js';
import { renderPortfolioTerminal } from '../../src/report/portfolio.js';
import { createYahooRouter, hasRecordedYahoo, recorded } from '../support/yahoo.js';
import { decision, input, market } from './support.js';

/**
 * A book of several currencies valued in one (`--base-currency`, default USD) at the as-of
 * day's FX close: the rate and its day printed, a listing with no rate refused in one
 * line, never converted at 1.0.
 */

/** Market data that quotes one stated rate per pair, and no other. */
function ratesOf(rates: Record<string, number>): MarketData & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    snapshot: () => Promise.reject(new Error('not used')),
    fxRate: async (from, to, { day }): Promise<FxClose | null> => {
      asked.push(`${from}${to} ${day}`);
      const rate = rates[`${from}${to}`];
      return rate === undefined ? null : { from, to, rate, day, vendor: 'test' };
    },
  };
}

describe('a multi-currency book at a stated FX rate', () => {
  const listed = [
    market('SAP.DE', 200, { currency: 'EUR', closes: [{ date: '2026-11-27', close: 200 }] }),
    market('AAPL', 100),
  ];

  it('EUR listings are valued in USD at 1 EUR = 1.10 USD: price, NAV, weights and the FX line', async () => {
    const data = ratesOf({ EURUSD: 1.1 });
    const converted = await inBaseCurrency(data, listed, { base: 'USD', day: '2026-11-27' });
    expect(data.asked).toEqual(['EURUSD 2026-11-27']);
    expect(converted[0]!.price).toBeCloseTo(220, 9);
    expect(converted[0]).toMatchObject({
      ticker: 'SAP.DE',
      currency: 'USD',
      fx: { from: 'EUR', to: 'USD', rate: 1.1, day: '2026-11-27' },
    });
    expect(converted[0]!.closes[0]!.close).toBeCloseTo(220, 9);
    expect(converted[1]).toBe(listed[1]);

    const plan = constructPortfolio(
      input({
        holdings: { cash: 20_000, positions: [{ symbol: 'SAP.DE', quantity: 5, costBasis: null, currency: 'EUR' }] },
        decisions: [decision('AAPL', { positionSizePct: 5 })],
        market: converted,
      }),
    );
    // 5 × 200 EUR × 1.10 = 1,100 USD held, plus 20,000 USD cash
    expect(plan.nav).toBe(21_100);
    expect(plan.baseCurrency).toBe('USD');
    expect(plan.fx).toEqual([{ from: 'EUR', to: 'USD', rate: 1.1, day: '2026-11-27' }]);
    const sap = plan.held.find((entry) => entry.ticker === 'SAP.DE') ?? plan.targets.find((t) => t.ticker === 'SAP.DE');
    expect(sap?.price).toBeCloseTo(220, 6);
    const text = renderPortfolioTerminal({ plan, asOf: '2026-11-27T21:00:00.000Z', demo: false }, { unicode: true });
    expect(text).toContain('NAV 21,100.00 USD');
    expect(text).toContain('FX: 1 EUR = 1.1000 USD (close of 2026-11-27)');
  });

  it('a listing whose pair has no rate is refused in one line, never taken at 1.0', async () => {
    const converted = await inBaseCurrency(ratesOf({}), listed, { base: 'USD', day: '2026-11-27' });
    expect(converted[0]!.price).toBe(200);
    const refuse = () =>
      constructPortfolio(
        input({
          holdings: { cash: 10_000, positions: [{ symbol: 'SAP.DE', quantity: 50, costBasis: null, currency: null }] },
          market: converted,
        }),
      );
    expect(refuse).toThrow(PortfolioInfeasibleError);
    expect(refuse).toThrow(
      /^SAP\.DE is in EUR and no EUR→USD rate for the as-of day was found: it cannot be valued in USD \(never at 1\.0\)$/,
    );
  });

  it('--base-currency EUR: the dollar listing is the converted one', async () => {
    const converted = await inBaseCurrency(ratesOf({ USDEUR: 0.9 }), listed, { base: 'EUR', day: '2026-11-27' });
    const plan = constructPortfolio(
      input({
        holdings: { cash: 10_000, positions: [{ symbol: 'AAPL', quantity: 10, costBasis: null, currency: null }] },
        market: converted.filter((entry) => entry.ticker === 'AAPL'),
        baseCurrency: 'EUR',
      }),
    );
    // 10 × 100 USD × 0.90 = 900 EUR, plus 10,000 EUR cash
    expect(plan.nav).toBe(10_900);
    expect(plan.baseCurrency).toBe('EUR');
    expect(plan.fx).toEqual([{ from: 'USD', to: 'EUR', rate: 0.9, day: '2026-11-27' }]);
  });
});

describe.skipIf(!hasRecordedYahoo)("the rate from the market data: Yahoo's recorded EURUSD=X", () => {
  it("the close of the book's day, through the source's own pair symbol", async () => {
    const charts: string[] = [];
    const router = createYahooRouter({
      chart: (symbol) => {
        charts.push(symbol);
        return recorded('v3-fetch-mock-cache/chart-EURUSD=X-2020-01-01-to-2020-01-03.json');
      },
    });
    const data = createMarketData({ sources: [createYahooSource({ fetch: router.fetch, retryDelayMs: 0 })] });
    const close = await data.fxRate!('EUR', 'USD', { day: '2020-01-02' });
    expect(charts).toEqual(['EURUSD=X']);
    expect(close).toMatchObject({ from: 'EUR', to: 'USD', day: '2020-01-02', vendor: 'Yahoo Finance' });
    expect(close!.rate).toBeGreaterThan(1.1);
    expect(close!.rate).toBeLessThan(1.13);
  });
});
