import { describe, expect, it } from 'vitest';
import { evaluateRuns, type DecisionRow } from '../../src/evaluate/evaluate.js';
import { seededRandom, shuffle } from '../../src/evaluate/statistics.js';
import { summarize, type Strategy } from '../../src/evaluate/summary.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { ContaminationLabel } from '../../src/pipeline/contamination.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { acmePath, benchmarkPath, chartOf, yearBefore } from './support.js';

/**
 * evaluateRuns + summarize through the real Yahoo client on the loopback stand-in,
 * serving the hand-made path of support.ts. Horizon 5 ends at the 06-09 close (96);
 * the benchmark goes 500 (06-03 open) → 502 (06-03 close), 505 (06-04), 505 (06-09).
 */

const now = new Date('2025-06-10T12:00:00Z');
const rising = (index: number) => 80 + index * 0.05;
const falling = (index: number) => 120 - index * 0.05;

function savedRun(
  runId: string,
  decision: Partial<Decision>,
  options: {
    label?: ContaminationLabel;
    trend?: (index: number) => number;
    ticker?: string;
    referenceClose?: number;
  } = {},
): AnalysisResult {
  const reference = { ...acmePath[0]!, close: options.referenceClose ?? acmePath[0]!.close };
  const bars = [...yearBefore('2025-06-02', options.trend ?? rising), reference].map((session) => ({
    ...session,
    adjClose: session.close,
    volume: 1_000_000,
  }));
  return makeResult({
    runId,
    ticker: options.ticker ?? 'ACME',
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'historical',
    contamination: { label: options.label ?? 'clean', models: [], reason: '' },
    market: makeMarket({ symbol: options.ticker ?? 'ACME', bars }),
    decision: makeDecision({ orderType: 'market', entry: null, ...decision }),
  });
}

function market() {
  const charts: string[] = [];
  const router = createYahooRouter(
    acmeRoutes({
      chart: (symbol) => {
        charts.push(symbol);
        return chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath);
      },
    }),
  );
  return {
    prices: createYahooMarketData({ fetch: router.fetch }) as Required<ReturnType<typeof createYahooMarketData>>,
    charts,
    router,
  };
}

const runs = [
  savedRun('a', { action: 'BUY', conviction: 80, stopLoss: 95, takeProfit: 105 }),
  savedRun('b', { action: 'BUY', conviction: 40, stopLoss: 99.5, takeProfit: 110 }),
  savedRun(
    'c',
    { action: 'SELL', conviction: 60, stopLoss: 103, takeProfit: 99.5 },
    { trend: falling, ticker: 'BETA' },
  ),
  savedRun('d', { action: 'HOLD', conviction: 50, stopLoss: null, takeProfit: null }),
  savedRun('e', { action: 'BUY', conviction: 90, stopLoss: 95, takeProfit: 105 }, { label: 'contaminated' }),
  savedRun('f', { action: 'BUY', conviction: 70, orderType: 'limit', entry: 93, stopLoss: 90, takeProfit: 110 }),
];

function horizon(row: DecisionRow | undefined, days: number) {
  return row!.horizons.find((item) => item.horizon === days)!;
}

