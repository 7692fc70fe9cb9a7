import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabeticalAlias, blindSnapshot } from '../../src/index.js';
import { computeIndicators } from '../../src/market/indicators.js';
import type { Bar } from '../../src/market/types.js';
import { leaksIn, namedSnapshot } from '../support/blind.js';

describe('blindSnapshot', () => {
  const named = namedSnapshot();
  const { snapshot: blind, unblind } = blindSnapshot(named);

  it('scales every price so the last close is 100 and keeps ratios, percentages and volumes', () => {
    expect(blind.indicators.lastClose).toBe(100);
    expect(unblind.scale).toBeCloseTo(named.indicators.lastClose! / 100, 12);
    expect(blind.indicators.atr14! * unblind.scale).toBeCloseTo(named.indicators.atr14!, 9);
    expect(blind.indicators.sma200! * unblind.scale).toBeCloseTo(named.indicators.sma200!, 9);
    expect(blind.quote.marketCap! * unblind.scale).toBeCloseTo(named.quote.marketCap!, 0);
    for (const field of [
      'rsi14',
      'volatility20d',
      'volatility1y',
      'maxDrawdown1y',
      'distanceFromSma50',
      'volumeRatio',
    ] as const) {
      expect(blind.indicators[field]).toBe(named.indicators[field]);
    }
    expect(blind.indicators.returns).toEqual(named.indicators.returns);
    expect(blind.quote.trailingPE).toBe(named.quote.trailingPE);
    expect(blind.bars.map((bar) => bar.volume)).toEqual(named.bars.map((bar) => bar.volume));
    // The indicators of the blind bars are the blind indicators: the scaling is consistent.
    const recomputed = computeIndicators(blind.bars);
    expect(recomputed.atr14).toBeCloseTo(blind.indicators.atr14!, 9);
    expect(recomputed.rsi14).toBeCloseTo(blind.indicators.rsi14!, 9);
  });

  it('replaces the identity with the alias, keeps the sector, drops the industry, and dates become offsets', () => {
    expect(blind.symbol).toBe('Company A');
    expect(blind.identity).toEqual({
      symbol: 'Company A',
      name: 'Company A',
      exchange: null,
      currency: null,
      quoteType: 'EQUITY',
      sector: 'Technology',
      industry: null,
    });
    expect(blind.asOf).toBe('D-0');
    expect(blind.bars.at(-1)?.date).toBe('D-0');
    expect(blind.bars[0]?.date).toBe('D-299');
    expect(blind.indicators.asOfBar).toBe('D-0');
    expect(blind.quote.priceTime).toBeNull();
    expect(
      blindSnapshot({ ...named, quote: { ...named.quote, earningsDate: '2026-12-03' } }).snapshot.quote.earningsDate,
    ).toBeNull();
    expect(blind.blind).toBe(true);
  });

  it('writes a block with no ticker, name, calendar day, year, weekday or raw price', () => {
    expect(leaksIn(named.text, named).length).toBeGreaterThan(10);
    expect(leaksIn(blind.text, named)).toEqual([]);
    expect(blind.text).not.toMatch(/\b(?:19|20)\d\d\b|Monday|Tuesday|Wednesday|Thursday|Friday|USD|Semiconductors/);
    expect(blind.text).toContain('MARKET DATA — Company A (blind');
    expect(blind.text).toContain('Last close: 100.00 blind units (D-0)');
    expect(blind.text).toMatch(/peak D-\d+, trough D-\d+/);
    expect(blind.text).toContain(
      '- Company A: Yahoo returned no analyst target for Company A on D-0 (last price (number hidden))',
    );
  });

  it('round-trips: unblind maps levels, prices and offsets back to the real ones', () => {
    const decision = { action: 'BUY', entry: 98.5, stopLoss: 94.25, takeProfit: 109, rationale: 'r' };
    const real = unblind.levels(decision);
    expect(real).toEqual({
      ...decision,
      entry: 98.5 * unblind.scale,
      stopLoss: 94.25 * unblind.scale,
      takeProfit: 109 * unblind.scale,
    });
    expect(unblind.levels({ entry: null, stopLoss: null, takeProfit: null })).toEqual({
      entry: null,
      stopLoss: null,
      takeProfit: null,
    });
    named.bars.forEach((bar, index) => {
      expect(unblind.session(blind.bars[index]!.date)).toBe(bar.date);
      expect(unblind.price(blind.bars[index]!.close)).toBeCloseTo(bar.close!, 9);
    });
    expect(unblind.session('D-999')).toBeNull();
    expect(unblind.price(blind.indicators.lastClose)).toBeCloseTo(named.indicators.lastClose!, 9);
  });

  it('round-trips any price (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e6, noNaN: true }),
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        (close, level) => {
          const bars: Bar[] = [
            { date: '2026-11-27', open: close, high: close, low: close, close, adjClose: close, volume: 1 },
          ];
          const snapshot = {
            ...named,
            bars,
            indicators: { ...named.indicators, lastClose: close },
            quote: { ...named.quote, price: close },
          };
          const { snapshot: scaled, unblind: back } = blindSnapshot(snapshot);
          expect(scaled.bars[0]!.close).toBeCloseTo(100, 6);
          expect(back.price(level / back.scale)! / level).toBeCloseTo(1, 9);
        },
      ),
    );
  });

  it('is pure: the named snapshot is untouched, and the same input blinds the same way', () => {
    const copy = structuredClone(named);
    const again = blindSnapshot(named);
    expect(named).toEqual(copy);
    expect(again.snapshot).toEqual(blind);
    expect(blindSnapshot(named, { alias: alphabeticalAlias(27) }).snapshot.symbol).toBe('Company AB');
    expect(alphabeticalAlias(0)).toBe('Company A');
    expect(alphabeticalAlias(25)).toBe('Company Z');
  });

  it('a snapshot with no price at all keeps scale 1 and nulls', () => {
    const empty = {
      ...named,
      bars: [],
      indicators: { ...named.indicators, lastClose: null, atr14: null },
      quote: { ...named.quote, price: null },
    };
    const { snapshot, unblind: back } = blindSnapshot(empty);
    expect(back.scale).toBe(1);
    expect(snapshot.indicators.lastClose).toBeNull();
    expect(snapshot.text).toContain('Last close: not available');
  });
});

describe('blind data notes whose case differs from the identity (issue 47 item 21)', () => {
  it('replaces the symbol and the name whatever their case', async () => {
    const { blindText } = await import('../../src/market/blind-text.js');
    const context = {
      identity: {
        symbol: 'NVDA',
        name: 'NVIDIA Corporation',
        exchange: null,
        currency: null,
        quoteType: null,
        sector: null,
        industry: null,
      },
      symbol: 'NVDA',
      alias: 'ASSET-1',
      offsets: new Map<string, string>(),
    };
    const blind = blindText("symbol: nvda; Nvidia's quote endpoint; nvidia corporation answered", context);
    expect(blind).toBe("symbol: ASSET-1; ASSET-1's quote endpoint; ASSET-1 answered");
    expect(blind.toLowerCase()).not.toContain('nvd');
    expect(blind.toLowerCase()).not.toContain('nvidia');
  });
});
