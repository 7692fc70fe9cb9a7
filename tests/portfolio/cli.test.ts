import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { saveRun } from '../../src/store/index.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { makeDecision, makeResult } from '../support/results.js';

/** `autohedge portfolio` in-process: saved runs on disk, market data from a fake MarketData. */

const now = () => new Date('2026-11-27T22:00:00Z');
const hostileSector = 'Tech<img src=x onerror=alert(1)>\u001b[2J';

function saved(runId: string, ticker: string, decision: Partial<Decision>, overrides: Partial<AnalysisResult> = {}) {
  return makeResult({
    runId,
    ticker,
    asOf: `${runId.slice(0, 4)}-${runId.slice(4, 6)}-${runId.slice(6, 8)}T21:00:00.000Z`,
    startedAt: '2026-11-27T21:00:00.000Z',
    decision: makeDecision({ orderType: 'market', entry: null, takeProfit: null, ...decision }),
    ...overrides,
  });
}

const prices: Record<string, number> = { ACME: 100, BETA: 50, HELD: 20, FLAG: 10 };

const market = () =>
  fakeMarket((ticker) => {
    const snapshot = makeSnapshot(ticker);
    const price = prices[ticker] ?? 100;
    return {
      ...snapshot,
      identity: { ...snapshot.identity, sector: ticker === 'ACME' || ticker === 'BETA' ? hostileSector : 'Utilities' },
      quote: { ...snapshot.quote, price },
      indicators: {
        ...snapshot.indicators,
        lastClose: price,
        asOfBar: ticker === 'BETA' ? '2026-11-20' : '2026-11-27',
      },
    };
  });

async function setup(holdings: string) {
  const io = captureIo();
  const home = io.env.AUTOHEDGE_HOME as string;
  const runs = [
    saved('20261120T210000Z-ACME-old000', 'ACME', { action: 'SELL', stopLoss: 110 }),
    saved('20261127T210000Z-ACME-new000', 'ACME', { action: 'BUY', conviction: 70, positionSizePct: 8, stopLoss: 90 }),
    saved(
      '20261127T210000Z-ACME-demo00',
      'ACME',
      { action: 'SELL', stopLoss: 110 },
      { demo: true, startedAt: '2026-11-28T00:00:00.000Z' },
    ),
    saved('20261127T210000Z-BETA-run000', 'BETA', { action: 'BUY', conviction: 60, positionSizePct: 6, stopLoss: 45 }),
    saved('20261127T210000Z-FLAG-run000', 'FLAG', { action: 'SELL', stopLoss: 12 }, { status: 'flagged' }),
  ];
  for (const run of runs) await saveRun(home, run, { transcript: [], markdown: '' });
  writeFileSync(join(io.cwd, 'h.csv'), holdings);
  return { io, home };
}

const book = 'symbol,quantity\nACME,100\nHELD,250\nFLAG,100\nCASH,80000\n';

