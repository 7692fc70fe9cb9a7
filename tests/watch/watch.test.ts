// `autohedge watch --as-of D --once`, day by day over 20 sessions of synthetic paths for 10
// tickers with planted events, through runCli against the loopback OpenAI-compatible server:
// exactly the planted tickers are analysed on the planted days, with the right trigger names.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { WatchReport } from '../../src/watch/delta.js';
import { captureIo, type CapturedIo } from '../support/cli.js';
import { byAgent } from '../support/faults.js';
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.js';
import { pathMarket, sessionsEndingOn, syntheticPath, type Planted } from './support.js';

const windowLength = 20;
const days = sessionsEndingOn('2026-11-20', 260 + windowLength);
const windowStart = days.length - windowLength;
const watchDays = days.slice(windowStart);
const planted: Record<string, Planted> = {
  GAPP: { gapOn: 5 },
  STOP: { stopDipOn: 8 },
  TGT: { targetSpikeOn: 12 },
  DRFT: { driftPerDay: 0.006 },
  QA: {},
  QB: {},
  QC: {},
  QD: {},
  QE: {},
  QF: {},
};
const tickers = Object.keys(planted);
const paths = Object.fromEntries(
  tickers.map((ticker, index) => [ticker, syntheticPath(days, windowStart, 50 + 10 * index, planted[ticker]!)]),
);

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer(byAgent());
});
afterAll(async () => {
  await server.close();
});

function ioFor(home: string): CapturedIo {
  const io = captureIo();
  return {
    ...io,
    env: { ...io.env, AUTOHEDGE_HOME: home, OPENAI_API_KEY: 'sk-watch-test-1234', OPENAI_BASE_URL: server.url },
  };
}

async function watchDay(home: string, cwd: string, day: string, extra: string[] = []) {
  const io = { ...ioFor(home), cwd };
  const market = pathMarket(paths);
  const code = await runCli(
    [
      'watch',
      '--universe',
      'watchlist.txt',
      '--once',
      '--as-of',
      day,
      '--json',
      '--search',
      'none',
      '--max-age',
      '30',
      '--quiet',
      ...extra,
    ],
    io,
    { market, now: () => new Date('2026-12-01T12:00:00Z') },
  );
  expect(code, io.err()).toBe(0);
  return { report: JSON.parse(io.out()) as WatchReport, io, market };
}

describe('autohedge watch, day by day on planted paths', () => {
  it('analyses exactly the planted tickers on the planted days, naming the triggers', async () => {
    const first = ioFor('');
    const home = join(first.cwd, 'home');
    writeFileSync(join(first.cwd, 'watchlist.txt'), `${tickers.join('\n')}\n`);
    const triggered: Record<number, Record<string, string[]>> = {};
    let analyses = 0;
    for (const [index, day] of watchDays.entries()) {
      const { report } = await watchDay(home, first.cwd, day);
      if (report.analysed.length > 0)
        triggered[index] = Object.fromEntries(
          report.analysed.map((item) => [item.ticker, item.triggers.map((trigger) => trigger.name)]),
        );
      analyses += report.analysed.length;
      for (const item of report.analysed) expect(item.runId, `${day} ${item.ticker}: ${item.problem}`).not.toBeNull();
      expect(report.carried.length + report.analysed.length).toBe(tickers.length);
    }
    expect(triggered[0]).toEqual(Object.fromEntries(tickers.map((ticker) => [ticker, ['no-call']])));
    expect(triggered[5]?.GAPP).toEqual(['gap', 'move']);
    expect(triggered[8]?.STOP).toEqual(['stop-touched']);
    expect(triggered[12]?.TGT).toEqual(['target-touched']);
    // Nothing else fires but the drift, and that only as `move`, every few sessions.
    const others = Object.entries(triggered)
      .filter(([day]) => day !== '0')
      .flatMap(([day, byTicker]) =>
        Object.entries(byTicker).map(([ticker, names]) => ({ day: Number(day), ticker, names })),
      );
    const drift = others.filter((item) => item.ticker === 'DRFT');
    expect(drift.length).toBeGreaterThanOrEqual(2);
    expect(drift.every((item) => item.names.join() === 'move')).toBe(true);
    expect(drift[0]!.day).toBeGreaterThanOrEqual(4);
    expect(
      others
        .filter((item) => item.ticker !== 'DRFT')
        .map((item) => `${item.day}:${item.ticker}`)
        .sort(),
    ).toEqual(['12:TGT', '5:GAPP', '8:STOP'].sort());
    // A daily full run would have analysed 10 tickers × 20 sessions.
    expect(analyses).toBeLessThan(tickers.length + 10);
    expect(analyses).toBeLessThan((tickers.length * windowLength) / 5);
  }, 180_000);

  it('the budget stops new analyses at the limit and lists the skipped tickers, most urgent first', async () => {
    const first = ioFor('');
    const home = join(first.cwd, 'home');
    writeFileSync(join(first.cwd, 'watchlist.txt'), `${tickers.join('\n')}\n`);
    // Day 0: every ticker gets its first call (no budget yet).
    await watchDay(home, first.cwd, watchDays[0]!);
    // Day 12, with nothing run in between: a gap (day 5), a stop (8), a target (12) and the drift.
    const { report } = await watchDay(home, first.cwd, watchDays[12]!, [
      '--budget-usd',
      '0.01',
      '--run-max-cost',
      '0.25',
    ]);
    expect(report.analysed).toEqual([]);
    expect(report.skipped.map((item) => [item.ticker, item.triggers[0]!.name])).toEqual([
      ['STOP', 'stop-touched'],
      ['TGT', 'target-touched'],
      ['GAPP', 'gap'],
      ['DRFT', 'move'],
    ]);
    expect(report.skipped[0]!.reason).toContain("the month's budget");
    // Room for exactly one run's worst case above this month's spend: the most urgent runs.
    const spent = report.spend.monthUsd;
    expect(spent).toBeGreaterThan(0);
    const next = await watchDay(home, first.cwd, watchDays[12]!, [
      '--budget-usd',
      (spent + 0.3).toFixed(6),
      '--run-max-cost',
      '0.25',
    ]);
    expect(next.report.analysed.map((item) => item.ticker)).toEqual(['STOP']);
    expect(next.report.skipped.map((item) => item.ticker)).toEqual(['TGT', 'GAPP', 'DRFT']);
    expect(next.report.spend.budgetUsd).toBeCloseTo(spent + 0.3, 6);
    // The month's spend as the cycle ends counts the run it just made, not only what came before it.
    expect(next.report.spend.monthUsd).toBeGreaterThan(spent);
  }, 120_000);
});

