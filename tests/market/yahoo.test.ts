import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataError, InterruptedError } from '../../src/errors.js';
import { type MarketLogger } from '../../src/market/index.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { Bar } from '../../src/market/types.js';
import {
  acmeRoutes,
  bodyOf,
  createYahooRouter,
  fixtureCrumb,
  json,
  own,
  quoteSummaryFrom,
  type RouterRoutes,
} from '../support/yahoo.js';

/**
 * The whole path on our own fixtures (tests/fixtures/market, see generate.mjs): the
 * real yahoo-finance2 client, its cookie + crumb handshake and its validation, over an
 * injected fetch. These always run; the recorded-traffic twin is yahoo-recorded.test.ts.
 */

const asOf = new Date('2025-10-10T21:00:00Z');

function recordingLogger() {
  const lines = { debug: [] as string[], warn: [] as string[] };
  const logger: MarketLogger = {
    debug: (message) => lines.debug.push(message),
    warn: (message) => lines.warn.push(message),
  };
  return { logger, lines };
}

function market(routes: RouterRoutes, extra: Parameters<typeof createYahooMarketData>[0] = {}) {
  const router = createYahooRouter(routes);
  const { logger, lines } = recordingLogger();
  const data = createYahooMarketData({ fetch: router.fetch, logger, retryDelayMs: 0, ...extra });
  return { router, market: data, lines };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('snapshot from our own fixtures', () => {
  it('negotiates the session, then asks for quote, quoteSummary and one year of daily bars', async () => {
    const { router, market: data } = market(acmeRoutes());
    await data.snapshot('acme', { asOf });

    // The handshake comes first for the quote and quoteSummary (the chart needs no session and may overtake it).
    const handshake = router.requests.filter((request) => !router.dataRequests().includes(request));
    expect(handshake).toMatchObject([
      { url: 'https://finance.yahoo.com/quote/AAPL', redirect: 'manual' },
      { url: 'https://query1.finance.yahoo.com/v1/test/getcrumb', cookie: 'A3=fixture-session' },
    ]);
    const getCrumbAt = router.requests.indexOf(handshake[1]!);
    for (const request of router.dataRequests().filter((data) => data.url.includes('crumb='))) {
      expect(router.requests.indexOf(request)).toBeGreaterThan(getCrumbAt);
    }

    const period1 = Math.floor(asOf.getTime() / 1000) - 372 * 86_400;
    const period2 = Math.floor(asOf.getTime() / 1000);
    expect(
      router
        .dataRequests()
        .map((request) => request.url)
        .sort(),
    ).toEqual([
      `https://query2.finance.yahoo.com/v10/finance/quoteSummary/ACME?formatted=false&modules=price%2CsummaryDetail%2CdefaultKeyStatistics%2CfinancialData%2CassetProfile&crumb=fixture-crumb`,
      `https://query2.finance.yahoo.com/v7/finance/quote?symbols=ACME&crumb=fixture-crumb`,
      `https://query2.finance.yahoo.com/v8/finance/chart/ACME?useYfid=true&interval=1d&includePrePost=true&events=div%7Csplit%7Cearn&lang=en-US&period1=${period1}&period2=${period2}`,
    ]);
    // quote and quoteSummary carry the session cookie; the chart needs none
    for (const request of router.dataRequests()) {
      expect(request.cookie).toBe(request.url.includes('/chart/') ? '' : 'A3=fixture-session');
    }
  });

  it('keeps one session per MarketData: reused by its next snapshot, never borrowed by another instance', async () => {
    const first = market(acmeRoutes({ getCrumb: () => ({ ...fixtureCrumb, body: 'crumb-one' }) }));
    await first.market.snapshot('ACME', { asOf });
    await first.market.snapshot('ACME', { asOf });
    const crumbRequests = (router: typeof first.router) =>
      router.requests.filter((request) => request.url.endsWith('/v1/test/getcrumb'));
    expect(crumbRequests(first.router)).toHaveLength(1);
    expect(first.router.dataRequests().filter((request) => request.url.includes('crumb=crumb-one'))).toHaveLength(4);

    // yahoo-finance2 memoises the crumb process-wide; a second instance must still negotiate its own.
    const second = market(acmeRoutes({ getCrumb: () => ({ ...fixtureCrumb, body: 'crumb-two' }) }));
    await second.market.snapshot('ACME', { asOf });
    expect(crumbRequests(second.router)).toHaveLength(1);
    const quote = second.router.dataRequests().find((request) => request.url.includes('/v7/finance/quote'));
    expect(quote).toMatchObject({
      url: 'https://query2.finance.yahoo.com/v7/finance/quote?symbols=ACME&crumb=crumb-two',
      cookie: 'A3=fixture-session',
    });

    // and the first instance goes on with its own crumb, from its own jar, without a new handshake
    await first.market.snapshot('ACME', { asOf });
    expect(crumbRequests(first.router)).toHaveLength(1);
    expect(first.router.dataRequests().filter((request) => request.url.includes('crumb=crumb-one'))).toHaveLength(6);
  });

  it('sends the three data requests concurrently', async () => {
    const arrived = new Set<string>();
    let release!: () => void;
    const allArrived = new Promise<void>((resolve) => (release = resolve));
    const gate = (name: string, body: () => ReturnType<typeof own>) => async () => {
      arrived.add(name);
      if (arrived.size === 3) release();
      // Each answer waits until all three requests are in flight; sequential requests would deadlock (and time out).
      await Promise.race([
        allArrived,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`only ${[...arrived].join(', ')} in flight`)), 2_000),
        ),
      ]);
      const response = body();
      return new Response(response.body, { status: response.status, headers: { 'content-type': 'application/json' } });
    };
    const { market: data } = market(
      acmeRoutes({
        quote: () => gate('quote', () => own('quote-ACME.json')),
        quoteSummary: (_symbol, modules) =>
          gate('quoteSummary', () => quoteSummaryFrom([own('quoteSummary-ACME.json')], modules)),
        chart: () => gate('chart', () => own('chart-ACME.json')),
      }),
      { retries: 0 },
    );
    const snapshot = await data.snapshot('ACME', { asOf });
    expect(arrived).toEqual(new Set(['quote', 'quoteSummary', 'chart']));
    expect(snapshot.quote.price).toBe(106.25);
  });

  it('assembles identity, quote statistics, bars and indicators', async () => {
    const { market: data } = market(acmeRoutes());
    const snapshot = await data.snapshot('ACME', { asOf });

    expect(snapshot.symbol).toBe('ACME');
    expect(snapshot.asOf).toBe('2025-10-10T21:00:00.000Z');
    expect(snapshot.source).toBe('yahoo');
    expect(snapshot.identity).toEqual({
      symbol: 'ACME',
      name: 'Acme Corporation',
      exchange: 'NasdaqGS',
      currency: 'USD',
      quoteType: 'EQUITY',
      sector: 'Industrials',
      industry: 'Specialty Industrial Machinery',
    });
    const quote = (bodyOf(own('quote-ACME.json')) as { quoteResponse: { result: Array<Record<string, number>> } })
      .quoteResponse.result[0]!;
    expect(snapshot.quote).toEqual({
      price: 106.25,
      priceTime: '2025-10-10T20:00:00.000Z',
      change: quote.regularMarketChange,
      changePercent: quote.regularMarketChangePercent,
      marketCap: 12_500_000_000,
      trailingPE: 21.4,
      forwardPE: 18.2,
      // beta is not in the v7 quote: it comes from quoteSummary.summaryDetail
      beta: 1.15,
      fiftyTwoWeekHigh: quote.fiftyTwoWeekHigh,
      fiftyTwoWeekLow: quote.fiftyTwoWeekLow,
      averageVolume: 1_300_000,
      // summaryDetail's fraction, not the v7 quote's percent (1.1)
      dividendYield: 0.011,
      targetMeanPrice: 140.5,
      recommendation: 'buy (mean 2.10 on 1 = strong buy … 5 = sell; 12 analysts)',
      profitMargin: 0.18,
      revenueGrowth: 0.07,
      debtToEquity: 85.5,
      // The v7 quote's earningsTimestamp, as the day `watch` compares with a call's.
      earningsDate: null,
    });

    // 262 sessions dated in New York time, the halted one kept as a bar of nulls
    expect(snapshot.bars).toHaveLength(262);
    expect(snapshot.bars.at(-1)).toEqual<Bar>({
      date: '2025-10-10',
      open: 106.03,
      high: 107.31,
      low: 105.19,
      close: 106.25,
      adjClose: 106.25,
      volume: 1_200_000,
    });
    expect(snapshot.bars.filter((bar) => bar.close === null)).toHaveLength(1);
    expect(snapshot.indicators.asOfBar).toBe('2025-10-10');
    expect(snapshot.indicators.lastClose).toBe(106.25);
    expect(snapshot.indicators.sma200).not.toBeNull();
    expect(snapshot.indicators.returns.y1).not.toBeNull();
    expect(snapshot.warnings).toEqual(['1 session(s) without a price were skipped']);
    expect(snapshot.text.split('\n')[0]).toBe('MARKET DATA — ACME (Acme Corporation), as of 2025-10-10');
    expect(snapshot.text).toContain('Last close: 106.25 USD (2025-10-10)');
    expect(snapshot.text).toContain('Market cap: 12.50 B USD');
  });

  it('writes nothing to the console or stderr, and drops the library’s notices and Node warning', async () => {
    const writes: unknown[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'dir'] as const) {
      vi.spyOn(console, method).mockImplementation((...values: unknown[]) => void writes.push([method, ...values]));
    }
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      writes.push(['stderr', chunk]);
      return true;
    });
    const ok = market(acmeRoutes());
    await ok.market.snapshot('ACME', { asOf });
    // an HTML error page is the case where yahoo-finance2 itself calls console.error(url)
    const htmlError = market(
      acmeRoutes({
        chart: () => ({ status: 404, statusText: 'Not Found', contentType: 'text/html', body: '<html>gone</html>' }),
      }),
    );
    await expect(htmlError.market.snapshot('ACME', { asOf })).rejects.toThrow(
      'could not reach Yahoo Finance (HTTP 404 Not Found)',
    );
    const down = market(
      acmeRoutes({ chart: () => new TypeError('fetch failed'), quote: () => new TypeError('fetch failed') }),
    );
    await expect(down.market.snapshot('ACME', { asOf })).rejects.toThrow(DataError);
    vi.restoreAllMocks();

    expect(writes).toEqual([]);
    const debug = [...ok.lines.debug, ...htmlError.lines.debug, ...down.lines.debug].join('\n');
    expect(debug).not.toMatch(/Unsupported environment|survey|suppress this message/i);
    expect(debug).not.toContain('fixture-crumb');
    expect(debug).toContain('yahoo-finance2: New crumb: REDACTED');
    expect(ok.lines.warn).toEqual([]);
  });
});

