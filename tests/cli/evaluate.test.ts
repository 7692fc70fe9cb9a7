import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { saveRun } from '../../src/store/index.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { captureIo } from '../support/cli.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { acmePath, benchmarkPath, chartOf, yearBefore } from '../evaluate/support.js';

/** `autohedge evaluate` in-process: saved runs on disk, the real Yahoo client on the loopback stand-in. */

const now = () => new Date('2025-06-10T12:00:00Z');

function run(runId: string, decision: Partial<Decision>, overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  const bars = [...yearBefore('2025-06-02', (index) => 80 + index * 0.05), acmePath[0]!].map((session) => ({
    ...session,
    adjClose: session.close,
    volume: 1_000_000,
  }));
  return makeResult({
    runId,
    // Each fixture run stands for its own configuration: re-runs of one call are scored once (reruns.ts).
    autohedgeVersion: `test-${runId}`,
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'historical',
    contamination: { label: 'clean', models: [], reason: '' },
    market: makeMarket({ bars }),
    decision: makeDecision({ orderType: 'market', entry: null, ...decision }),
    ...overrides,
  });
}

async function setup(results: AnalysisResult[]) {
  const io = captureIo();
  const home = io.env.AUTOHEDGE_HOME as string;
  for (const result of results) await saveRun(home, result, { transcript: [], markdown: '' });
  const charts: string[] = [];
  const router = createYahooRouter(
    acmeRoutes({
      chart: (symbol) => {
        charts.push(symbol);
        return chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath);
      },
    }),
  );
  return { io, home, charts, market: createYahooMarketData({ fetch: router.fetch }) };
}

const saved = [
  run('20250602T200000Z-ACME-aaaaaa', { action: 'BUY', conviction: 80, stopLoss: 95, takeProfit: 105 }),
  run('20250602T200000Z-ACME-bbbbbb', { action: 'SELL', conviction: 60, stopLoss: 103, takeProfit: 99.5 }),
  run('20250602T200000Z-ACME-cccccc', { action: 'HOLD', stopLoss: null, takeProfit: null }),
  run('20250602T200000Z-ACME-dddddd', { action: 'BUY' }, { demo: true }),
  run('20250602T200000Z-ACME-eeeeee', {}, { decision: null, status: 'failed' }),
];

