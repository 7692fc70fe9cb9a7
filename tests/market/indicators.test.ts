import { describe, expect, it } from 'vitest';
import {
  adjustedCloses,
  annualisedVolatility,
  averageTrueRange,
  computeIndicators,
  distanceFrom,
  highLowRange,
  maxDrawdown,
  periodReturn,
  periodReturns,
  relativeStrengthIndex,
  simpleMovingAverage,
  swingLevels,
  trailingMean,
  trueRanges,
  volumes,
} from '../../src/market/indicators.js';
import type { Bar } from '../../src/market/types.js';

/** A bar with only what a test sets; everything else missing. */
function bar(date: string, fields: Partial<Omit<Bar, 'date'>>): Bar {
  return { date, open: null, high: null, low: null, close: null, adjClose: null, volume: null, ...fields };
}

function closesBars(values: Array<number | null>, start = Date.UTC(2025, 0, 1)): Bar[] {
  return values.map((close, index) => bar(new Date(start + index * 86_400_000).toISOString().slice(0, 10), { close }));
}

function containsNaN(value: unknown): boolean {
  if (typeof value === 'number') return Number.isNaN(value) || !Number.isFinite(value);
  if (value && typeof value === 'object') return Object.values(value).some(containsNaN);
  return false;
}

describe('returns', () => {
  it('periodReturn is last ÷ the value `lookback` sessions back − 1', () => {
    const values = [10, 11, 12, 11, 13, 14];
    // 14 / 13 − 1 and 14 / 10 − 1
    expect(periodReturn(values, 1)).toBeCloseTo(1 / 13, 12);
    expect(periodReturn(values, 5)).toBeCloseTo(0.4, 12);
    // needs lookback + 1 values
    expect(periodReturn(values, 6)).toBeNull();
  });

  it('skips sessions without a close instead of reading them as zero', () => {
    // closes 10, (missing), 11, 12 → the series is 10, 11, 12: 1-day 12/11 − 1, 2-session 12/10 − 1
    const closes = adjustedCloses(closesBars([10, null, 11, 12]));
    expect(closes.map((point) => point.value)).toEqual([10, 11, 12]);
    const returns = periodReturns(closes);
    expect(returns.d1).toBeCloseTo(12 / 11 - 1, 12);
    expect(returns.w1).toBeNull();
  });

  it('prefers the adjusted close, so a dividend is not a price drop', () => {
    const bars = [bar('2025-01-02', { close: 100, adjClose: 99 }), bar('2025-01-03', { close: 99, adjClose: 99 })];
    // adjusted: 99 → 99 is flat; the traded closes would show −1 %
    expect(periodReturns(adjustedCloses(bars)).d1).toBe(0);
    expect(computeIndicators(bars).lastClose).toBe(99);
  });

  it('anchors adjusted closes to the latest traded close, so averages read in today’s prices', () => {
    // Yahoo scaled every adjusted close by 0.97 for a dividend paid after the last bar (the data was fetched later).
    const bars = Array.from({ length: 20 }, (_, index) =>
      bar(`2025-01-${String(index + 1).padStart(2, '0')}`, { close: 100 + index, adjClose: (100 + index) * 0.97 }),
    );
    const indicators = computeIndicators(bars);
    // SMA20 of the traded closes 100…119 is 109.5 (not 106.215); the last close 119 is 119 / 109.5 − 1 above it
    expect(indicators.lastClose).toBe(119);
    expect(indicators.sma20).toBeCloseTo(109.5, 10);
    expect(indicators.distanceFromSma20).toBeCloseTo(119 / 109.5 - 1, 12);
    // returns do not depend on the scale
    expect(indicators.returns.d1).toBeCloseTo(119 / 118 - 1, 12);
  });

  it('a bar with a traded close but no adjusted close keeps its close, not the anchor-scaled one', () => {
    // A flat 100 that Yahoo adjusted to 97 everywhere except one session, which has only its close.
    const adjusted = [97, 97, 97, null, 97];
    const bars = adjusted.map((adjClose, index) => bar(`2025-01-0${index + 1}`, { close: 100, adjClose }));
    const closes = adjustedCloses(bars);
    for (const point of closes) expect(point.value).toBeCloseTo(100, 10);
    const indicators = computeIndicators(bars);
    // the price never moved: no 1-day return, no swing in the path
    expect(indicators.returns.d1).toBeCloseTo(0, 12);
    expect(indicators.maxDrawdown1y).toBeCloseTo(0, 12);
    expect(indicators.lastClose).toBe(100);

    // the same series with the bare bar just before the last: the 1-day return was −3 %
    const beforeLast = [97, 97, 97, 97, null, 97].map((adjClose, index) =>
      bar(`2025-01-0${index + 1}`, { close: 100, adjClose }),
    );
    expect(computeIndicators(beforeLast).returns.d1).toBeCloseTo(0, 12);
  });

  it('the 1-year return needs a bar a year back: 252 sessions, or a first close ≥ 350 days earlier', () => {
    const nearlyYear = [
      { date: '2024-10-14', value: 100 },
      { date: '2025-10-10', value: 125 },
    ];
    // 361 days apart: 125 / 100 − 1
    expect(periodReturns(nearlyYear).y1).toBeCloseTo(0.25, 12);
    const halfYear = [
      { date: '2025-04-11', value: 100 },
      { date: '2025-10-10', value: 125 },
    ];
    expect(periodReturns(halfYear).y1).toBeNull();
  });
});

