import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { snapshotTextBudgetChars } from '../../src/market/snapshot-text.js';
import type { MarketSnapshot } from '../../src/market/types.js';
import {
  bodyOf,
  createYahooRouter,
  hasRecordedYahoo,
  quoteSummaryFrom,
  recorded,
  recordedYahooDir,
  type RouterRoutes,
} from '../support/yahoo.js';

/**
 * Conformance against real Yahoo answers recorded by public projects
 * (../shared/fixtures/recorded/yahoo, see its MANIFEST.md), replayed through the real
 * yahoo-finance2 client over an injected fetch. Skipped when that folder is absent.
 */

if (!hasRecordedYahoo)
  console.info(`market: recorded Yahoo fixtures not found at ${recordedYahooDir}; skipping the recorded-traffic tests`);

const rs = 'yfinance-rs-2025-10-10/';
const v3 = 'v3-fetch-mock-cache/';

function snapshotWith(routes: RouterRoutes, symbol: string, asOf: Date) {
  const router = createYahooRouter(routes);
  const debug: string[] = [];
  const market = createYahooMarketData({
    fetch: router.fetch,
    retryDelayMs: 0,
    logger: { debug: (line) => debug.push(line), warn: (line) => debug.push(`warn: ${line}`) },
  });
  return { router, debug, result: market.snapshot(symbol, { asOf }) };
}

interface RawChart {
  chart: {
    result: Array<{
      timestamp: number[];
      indicators: {
        quote: Array<{ close: Array<number | null> }>;
        adjclose: Array<{ adjclose: Array<number | null> }>;
      };
    }>;
  };
}

function underBudget(snapshot: MarketSnapshot) {
  // ≈ 4 characters a token: at most ~1,200 tokens
  expect(snapshot.text.length).toBeLessThanOrEqual(snapshotTextBudgetChars);
  expect(Math.ceil(snapshot.text.length / 4)).toBeLessThanOrEqual(1_200);
}

