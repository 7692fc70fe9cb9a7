import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { blindSnapshot } from '../../src/market/blind.js';
import { asTradedClose } from '../../src/market/fundamentals-basis.js';
import { withFundamentals } from '../../src/market/fundamentals-attach.js';
import { notConfiguredLine, secUserAgentFromEnv } from '../../src/market/sources/edgar/config.js';
import { createRequestLimiter } from '../../src/market/sources/edgar/rate-limit.js';
import { createResponseCache, isFresh } from '../../src/market/sources/edgar/response-cache.js';
import { edgarJoin, sayingNotConfigured } from '../../src/market/sources/edgar/setup.js';
import { createEdgarSource, isForeignTicker } from '../../src/market/sources/edgar/source.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';

const sessionClose = (day: string) => exchangeCalendar('XNYS').closeAt(day);
import type { MarketData, MarketSnapshot } from '../../src/market/types.js';
import { splitEventsOf } from '../../src/market/sources/yahoo/index.js';
import { makeSnapshot } from '../support/market.js';
import { recordedSecFetch } from './support/edgar-fetch.js';
import { hasRecordedEdgar, skipMessage, yahooChart } from './support/edgar-recorded.js';

/** The EDGAR source over recorded SEC answers: fair access, share basis, blind runs. */

if (!hasRecordedEdgar) console.info(`market: ${skipMessage}`);

const userAgent = 'Jane Doe jane@example.com';
const close = (day: string) => sessionClose(day).toISOString();
const scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-edgar-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('SEC fair access', () => {
  it('makes no request for a ticker with a non-US suffix', async () => {
    const requests: string[] = [];
    const source = createEdgarSource({
      fetch: async (input) => {
        requests.push(String(input));
        return new Response('{}');
      },
      userAgent,
    });
    for (const ticker of ['7203.T', 'OCDO.L', 'SAP.DE', 'BHP.AX', 'SHOP.TO'])
      expect(
        await source.fundamentals!({ ticker, asOfClose: close('2025-07-03'), historical: true, asTradedClose: 10 }),
      ).toBeUndefined();
    expect(requests).toEqual([]);
    expect(isForeignTicker('BRK.B')).toBe(false);
    expect(isForeignTicker('BRK-B')).toBe(false);
  });

  it('without AUTOHEDGE_SEC_USER_AGENT joins nothing, and says so in one line at the first US listing asked for', async () => {
    expect(edgarJoin({ env: {}, replay: false, recordedUrls: [], cacheDir: null, today: () => new Date() })).toBe(
      'not-configured',
    );
    const warnings: string[] = [];
    const asked: string[] = [];
    const market: MarketData = {
      snapshot: async (ticker) => {
        asked.push(ticker);
        return makeSnapshot(ticker);
      },
    };
    const told = sayingNotConfigured(market, (line) => warnings.push(line));
    const asOf = new Date('2026-11-27T21:00:00Z');
    // A Tokyo or London listing is not EDGAR's: nothing to say.
    await told.snapshot('7203.T', { asOf });
    await told.snapshot('OCDO.L', { asOf });
    expect(warnings).toEqual([]);
    // The first US listing says it; a universe of them says it once.
    for (const ticker of ['NVDA', 'AAPL', 'BRK.B']) await told.snapshot(ticker, { asOf });
    expect(warnings).toEqual([notConfiguredLine]);
    expect(asked).toEqual(['7203.T', 'OCDO.L', 'NVDA', 'AAPL', 'BRK.B']);
    expect(notConfiguredLine).not.toContain('\n');
    expect(() => secUserAgentFromEnv({ AUTOHEDGE_SEC_USER_AGENT: 'autohedge' })).toThrow(ConfigError);
    expect(secUserAgentFromEnv({ AUTOHEDGE_SEC_USER_AGENT: ` ${userAgent} ` })).toBe(userAgent);
    // A replay asks SEC only when its cassette recorded SEC.
    expect(
      edgarJoin({
        env: {},
        replay: true,
        recordedUrls: ['https://query2.finance.yahoo.com/v8/finance/chart/ACME'],
        cacheDir: null,
        today: () => new Date(),
      }),
    ).toBeNull();
  });

  it('starts at most 10 requests in any second', async () => {
    let clock = 0;
    const starts: number[] = [];
    const limiter = createRequestLimiter({
      now: () => clock,
      wait: async (ms) => {
        clock += ms;
      },
    });
    await Promise.all(Array.from({ length: 35 }, () => limiter.acquire().then(() => starts.push(clock))));
    expect(starts).toHaveLength(35);
    for (const start of starts)
      expect(starts.filter((other) => other >= start && other < start + 1000).length).toBeLessThanOrEqual(10);
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(3000);
  });

  it('keeps answers 24 hours live, and for good for a past close once fetched after it', () => {
    const now = Date.parse('2026-12-07T12:00:00Z');
    expect(isFresh('2026-12-07T00:00:00Z', { historicalClose: null }, now)).toBe(true);
    expect(isFresh('2026-12-06T11:00:00Z', { historicalClose: null }, now)).toBe(false);
    expect(isFresh('2021-01-01T00:00:00Z', { historicalClose: close('2020-01-02') }, now)).toBe(true);
    expect(isFresh('2019-12-01T00:00:00Z', { historicalClose: close('2020-01-02') }, now)).toBe(false);
  });
});