describe('partial data', () => {
  it('asks module by module when the combined quoteSummary fails, keeping what Yahoo has (an ETF has no profile)', async () => {
    const noFundamentals = (modules: string[]) =>
      json(
        {
          quoteSummary: {
            result: null,
            error: {
              code: 'Not Found',
              description: `No fundamentals data found for any of the summaryTypes=${modules.join(',')}`,
            },
          },
        },
        404,
        'Not Found',
      );
    const { router, market: data } = market(
      acmeRoutes({
        quoteSummary: (_symbol, modules) =>
          modules.length > 1 || modules[0] === 'assetProfile' || modules[0] === 'financialData'
            ? noFundamentals(modules)
            : quoteSummaryFrom([own('quoteSummary-ACME.json')], modules),
      }),
    );
    const snapshot = await data.snapshot('ACME', { asOf });
    const summaryRequests = router.dataRequests().filter((request) => request.url.includes('quoteSummary'));
    expect(summaryRequests.map((request) => new URL(request.url).searchParams.get('modules'))).toEqual([
      'price,summaryDetail,defaultKeyStatistics,financialData,assetProfile',
      'price',
      'summaryDetail',
      'defaultKeyStatistics',
      'financialData',
      'assetProfile',
    ]);
    expect(snapshot.quote.beta).toBe(1.15);
    expect(snapshot.quote.targetMeanPrice).toBeNull();
    expect(snapshot.identity.sector).toBeNull();
    expect(snapshot.warnings).toContain(
      "Yahoo's quoteSummary has no financial data (margins, growth, analyst target); company profile (sector, industry) for ACME",
    );
    expect(snapshot.text).toContain(
      'Sector: not available — do not estimate | Industry: not available — do not estimate',
    );
    expect(snapshot.text).toContain('Analyst mean target: not available — do not estimate');
  });

  it('keeps the snapshot when quoteSummary is unreachable but quote and chart work', async () => {
    const { market: data } = market(
      acmeRoutes({ quoteSummary: () => ({ status: 503, statusText: 'Service Unavailable', body: 'busy' }) }),
    );
    const snapshot = await data.snapshot('ACME', { asOf });
    expect(snapshot.quote.price).toBe(106.25);
    expect(snapshot.quote.beta).toBeNull();
    expect(snapshot.quote.profitMargin).toBeNull();
    expect(snapshot.warnings).toContain(
      'key statistics and company profile unavailable (HTTP 503 Service Unavailable)',
    );
    expect(snapshot.text).toContain('Beta (vs market): not available — do not estimate');
  });

  it('falls back to the chart when the session cannot be had, and recovers on the next snapshot', async () => {
    let crumbFails = true;
    const { market: data } = market(
      acmeRoutes({
        getCrumb: () =>
          crumbFails ? { status: 500, statusText: 'Internal Server Error', body: 'oops' } : fixtureCrumb,
      }),
    );
    const degraded = await data.snapshot('ACME', { asOf });
    expect(degraded.quote.price).toBe(106.25); // chart meta
    expect(degraded.identity.name).toBe('Acme Corporation');
    expect(degraded.quote.marketCap).toBeNull();
    expect(degraded.warnings).toEqual([
      'quote unavailable (HTTP 500 Internal Server Error); price and identity come from the chart',
      'key statistics and company profile unavailable (HTTP 500 Internal Server Error)',
      '1 session(s) without a price were skipped',
    ]);

    // yahoo-finance2 caches a failed handshake for the life of the process unless we reset it
    crumbFails = false;
    const recovered = await data.snapshot('ACME', { asOf });
    expect(recovered.quote.marketCap).toBe(12_500_000_000);
    expect(recovered.warnings).toEqual(['1 session(s) without a price were skipped']);
  });

  it("uses the raw result when yahoo-finance2's schema validation rejects Yahoo's answer, and says so", async () => {
    const body = bodyOf(own('quote-ACME.json')) as { quoteResponse: { result: Array<Record<string, unknown>> } };
    // Yahoo dropping required fields is what breaks the library's schema in the wild
    delete body.quoteResponse.result[0]!.language;
    delete body.quoteResponse.result[0]!.exchangeTimezoneName;
    const { market: data, lines } = market(acmeRoutes({ quote: () => json(body) }));
    const snapshot = await data.snapshot('ACME', { asOf });
    expect(snapshot.quote.price).toBe(106.25);
    // only the v7 quote carries the day's change in this fixture: it was read from the raw result
    expect(snapshot.quote.changePercent).toBe(body.quoteResponse.result[0]!.regularMarketChangePercent);
    expect(snapshot.quote.changePercent).not.toBeNull();
    expect(snapshot.warnings).toContain(
      "Yahoo's quote response did not match the expected schema; its raw values were used",
    );
    expect(snapshot.warnings.join('\n')).not.toContain('unusable');
    expect(lines.warn).toEqual([]);
  });

  it('notes a quote that is newer than the as-of date (Yahoo serves only the current quote)', async () => {
    const { market: data } = market(acmeRoutes());
    const snapshot = await data.snapshot('ACME', { asOf: new Date('2025-09-30T21:00:00Z') });
    expect(snapshot.bars.at(-1)?.date).toBe('2025-09-30');
    expect(snapshot.warnings).toContain(
      "the quote and key statistics are Yahoo's values of 2025-10-10, after the as-of date 2025-09-30; the daily bars and technicals stop at 2025-09-30",
    );
  });
});

describe('cancellation and time-outs', () => {
  it('a caller abort ends the snapshot with InterruptedError', async () => {
    const controller = new AbortController();
    const hang = () => (request: Request) =>
      new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
        controller.abort();
      });
    const { market: data } = market(acmeRoutes({ chart: hang }));
    await expect(data.snapshot('ACME', { asOf, signal: controller.signal })).rejects.toBeInstanceOf(InterruptedError);
  });

  it('a request that never answers times out, is retried, then is a DataError', async () => {
    let attempts = 0;
    const hang = () => (request: Request) =>
      new Promise<Response>((_, reject) => {
        attempts += 1;
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    const { market: data } = market(acmeRoutes({ chart: hang }), { timeoutMs: 30, retries: 1 });
    const error = await data.snapshot('ACME', { asOf }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).kind).toBe('unreachable');
    expect((error as DataError).message).toBe('could not reach Yahoo Finance (timed out after 0.03 s)');
    expect(attempts).toBe(2);
  });
});
