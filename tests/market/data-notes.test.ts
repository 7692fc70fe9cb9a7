import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { adjustedCloses, maxDrawdown, maxDrawdownWindow } from '../../src/market/indicators.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import { captureIo } from '../support/cli.js';
import { acmeRoutes, bodyOf, createYahooRouter, json, own, quoteSummaryFrom } from '../support/yahoo.js';

/**
 * `autohedge market ACME` on our own Yahoo fixtures, altered the way real data is:
 * a quote taken on a later day than the last daily bar, a $270 price with a change
 * of −1.7532, and a quoteSummary without its `price` module.
 */

const quoteDay = '2025-10-13T15:00:00Z';

function alteredQuote() {
  const body = bodyOf(own('quote-ACME.json')) as { quoteResponse: { result: Array<Record<string, unknown>> } };
  Object.assign(body.quoteResponse.result[0]!, {
    regularMarketPrice: 270,
    regularMarketChange: -1.7532,
    regularMarketTime: Date.parse(quoteDay) / 1000,
  });
  return json(body);
}

async function marketCommand(args: string[]) {
  const data = createYahooMarketData({
    retryDelayMs: 0,
    fetch: createYahooRouter(
      acmeRoutes({
        quote: alteredQuote,
        quoteSummary: (_symbol, modules) =>
          quoteSummaryFrom(
            [own('quoteSummary-ACME.json')],
            modules.filter((name) => name !== 'price'),
          ),
      }),
    ).fetch,
  });
  const io = captureIo();
  const code = await runCli(['market', 'ACME', ...args], io, {
    market: data,
    now: () => new Date('2025-10-13T16:00:00Z'),
  });
  return { code, io };
}

describe('market data notes that say what is true', () => {
  it('names the quoteSummary module that is missing and where the price comes from, instead of "no price"', async () => {
    const { code, io } = await marketCommand([]);
    expect(code).toBe(0);
    expect(io.out()).not.toMatch(/returned no price/);
    expect(io.out()).toContain(
      "- Yahoo's quoteSummary has no price module (name, exchange, market cap) for ACME; the last price comes from the quote",
    );
  });

  it('notes a same-day quote that is newer than the last daily bar', async () => {
    const { io } = await marketCommand([]);
    expect(io.out()).toContain(
      "- the quote (2025-10-13 15:00 UTC) is newer than the last daily bar (2025-10-10): last price and day change are the quote's; the technicals stop at 2025-10-10",
    );
  });

  it("a day's change uses the price's decimals", async () => {
    const { io } = await marketCommand([]);
    expect(io.out()).toMatch(/Last price: 270\.00 USD \(2025-10-13\); day change -1\.75 USD \(/);
    expect(io.out()).not.toContain('-1.7532');
  });

  it('dates the maximum drawdown by its peak and trough, which are really where the fall is', async () => {
    const { io } = await marketCommand([]);
    const line = io
      .out()
      .split('\n')
      .find((text) => text.startsWith('Max drawdown'))!;
    const match = /^Max drawdown \(1 year\): (-\d+\.\d\d) % \(peak (\d{4}-\d\d-\d\d), trough (\d{4}-\d\d-\d\d)\)$/.exec(
      line,
    );
    expect(match, line).not.toBeNull();
    const json = await marketCommand(['--json']);
    const snapshot = JSON.parse(json.io.out()) as MarketSnapshot;
    const closes = adjustedCloses(snapshot.bars).slice(-253);
    const peak = closes.find((point) => point.date === match![2])!;
    const trough = closes.find((point) => point.date === match![3])!;
    expect(peak.date < trough.date).toBe(true);
    expect((trough.value / peak.value - 1) * 100).toBeCloseTo(Number(match![1]), 2);
    expect(trough.value / peak.value - 1).toBeCloseTo(maxDrawdown(closes.map((point) => point.value))!, 12);
  });

  it('maxDrawdownWindow finds the worst fall, not the last one', () => {
    const points = ['a', 'b', 'c', 'd', 'e', 'f'].map((date, index) => ({
      date,
      value: [100, 60, 90, 120, 100, 110][index]!,
    }));
    expect(maxDrawdownWindow(points)).toEqual({ drawdown: -0.4, peak: 'a', trough: 'b' });
    expect(
      maxDrawdownWindow([
        { date: 'a', value: 1 },
        { date: 'b', value: 2 },
      ]),
    ).toBeNull();
  });
});
