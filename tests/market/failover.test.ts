import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/errors.js';
import { createMarketData } from '../../src/market/service.js';
import { createSource as createTiingoSource } from '../../src/market/sources/tiingo/index.js';
import { createYahooSource } from '../../src/market/sources/yahoo/index.js';
import type { MarketSource } from '../../src/market/source.js';
import { acmeRoutes, createYahooRouter, type FixtureResponse } from '../support/yahoo.js';

/**
 * The failover the user is told about: the first source rate-limited (429) or answering
 * an HTML page with HTTP 200, the second source's daily bars serve the whole window,
 * and the data notes and the agents' block say so. One vendor per window, never spliced.
 */

const asOf = new Date('2025-10-10T21:00:00Z');

const rateLimited: FixtureResponse = { status: 429, statusText: 'Too Many Requests', body: 'slow down' };
const htmlPage: FixtureResponse = {
  status: 200,
  statusText: 'OK',
  contentType: 'text/html; charset=utf-8',
  body: '<!doctype html><html><body>Will be right back…</body></html>',
};

/** A year of Tiingo rows ending on the as-of day: every weekday at 100 + its index. */
function tiingoRows(): string {
  const rows: Array<Record<string, number | string>> = [];
  for (let day = new Date('2024-10-01T00:00:00Z'); day <= asOf; day = new Date(day.getTime() + 86_400_000)) {
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const close = 100 + rows.length / 10;
    rows.push({
      date: day.toISOString(),
      open: close,
      high: close + 1,
      low: close - 1,
      close,
      volume: 1000,
      adjClose: close,
      splitFactor: 1,
    });
  }
  return JSON.stringify(rows);
}

function tiingo(answer: () => Response): { source: MarketSource; urls: string[] } {
  const urls: string[] = [];
  const source = createTiingoSource({
    apiKey: 'tiingo-test-key-0123456789',
    retryDelayMs: 0,
    fetch: async (input) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return answer();
    },
  });
  return { source, urls };
}

const tiingoAnswer = () => new Response(tiingoRows(), { status: 200, headers: { 'content-type': 'application/json' } });

function yahooAnswering(response: FixtureResponse) {
  const router = createYahooRouter(
    acmeRoutes({ quote: () => response, quoteSummary: () => response, chart: () => response }),
  );
  return { router, source: createYahooSource({ fetch: router.fetch, retryDelayMs: 0 }) };
}

describe.each([
  ['rate-limited (HTTP 429)', rateLimited, /HTTP 429/],
  ['an HTML page with HTTP 200', htmlPage, /unexpected response from Yahoo Finance.*HTML page/],
])('the first source %s', (_name, response, reason) => {
  it('the second source serves every bar of the window, and the notes and the block say so', async () => {
    const yahoo = yahooAnswering(response);
    const second = tiingo(tiingoAnswer);
    const market = createMarketData({ sources: [yahoo.source, second.source] });
    const snapshot = await market.snapshot('ACME', { asOf });

    expect(snapshot.vendors).toEqual({
      bars: { vendor: 'tiingo', label: 'Tiingo', shortLabel: 'Tiingo', cached: false },
      quote: null,
      profile: null,
    });
    expect(snapshot.source).toBe('tiingo');
    // Tiingo's bars are on the window's last session's split basis: the fundamentals must not split them again.
    expect(snapshot.splitBasis).toBe('as-traded');
    expect(second.urls).toHaveLength(1);
    // one window, one vendor: every bar is Tiingo's (100 + n/10), none a zero from an HTML page
    expect(snapshot.bars.length).toBeGreaterThan(250);
    expect(snapshot.bars.every((bar) => bar.close !== null && bar.close >= 100)).toBe(true);
    expect(snapshot.quote.price).toBe(snapshot.bars.at(-1)!.close);
    const note = snapshot.warnings[0]!;
    expect(note).toMatch(/^Yahoo Finance could not be used \(/);
    expect(note).toMatch(reason);
    expect(note).toMatch(/Tiingo served instead: its daily bars only, all from that one vendor/);
    expect(snapshot.text).toContain('Source: Tiingo (daily bars only; no quote, key statistics or profile).');
    expect(snapshot.text).toContain(`- ${note}`);
    expect(snapshot.text).not.toMatch(/Source: Yahoo/);
  });

  it('with no second source, the first one’s failure is the error, as before', async () => {
    const market = createMarketData({ sources: [yahooAnswering(response).source] });
    const failure = await market.snapshot('ACME', { asOf }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DataError);
    expect((failure as Error).message).toMatch(reason);
  });

  it('evaluate’s bars fail over the same way, one vendor for the window', async () => {
    const warnings: string[] = [];
    const market = createMarketData({
      sources: [yahooAnswering(response).source, tiingo(tiingoAnswer).source],
      logger: { debug: () => {}, warn: (line) => warnings.push(line) },
    });
    const bars = await market.bars!('ACME', { from: '2025-09-01', to: '2025-10-10' });
    expect(bars[0]!.date).toBe('2025-09-01');
    expect(bars.every((bar) => bar.close! >= 100)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/^Yahoo Finance could not be used .*; Tiingo served instead$/)]);
  });
});

describe('the failover source itself', () => {
  it('an HTML page with HTTP 200 from Tiingo is an unexpected response, never a row of zero prices', async () => {
    const html = tiingo(() => new Response(htmlPage.body, { status: 200, headers: { 'content-type': 'text/html' } }));
    const failure = await html.source.bars!({ ticker: 'ACME', from: '2025-10-01', to: '2025-10-10' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DataError);
    expect((failure as DataError).kind).toBe('invalid');
    expect((failure as Error).message).toBe("unexpected response from Tiingo for 'ACME' (an HTML page with HTTP 200)");
  });

  it('an unknown ticker at the first source is final: no failover', async () => {
    const router = createYahooRouter(
      acmeRoutes({
        quote: () => ({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ quoteResponse: { result: [], error: null } }),
        }),
      }),
    );
    const second = tiingo(tiingoAnswer);
    const market = createMarketData({
      sources: [createYahooSource({ fetch: router.fetch, retryDelayMs: 0 }), second.source],
    });
    const failure = await market.snapshot('NOPE', { asOf }).catch((error: unknown) => error);
    expect((failure as DataError).kind).toBe('unknown-ticker');
    expect(second.urls).toEqual([]);
  });
});