describe.skipIf(!hasRecordedYahoo)(
  'recorded: one consistent moment, AAPL and MSFT after the close of 2025-10-10 (yfinance-rs)',
  () => {
    const asOf = new Date('2025-10-10T21:00:00Z');

    it('AAPL: the recorded crumb handshake, quote, profile and six months of bars make one snapshot', async () => {
      const { router, result } = snapshotWith(
        {
          quote: () => recorded(`${rs}quote_v7_AAPL.json`),
          quoteSummary: (_symbol, modules) =>
            quoteSummaryFrom([recorded(`${rs}profile_api_assetProfile-quoteType-fundProfile_AAPL.json`)], modules),
          chart: () => recorded(`${rs}history_chart_AAPL.json`),
        },
        'AAPL',
        asOf,
      );
      const snapshot = await result;

      // the crumb the recorded getcrumb answer carries ("REDACTED" after scrubbing) is what the quote is asked with
      expect(router.dataRequests().find((request) => request.url.includes('/v7/finance/quote'))?.url).toBe(
        'https://query2.finance.yahoo.com/v7/finance/quote?symbols=AAPL&crumb=REDACTED',
      );
      expect(snapshot.identity).toEqual({
        symbol: 'AAPL',
        name: 'Apple Inc.',
        exchange: 'NasdaqGS',
        currency: 'USD',
        quoteType: 'EQUITY',
        sector: 'Technology',
        industry: 'Consumer Electronics',
      });
      expect(snapshot.quote).toMatchObject({
        price: 245.27,
        priceTime: '2025-10-10T20:00:02.000Z',
        change: -8.76999,
        changePercent: -3.45221,
        marketCap: 3_639_902_470_144,
        trailingPE: 37.16212,
        forwardPE: 29.515041,
        fiftyTwoWeekHigh: 260.1,
        fiftyTwoWeekLow: 169.21,
        averageVolume: 54_836_700,
        // the v7 quote says 0.42 (percent); the snapshot carries fractions
        dividendYield: 0.0042,
        recommendation: 'buy (mean 2.1 on 1 = strong buy … 5 = sell)',
        // no summaryDetail or financialData was recorded for AAPL
        beta: null,
        targetMeanPrice: null,
        profitMargin: null,
      });

      const raw = bodyOf(recorded(`${rs}history_chart_AAPL.json`)) as RawChart;
      const closes = raw.chart.result[0]!.indicators.quote[0]!.close;
      expect(snapshot.bars).toHaveLength(raw.chart.result[0]!.timestamp.length);
      expect(snapshot.bars[0]!.date).toBe('2025-04-11');
      expect(snapshot.bars.at(-1)!.date).toBe('2025-10-10');
      expect(snapshot.indicators.lastClose).toBe(closes.at(-1));
      // chart prices are float32 (245.27000427…); the quote and the text agree at cents
      expect(snapshot.indicators.lastClose).toBeCloseTo(245.27, 4);
      expect(snapshot.indicators.returns.d1).toBeCloseTo(closes.at(-1)! / closes.at(-2)! - 1, 10);
      // 126 sessions: SMA200 and the 1-year return cannot exist, and say so
      expect(snapshot.indicators.sma200).toBeNull();
      expect(snapshot.indicators.returns.y1).toBeNull();
      expect(snapshot.warnings).toEqual([
        "Yahoo's quoteSummary has no price module (name, exchange, market cap); summary detail (P/E, dividend yield, 52-week range, beta); key statistics (forward P/E, beta); financial data (margins, growth, analyst target) for AAPL; the last price comes from the quote",
        'only 126 daily sessions (2025-04-11 → 2025-10-10): 1-year figures cover this shorter window, the 1-year return is not available',
      ]);

      const lines = snapshot.text.split('\n');
      expect(lines[0]).toBe('MARKET DATA — AAPL (Apple Inc.), as of 2025-10-10');
      expect(lines).toContain('Last close: 245.27 USD (2025-10-10)');
      expect(lines).toContain('Market cap: 3.64 T USD');
      expect(lines).toContain('Dividend yield: 0.42 %');
      expect(lines).toContain('Beta (vs market): not available — do not estimate');
      expect(lines.some((line) => /^RSI\(14\): \d+\.\d \(2025-10-10\)$/.test(line))).toBe(true);
      underBudget(snapshot);
    });

    it('MSFT: financialData gives the analysts’ target and the margins', async () => {
      const summaries = [
        recorded(`${rs}profile_api_assetProfile-quoteType-fundProfile_MSFT.json`),
        recorded(`${rs}analysis_api_recommendationTrend-financialData_MSFT.json`),
      ];
      const { result } = snapshotWith(
        {
          quote: () => recorded(`${rs}quote_v7_MSFT.json`),
          quoteSummary: (_symbol, modules) => quoteSummaryFrom(summaries, modules),
          chart: () => recorded(`${rs}history_chart_MSFT.json`),
        },
        'MSFT',
        asOf,
      );
      const snapshot = await result;
      expect(snapshot.identity).toMatchObject({
        name: 'Microsoft Corporation',
        sector: 'Technology',
        industry: 'Software - Infrastructure',
      });
      expect(snapshot.quote).toMatchObject({
        price: 510.96,
        targetMeanPrice: 620.7369,
        recommendation: 'strong buy (mean 1.26 on 1 = strong buy … 5 = sell; 51 analysts)',
      });
      expect(snapshot.quote.profitMargin).toBeGreaterThan(0);
      expect(snapshot.indicators.lastClose).toBeCloseTo(510.96, 4);
      expect(snapshot.text).toContain('Last close: 510.96 USD (2025-10-10)');
      expect(snapshot.text).toContain('Analyst mean target: 620.74 USD | Recommendation: strong buy');
      underBudget(snapshot);
    });
  },
);

