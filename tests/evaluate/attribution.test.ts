import { describe, expect, it } from 'vitest';
import { evaluateRuns } from '../../src/evaluate/evaluate.js';
import type { PricedSession } from '../../src/evaluate/outcome.js';
import { summarize, type GroupSummary } from '../../src/evaluate/summary.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { marketOf, normals, pathOf, runAt, sessionDays } from './synthetic.js';

const nyse = exchangeCalendar('XNYS');

/**
 * Attribution on synthetic books, through evaluateRuns and the real Yahoo client on the
 * loopback stand-in: 300 sessions from 2024-01-02; the benchmark drifts up (+0.2 % a day,
 * 1 % daily noise); one BUY every five sessions from session 70, held five sessions to
 * the horizon's close (no stop, no target), so the windows do not overlap.
 */

const days = sessionDays('2024-01-02', 300);
const benchmarkDaily = normals(11, days.length).map((z) => 0.002 + 0.01 * z);
const spy = pathOf(days, benchmarkDaily, 400);
const now = new Date(nyse.closeAt(days[days.length - 1]!).getTime() + 86_400_000);
const asOfIndexes = (count: number) => Array.from({ length: count }, (_, index) => 70 + 5 * index);

function book(ticker: string, path: readonly PricedSession[], count: number, overrides: Partial<AnalysisResult> = {}) {
  return asOfIndexes(count).map((index) => runAt(`${ticker}-${index}`, ticker, path[index]!, {}, overrides));
}

async function groupOf(
  runs: AnalysisResult[],
  paths: Record<string, readonly PricedSession[]>,
  options: { seed?: number; sectorBenchmarks?: boolean } = {},
): Promise<GroupSummary> {
  const { prices } = marketOf({ SPY: spy, ...paths });
  const evaluation = await evaluateRuns(
    runs,
    { horizons: [5], benchmark: 'SPY', now, sectorBenchmarks: options.sectorBenchmarks ?? false },
    prices,
  );
  expect(evaluation.decisions.every((row) => row.problem === null)).toBe(true);
  const summary = summarize(evaluation, options.seed ?? 1, { sectorBenchmarks: options.sectorBenchmarks ?? false });
  return summary.groups.find((group) => group.contamination === 'clean' && group.horizon === 5)!;
}

