import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BarsRequest, DailyBars, MarketSource } from '../../src/market/source.js';
import { createSource as createTiingoSource } from '../../src/market/sources/tiingo/index.js';
import { createYahooSource } from '../../src/market/sources/yahoo/index.js';
import type { Bar } from '../../src/market/types.js';
import { createYahooRouter, hasRecordedYahoo, recorded, recordedYahooDir, repoRoot } from '../support/yahoo.js';

/**
 * Every market source against its recorded answers, in the style of OpenBB's
 * `Fetcher.test()`: one table of cases per source, each a real recorded response, and
 * the same checks on every answer (our types, major units, the currency named, days in
 * order, no invented zero) before the case's own. Recorded traffic lives in
 * ../shared/fixtures/recorded (see its MANIFEST.md); each source's cases skip with a
 * message when its folder is absent.
 */

const v3 = 'v3-fetch-mock-cache/';
const recordedTiingoDir = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'tiingo');
const hasRecordedTiingo = existsSync(recordedTiingoDir);

if (!hasRecordedYahoo) console.info(`sources: no recorded Yahoo answers at ${recordedYahooDir}; skipping its cases`);
if (!hasRecordedTiingo) console.info(`sources: no recorded Tiingo answers at ${recordedTiingoDir}; skipping its cases`);

interface BarsCase {
  name: string;
  request: BarsRequest;
  check(answer: DailyBars): void;
}

/** What every daily-bars answer of every source must be. */
function conforms(answer: DailyBars, request: BarsRequest): void {
  expect(answer.bars.length).toBeGreaterThan(0);
  const dates = answer.bars.map((bar) => bar.date);
  expect(dates).toEqual([...dates].sort());
  expect(new Set(dates).size).toBe(dates.length);
  for (const bar of answer.bars) {
    expect(bar.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(bar.date >= request.from && bar.date <= request.to).toBe(true);
    // missing is null, never an invented zero
    for (const value of [bar.open, bar.high, bar.low, bar.close, bar.adjClose]) {
      if (value !== null) expect(value).toBeGreaterThan(0);
    }
    if (bar.high !== null && bar.low !== null) expect(bar.high).toBeGreaterThanOrEqual(bar.low);
  }
  // major units, named as ISO 4217 codes: never GBp, ZAc or ILA
  if (answer.currency !== null) expect(answer.currency).toMatch(/^[A-Z]{3}$/);
  expect(['GBP', 'ZAR', 'ILS'].includes(answer.currency ?? '') || answer.conversion === undefined).toBe(true);
}

const closes = (bars: Bar[]) => bars.map((bar) => [bar.date, bar.close]);

function yahooChartSource(file: string): MarketSource {
  const router = createYahooRouter({ chart: () => recorded(`${v3}${file}`) });
  return createYahooSource({ fetch: router.fetch, retryDelayMs: 0 });
}

const yahooCases: Array<BarsCase & { file: string }> = [
  {
    name: 'London in pence: OCDO.L comes out in pounds',
    file: 'chart-OCDO.L-2020-01-01-to-2020-01-03.json',
    request: { ticker: 'OCDO.L', from: '2020-01-01', to: '2020-01-03' },
    check: (answer) => {
      expect(answer.currency).toBe('GBP');
      expect(answer.conversion).toEqual({ quoted: 'GBp', currency: 'GBP', factor: 0.01 });
      expect(closes(answer.bars)).toEqual([['2020-01-02', 12.595]]);
    },
  },
  {
    name: 'Xetra in euros: WSU.DE, three sessions dated in Berlin',
    file: 'chart-WSU.DE-2023-08-04-to-2023-08-09.json',
    request: { ticker: 'WSU.DE', from: '2023-08-04', to: '2023-08-09' },
    check: (answer) => {
      expect(answer.currency).toBe('EUR');
      expect(answer.bars.map((bar) => bar.date)).toEqual(['2023-08-04', '2023-08-07', '2023-08-08']);
      expect(answer.bars[0]!.close).toBeCloseTo(34.45, 2);
      expect(answer.bars[0]!.adjClose).toBeCloseTo(32.63, 2);
    },
  },
  {
    name: 'Oslo in kroner: AZT.OL',
    file: 'chart-AZT.OL-2020-01-01-to-2020-01-03.json',
    request: { ticker: 'AZT.OL', from: '2020-01-01', to: '2020-01-03' },
    check: (answer) => {
      expect(answer.currency).toBe('NOK');
      expect(answer.bars.map((bar) => bar.date)).toEqual(['2020-01-02']);
    },
  },
  {
    name: 'Copenhagen in kroner: ORSTED.CO, traded close and adjusted close apart',
    file: 'chart-ORSTED.CO-2020-01-01-to-2020-01-03.json',
    request: { ticker: 'ORSTED.CO', from: '2020-01-01', to: '2020-01-03' },
    check: (answer) => {
      expect(answer.currency).toBe('DKK');
      expect(answer.bars[0]!.close).toBe(681);
      expect(answer.bars[0]!.adjClose).toBeCloseTo(639.18, 2);
    },
  },
  {
    name: 'Jakarta in rupiah: WSKT.JK, stamped 02:00 UTC and dated on its own day',
    file: 'chart-WSKT.JK-2020-01-01-to-2020-01-03.json',
    request: { ticker: 'WSKT.JK', from: '2020-01-01', to: '2020-01-03' },
    check: (answer) => {
      expect(answer.currency).toBe('IDR');
      expect(answer.bars.map((bar) => bar.date)).toEqual(['2020-01-02']);
    },
  },
  {
    name: 'a currency pair: EURUSD=X in dollars, trading on an NYSE holiday',
    file: 'chart-EURUSD=X-2020-01-01-to-2020-01-03.json',
    request: { ticker: 'EURUSD=X', from: '2020-01-01', to: '2020-01-03' },
    check: (answer) => {
      expect(answer.currency).toBe('USD');
      expect(answer.bars.map((bar) => bar.date)).toEqual(['2020-01-01', '2020-01-02', '2020-01-03']);
      for (const bar of answer.bars) expect(bar.close! > 1 && bar.close! < 1.3).toBe(true);
    },
  },
  {
    name: "the split event: AAPL's 4:1 of 2020-08-31, one basis across the window",
    file: 'chart-AAPL-2020-08-31-to-2020-11-07.json',
    request: { ticker: 'AAPL', from: '2020-08-31', to: '2020-11-07' },
    check: (answer) => {
      expect(answer.currency).toBe('USD');
      expect(answer.bars).toHaveLength(49);
      expect(answer.bars[0]!.close).toBeCloseTo(129.04, 2);
      expect(answer.bars.at(-1)!.close).toBeCloseTo(118.69, 2);
      // no day moves by the split ratio: the window is on one basis
      const moves = answer.bars.slice(1).map((bar, index) => bar.close! / answer.bars[index]!.close!);
      expect(Math.max(...moves)).toBeLessThan(1.2);
      expect(Math.min(...moves)).toBeGreaterThan(0.8);
    },
  },
];

describe.skipIf(!hasRecordedYahoo)('conformance: Yahoo Finance daily bars, recorded', () => {
  it.each(yahooCases)('$name', async ({ file, request, check }) => {
    const answer = await yahooChartSource(file).bars!(request);
    conforms(answer, request);
    check(answer);
  });

  it('quote-OCDO.L with its chart: the price in pounds beside a market cap in pounds, the conversion recorded', async () => {
    const router = createYahooRouter({
      quote: () => recorded(`${v3}quote-OCDO.L.json`),
      chart: () => recorded(`${v3}chart-OCDO.L-2020-01-01-to-2020-01-03.json`),
    });
    const source = createYahooSource({ fetch: router.fetch, retryDelayMs: 0 });
    const parts = await source.quote!({ ticker: 'OCDO.L', asOf: new Date('2020-01-03T17:00:00Z'), historical: false });
    expect(parts.identity.currency).toBe('GBP');
    expect(parts.conversion?.quoted).toBe('GBp');
    // 308.8 pence is 3.088 pounds; the market cap was in pounds already
    expect(parts.quote.price).toBeCloseTo(3.088, 6);
    expect(parts.quote.marketCap).toBe(2_554_603_520);
    expect(parts.quote.marketCap! / parts.quote.price!).toBeLessThan(1e10);
    expect(parts.bars.map((bar) => bar.close)).toEqual([12.595]);
  });
});

/** The body of a vcrpy cassette's first answer (flow-style YAML: `body: {string: '…'}`). */
function vcrBody(file: string): string {
  const text = readFileSync(path.join(recordedTiingoDir, file), 'utf8');
  const match = /body: \{string: '((?:[^']|'')*)'\}/.exec(text);
  if (!match) throw new Error(`no response body in ${file}`);
  return match[1]!.replace(/''/g, "'");
}

