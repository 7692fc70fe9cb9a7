import { describe, expect, it } from 'vitest';
import {
  barsFromChart,
  parseChart,
  parseQuote,
  parseSummary,
  quoteStatsFrom,
  toIsoTime,
  toNumber,
} from '../../src/market/sources/yahoo/normalize.js';

/** Yahoo's raw shapes, validated or not, become our types without wrong numbers. */

describe('field coercion', () => {
  it('reads numbers plain or as { raw, fmt }, and nothing else', () => {
    expect(toNumber(1.5)).toBe(1.5);
    expect(toNumber({ raw: 620.7369, fmt: '620.74' })).toBe(620.7369);
    expect(toNumber('620.74')).toBeNull();
    expect(toNumber(Number.NaN)).toBeNull();
    expect(toNumber({ fmt: '1.2B' })).toBeNull();
    expect(toNumber(undefined)).toBeNull();
  });

  it('reads times as Dates, epoch seconds, epoch milliseconds or ISO strings', () => {
    expect(toIsoTime(new Date('2025-10-10T20:00:02Z'))).toBe('2025-10-10T20:00:02.000Z');
    expect(toIsoTime(1760126402)).toBe('2025-10-10T20:00:02.000Z');
    expect(toIsoTime(1760126402000)).toBe('2025-10-10T20:00:02.000Z');
    expect(toIsoTime({ raw: 1760126402, fmt: '2025-10-10' })).toBe('2025-10-10T20:00:02.000Z');
    expect(toIsoTime('not a time')).toBeNull();
  });

  it('an unusable body is null, a missing or malformed module is just absent', () => {
    expect(parseQuote(undefined)).toBeNull();
    expect(parseQuote('nope')).toBeNull();
    const summary = parseSummary({
      summaryDetail: 'garbage',
      financialData: { targetMeanPrice: { raw: 10, fmt: '10' } },
    });
    expect(summary?.summaryDetail).toBeNull();
    expect(summary?.financialData?.targetMeanPrice).toBe(10);
  });
});

describe('the earnings date', () => {
  it("is the v7 quote's earningsTimestamp as a day (yahoo-finance2 gives a Date), else null", () => {
    const at = (value: unknown) =>
      quoteStatsFrom({ quote: parseQuote({ earningsTimestamp: value }), summary: null, meta: null }).earningsDate;
    expect(at(new Date('2026-10-29T20:00:00Z'))).toBe('2026-10-29');
    expect(at(undefined)).toBeNull();
    expect(quoteStatsFrom({ quote: null, summary: null, meta: null }).earningsDate).toBeNull();
  });
});

describe('units', () => {
  it('the v7 quote’s percentages and quoteSummary’s fractions end up in the documented units', () => {
    // v7 quote: dividendYield 0.42 and regularMarketChangePercent -3.45 are percent
    const fromQuote = quoteStatsFrom({
      quote: parseQuote({ dividendYield: 0.42, regularMarketChangePercent: -3.45 }),
      summary: null,
      meta: null,
    });
    expect(fromQuote.dividendYield).toBeCloseTo(0.0042, 12);
    expect(fromQuote.changePercent).toBe(-3.45);
    // quoteSummary price.regularMarketChangePercent is a fraction; summaryDetail.dividendYield too
    const fromSummary = quoteStatsFrom({
      quote: null,
      summary: parseSummary({
        price: { regularMarketChangePercent: -0.0011389935 },
        summaryDetail: { dividendYield: 0.0041 },
      }),
      meta: null,
    });
    expect(fromSummary.changePercent).toBeCloseTo(-0.11389935, 10);
    expect(fromSummary.dividendYield).toBe(0.0041);
  });

  it('a recommendation "none" is no recommendation', () => {
    const stats = quoteStatsFrom({
      quote: null,
      summary: parseSummary({ financialData: { recommendationKey: 'none' } }),
      meta: null,
    });
    expect(stats.recommendation).toBeNull();
  });
});

describe('barsFromChart', () => {
  function chart(timestamps: number[], gmtoffset: number, closes: Array<number | null>) {
    return parseChart({
      meta: { gmtoffset, currency: 'JPY' },
      timestamp: timestamps,
      indicators: {
        quote: [{ open: closes, high: closes, low: closes, close: closes, volume: closes.map(() => 100) }],
        adjclose: [{ adjclose: closes }],
      },
    })!;
  }

  it('dates each session in the exchange’s time zone', () => {
    // Tokyo opens 09:00 JST = 00:00 UTC; Auckland opens 10:00 NZDT = 21:00 UTC the day before
    expect(barsFromChart(chart([Date.UTC(2025, 9, 10, 0, 0) / 1000], 32_400, [100])).map((bar) => bar.date)).toEqual([
      '2025-10-10',
    ]);
    expect(barsFromChart(chart([Date.UTC(2025, 9, 9, 21, 0) / 1000], 46_800, [100])).map((bar) => bar.date)).toEqual([
      '2025-10-10',
    ]);
  });

  it('keeps null sessions as bars of nulls, keeps the later of a repeated date, drops bars after the as-of day', () => {
    const day = (date: number, hour: number) => Date.UTC(2025, 9, date, hour, 30) / 1000;
    const bars = barsFromChart(
      chart([day(8, 13), day(9, 13), day(10, 13), day(10, 19), day(13, 13)], -14_400, [10, null, 11, 11.5, 12]),
      '2025-10-10',
    );
    expect(bars.map((bar) => [bar.date, bar.close])).toEqual([
      ['2025-10-08', 10],
      ['2025-10-09', null],
      ['2025-10-10', 11.5],
    ]);
  });

  it('a chart without quotes has no bars rather than failing', () => {
    expect(barsFromChart(parseChart({ meta: {}, indicators: { quote: [] } })!)).toEqual([]);
  });
});

describe('price ratios of a listing quoted in minor units', () => {
  // Yahoo divides the price in pence by per-share figures in pounds: OCDO.L's recorded quote
  // has priceToBook 185.1 for 308.8 GBp over a 1.668 GBP book.
  const ratios = (quote: Record<string, unknown>, summary: Record<string, unknown> | null = null) => {
    const stats = quoteStatsFrom({
      quote: parseQuote({ trailingPE: 1250, forwardPE: 980, ...quote }),
      summary: summary === null ? null : parseSummary(summary),
      meta: null,
    });
    return [stats.trailingPE, stats.forwardPE];
  };

  it.each([
    ['GBp, statements in GBP: divided by 100', { currency: 'GBp', financialCurrency: 'GBP' }, [12.5, 9.8]],
    ['GBX, statements in GBP', { currency: 'GBX', financialCurrency: 'GBP' }, [12.5, 9.8]],
    ['ZAc, statements in ZAR', { currency: 'ZAc', financialCurrency: 'ZAR' }, [12.5, 9.8]],
    [
      'GBp, statements in USD: no ratio rather than a wrong one',
      { currency: 'GBp', financialCurrency: 'USD' },
      [null, null],
    ],
    ['GBp, statements of unknown currency: none', { currency: 'GBp' }, [null, null]],
    ['USD: as sent', { currency: 'USD', financialCurrency: 'USD' }, [1250, 980]],
    ['no currency at all: as sent', {}, [1250, 980]],
  ])('%s', (_name, quote, expected) => {
    expect(ratios(quote)).toEqual(expected);
  });

  it('reads the statements’ currency from quoteSummary’s financialData when the quote lacks it', () => {
    expect(ratios({ currency: 'GBp' }, { financialData: { financialCurrency: 'GBP' } })).toEqual([12.5, 9.8]);
  });
});