describe.skipIf(!hasRecordedEdgar)('the EDGAR source on recorded answers', () => {
  it('declares the User-Agent on every request, paces them, and caches them', async () => {
    const recorded = recordedSecFetch();
    const cache = createResponseCache(path.join(scratch, 'cache'));
    const source = createEdgarSource({ fetch: recorded.fetch, userAgent, cache });
    const request = { ticker: 'AAPL', asOfClose: close('2024-11-04'), historical: true, asTradedClose: 222.01 };
    const first = await source.fundamentals!(request);
    expect(first?.years[0]?.periodEnd).toBe('2024-09-28');
    expect(recorded.requests.map((entry) => entry.url)).toEqual([
      'https://www.sec.gov/files/company_tickers.json',
      'https://data.sec.gov/submissions/CIK0000320193.json',
      'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json',
    ]);
    expect(new Set(recorded.requests.map((entry) => entry.userAgent))).toEqual(new Set([userAgent]));
    const again = await createEdgarSource({ fetch: recorded.fetch, userAgent, cache }).fundamentals!(request);
    expect(again).toEqual(first);
    expect(recorded.requests).toHaveLength(3);
  });

  it('reads the older page of the filing index when the as-of reaches back to it', async () => {
    const recorded = recordedSecFetch();
    const source = createEdgarSource({ fetch: recorded.fetch, userAgent });
    const old = await source.fundamentals!({
      ticker: 'TSLA',
      asOfClose: close('2017-11-03'),
      historical: true,
      asTradedClose: 300,
    });
    expect(recorded.requests.map((entry) => entry.url)).toContain(
      'https://data.sec.gov/submissions/CIK0001318605-submissions-001.json',
    );
    // 10-Q of 2017-11-03 accepted after the close that day; the 8-K of results before it.
    expect(old?.filings.map((entry) => entry.form)).toContain('10-Q');
    expect(old?.notes).toContain('no financial statements filed in XBRL with the SEC');
    recorded.requests.length = 0;
    await source.fundamentals!({
      ticker: 'TSLA',
      asOfClose: close('2026-02-27'),
      historical: true,
      asTradedClose: 400,
    });
    expect(recorded.requests.map((entry) => entry.url)).not.toContain(
      'https://data.sec.gov/submissions/CIK0001318605-submissions-001.json',
    );
  });

  it('says "not available" for a US ticker SEC does not list', async () => {
    const source = createEdgarSource({ fetch: recordedSecFetch().fetch, userAgent });
    const none = await source.fundamentals!({
      ticker: 'ZZZZ',
      asOfClose: close('2024-11-04'),
      historical: true,
      asTradedClose: 1,
    });
    expect(none).toMatchObject({ quarters: [], years: [], insiderFilings90d: null });
    const { renderSnapshotText } = await import('../../src/market/snapshot-text.js');
    const { text: _text, ...data } = makeSnapshot('ZZZZ');
    expect(renderSnapshotText({ ...data, fundamentals: none! })).toContain('Quarters: not available — do not estimate');
  });
});

/** A price source with one snapshot (AAPL's 2020-01-02 or 2020-09-01 adjusted close) and the recorded split chart. */
/** AAPL's snapshot at `close`: on today's split basis (Yahoo's), or `as-traded` (Tiingo's bars of a past window). */
function aaplMarket(close: number, splitBasis?: 'as-traded'): MarketData {
  const splits = splitEventsOf(yahooChart('chart-AAPL-2020-08-31-to-2020-11-07.json'));
  const base = makeSnapshot('AAPL');
  return {
    async snapshot(_ticker, options) {
      const snapshot = { ...base, asOf: options.asOf.toISOString(), quote: { ...base.quote, price: close } };
      return splitBasis ? { ...snapshot, splitBasis } : snapshot;
    },
    async splits() {
      return splits;
    },
  };
}