describe('autohedge watch --every, interrupted mid-cycle', () => {
  it('SIGTERM (the abort signal) mid-cycle: finished analyses are saved, the rest are analysed next cycle', async () => {
    const script = byAgent();
    const slow = await startOpenAIServer((body, index, request) => ({ ...script(body, index, request), delayMs: 150 }));
    try {
      const base = captureIo();
      const home = join(base.cwd, 'home');
      writeFileSync(join(base.cwd, 'watchlist.txt'), `${tickers.join('\n')}\n`);
      const env = {
        ...base.env,
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: 'sk-watch-test-1234',
        OPENAI_BASE_URL: slow.url,
      };
      const controller = new AbortController();
      const io = { ...base, env, signal: controller.signal };
      const market = pathMarket(paths);
      const deps = { market, now: () => new Date('2026-12-01T12:00:00Z') };
      const running = runCli(
        ['watch', '--universe', 'watchlist.txt', '--every', '1d', '--search', 'none', '--concurrency', '2'],
        io,
        deps,
      );
      // Abort once a few runs are saved.
      const { readdirSync, existsSync } = await import('node:fs');
      const runsDir = join(home, 'runs');
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(existsSync(runsDir) && readdirSync(runsDir).length >= 2))
        await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      expect(await running).toBe(130);
      const { listRuns } = await import('../../src/store/index.js');
      const saved = await listRuns(home);
      const finished = saved.filter((run) => run.status !== 'interrupted' && run.action !== null);
      expect(finished.length).toBeGreaterThanOrEqual(2);
      expect(finished.length).toBeLessThan(tickers.length);
      // The next cycle carries the finished calls and analyses the rest.
      const next = { ...base, env, cwd: base.cwd };
      const again = captureIo();
      const code = await runCli(
        ['watch', '--universe', 'watchlist.txt', '--once', '--json', '--search', 'none', '--quiet'],
        { ...next, stdout: again.stdout, stderr: again.stderr },
        deps,
      );
      expect(code, again.err()).toBe(0);
      const report = JSON.parse(again.out()) as WatchReport;
      expect(report.carried.map((item) => item.ticker).sort()).toEqual(finished.map((run) => run.ticker).sort());
      expect(report.analysed).toHaveLength(tickers.length - finished.length);
      expect(report.analysed.every((item) => item.triggers[0]!.name === 'no-call')).toBe(true);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