describe('evaluateRuns', () => {
  it('one bars request per ticker and one for the benchmark; exact returns and excess per decision', async () => {
    const { prices, charts } = market();
    const evaluation = await evaluateRuns(runs, { horizons: [5, 10], benchmark: 'SPY', now }, prices);
    expect(charts.sort()).toEqual(['ACME', 'BETA', 'SPY']);
    const byId = new Map(evaluation.decisions.map((row) => [row.runId, row]));

    // a: BUY, target 105 touched 06-04 → +5 %; SPY 500 → 505 = +1 %; excess +4 %.
    expect(horizon(byId.get('a'), 5)).toMatchObject({
      outcome: 'target',
      entryDate: '2025-06-03',
      entryPrice: 100,
      exitDate: '2025-06-04',
      exitPrice: 105,
    });
    expect(horizon(byId.get('a'), 5).signedReturn).toBeCloseTo(0.05, 12);
    expect(horizon(byId.get('a'), 5).benchmarkReturn).toBeCloseTo(0.01, 12);
    expect(horizon(byId.get('a'), 5).excess).toBeCloseTo(0.04, 12);
    // b: BUY, stop 99.5 touched 06-03 → −0.5 %; SPY 500 → 502 = +0.4 %; excess −0.9 %.
    expect(horizon(byId.get('b'), 5)).toMatchObject({ outcome: 'stop', exitPrice: 99.5 });
    expect(horizon(byId.get('b'), 5).excess).toBeCloseTo(-0.009, 12);
    // c: SELL, target 99.5 touched 06-03 → +0.5 %; stock −0.5 % vs SPY +0.4 % → excess +0.9 %.
    expect(horizon(byId.get('c'), 5)).toMatchObject({ outcome: 'target', exitPrice: 99.5 });
    expect(horizon(byId.get('c'), 5).signedReturn).toBeCloseTo(0.005, 12);
    expect(horizon(byId.get('c'), 5).excess).toBeCloseTo(0.009, 12);
    // d: HOLD over 5 sessions, 100 → 96 = −4 %, no position.
    expect(horizon(byId.get('d'), 5)).toMatchObject({ outcome: 'abstained', signedReturn: null, excess: null });
    expect(horizon(byId.get('d'), 5).stockReturn).toBeCloseTo(-0.04, 12);
    // f: a BUY limit at 93 — the lowest low is 94.
    expect(horizon(byId.get('f'), 5).outcome).toBe('unfilled');

    // 10 sessions have not elapsed by 06-10: pending, except where a level was already touched.
    expect(horizon(byId.get('a'), 10).outcome).toBe('target');
    expect(horizon(byId.get('d'), 10).outcome).toBe('pending');
    expect(horizon(byId.get('f'), 10).outcome).toBe('pending');
    expect(evaluation.decisions.every((row) => row.rescaled === null)).toBe(true);
  });

  it('a split between the run and the evaluation: levels rescaled by the refetched close ratio, flagged', async () => {
    const { prices } = market();
    // Saved before a 2-for-1 split: the 06-02 close was 200, the levels 190 / 210.
    const split = savedRun('split', { action: 'BUY', stopLoss: 190, takeProfit: 210 }, { referenceClose: 200 });
    const evaluation = await evaluateRuns([split], { horizons: [5], benchmark: 'SPY', now }, prices);
    const row = evaluation.decisions[0]!;
    expect(row.rescaled).toEqual({ date: '2025-06-02', savedClose: 200, refetchedClose: 100, ratio: 0.5 });
    expect(row).toMatchObject({ stopLoss: 95, takeProfit: 105 });
    expect(horizon(row, 5)).toMatchObject({ outcome: 'target', exitPrice: 105 });
    expect(evaluation.warnings.join('\n')).toContain('levels were rescaled by 0.5000');
  });

  it('a small revision within tolerance is not a split', async () => {
    const { prices } = market();
    const evaluation = await evaluateRuns(
      [savedRun('r', { action: 'BUY' }, { referenceClose: 100.3 })],
      { horizons: [5], benchmark: 'SPY', now },
      prices,
    );
    expect(evaluation.decisions[0]!.rescaled).toBeNull();
  });

  it('a ticker Yahoo does not know: its decisions are listed unscored with the reason, the rest scored', async () => {
    const router = createYahooRouter(
      acmeRoutes({
        chart: (symbol) =>
          symbol === 'GONE'
            ? {
                status: 404,
                statusText: 'Not Found',
                contentType: 'application/json',
                body: JSON.stringify({
                  chart: {
                    result: null,
                    error: { code: 'Not Found', description: 'No data found, symbol may be delisted' },
                  },
                }),
              }
            : chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath),
      }),
    );
    const prices = createYahooMarketData({ fetch: router.fetch, retries: 0 }) as Required<
      ReturnType<typeof createYahooMarketData>
    >;
    const evaluation = await evaluateRuns(
      [runs[0]!, savedRun('g', { action: 'BUY' }, { ticker: 'GONE' })],
      { horizons: [5], benchmark: 'SPY', now },
      prices,
    );
    expect(evaluation.decisions.find((row) => row.runId === 'g')).toMatchObject({
      problem: "unknown ticker 'GONE'",
      horizons: [],
    });
    expect(evaluation.decisions.find((row) => row.runId === 'a')!.problem).toBeNull();
    expect(evaluation.warnings).toContain("GONE: unknown ticker 'GONE'; its 1 decision(s) are not scored");
  });
});