/** AAPL on 2020-01-02 valued at the close as traded, 300.35 (75.09 on today's split basis). */
function expectValuedAsTraded(snapshot: MarketSnapshot, adjustedClose: number): void {
  const valuation = Object.fromEntries(snapshot.fundamentals!.valuation.map((figure) => [figure.name, figure.value]));
  expect(valuation.peTrailing).toBeCloseTo(300.35 / 11.89, 6);
  expect(valuation.marketCap).toBeCloseTo(4_443_265_000 * 300.35, -3);
  expect(snapshot.fundamentals!.shareBasis).toEqual({ asTradedClose: 300.35, adjustedClose, splitFactor: 4 });
  expect(snapshot.text).toContain("the close as traded: 300.35 USD, 75.09 in today's split-adjusted series");
}

describe.skipIf(!hasRecordedEdgar)('one share basis across the 4:1 split of 2020-08-31', () => {
  // Read in the tests, not while the suite is collected: a skipped describe still runs its body.
  const adjustedClose = () => yahooChart('chart-AAPL-2020-01-01-to-2020-01-03.json').indicators.quote[0]!.close[0]!;
  const join = () => ({
    source: createEdgarSource({ fetch: recordedSecFetch().fetch, userAgent }),
    today: () => new Date('2025-02-20T00:00:00Z'),
  });

  it('values 2020-01-02 at the close as traded (300.35), not today’s adjusted 75.09', async () => {
    expect(
      asTradedClose(
        adjustedClose(),
        splitEventsOf(yahooChart('chart-AAPL-2020-08-31-to-2020-11-07.json')),
        '2020-01-02',
      ),
    ).toBe(300.35);
    const market = withFundamentals(aaplMarket(adjustedClose()), join());
    const snapshot = await market.snapshot('AAPL', { asOf: sessionClose('2020-01-02'), historical: true });
    expectValuedAsTraded(snapshot, adjustedClose());
    // The technicals keep the adjusted series.
    expect(snapshot.indicators).toEqual(makeSnapshot('AAPL').indicators);
  });

  it('bars already as traded (the failover to Tiingo) are not multiplied by the later split again', async () => {
    const market = withFundamentals(aaplMarket(300.35, 'as-traded'), join());
    const snapshot = await market.snapshot('AAPL', { asOf: sessionClose('2020-01-02'), historical: true });
    expectValuedAsTraded(snapshot, 75.0875);
  });

  it('carries figures filed before the split onto the new basis after it', async () => {
    const after = yahooChart('chart-AAPL-2020-08-31-to-2020-11-07.json').indicators.quote[0]!.close[1]!;
    const market = withFundamentals(aaplMarket(after), join());
    const snapshot = await market.snapshot('AAPL', { asOf: sessionClose('2020-09-01'), historical: true });
    const fundamentals = snapshot.fundamentals!;
    expect(fundamentals.shareBasis).toBeUndefined();
    const valuation = Object.fromEntries(fundamentals.valuation.map((figure) => [figure.name, figure.value]));
    // About 17.1 B shares (4.28 B filed before the split, × 4) at 134.18: about 2.3 T, a P/E about 40.
    expect(valuation.marketCap! / 1e12).toBeGreaterThan(2.2);
    expect(valuation.marketCap! / 1e12).toBeLessThan(2.4);
    expect(valuation.peTrailing).toBeGreaterThan(35);
    expect(valuation.peTrailing).toBeLessThan(45);
    const eps = fundamentals.years[0]!.figures.find((figure) => figure.concept === 'epsDiluted')!;
    expect(eps.value).toBeCloseTo(11.89 / 4, 6);
    expect(eps.restated).toBeUndefined();
  });

  it('a blind run keeps the fundamentals in blind units, with no EDGAR identity', async () => {
    const market = withFundamentals(aaplMarket(adjustedClose()), join());
    const named = await market.snapshot('AAPL', { asOf: sessionClose('2020-01-02'), historical: true });
    const { snapshot: blind } = blindSnapshot(named);
    const everything = JSON.stringify(blind);
    expect(everything).not.toMatch(/\d{10}-\d{2}-\d{6}/);
    expect(everything).not.toMatch(/\b(19|20)\d\d-\d\d-\d\d/);
    expect(everything).not.toMatch(/320193|AAPL|Apple|Acme/);
    expect(blind.text).toContain('FUNDAMENTALS');
    const valuation = Object.fromEntries(blind.fundamentals!.valuation.map((figure) => [figure.name, figure.value]));
    expect(valuation.peTrailing).toBeCloseTo(300.35 / 11.89, 6);
    expect(blind.fundamentals!.years[0]!.periodEnd).toBe('FY-0');
  });
});
