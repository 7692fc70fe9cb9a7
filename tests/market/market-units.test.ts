import { describe, expect, it } from 'vitest';
import { showSnapshot } from '../../src/cli/commands/market.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { createYahooRouter, hasRecordedYahoo, recorded, recordedYahooDir } from '../support/yahoo.js';

/**
 * `autohedge market OCDO.L` from the recorded London chart and quote: Yahoo quotes the
 * price in pence (GBp) and the market cap in pounds. The user and the agents see both in
 * pounds, the conversion said once, and no figure 100× off.
 */

if (!hasRecordedYahoo) console.info(`market units: no recorded Yahoo answers at ${recordedYahooDir}; skipping`);

const v3 = 'v3-fetch-mock-cache/';

describe.skipIf(!hasRecordedYahoo)('market OCDO.L, recorded: pence become pounds', () => {
  async function show(json: boolean) {
    const router = createYahooRouter({
      quote: () => recorded(`${v3}quote-OCDO.L.json`),
      chart: () => recorded(`${v3}chart-OCDO.L-2020-01-01-to-2020-01-03.json`),
    });
    const stdout: string[] = [];
    const context = {
      market: createYahooMarketData({ fetch: router.fetch, retryDelayMs: 0 }),
      asOf: new Date('2020-01-03T17:00:00Z'),
      stdout: (text: string) => void stdout.push(text),
      stderr: () => {},
      color: false,
      isTTY: false,
      columns: 80,
    };
    const snapshot = await showSnapshot('OCDO.L', { json, refresh: true }, context);
    return { snapshot, output: stdout.join('') };
  }

  it('the block and the chart: price, range and closes in pounds beside a market cap in pounds', async () => {
    const { output } = await show(false);
    expect(output).toContain('Currency: GBP (converted from GBp (pence))');
    // 308.8 pence, kept to the penny
    expect(output).toMatch(/^Last price: 3\.0880 GBP \(2025-02-17\)/m);
    expect(output).toMatch(/^Market cap: 2\.55 B GBP$/m);
    expect(output).toMatch(/^Last close: 12\.5950 GBP \(2020-01-02\)$/m);
    expect(output).toContain('prices were quoted in GBp (pence) and are shown in GBP (divided by 100)');
    expect(output).not.toMatch(/GBp\b(?! \(pence\))/);
    // every per-share figure is pounds-sized (a few pounds to a few tens), never pence-sized
    const perShare = [...output.matchAll(/(-?\d+\.\d+) GBP/g)].map((match) => Math.abs(Number(match[1])));
    expect(perShare.length).toBeGreaterThan(3);
    for (const value of perShare) expect(value).toBeLessThan(100);
  });

  it('--json: the snapshot in major units with the conversion recorded', async () => {
    const { output } = await show(true);
    const parsed = JSON.parse(output) as {
      identity: { currency: string };
      quote: { price: number; marketCap: number };
      units: unknown;
      bars: Array<{ close: number }>;
    };
    expect(parsed.identity.currency).toBe('GBP');
    expect(parsed.quote.price).toBeCloseTo(3.088, 6);
    expect(parsed.quote.marketCap).toBe(2_554_603_520);
    expect(parsed.units).toEqual({ quoted: 'GBp', currency: 'GBP', factor: 0.01 });
    expect(parsed.bars.map((bar) => bar.close)).toEqual([12.595]);
  });
});
