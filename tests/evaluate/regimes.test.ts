import { describe, expect, it } from 'vitest';
import { evaluateRuns } from '../../src/evaluate/evaluate.js';
import { benchmarkTrend, regimeBreakdown, regimeOfTrend } from '../../src/evaluate/regimes.js';
import { summarize } from '../../src/evaluate/summary.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import { marketOf, pathOf, runAt, sessionDays } from './synthetic.js';

const nyse = exchangeCalendar('XNYS');

/**
 * A hand-made benchmark: 63 sessions up from 100 to 110 (+10 %), 63 down to 99 (−10 %),
 * 63 flat to 100 (+1.01 %). Runs as of each leg's last session see that leg's trend;
 * one as of session 30 has too little history to be labelled.
 */

const days = sessionDays('2024-01-02', 200);
const legs = (index: number) =>
  index <= 63 ? 100 + (10 * index) / 63 : index <= 126 ? 110 - (11 * (index - 63)) / 63 : 99 + (index - 126) / 63;
const benchmark = days.map((date, index) => {
  const close = legs(Math.min(index, 189));
  return { date, open: close, high: close, low: close, close };
});

describe('regimes', () => {
  it('labels by the trend over the 63 sessions to the as-of session: > +5 % up, < −5 % down, else flat', () => {
    expect(regimeOfTrend(0.0501)).toBe('up');
    expect(regimeOfTrend(0.05)).toBe('flat');
    expect(regimeOfTrend(-0.05)).toBe('flat');
    expect(regimeOfTrend(-0.0501)).toBe('down');
    expect(benchmarkTrend(benchmark, nyse.closeAt(days[63]!))).toBeCloseTo(0.1, 12);
    expect(benchmarkTrend(benchmark, nyse.closeAt(days[126]!))).toBeCloseTo(99 / 110 - 1, 12);
    expect(benchmarkTrend(benchmark, nyse.closeAt(days[189]!))).toBeCloseTo(100 / 99 - 1, 12);
    // An hour before the 63rd session's close, that close is not known: the trend ends a session earlier.
    expect(benchmarkTrend(benchmark, new Date(nyse.closeAt(days[63]!).getTime() - 3_600_000))).toBeNull();
    expect(benchmarkTrend(benchmark, nyse.closeAt(days[62]!))).toBeNull();
  });

  it('each decision carries its regime; the summary counts hit rate (Wilson) and mean excess per regime', async () => {
    // The stock follows the benchmark but gains 1 % a session over it: every BUY wins and beats the market.
    const stock = pathOf(
      days,
      days.map((_, index) => (index === 0 ? 0 : benchmark[index]!.close / benchmark[index - 1]!.close - 1 + 0.01)),
    );
    const runs = [30, 63, 126, 189, 70].map((index) => runAt(`run-${index}`, 'FLOW', stock[index]!));
    const { prices } = marketOf({ SPY: benchmark, FLOW: stock });
    const now = new Date(nyse.closeAt(days[199]!).getTime() + 86_400_000);
    const evaluation = await evaluateRuns(runs, { horizons: [5], benchmark: 'SPY', now }, prices);
    const regime = (runId: string) => evaluation.decisions.find((row) => row.runId === runId)!.regime;
    expect(regime('run-30')).toBeNull();
    expect(regime('run-63')).toBe('up');
    expect(regime('run-70')).toBe('up');
    expect(regime('run-126')).toBe('down');
    expect(regime('run-189')).toBe('flat');
    const group = summarize(evaluation, 1).groups[0]!;
    expect(group.regimes.up).toMatchObject({ n: 2, hitRate: 1 });
    expect(group.regimes.down).toMatchObject({ n: 1, hitRate: 1 });
    expect(group.regimes.flat).toMatchObject({ n: 1, hitRate: 1 });
    expect(group.regimesUnlabelled).toBe(1);
    // Five sessions of +1 % over the benchmark, compounded within the stock: excess a little above +5 %.
    expect(group.regimes.flat.meanExcess).toBeGreaterThan(0.05);
  });

  it('regimeBreakdown by hand: Wilson interval of 2 of 3, mean excess', () => {
    const breakdown = regimeBreakdown([
      { regime: 'up', won: true, excess: 0.02 },
      { regime: 'up', won: true, excess: 0.01 },
      { regime: 'up', won: false, excess: -0.03 },
      { regime: 'down', won: false, excess: null },
      { regime: null, won: true, excess: 0.5 },
    ]);
    expect(breakdown.up.n).toBe(3);
    expect(breakdown.up.hitRate).toBeCloseTo(2 / 3, 12);
    expect(breakdown.up.hitRateCI![0]).toBeCloseTo(0.2077, 4);
    expect(breakdown.up.hitRateCI![1]).toBeCloseTo(0.9385, 4);
    expect(breakdown.up.meanExcess).toBeCloseTo(0, 12);
    expect(breakdown.down).toMatchObject({ n: 1, hitRate: 0, meanExcess: null });
    expect(breakdown.flat).toEqual({ n: 0, hitRate: null, hitRateCI: null, meanExcess: null });
  });
});
