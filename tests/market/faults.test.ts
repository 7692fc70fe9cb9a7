import { describe, expect, it } from 'vitest';
import { DataError, ExitCode, UsageError } from '../../src/errors.js';
import { validateTicker } from '../../src/market/index.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import {
  acmeRoutes,
  createYahooRouter,
  hasRecordedYahoo,
  json,
  own,
  recorded,
  recordedYahooDir,
} from '../support/yahoo.js';
import { closedPort } from '../support/local-server.js';

/** Every bad input and fault is one defined outcome with one exact message. */

const asOf = new Date('2025-10-10T21:00:00Z');

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the snapshot to fail');
}

function expectDataError(error: Error, kind: DataError['kind'], message: string) {
  expect(error).toBeInstanceOf(DataError);
  expect((error as DataError).kind).toBe(kind);
  expect(error.message).toBe(message);
}

describe('malformed symbols are usage errors before any request', () => {
  it.each([
    [
      'QQQ,',
      "invalid ticker 'QQQ,': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    ],
    [
      'AAPL MSFT',
      "invalid ticker 'AAPL MSFT': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    ],
    [
      '',
      "invalid ticker '': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    ],
    [
      '../etc/passwd',
      "invalid ticker '../etc/passwd': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    ],
    [
      'ABCDEFGHIJKLMNOP',
      "invalid ticker 'ABCDEFGHIJKLMNOP': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    ],
  ])('%j', async (ticker, message) => {
    const router = createYahooRouter(acmeRoutes());
    const market = createYahooMarketData({ fetch: router.fetch });
    const error = await failure(market.snapshot(ticker, { asOf }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(message);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect(router.requests).toEqual([]);
  });

  it('accepts share classes, indices, currencies and lower case', () => {
    expect(['BRK-B', 'BRK.B', '^GSPC', 'EURUSD=X', 'aapl', ' sap.de ', 'ES=F'].map(validateTicker)).toEqual([
      'BRK-B',
      'BRK.B',
      '^GSPC',
      'EURUSD=X',
      'AAPL',
      'SAP.DE',
      'ES=F',
    ]);
  });
});

describe('unknown symbols', () => {
  const delisted = () =>
    json(
      { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } },
      404,
      'Not Found',
    );

  it("an empty quote result is DataError: unknown ticker 'XYZ'", async () => {
    const router = createYahooRouter(
      acmeRoutes({ quote: () => json({ quoteResponse: { result: [], error: null } }), chart: delisted }),
    );
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('XYZ', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'XYZ'");
    expect((error as DataError).exitCode).toBe(ExitCode.usage);
  });

  it('a 404 "No data found" chart is an unknown ticker even when a quote exists', async () => {
    const router = createYahooRouter(acmeRoutes({ chart: delisted }));
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'ACME'");
  });

  it('a delisted quote (quoteType NONE) counts as unknown', async () => {
    const body = {
      quoteResponse: {
        result: [{ ...(JSON.parse(own('quote-ACME.json').body).quoteResponse.result[0] as object), quoteType: 'NONE' }],
        error: null,
      },
    };
    const router = createYahooRouter(acmeRoutes({ quote: () => json(body), chart: delisted }));
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'ACME'");
  });
});

describe.skipIf(!hasRecordedYahoo)(`unknown symbols, recorded Yahoo answers (${recordedYahooDir})`, () => {
  it("quote for NONEXIST (200, empty result) with the recorded delisted chart → unknown ticker 'NONEXIST'", async () => {
    const router = createYahooRouter({
      quote: () => recorded('v2-fetchDevel/quoteCombine-NONEXIST.json'),
      quoteSummary: () => recorded('v2-fetchDevel/quoteSummary-assetProfile-QQQ,.json'),
      chart: () => recorded('v2-fetchDevel/historical-via-chart-SI-2020-01-01-to-2020-01-03.json'),
    });
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('NONEXIST', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'NONEXIST'");
  });

  it('the recorded 404 "Quote not found for ticker symbol" is an unknown ticker', async () => {
    const router = createYahooRouter(
      acmeRoutes({ getCrumb: undefined, quote: () => recorded('v2-fetchDevel/quoteSummary-assetProfile-QQQ,.json') }),
    );
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('QQQ', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'QQQ'");
    expect((error.cause as Error).message).toBe('Quote not found for ticker symbol: QQQ,');
  });

  it('the recorded 404 chart "No data found, symbol may be delisted" is an unknown ticker', async () => {
    const router = createYahooRouter(
      acmeRoutes({
        getCrumb: undefined,
        chart: () => recorded('v2-fetchDevel/historical-via-chart-SI-2020-01-01-to-2020-01-03.json'),
      }),
    );
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('SI', { asOf }));
    expectDataError(error, 'unknown-ticker', "unknown ticker 'SI'");
    expect((error.cause as Error).message).toBe('No data found, symbol may be delisted');
  });

  it('the recorded 404 "No fundamentals data found" only empties the fundamentals', async () => {
    const router = createYahooRouter(
      acmeRoutes({
        getCrumb: undefined,
        quoteSummary: () => recorded('v3-fetch-mock-cache/quoteSummary-assetProfile-ADH.json'),
      }),
    );
    const snapshot = await createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf });
    expect(snapshot.quote.price).toBe(106.25);
    expect(snapshot.warnings).toContain(
      'key statistics and company profile unavailable (No fundamentals data found for any of the summaryTypes=assetProfile)',
    );
  });
});

describe('Yahoo out of reach', () => {
  it('network down: every request refused, retried, then "could not reach Yahoo Finance (connection refused)"', async () => {
    const port = await closedPort();
    const attempts = new Map<string, number>();
    // Real fetch, real socket error: every Yahoo URL is sent to a closed local port.
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      attempts.set(url.pathname, (attempts.get(url.pathname) ?? 0) + 1);
      return globalThis.fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
    };
    const error = await failure(
      createYahooMarketData({ fetch, retries: 2, retryDelayMs: 0 }).snapshot('ACME', { asOf }),
    );
    expectDataError(error, 'unreachable', 'could not reach Yahoo Finance (connection refused)');
    expect((error as DataError).exitCode).toBe(ExitCode.failed);
    expect(attempts.get('/v8/finance/chart/ACME')).toBe(3);
    expect(attempts.get('/quote/AAPL')).toBe(3);
  });

  it('5xx on every attempt: "could not reach Yahoo Finance (HTTP 503 Service Unavailable)"', async () => {
    const unavailable = {
      status: 503,
      statusText: 'Service Unavailable',
      contentType: 'text/html',
      body: '<html>busy</html>',
    };
    const router = createYahooRouter({
      cookiePage: () => unavailable,
      getCrumb: () => unavailable,
      quote: () => unavailable,
      quoteSummary: () => unavailable,
      chart: () => unavailable,
    });
    const error = await failure(
      createYahooMarketData({ fetch: router.fetch, retries: 2, retryDelayMs: 0 }).snapshot('ACME', { asOf }),
    );
    expectDataError(error, 'unreachable', 'could not reach Yahoo Finance (HTTP 503 Service Unavailable)');
    expect(router.requests.filter((request) => request.url.includes('/v8/finance/chart/ACME'))).toHaveLength(3);
  });

  it('429 after retries names the rate limit', async () => {
    const limited = {
      status: 429,
      statusText: 'Too Many Requests',
      contentType: 'text/plain',
      body: 'Too Many Requests',
    };
    const router = createYahooRouter(
      acmeRoutes({ quote: () => limited, quoteSummary: () => limited, chart: () => limited }),
    );
    const error = await failure(
      createYahooMarketData({ fetch: router.fetch, retries: 1, retryDelayMs: 0 }).snapshot('ACME', { asOf }),
    );
    expectDataError(error, 'unreachable', 'could not reach Yahoo Finance (HTTP 429 Too Many Requests)');
  });

  it('a 5xx that clears within the retries is invisible', async () => {
    let chartAttempts = 0;
    const router = createYahooRouter(
      acmeRoutes({
        chart: () => {
          chartAttempts += 1;
          return chartAttempts < 3 ? { status: 502, statusText: 'Bad Gateway', body: '' } : own('chart-ACME.json');
        },
      }),
    );
    const snapshot = await createYahooMarketData({ fetch: router.fetch, retries: 2, retryDelayMs: 0 }).snapshot(
      'ACME',
      { asOf },
    );
    expect(chartAttempts).toBe(3);
    expect(snapshot.indicators.lastClose).toBe(106.25);
  });

  it('a chart Yahoo answers with something else than a chart is DataError invalid', async () => {
    const router = createYahooRouter(acmeRoutes({ chart: () => json({ chart: { result: [] } }) }));
    const error = await failure(createYahooMarketData({ fetch: router.fetch }).snapshot('ACME', { asOf }));
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).kind).toBe('invalid');
    expect(error.message).toMatch(/^unexpected response from Yahoo Finance for 'ACME' \(.+\)$/);
  });
});
