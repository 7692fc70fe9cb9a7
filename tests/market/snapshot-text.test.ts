import { describe, expect, it } from 'vitest';
import { computeIndicators, renderSnapshotText } from '../../src/market/index.js';
import { formatFraction, formatPrice, formatQuantity, notAvailable } from '../../src/market/snapshot-format.js';
import { noQuoteStats } from '../../src/market/historical.js';
import { snapshotTextBudgetChars } from '../../src/market/snapshot-text.js';
import type { Bar, MarketSnapshot } from '../../src/market/types.js';

type SnapshotData = Omit<MarketSnapshot, 'text'>;

const emptyQuote: MarketSnapshot['quote'] = noQuoteStats;

function nothingKnown(): SnapshotData {
  return {
    symbol: 'XYZ',
    asOf: '2025-10-10T21:00:00.000Z',
    identity: {
      symbol: 'XYZ',
      name: null,
      exchange: null,
      currency: null,
      quoteType: null,
      sector: null,
      industry: null,
    },
    quote: emptyQuote,
    bars: [],
    indicators: computeIndicators([]),
    warnings: [],
    source: 'yahoo',
  };
}

/** 300 weekday-ish sessions ending 2025-10-10 with every field present. */
function yearOfBars(): Bar[] {
  return Array.from({ length: 300 }, (_, index) => {
    const date = new Date(Date.UTC(2025, 9, 10) - (299 - index) * 86_400_000 * 1.2).toISOString().slice(0, 10);
    const close = 1000 + 100 * Math.sin(index / 9) + index;
    return {
      date,
      open: close,
      high: close * 1.01,
      low: close * 0.99,
      close,
      adjClose: close,
      volume: 12_345_678_901 + index,
    };
  });
}

function everythingKnown(): SnapshotData {
  const bars = yearOfBars();
  return {
    symbol: 'BRK-B',
    asOf: '2025-10-10T21:00:00.000Z',
    identity: {
      symbol: 'BRK-B',
      name: 'Berkshire Hathaway Inc. New Class B Common Stock With A Long Name',
      exchange: 'New York Stock Exchange',
      currency: 'USD',
      quoteType: 'EQUITY',
      sector: 'Financial Services',
      industry: 'Insurance - Diversified and Reinsurance Conglomerates',
    },
    quote: {
      price: 1234.56,
      priceTime: '2025-10-10T20:00:00.000Z',
      change: -12.34,
      changePercent: -0.99,
      marketCap: 1_234_567_890_123,
      trailingPE: 123.45,
      forwardPE: 98.76,
      beta: 1.23,
      fiftyTwoWeekHigh: 1500.12,
      fiftyTwoWeekLow: 900.34,
      averageVolume: 12_345_678,
      dividendYield: 0.0123,
      targetMeanPrice: 1400.5,
      recommendation: 'strong buy (mean 1.26 on 1 = strong buy … 5 = sell; 51 analysts)',
      profitMargin: 0.2345,
      revenueGrowth: -0.0456,
      debtToEquity: 145.67,
    },
    bars,
    indicators: computeIndicators(bars),
    warnings: [
      "Yahoo's quote response did not match the expected schema; its raw values were used",
      'Yahoo returned no financialData, assetProfile for BRK-B',
      "the quote and key statistics are Yahoo's values of 2025-10-11, after the as-of date 2025-10-10; the daily bars and technicals stop at 2025-10-10",
      '3 session(s) without a price were skipped',
    ],
    source: 'yahoo',
  };
}

describe('renderSnapshotText', () => {
  it('says "not available — do not estimate" for every missing number: never blank, never zero', () => {
    const text = renderSnapshotText(nothingKnown());
    const lines = text.split('\n');
    expect(lines[0]).toBe('MARKET DATA — XYZ (name not available), as of 2025-10-10');
    expect(lines).toContain(`Market cap: ${notAvailable}`);
    expect(lines).toContain(`Last price: ${notAvailable}`);
    expect(lines).toContain(`Last close: ${notAvailable}`);
    expect(lines).toContain(`RSI(14): ${notAvailable}`);
    expect(lines).toContain(`ATR(14): ${notAvailable}`);
    expect(lines).toContain(`Sector: ${notAvailable} | Industry: ${notAvailable}`);
    expect(lines).toContain('TECHNICALS (no daily bars; adjusted closes; RSI and ATR with Wilder smoothing)');
    // no label is left empty, and no missing value turned into a 0
    for (const line of lines) {
      expect(line).not.toMatch(/:\s*$/);
      expect(line).not.toMatch(/:\s*\|/);
      expect(line).not.toMatch(/(^|[\s(])0(\.0+)?( %| USD|\b)/);
      expect(line).not.toMatch(/NaN|undefined|null|Infinity/);
    }
    expect(lines.at(-1)).toBe('- none');
  });

  it('gives each number its unit and date', () => {
    const data = everythingKnown();
    const text = renderSnapshotText(data);
    const lines = text.split('\n');
    const lastClose = data.indicators.lastClose!;
    expect(lines).toContain(`Last close: ${lastClose.toFixed(2)} USD (2025-10-10)`);
    expect(lines).toContain('Last price: 1234.56 USD (2025-10-10); day change -12.34 USD (-0.99 %)');
    expect(lines).toContain('Market cap: 1.23 T USD');
    expect(lines).toContain('Dividend yield: 1.23 %');
    expect(lines).toContain('Profit margin: 23.45 % | Revenue growth (year over year): -4.56 %');
    expect(lines).toContain(`RSI(14): ${data.indicators.rsi14!.toFixed(1)} (2025-10-10)`);
    expect(lines.find((line) => line.startsWith('Max drawdown (1 year): '))).toMatch(
      /^Max drawdown \(1 year\): -\d+\.\d\d % \(peak \d{4}-\d\d-\d\d, trough \d{4}-\d\d-\d\d\)$/,
    );
    expect(lines).toContain('- 3 session(s) without a price were skipped');
  });

  it('stays under the ~1,200-token budget with every field present and long names', () => {
    const text = renderSnapshotText(everythingKnown());
    // only the instruction line names the phrase: every value is present
    expect(text.split('\n').slice(2).join('\n')).not.toContain(notAvailable);
    expect(text.length).toBeLessThanOrEqual(snapshotTextBudgetChars);
    expect(Math.ceil(text.length / 4)).toBeLessThanOrEqual(1_200);
  });

  it('labels year figures by the window they cover when the history is short', () => {
    const bars = yearOfBars().slice(-60);
    const text = renderSnapshotText({ ...everythingKnown(), bars, indicators: computeIndicators(bars), warnings: [] });
    expect(text).toContain(`Max drawdown (60 sessions since ${bars[0]!.date}): `);
    expect(text).toContain('1 year not available — do not estimate');
  });
});

describe('number formats', () => {
  it('prices, quantities and fractions', () => {
    expect(formatPrice(245.27, 'USD')).toBe('245.27 USD');
    expect(formatPrice(1.08456, 'USD')).toBe('1.0846 USD');
    expect(formatPrice(null, 'USD')).toBe(notAvailable);
    expect(formatQuantity(3_639_902_470_144, 'USD')).toBe('3.64 T USD');
    expect(formatQuantity(54_836_700, 'shares')).toBe('54.84 M shares');
    expect(formatQuantity(950, 'shares')).toBe('950 shares');
    expect(formatFraction(0.0042)).toBe('0.42 %');
    expect(formatFraction(0.25, true)).toBe('+25.00 %');
    expect(formatFraction(Number.NaN)).toBe(notAvailable);
  });
});