describe('summarize', () => {
  it('desks against the baselines on the same decisions, clean and contaminated apart', async () => {
    const { prices } = market();
    const summary = summarize(await evaluateRuns(runs, { horizons: [5, 10], benchmark: 'SPY', now }, prices), 1);
    const clean = summary.groups.find((group) => group.contamination === 'clean' && group.horizon === 5)!;
    const stats = (strategy: Strategy) => clean.strategies.find((item) => item.strategy === strategy)!;

    // a, b, c are positions; d is a HOLD, f unfilled; e is contaminated and not here.
    expect(clean).toMatchObject({ decisions: 5, holds: 1, pending: 0, ambiguous: 0, unfilled: 1, rescaled: 0 });
    expect(clean.holdMeanReturn).toBeCloseTo(-0.04, 12);
    const desks = stats('desks');
    expect(desks).toMatchObject({ count: 3, hits: 2 });
    expect(desks.hitRate).toBeCloseTo(2 / 3, 12);
    // Wilson 95 % for 2 of 3, by hand: centre 0.57309, half-width 0.36543.
    expect(desks.hitInterval!.low).toBeCloseTo(0.2077, 4);
    expect(desks.hitInterval!.high).toBeCloseTo(0.9385, 4);
    // Excess +4 %, −0.9 %, +0.9 %: mean 1.3333 %, median 0.9 %; conviction 80, 40, 60 ranks the same way → ρ = 1.
    expect(desks.meanExcess).toBeCloseTo(0.04 / 3, 12);
    expect(desks.medianExcess).toBeCloseTo(0.009, 12);
    expect(desks.spearman).toBeCloseTo(1, 12);

    // Always BUY on a, b, c: 06-03 open 100 → 06-09 close 96 = −4 %, SPY +1 % → excess −5 % each.
    expect(stats('always-buy')).toMatchObject({ count: 3, hits: 0, spearman: null });
    expect(stats('always-buy').meanExcess).toBeCloseTo(-0.05, 12);
    // Momentum: a and b rose over the year (BUY: −5 %), c fell (SELL: +4 %, excess +5 %).
    expect(stats('momentum-12-1')).toMatchObject({ count: 3, hits: 1 });
    expect(stats('momentum-12-1').meanExcess).toBeCloseTo(-0.05 / 3, 12);
    // Random: the desks' own mix (BUY, BUY, SELL) shuffled with the seed.
    const mix = shuffle(['BUY', 'BUY', 'SELL'] as const, seededRandom(1));
    const expectedHits = mix.filter((action) => action === 'SELL').length;
    expect(stats('random')).toMatchObject({ count: 3, hits: expectedHits });

    // 10 sessions have not elapsed for any decision: all pending, none scored — not even those a level closed early.
    const later = summary.groups.find((group) => group.contamination === 'clean' && group.horizon === 10)!;
    expect(later).toMatchObject({ decisions: 5, pending: 5, unfilled: 0 });
    expect(later.strategies.map((item) => item.count)).toEqual([0, 0, 0, 0]);

    const contaminated = summary.groups.find((group) => group.contamination === 'contaminated' && group.horizon === 5)!;
    expect(contaminated.decisions).toBe(1);
    expect(contaminated.strategies[0]).toMatchObject({ strategy: 'desks', count: 1, hits: 1 });
  });

  it('baselines are deterministic under a seed', async () => {
    const { prices } = market();
    const evaluation = await evaluateRuns(runs, { horizons: [5], benchmark: 'SPY', now }, prices);
    expect(summarize(evaluation, 7)).toEqual(summarize(evaluation, 7));
    expect(summarize(evaluation, 7).seed).toBe(7);
  });
});