describe.skipIf(!hasRecordedYahoo)('recorded: yahoo-finance2’s own fixtures (fetch-mock-cache, v3)', () => {
  it('AAPL quote and quoteSummary modules fill every statistic; the text stays under budget', async () => {
    const modules = ['price', 'summaryDetail', 'defaultKeyStatistics', 'financialData'].map((name) =>
      recorded(`${v3}quoteSummary-${name}-AAPL.json`),
    );
    const { router, result } = snapshotWith(
      {
        quote: () => recorded(`${v3}quote-AAPL.json`),
        // assetProfile from the all-modules recording: Yahoo answers a multi-module request with each module it has
        quoteSummary: (_symbol, requested) =>
          quoteSummaryFrom([...modules, recorded(`${v3}quoteSummary-all-AAPL.json`)], requested),
        // the v3 set has no year of AAPL bars; the yfinance-rs recording supplies them
        chart: () => recorded(`${rs}history_chart_AAPL.json`),
      },
      'AAPL',
      new Date('2025-10-10T21:00:00Z'),
    );
    const snapshot = await result;
    // the URL the library builds is the one Yahoo was recorded answering
    const recordedQuote = JSON.parse(readFileSync(path.join(recordedYahooDir, `${v3}quote-AAPL.json`), 'utf8')) as {
      request: { url: string };
    };
    expect(router.dataRequests().find((request) => request.url.includes('/v7/finance/quote'))?.url).toBe(
      recordedQuote.request.url,
    );

    expect(snapshot.quote).toEqual({
      price: 244.6,
      priceTime: '2025-02-14T21:00:00.000Z',
      change: 3.0700073,
      changePercent: 1.2710667,
      marketCap: 3_674_405_863_424,
      trailingPE: expect.any(Number),
      forwardPE: expect.any(Number),
      beta: 1.2,
      fiftyTwoWeekHigh: 260.1,
      fiftyTwoWeekLow: expect.any(Number),
      averageVolume: expect.any(Number),
      dividendYield: 0.0041,
      targetMeanPrice: 252.22575,
      recommendation: 'buy (mean 2.07 on 1 = strong buy … 5 = sell; 40 analysts)',
      profitMargin: 0.24295,
      revenueGrowth: 0.04,
      debtToEquity: 145,
      earningsDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(snapshot.identity.sector).toBe('Technology');
    expect(snapshot.warnings).toContain('the quote is from 2025-02-14, older than the last daily bar (2025-10-10)');
    expect(snapshot.text).not.toContain('not available — do not estimate\nProfit');
    expect(snapshot.text).toContain('Debt/equity: 145.00 %');
    underBudget(snapshot);
  });

  it('MSFT, one year to 2022-01-31: dividends adjust the closes; a recorded 404 "No fundamentals" only empties the statistics', async () => {
    const chartFile = `${v3}historical-via-chart-MSFT-dividends-2021-02-01-to-2022-01-31.csv.json`;
    const { result } = snapshotWith(
      {
        // recorded with fields=beta: a real, reduced quote
        quote: () => recorded(`${v3}quote-MSFT-fields-beta.json`),
        quoteSummary: () => recorded(`${v3}quoteSummary-assetProfile-ADH.json`),
        chart: () => recorded(chartFile),
      },
      'MSFT',
      new Date('2022-01-31T21:00:00Z'),
    );
    const snapshot = await result;
    const raw = (bodyOf(recorded(chartFile)) as RawChart).chart.result[0]!;
    expect(snapshot.bars).toHaveLength(raw.timestamp.length);
    expect(snapshot.bars[0]).toMatchObject({
      date: '2021-02-01',
      close: raw.indicators.quote[0]!.close[0],
      adjClose: raw.indicators.adjclose[0]!.adjclose[0],
    });
    expect(snapshot.bars[0]!.adjClose!).toBeLessThan(snapshot.bars[0]!.close!);
    expect(snapshot.bars.at(-1)!.date).toBe('2022-01-28');
    // a full year: every indicator has its data
    expect(snapshot.indicators.sma200).not.toBeNull();
    expect(snapshot.indicators.returns.y1).not.toBeNull();
    expect(snapshot.indicators.volatility1y).not.toBeNull();
    expect(snapshot.quote.beta).toBe(0.895);
    expect(snapshot.quote.targetMeanPrice).toBeNull();
    expect(snapshot.warnings).toEqual([
      'key statistics and company profile unavailable (No fundamentals data found for any of the summaryTypes=assetProfile)',
      "the quote and key statistics are Yahoo's values of 2025-02-14, after the as-of date 2022-01-31; the daily bars and technicals stop at 2022-01-28",
    ]);
    expect(snapshot.text).toContain('TECHNICALS (252 daily sessions 2021-02-01 → 2022-01-28;');
    underBudget(snapshot);
  });

  it('NVDA, one year across the July 2021 4:1 split: the bars are continuous, and a failed quote falls back to the chart', async () => {
    const { result } = snapshotWith(
      {
        quote: () => ({ status: 500, statusText: 'Internal Server Error', body: '' }),
        quoteSummary: () => ({ status: 500, statusText: 'Internal Server Error', body: '' }),
        chart: () => recorded(`${v3}historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json`),
      },
      'NVDA',
      new Date('2022-01-31T21:00:00Z'),
    );
    const snapshot = await result;
    expect(snapshot.identity).toMatchObject({
      name: 'NVIDIA Corporation',
      exchange: 'NasdaqGS',
      currency: 'USD',
      quoteType: 'EQUITY',
      sector: null,
    });
    const closes = snapshot.bars.map((bar) => bar.adjClose!);
    const largestMove = Math.max(...closes.slice(1).map((close, index) => Math.abs(close / closes[index]! - 1)));
    // a split read as a price move would be −75 %
    expect(largestMove).toBeLessThan(0.15);
    expect(snapshot.bars.find((bar) => bar.date === '2021-07-20')).toBeDefined();
    expect(snapshot.warnings.slice(0, 2)).toEqual([
      'quote unavailable (HTTP 500 Internal Server Error); price and identity come from the chart',
      'key statistics and company profile unavailable (HTTP 500 Internal Server Error)',
    ]);
  });
});