describe('moving averages', () => {
  it('SMA is the mean of the last `period` values; distance is value ÷ SMA − 1', () => {
    // (11 + 13 + 14) / 3 = 12.666…; 14 / 12.666… − 1 = 0.105263…
    const sma = simpleMovingAverage([10, 11, 12, 11, 13, 14], 3);
    expect(sma).toBeCloseTo(38 / 3, 12);
    expect(distanceFrom(14, sma)).toBeCloseTo(14 / (38 / 3) - 1, 12);
    expect(simpleMovingAverage([1, 2], 3)).toBeNull();
    expect(distanceFrom(null, 10)).toBeNull();
    expect(distanceFrom(10, 0)).toBeNull();
  });
});

describe('RSI (Wilder)', () => {
  it('matches a hand computation on a short series', () => {
    // changes +1, +1, −1, +2, +1 with period 3:
    //   seed: gain (1 + 1 + 0) / 3 = 0.6667, loss (0 + 0 + 1) / 3 = 0.3333
    //   +2:   gain (0.6667·2 + 2) / 3 = 1.1111, loss (0.3333·2 + 0) / 3 = 0.2222
    //   +1:   gain (1.1111·2 + 1) / 3 = 1.0741, loss (0.2222·2 + 0) / 3 = 0.1481
    //   RS = 7.25, RSI = 100 − 100 / 8.25 = 87.8788
    expect(relativeStrengthIndex([10, 11, 12, 11, 13, 14], 3)).toBeCloseTo(87.87878787878788, 10);
  });

  it('is 100 when every change is a gain, 50 when nothing moves, null with fewer than period + 1 closes', () => {
    const rising = Array.from({ length: 15 }, (_, index) => 100 + index);
    expect(relativeStrengthIndex(rising, 14)).toBe(100);
    expect(
      relativeStrengthIndex(
        Array.from({ length: 15 }, () => 100),
        14,
      ),
    ).toBe(50);
    expect(relativeStrengthIndex(rising.slice(0, 14), 14)).toBeNull();
  });
});

describe('ATR (Wilder)', () => {
  const bars = [
    bar('2025-01-01', { high: 10, low: 8, close: 9 }),
    bar('2025-01-02', { high: 12, low: 9, close: 11 }), // TR max(3, |12−9|, |9−9|) = 3
    bar('2025-01-03', { high: 11, low: 10, close: 10.5 }), // TR max(1, |11−11|, |10−11|) = 1
    bar('2025-01-06', { high: null, low: 10, close: 10.8 }), // no high: skipped, not a range of 0
    bar('2025-01-07', { high: 14, low: 11, close: 13 }), // TR max(3, |14−10.5|, |11−10.5|) = 3.5
    bar('2025-01-08', { high: 13, low: 12, close: 12 }), // TR max(1, |13−13|, |12−13|) = 1
  ];

  it('true ranges use the previous complete bar’s close across a gap', () => {
    expect(trueRanges(bars)).toEqual([3, 1, 3.5, 1]);
  });

  it('seeds with the mean of the first `period` ranges, then smooths', () => {
    // period 2: seed (3 + 1) / 2 = 2; (2·1 + 3.5) / 2 = 2.75; (2.75·1 + 1) / 2 = 1.875
    expect(averageTrueRange(bars, 2)).toBeCloseTo(1.875, 12);
    expect(averageTrueRange(bars, 5)).toBeNull();
  });
});

describe('volatility and drawdown', () => {
  it('annualises the sample standard deviation of log returns by √252', () => {
    // ln(110/100) = 0.0953102, ln(99/110) = −0.1053605; mean −0.0050252;
    // sample sd = √((0.1003353² + 0.1003353²) / 1) = 0.1418962; × √252 = 2.2525230
    expect(annualisedVolatility([100, 110, 99], 2)).toBeCloseTo(2.252522969955067, 10);
    // closes 100, 102, 101, 104, 103 → four log returns; sample sd × √252 = 0.3202416
    expect(annualisedVolatility([100, 102, 101, 104, 103], 4)).toBeCloseTo(0.3202415766767408, 10);
    // a 20-day window needs 20 returns
    expect(annualisedVolatility([100, 102, 101, 104, 103], 20)).toBeNull();
    // with a lower minimum the window takes what there is
    expect(annualisedVolatility([100, 102, 101, 104, 103], 20, 4)).toBeCloseTo(0.3202415766767408, 10);
  });

  it('max drawdown is the worst fall from a running peak', () => {
    // 120 → 90 is −25 %; 130 → 104 is only −20 %
    expect(maxDrawdown([100, 120, 90, 130, 104])).toBeCloseTo(-0.25, 12);
    expect(maxDrawdown([1, 2, 3])).toBe(0);
    expect(maxDrawdown([1])).toBeNull();
  });
});

