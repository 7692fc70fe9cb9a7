import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import { saveRun } from '../../src/store/index.js';
import { captureIo } from '../support/cli.js';
import { marketOf, normals, pathOf, runAt, sessionDays } from '../evaluate/synthetic.js';

const nyse = exchangeCalendar('XNYS');

/** `autohedge evaluate`'s attribution through the CLI: the JSON field names, the options, the plain-word lines first. */

const days = sessionDays('2024-01-02', 200);
const benchmarkDaily = normals(21, days.length).map((z) => 0.001 + 0.01 * z);
const spy = pathOf(days, benchmarkDaily, 400);
const noise = normals(22, days.length);
const stock = pathOf(
  days,
  benchmarkDaily.map((r, index) => 1.3 * r + 0.003 * noise[index]!),
);
const now = () => new Date(nyse.closeAt(days[days.length - 1]!).getTime() + 86_400_000);

const xlk = pathOf(
  days,
  normals(23, days.length).map((z) => 0.0005 + 0.01 * z),
  150,
);

async function setup() {
  const io = captureIo();
  const home = io.env.AUTOHEDGE_HOME as string;
  for (let index = 0; index < 12; index += 1) {
    const at = 70 + 6 * index;
    await saveRun(
      home,
      runAt(`20240601T200000Z-LEV-${String(index).padStart(6, '0')}`, 'LEV', stock[at]!, {
        conviction: 30 + 5 * index,
      }),
      {
        transcript: [],
        markdown: '',
      },
    );
  }
  return { io, market: marketOf({ SPY: spy, LEV: stock, XLK: xlk }).prices };
}

describe('evaluate: attribution through the CLI', () => {
  it('--json has the documented field names per group; --notional, --spread-bps, --slippage-bps, --trials are applied', async () => {
    const { io, market } = await setup();
    const args = [
      'evaluate',
      '--json',
      '--no-save',
      '--horizon',
      '5',
      '--notional',
      '10000',
      '--spread-bps',
      '2',
      '--slippage-bps',
      '3',
      '--trials',
      '7',
    ];
    expect(await runCli(args, io, { market, now })).toBe(0);
    const group = (JSON.parse(io.out()) as { summary: { groups: Array<Record<string, unknown>> } }).summary.groups[0]!;
    for (const field of [
      'beta',
      'alpha',
      'alphaCI',
      'regimes',
      'costs',
      'calibration',
      'sharpe',
      'trials',
      'deflatedSharpe',
    ])
      expect(group).toHaveProperty(field);
    expect(group).not.toHaveProperty('sectorBeta');
    expect(Object.keys(group.regimes as object).sort()).toEqual(['down', 'flat', 'up']);
    expect(Object.keys((group.regimes as Record<string, object>).up!).sort()).toEqual([
      'hitRate',
      'hitRateCI',
      'meanExcess',
      'n',
    ]);
    expect(group.costs).toMatchObject({ spreadBps: 2, slippageBps: 3, notional: 10000 });
    for (const field of ['meanModelUsd', 'meanNetReturn', 'meanNetReturnAfterModel', 'breakEvenNotional'])
      expect(group.costs).toHaveProperty(field);
    expect(Object.keys(group.calibration as object).sort()).toEqual(['brier', 'buckets']);
    expect(group.trials).toBe(7);
    expect(group.beta as number).toBeGreaterThan(0.9);
    expect(group.beta as number).toBeLessThan(1.7);
    expect(group.deflatedSharpe as number).toBeGreaterThanOrEqual(0);
    expect(group.deflatedSharpe as number).toBeLessThanOrEqual(1);
  });

  it('--sector-benchmarks: each Technology decision regressed on XLK too; sectorBeta reported', async () => {
    const { io, market } = await setup();
    const args = ['evaluate', '--json', '--no-save', '--horizon', '5', '--sector-benchmarks'];
    expect(await runCli(args, io, { market, now })).toBe(0);
    const output = JSON.parse(io.out()) as {
      decisions: Array<{ sectorBenchmark: string; horizons: Array<{ sectorReturn: number | null }> }>;
      summary: { groups: Array<{ n: number; sectorBeta: number | null; beta: number | null }> };
    };
    expect(new Set(output.decisions.map((row) => row.sectorBenchmark))).toEqual(new Set(['XLK']));
    expect(output.decisions.every((row) => typeof row.horizons[0]!.sectorReturn === 'number')).toBe(true);
    expect(output.summary.groups[0]).toMatchObject({ n: 12 });
    expect(typeof output.summary.groups[0]!.sectorBeta).toBe('number');
    // The stock is built on SPY alone: XLK explains little of it.
    expect(Math.abs(output.summary.groups[0]!.sectorBeta!)).toBeLessThan(0.5);
  });

  it('--sector-benchmarks with no prices for the ETF: warned, those decisions out of the sector fit, exit 3', async () => {
    const { io } = await setup();
    const market = marketOf({ SPY: spy, LEV: stock }).prices;
    const args = ['evaluate', '--json', '--no-save', '--horizon', '5', '--sector-benchmarks'];
    expect(await runCli(args, io, { market, now })).toBe(3);
    expect(io.err()).toContain('sector benchmark XLK:');
    const group = (JSON.parse(io.out()) as { summary: { groups: Array<Record<string, unknown>> } }).summary.groups[0]!;
    expect(group).toMatchObject({ n: 0, regressionNote: 'too few to regress', sectorBeta: null });
  });

  it('the terminal opens each group with the attribution in plain words, before the table', async () => {
    const { io, market } = await setup();
    expect(await runCli(['evaluate', '--no-save', '--horizon', '5', '--quiet'], io, { market, now })).toBe(0);
    const text = io.out();
    if (process.env.SHOW_EVALUATION) console.log(text);
    expect(text).toMatch(
      /alpha after beta: [+-]\d+\.\d\d% per decision \(95 %: [+-]?\d+\.\d\d% … [+-]?\d+\.\d\d%\), beta \d\.\d\d against SPY — (indistinguishable from|an edge beyond|worse than) holding the market at \d\.\d× leverage \(n 12\)/,
    );
    expect(text).toContain("by regime (SPY's 63-session trend, ±5 %)");
    expect(text).toContain('after costs (5 bps spread + 5 bps slippage, on entry and on exit)');
    expect(text).toMatch(/conviction against outcomes: Brier 0\.\d{3}/);
    expect(text).toMatch(/deflated for 1 configuration\(s\) tried: \d+% probability it is real/);
    expect(text.indexOf('alpha after beta')).toBeLessThan(text.indexOf('strategy  '));
  });

  it('bad attribution options: exit 2 with one line, no request', async () => {
    for (const [args, message] of [
      [['--spread-bps', '-1'], '--spread-bps must be a number of basis points'],
      [['--slippage-bps', '20000'], '--slippage-bps must be at most 10000'],
      [['--notional', '0'], '--notional must be'],
      [['--trials', '1.5'], '--trials must be a whole number'],
    ] as const) {
      const { io, market } = await setup();
      expect(await runCli(['evaluate', ...args], io, { market, now })).toBe(2);
      expect(io.err()).toContain(message);
    }
  });
});