describe('autohedge evaluate', () => {
  it('--json: { decisions, summary } of every saved run with a decision, demo runs left out; files saved', async () => {
    const { io, home, charts, market } = await setup(saved);
    const code = await runCli(['evaluate', '--json', '--horizon', '5'], io, { market, now });
    expect(io.err()).not.toContain('Error');
    expect(code).toBe(0);
    const output = JSON.parse(io.out()) as {
      decisions: Array<{ runId: string; horizons: Array<{ outcome: string; excess: number | null }> }>;
      summary: {
        groups: Array<{ contamination: string; strategies: Array<{ strategy: string; count: number; hits: number }> }>;
      };
      skipped: Array<{ runId: string }>;
    };
    expect(output.decisions.map((row) => row.runId).sort()).toEqual([
      '20250602T200000Z-ACME-aaaaaa',
      '20250602T200000Z-ACME-bbbbbb',
      '20250602T200000Z-ACME-cccccc',
    ]);
    expect(output.decisions.map((row) => row.horizons[0]!.outcome).sort()).toEqual(['abstained', 'target', 'target']);
    expect(output.skipped.map((item) => item.runId)).toEqual(['20250602T200000Z-ACME-dddddd']);
    expect(output.summary.groups[0]!.strategies[0]).toMatchObject({ strategy: 'desks', count: 2, hits: 2 });
    expect(charts.sort()).toEqual(['ACME', 'SPY']);
    const evaluations = readdirSync(join(home, 'evaluations'));
    expect(evaluations).toHaveLength(1);
    expect(readdirSync(join(home, 'evaluations', evaluations[0]!)).sort()).toEqual([
      'evaluation.html',
      'evaluation.json',
      'evaluation.md',
    ]);
    // evaluation.html: self-contained, its headline in words, each decision linked to its run's report in the home.
    const html = readFileSync(join(home, 'evaluations', evaluations[0]!, 'evaluation.html'), 'utf8');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html).toMatch(/hit rate 100% over 2 position\(s\) \(95 % Wilson interval \d+%–100%\)/);
    for (const row of output.decisions)
      expect(html).toContain(`<a href="../../runs/${row.runId}/report.html">${row.runId}</a>`);
    expect(html).toMatch(/data-chart="cumulative"/);
    expect(html).toMatch(/data-chart="rate"/);
    expect(readFileSync(join(home, 'evaluations', evaluations[0]!, 'evaluation.md'), 'utf8')).toContain(
      '## clean decisions, 5 sessions',
    );
  });

  it('the terminal view: a table per label and horizon, baselines, a cumulative-excess chart, the decisions', async () => {
    const { io, market } = await setup([
      ...saved,
      run('20250602T200000Z-ACME-ffffff', { action: 'BUY', conviction: 40, stopLoss: 99.5, takeProfit: 110 }),
    ]);
    const out = mkdtempSync(join(tmpdir(), 'autohedge-evaluation-'));
    const code = await runCli(['evaluate', '--horizon', '5,10', '--no-save', '--out', out], io, { market, now });
    expect(code).toBe(0);
    const text = io.out();
    expect(text).toContain(
      'clean decisions, 5 sessions — 4 decisions: 3 scored positions (1 HOLD: the stock did -4.00% on average); 0 pending, 0 ambiguous, 0 unfilled, 0 rescaled',
    );
    expect(text).toMatch(/desks\s+3\s+66\.7%\s+20\.8%–93\.9%/);
    expect(text).toMatch(/always BUY\s+3\s+0\.0%/);
    expect(text).toContain('12-1 momentum');
    expect(text).toContain('random (same mix)');
    expect(text).toContain('cumulative excess:');
    expect(text).toMatch(/desks\s+\S{3}\s+\+4\.00%/);
    expect(text).toContain('clean decisions, 10 sessions');
    expect(text).toContain('target +5.00% (+4.00%)');
    if (process.env.SHOW_EVALUATION) console.log(text, readFileSync(join(out, 'evaluation.md'), 'utf8'));
    expect(existsSync(join(out, 'evaluation.md'))).toBe(true);
    expect(io.err()).toContain(`autohedge: evaluation written to ${out}`);
  });

  it('named runs (prefixes), --since, --include-demo', async () => {
    const { io, market } = await setup(saved);
    await runCli(
      [
        'evaluate',
        '20250602T200000Z-ACME-dd',
        '20250602T200000Z-ACME-aa',
        '--include-demo',
        '--json',
        '--no-save',
        '--horizon',
        '5',
      ],
      io,
      { market, now },
    );
    const included = JSON.parse(io.out()) as { decisions: unknown[]; demo?: unknown };
    expect(included.decisions).toHaveLength(2);
    // A demo run scored against fetched prices: labelled, the prices not synthetic.
    expect(included.demo).toEqual({
      runs: 1,
      syntheticPrices: false,
      banner: 'DEMO — 1 demo run(s) among these decisions (synthetic analyses): their scores mean nothing',
    });

    const later = await setup(saved);
    const code = await runCli(['evaluate', '--since', '2025-06-03', '--json', '--no-save'], later.io, {
      market: later.market,
      now,
    });
    expect(code).toBe(2);
    expect(later.io.err()).toContain('autohedge: no saved run with a decision to evaluate');
  });

  it('bad options and nothing to evaluate: exit 2 with one line, no request', async () => {
    for (const [args, message] of [
      [
        ['--horizon', '5,x'],
        "--horizon must be whole numbers of sessions from 1 to 756, separated by commas (got '5,x')",
      ],
      [['--horizon', '0'], 'must be whole numbers'],
      [['--since', '2025-02-30'], "--since must be a date as YYYY-MM-DD (got '2025-02-30')"],
      [['--benchmark', 'not a ticker!'], "autohedge: invalid ticker 'not a ticker!'"],
      [['--seed', '-3'], "--seed must be a whole number (got '-3')"],
    ] as const) {
      const { io, market, charts } = await setup(saved);
      expect(await runCli(['evaluate', ...args], io, { market, now })).toBe(2);
      expect(io.err()).toContain(message);
      expect(charts).toEqual([]);
    }
    const empty = await setup([]);
    expect(await runCli(['evaluate'], empty.io, { market: empty.market, now })).toBe(2);
    expect(empty.io.err().trim()).toBe(
      'autohedge: no saved run with a decision to evaluate (make some with `autohedge analyze <ticker> --as-of YYYY-MM-DD`)',
    );
  });
});