describe('levels and volume', () => {
  it('high/low range and swing levels skip missing highs and lows', () => {
    const bars = [
      bar('2025-01-01', { high: 12, low: 9 }),
      bar('2025-01-02', { high: null, low: 7 }),
      bar('2025-01-03', { high: 15, low: 11 }),
      bar('2025-01-06', { high: 13, low: 10 }),
    ];
    expect(highLowRange(bars)).toEqual({ high: 15, low: 7 });
    // swing levels need sessions with both: the last two of those are 01-03 and 01-06
    expect(swingLevels(bars, 2)).toEqual({ support: 10, resistance: 15 });
    expect(swingLevels(bars, 4)).toEqual({ support: null, resistance: null });
  });

  it('volume averages keep a reported 0 and skip a missing volume', () => {
    const bars = [
      bar('a', { volume: 100 }),
      bar('b', { volume: null }),
      bar('c', { volume: 0 }),
      bar('d', { volume: 200 }),
    ];
    expect(volumes(bars)).toEqual([100, 0, 200]);
    // (0 + 200) / 2
    expect(trailingMean(volumes(bars), 2)).toBe(100);
    expect(trailingMean(volumes(bars), 4)).toBeNull();
    expect(trailingMean(volumes(bars), 4, 3)).toBe(100);
  });
});

describe('computeIndicators', () => {
  // 300 sessions, close = 100 + i (adjusted = close), high/low = close ± 1, volume 1,000.
  const bars = Array.from({ length: 300 }, (_, index) =>
    bar(new Date(Date.UTC(2024, 0, 1) + index * 86_400_000).toISOString().slice(0, 10), {
      open: 100 + index,
      high: 101 + index,
      low: 99 + index,
      close: 100 + index,
      adjClose: 100 + index,
      volume: 1_000,
    }),
  );
  const indicators = computeIndicators(bars);

  it('computes every field on a straight line', () => {
    expect(indicators.asOfBar).toBe(bars[299]!.date);
    expect(indicators.lastClose).toBe(399);
    // 1 day 399/398 − 1; 1 year: 252 back is close 147 → 399/147 − 1
    expect(indicators.returns.d1).toBeCloseTo(399 / 398 - 1, 12);
    expect(indicators.returns.y1).toBeCloseTo(399 / 147 - 1, 12);
    // SMA20 = mean(380…399) = 389.5; SMA200 = mean(200…399) = 299.5
    expect(indicators.sma20).toBeCloseTo(389.5, 12);
    expect(indicators.sma200).toBeCloseTo(299.5, 12);
    expect(indicators.distanceFromSma20).toBeCloseTo(399 / 389.5 - 1, 12);
    // every change a gain; every true range max(2, |high − previous close| = 2, …) = 2
    expect(indicators.rsi14).toBe(100);
    expect(indicators.atr14).toBeCloseTo(2, 12);
    expect(indicators.maxDrawdown1y).toBe(0);
    // the year window is the last 252 sessions: highs up to 400, lows down to 147 (close 148 − 1)
    expect(indicators.high52w).toBe(400);
    expect(indicators.low52w).toBe(147);
    expect(indicators.distanceFromHigh52w).toBeCloseTo(399 / 400 - 1, 12);
    // 20-session swing: lows from 379, highs to 400
    expect(indicators.support).toBe(379);
    expect(indicators.resistance).toBe(400);
    expect(indicators.averageVolume20d).toBe(1_000);
    expect(indicators.volumeRatio).toBe(1);
    expect(indicators.volatility20d).toBeGreaterThan(0);
    expect(indicators.volatility1y).toBeGreaterThan(0);
  });

  it('returns null, never NaN, for empty, missing or absurd data', () => {
    const empty = computeIndicators([]);
    expect(containsNaN(empty)).toBe(false);
    expect(empty.lastClose).toBeNull();
    expect(empty.returns).toEqual({ d1: null, w1: null, m1: null, m3: null, m6: null, y1: null });
    const absurd = computeIndicators([
      bar('2025-01-01', { close: 0, high: Number.NaN, low: -1, volume: Number.POSITIVE_INFINITY }),
      bar('2025-01-02', { close: null, adjClose: Number.NaN }),
      bar('2025-01-03', { close: 10, high: 11, low: 9, volume: 5 }),
    ]);
    expect(containsNaN(absurd)).toBe(false);
    expect(absurd.lastClose).toBe(10);
    expect(absurd.returns.d1).toBeNull();
    expect(absurd.rsi14).toBeNull();
    expect(absurd.high52w).toBe(11);
  });
});
