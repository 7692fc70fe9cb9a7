import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import { acmeRoutes, bodyOf, createYahooRouter, own } from './support/yahoo-router.js';

const nyse = exchangeCalendar('XNYS');

/** A snapshot as of a past close, through the real client against the loopback Yahoo stand-in. */

const asOfDay = '2025-06-02';
const asOf = nyse.closeAt(asOfDay);

interface ChartBody {
  chart: {
    result: Array<{
      timestamp: number[];
      meta: { gmtoffset: number };
      indicators: { quote: Array<{ close: number[] }> };
    }>;
  };
}

/** The fixture's close of a day, read straight from the raw chart body. */
function fixtureClose(day: string): number {
  const result = (bodyOf(own('chart-ACME.json')) as ChartBody).chart.result[0]!;
  const index = result.timestamp.findIndex(
    (stamp) => new Date((stamp + result.meta.gmtoffset) * 1000).toISOString().slice(0, 10) === day,
  );
  return result.indicators.quote[0]!.close[index]!;
}

describe('historical snapshot (--as-of)', () => {
  it('asks for no chart period beyond the as-of close; bars and price end at that session', async () => {
    const router = createYahooRouter(acmeRoutes());
    const market = createYahooMarketData({ fetch: router.fetch });
    const snapshot = await market.snapshot('ACME', { asOf, historical: true });

    const chart = router.dataRequests().find((request) => request.url.includes('/v8/finance/chart/'))!;
    const period2 = Number(new URL(chart.url).searchParams.get('period2'));
    expect(period2 * 1000).toBeLessThanOrEqual(asOf.getTime());
    expect(snapshot.bars.at(-1)!.date).toBe(asOfDay);
    expect(snapshot.bars.every((bar) => bar.date <= asOfDay)).toBe(true);
    expect(snapshot.indicators.asOfBar).toBe(asOfDay);
    expect(snapshot.quote.price).toBe(fixtureClose(asOfDay));
    expect(snapshot.quote.priceTime).toBe('2025-06-02T20:00:00.000Z');
  });

  it("drops Yahoo's today-only statistics and says so to the agents", async () => {
    const router = createYahooRouter(acmeRoutes());
    const live = await createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf });
    const historical = await createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', {
      asOf,
      historical: true,
    });
    // The live snapshot of the same day has them (the fixture is a full quote)…
    expect(live.quote.marketCap).not.toBeNull();
    expect(live.quote.trailingPE).not.toBeNull();
    // …the historical one does not.
    for (const field of [
      'marketCap',
      'trailingPE',
      'forwardPE',
      'beta',
      'dividendYield',
      'targetMeanPrice',
      'recommendation',
      'profitMargin',
      'revenueGrowth',
      'debtToEquity',
      'fiftyTwoWeekHigh',
      'fiftyTwoWeekLow',
      'averageVolume',
    ] as const) {
      expect(historical.quote[field], field).toBeNull();
    }
    expect(historical.text).toContain('Market cap: not available — do not estimate');
    expect(historical.text).toContain(`historical run as of the ${asOfDay} close`);
    expect(historical.text).not.toContain('after the as-of date');
    // Identity is not a statistic: the name stays.
    expect(historical.identity.name).toBe(live.identity.name);
  });

  it('a day change computed from the last two bars', async () => {
    const router = createYahooRouter(acmeRoutes());
    const snapshot = await createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf, historical: true });
    const [previous, last] = snapshot.bars.slice(-2);
    expect(snapshot.quote.change).toBeCloseTo(last!.close! - previous!.close!, 10);
    expect(snapshot.quote.changePercent).toBeCloseTo(((last!.close! - previous!.close!) / previous!.close!) * 100, 10);
  });

  it('cached apart from a live snapshot of the same day', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'autohedge-cache-'));
    const router = createYahooRouter(acmeRoutes());
    const market = createYahooMarketData({
      fetch: router.fetch,
      cacheDir,
      now: () => new Date('2025-06-10T12:00:00Z'),
    });
    await market.snapshot('ACME', { asOf, historical: true });
    expect(readdirSync(join(cacheDir, 'market', 'ACME'))).toEqual(['2025-06-02.historical.json']);
    const live = await market.snapshot('ACME', { asOf });
    expect(live.quote.marketCap).not.toBeNull();
    expect(readdirSync(join(cacheDir, 'market', 'ACME')).sort()).toEqual([
      '2025-06-02.historical.json',
      '2025-06-02.json',
    ]);
    const requestsBefore = router.dataRequests().length;
    const again = await market.snapshot('ACME', { asOf, historical: true });
    expect(again.source).toBe('cache');
    expect(again.quote.marketCap).toBeNull();
    expect(router.dataRequests()).toHaveLength(requestsBefore);
  });

  it('bars(): one chart request for a span of days, inclusive, no session handshake needed', async () => {
    const router = createYahooRouter(acmeRoutes());
    const bars = await createYahooMarketData({ fetch: router.fetch }).bars!('ACME', {
      from: '2025-05-28',
      to: '2025-06-04',
    });
    expect(bars.map((bar) => bar.date)).toEqual([
      '2025-05-28',
      '2025-05-29',
      '2025-05-30',
      '2025-06-02',
      '2025-06-03',
      '2025-06-04',
    ]);
    const charts = router.dataRequests().filter((request) => request.url.includes('/v8/finance/chart/'));
    expect(charts).toHaveLength(1);
    expect(router.dataRequests()).toHaveLength(1);
  });
});