describe('autohedge portfolio', () => {
  it('--json: the issue shape, newest decision per ticker, held kept, flagged excluded, stale flagged', async () => {
    const { io } = await setup(book);
    const code = await runCli(['portfolio', '--holdings', 'h.csv', '--latest', '--json', '--no-save'], io, {
      market: market(),
      now,
    });
    expect(io.err()).not.toContain('Error');
    expect(code).toBe(0);
    const plan = JSON.parse(io.out()) as Record<string, unknown> & {
      targets: Array<Record<string, unknown>>;
      orders: Array<Record<string, unknown>>;
      held: Array<{ ticker: string }>;
      excluded: Array<{ ticker: string }>;
      risk: Record<string, unknown>;
    };
    expect(Object.keys(plan)).toEqual(
      expect.arrayContaining(['nav', 'cash', 'targets', 'orders', 'clamps', 'held', 'excluded', 'risk']),
    );
    expect(plan.status).toBe('proposed');
    expect(plan.nav).toBe(80000 + 100 * 100 + 250 * 20 + 100 * 10);
    for (const key of [
      'ticker',
      'currentWeight',
      'targetWeight',
      'shares',
      'positionValue',
      'tradeValue',
      'price',
      'decisionRunId',
    ]) {
      expect(plan.targets[0]).toHaveProperty(key);
    }
    expect(Object.keys(plan.risk).sort()).toEqual(['cashPct', 'estVolPct', 'grossPct', 'netPct', 'turnoverPct']);
    const acme = plan.targets.find((target) => target.ticker === 'ACME')!;
    expect(acme.decisionRunId).toBe('20261127T210000Z-ACME-new000');
    // 8 % of 96,000 at 100 is 76.8 shares: the sale of 23.2 rounds toward no trade, 23 of the 100 held.
    expect(acme.shares).toBe(77);
    expect(plan.orders).toEqual([
      expect.objectContaining({ ticker: 'ACME', side: 'SELL', quantity: 23 }),
      expect.objectContaining({ ticker: 'BETA', side: 'BUY', quantity: 115 }),
    ]);
    expect(plan.held.map((entry) => entry.ticker)).toEqual(['FLAG', 'HELD']);
    expect(plan.excluded).toEqual([{ ticker: 'FLAG', reason: expect.stringContaining('flagged') }]);
    expect(io.err()).toContain('BETA: the price 50 is from 2026-11-20, older than the last session (2026-11-27)');
  });

  it('prints the same bytes for the same inputs, and --csv the orders alone', async () => {
    const { io } = await setup(book);
    const deps = { market: market(), now };
    await runCli(['portfolio', '--holdings', 'h.csv', '--latest', '--json', '--no-save'], io, deps);
    const first = io.out();
    await runCli(['portfolio', '--holdings', 'h.csv', '--latest', '--json', '--no-save'], io, deps);
    expect(io.out()).toBe(first + first);
    const csv = captureIo({ env: io.env, cwd: io.cwd });
    expect(await runCli(['portfolio', '--holdings', 'h.csv', '--latest', '--csv', '--no-save'], csv, deps)).toBe(0);
    expect(csv.out().split('\n')[0]).toBe('ticker,side,quantity,limitPrice,tradeValue,reason');
    expect(csv.out().split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('saves report.md, report.html (with the weights chart) and portfolio.json, sanitised', async () => {
    const { io, home } = await setup(book);
    expect(
      await runCli(['portfolio', '--holdings', 'h.csv', '--latest', '--max-sector-pct', '10'], io, {
        market: market(),
        now,
      }),
    ).toBe(0);
    const [id] = readdirSync(join(home, 'portfolios'));
    const dir = join(home, 'portfolios', id!);
    expect(readdirSync(dir).sort()).toEqual(['portfolio.json', 'report.html', 'report.md', 'weights.svg']);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('PROPOSED');
    // BETA is cut by its sector, whose name (from the market data) is hostile.
    expect(html).toContain('sector Tech&lt;img src=x onerror=alert(1)&gt;␛[2J is full');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('\u001b');
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).not.toContain('\u001b');
    // The run reports' markdown escaping (issue 47 item 16): the hostile sector is text in the Clamps section, not markup.
    expect(markdown).toContain('sector Tech\\<img src=x onerror=alert(1)\\>');
    expect(markdown).not.toMatch(/[^\\]<img/);
    expect(io.out()).toContain('PROPOSED');
    expect(io.out()).not.toContain('\u001b');
  });

  it('exits 2 naming the conflict when the limits cannot be met', async () => {
    const { io } = await setup('symbol,quantity\nHELD,4000\nCASH,1000\n');
    const code = await runCli(
      ['portfolio', '--holdings', 'h.csv', '--max-weight-pct', '100', '--max-sector-pct', '100'],
      io,
      { market: market(), now },
    );
    expect(code).toBe(2);
    expect(io.err()).toMatch(/cash at 1\.23 % is below --min-cash-pct 5/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('--runs takes exactly the runs named; a demo run never sizes a real book', async () => {
    const { io } = await setup(book);
    const deps = { market: market(), now };
    const args = ['portfolio', '--holdings', 'h.csv', '--json', '--no-save', '--runs'];
    expect(await runCli([...args, '20261120T210000Z-ACME-old000'], io, deps)).toBe(0);
    const plan = JSON.parse(io.out()) as { targets: Array<{ ticker: string; decisionRunId: string | null }> };
    expect(plan.targets.find((target) => target.ticker === 'ACME')!.decisionRunId).toBe('20261120T210000Z-ACME-old000');
    expect(await runCli([...args, '20261127T210000Z-ACME-demo00'], io, deps)).toBe(2);
    expect(io.err()).toContain('is a demo run (synthetic data)');
  });

  it('exits 2 on a malformed holdings file, naming the line', async () => {
    const { io } = await setup('symbol,quantity\nACME,1\nBAD TICKER,2\nCASH,1\n');
    expect(await runCli(['portfolio', '--holdings', 'h.csv'], io, { market: market(), now })).toBe(2);
    expect(io.err()).toContain("h.csv:3: 'BAD TICKER' is not a ticker symbol");
  });
});