function tiingoSourceAnswering(body: string, seen: Request[] = []): MarketSource {
  return createTiingoSource({
    apiKey: 'tiingo-test-key-0123456789',
    retryDelayMs: 0,
    fetch: async (input, init) => {
      seen.push(new Request(input, init));
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
}

describe.skipIf(!hasRecordedTiingo)('conformance: Tiingo daily bars, recorded', () => {
  const request = { ticker: 'GOOGL', from: '2018-01-05', to: '2018-01-19' };

  it('GOOGL, ten sessions: raw closes in dollars, the key in a header and never in the address', async () => {
    const seen: Request[] = [];
    const answer = await tiingoSourceAnswering(vcrBody('ticker_price_pandas_daily.yaml'), seen).bars!(request);
    conforms(answer, request);
    expect(answer.currency).toBe('USD');
    expect(answer.bars).toHaveLength(10);
    expect(answer.bars[0]).toEqual({
      date: '2018-01-05',
      open: 1103.45,
      high: 1113.58,
      low: 1101.8,
      close: 1110.29,
      adjClose: 1110.29,
      volume: 1493389,
    });
    expect(answer.bars.at(-1)!.close).toBe(1143.5);
    expect(seen[0]!.url).toBe(
      'https://api.tiingo.com/tiingo/daily/googl/prices?startDate=2018-01-05&endDate=2018-01-19&format=json&resampleFreq=daily',
    );
    expect(seen[0]!.headers.get('authorization')).toBe('Token tiingo-test-key-0123456789');
  });

  it('a split inside the window puts the earlier raw prices on the last session’s basis, and says so', async () => {
    const rows = JSON.parse(vcrBody('ticker_price_pandas_daily.yaml')) as Array<Record<string, number | string>>;
    // the recorded rows with a 2:1 split on the 2018-01-12 session, as Tiingo would send it
    const split = rows.map((row) =>
      (row.date as string) < '2018-01-12'
        ? row
        : { ...row, close: (row.close as number) / 2, splitFactor: row.date === '2018-01-12T00:00:00.000Z' ? 2 : 1 },
    );
    const answer = await tiingoSourceAnswering(JSON.stringify(split)).bars!(request);
    conforms(answer, request);
    expect(answer.bars.find((bar) => bar.date === '2018-01-11')!.close).toBeCloseTo(1112.05 / 2, 6);
    expect(answer.bars.find((bar) => bar.date === '2018-01-12')!.close).toBeCloseTo(1130.65 / 2, 6);
    expect(answer.notes?.join(' ')).toMatch(/2:1 on 2018-01-12/);
  });
});