describe('alpha after beta', () => {
  it('a pure-beta book (1.5 × the benchmark + noise): beta ≈ 1.5, the alpha interval contains 0, the raw mean is positive', async () => {
    const noise = normals(12, days.length);
    const stock = pathOf(
      days,
      benchmarkDaily.map((r, index) => 1.5 * r + 0.004 * noise[index]!),
    );
    const group = await groupOf(book('LEVER', stock, 40), { LEVER: stock });
    expect(group.n).toBe(40);
    expect(group.regressionNote).toBeNull();
    expect(group.beta).toBeGreaterThan(1.4);
    expect(group.beta).toBeLessThan(1.6);
    expect(group.alphaCI![0]).toBeLessThan(0);
    expect(group.alphaCI![1]).toBeGreaterThan(0);
    expect(group.alphaCI![0]).toBeLessThan(group.alpha!);
    expect(group.alphaCI![1]).toBeGreaterThan(group.alpha!);
    const desks = group.strategies.find((item) => item.strategy === 'desks')!;
    expect(desks.count).toBe(40);
    expect(desks.meanReturn).toBeGreaterThan(0.01);
  });

  it('a book with a true edge (the benchmark + 0.2 % a session): alpha ≈ +1 % per five-session decision, its interval excludes 0', async () => {
    const noise = normals(13, days.length);
    const stock = pathOf(
      days,
      benchmarkDaily.map((r, index) => r + 0.002 + 0.0005 * noise[index]!),
    );
    const group = await groupOf(book('EDGE', stock, 40), { EDGE: stock });
    expect(group.beta).toBeGreaterThan(0.95);
    expect(group.beta).toBeLessThan(1.1);
    expect(group.alpha).toBeGreaterThan(0.008);
    expect(group.alpha).toBeLessThan(0.012);
    expect(group.alphaCI![0]).toBeGreaterThan(0);
  });

  it('the same seed gives the same bootstrap interval; another seed moves it', async () => {
    const noise = normals(12, days.length);
    const stock = pathOf(
      days,
      benchmarkDaily.map((r, index) => 1.5 * r + 0.004 * noise[index]!),
    );
    const runs = book('LEVER', stock, 20);
    const first = await groupOf(runs, { LEVER: stock }, { seed: 5 });
    const again = await groupOf(runs, { LEVER: stock }, { seed: 5 });
    const other = await groupOf(runs, { LEVER: stock }, { seed: 6 });
    expect(again.alphaCI).toEqual(first.alphaCI);
    expect(other.alphaCI).not.toEqual(first.alphaCI);
    expect(other.alpha).toBe(first.alpha);
  });

  it('"too few to regress" below 8 scored decisions; numbers from 8', async () => {
    const stock = pathOf(
      days,
      benchmarkDaily.map((r) => 1.2 * r),
    );
    const seven = await groupOf(book('FEW', stock, 7), { FEW: stock });
    expect(seven).toMatchObject({ n: 7, regressionNote: 'too few to regress', beta: null, alpha: null, alphaCI: null });
    const eight = await groupOf(book('FEW', stock, 8), { FEW: stock });
    expect(eight.regressionNote).toBeNull();
    expect(eight.beta).toBeCloseTo(1.2, 1);
  });

  it('--sector-benchmarks: the sector SPDR ETF (Technology → XLK) as a second regressor', async () => {
    const sectorDaily = normals(14, days.length).map((z) => 0.0005 + 0.012 * z);
    const xlk = pathOf(days, sectorDaily, 200);
    const noise = normals(15, days.length);
    const stock = pathOf(
      days,
      benchmarkDaily.map((r, index) => 0.5 * r + 1.0 * sectorDaily[index]! + 0.002 * noise[index]!),
    );
    const { prices, charts } = marketOf({ SPY: spy, XLK: xlk, TECH: stock });
    const evaluation = await evaluateRuns(
      book('TECH', stock, 40),
      { horizons: [5], benchmark: 'SPY', now, sectorBenchmarks: true },
      prices,
    );
    expect(charts.sort()).toEqual(['SPY', 'TECH', 'XLK']);
    expect(evaluation.decisions[0]!.sectorBenchmark).toBe('XLK');
    expect(typeof evaluation.decisions[0]!.horizons[0]!.sectorReturn).toBe('number');
    const group = summarize(evaluation, 1, { sectorBenchmarks: true }).groups[0]!;
    expect(group.beta).toBeGreaterThan(0.4);
    expect(group.beta).toBeLessThan(0.6);
    expect(group.sectorBeta).toBeGreaterThan(0.9);
    expect(group.sectorBeta).toBeLessThan(1.1);
    // Without the flag the field is absent, not null: a reader can tell "not asked" from "not available".
    expect('sectorBeta' in summarize(evaluation, 1).groups[0]!).toBe(false);
  });
});

describe('trials for the Deflated Sharpe', () => {
  it('N = distinct configurations (models × prompt version × limits × search) among the runs, or --trials', async () => {
    const stock = pathOf(
      days,
      benchmarkDaily.map((r, index) => r + (index % 2 ? 0.001 : -0.0005)),
    );
    const options = (search: string, maxRiskPct = 1) => ({
      models: { director: 'gpt-4.1', quant: 'gpt-4.1' },
      baseUrlHost: 'api.openai.com',
      limits: { maxPositionPct: 10, maxRiskPct, minRewardRisk: 1.5 },
      maxCostUsd: null,
      search,
      agents: [],
    });
    const runs = [
      ...book('CONF', stock, 4, { options: options('exa'), autohedgeVersion: '0.3.0' }),
      // Another base URL and cap are not another configuration; another search source and another limit are.
      ...book('CONF', stock, 8)
        .slice(4)
        .map((run, index) => ({
          ...run,
          autohedgeVersion: '0.3.0',
          options: {
            ...options(index % 2 ? 'openai' : 'exa', index % 2 ? 1 : 2),
            baseUrlHost: 'localhost',
            maxCostUsd: 1,
          },
        })),
    ];
    const { prices } = marketOf({ SPY: spy, CONF: stock });
    const evaluation = await evaluateRuns(runs, { horizons: [5], benchmark: 'SPY', now }, prices);
    // exa/1 (first four), exa/2 and openai/1 (the last four alternate): three configurations.
    expect(summarize(evaluation, 1).groups[0]!.trials).toBe(3);
    expect(summarize(evaluation, 1, { trials: 50 }).groups[0]!.trials).toBe(50);
    const deflated = (trials: number) => summarize(evaluation, 1, { trials }).groups[0]!.deflatedSharpe!;
    expect(deflated(50)).toBeLessThan(deflated(1));
  });
});
