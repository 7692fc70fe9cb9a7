// Fault matrix, evaluate: what `autohedge evaluate` does when prices cannot be had, a
// saved run is broken, or a cassette lacks a request. Saved runs on disk, the real
// Yahoo client over the loopback stand-in, driven through runCli.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { saveRun } from '../../src/store/index.js';
import { acmeRoutes, createYahooRouter, json, type RouterRoutes } from '../market/support/yahoo-router.js';
import { captureIo } from '../support/cli.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { acmePath, benchmarkPath, chartOf } from '../evaluate/support.js';

const now = () => new Date('2025-06-10T12:00:00Z');
const runId = '20250602T200000Z-ACME-aaaaaa';

function run(overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  return makeResult({
    runId,
    asOf: '2025-06-02T20:00:00.000Z',
    asOfMode: 'historical',
    contamination: { label: 'clean', models: [], reason: '' },
    market: makeMarket({ bars: acmePath.map((session) => ({ ...session, adjClose: session.close, volume: 1 })) }),
    decision: makeDecision({ orderType: 'market', entry: null, stopLoss: 95, takeProfit: 105 }),
    ...overrides,
  });
}

async function evaluate(
  chart: RouterRoutes['chart'],
  args: string[] = ['--json', '--no-save', '--horizon', '5'],
  results: AnalysisResult[] = [run()],
) {
  const io = captureIo();
  for (const result of results)
    await saveRun(io.env.AUTOHEDGE_HOME as string, result, { transcript: [], markdown: '' });
  const router = createYahooRouter(acmeRoutes({ chart }));
  const market = createYahooMarketData({ fetch: router.fetch, retries: 1, retryDelayMs: 0, timeoutMs: 500 });
  const code = await runCli(['evaluate', ...args], io, { market, now });
  return { code, io, router };
}

const good: RouterRoutes['chart'] = (symbol) => chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath);
const unavailable = json({ error: 'unavailable' }, 503, 'Service Unavailable');

describe('fault matrix: evaluate', () => {
  it('Yahoo unreachable for a ticker: its decisions listed unscored with the reason, a warning, exit 3', async () => {
    const { code, io } = await evaluate((symbol) =>
      symbol === 'ACME' ? unavailable : good(symbol, new URLSearchParams()),
    );
    expect(code).toBe(3);
    const output = JSON.parse(io.out()) as { decisions: Array<{ problem: string | null; horizons: unknown[] }> };
    expect(output.decisions[0]).toMatchObject({
      problem: 'could not reach Yahoo Finance (HTTP 503 Service Unavailable)',
      horizons: [],
    });
    expect(io.err()).toContain(
      'autohedge: warning: ACME: could not reach Yahoo Finance (HTTP 503 Service Unavailable); its 1 decision(s) are not scored',
    );
  });

  it('the benchmark unknown to Yahoo: returns scored, excess not available, a warning, exit 3', async () => {
    const { code, io } = await evaluate(
      (symbol) =>
        symbol === 'NOPE'
          ? json(
              {
                chart: {
                  result: null,
                  error: { code: 'Not Found', description: 'No data found, symbol may be delisted' },
                },
              },
              404,
              'Not Found',
            )
          : good(symbol, new URLSearchParams()),
      ['--json', '--no-save', '--horizon', '5', '--benchmark', 'NOPE'],
    );
    expect(code).toBe(3);
    const output = JSON.parse(io.out()) as {
      decisions: Array<{ horizons: Array<{ signedReturn: number; excess: number | null }> }>;
    };
    expect(output.decisions[0]!.horizons[0]!.signedReturn).toBeCloseTo(0.05, 12);
    expect(output.decisions[0]!.horizons[0]!.excess).toBeNull();
    expect(io.err()).toContain(
      "autohedge: warning: benchmark NOPE: unknown ticker 'NOPE'; excess returns are not available",
    );
  });

  it('a corrupt saved run among good ones: listed as skipped, the rest scored, exit 3 (a run could not be read)', async () => {
    const io = captureIo();
    const home = io.env.AUTOHEDGE_HOME as string;
    await saveRun(home, run(), { transcript: [], markdown: '' });
    mkdirSync(join(home, 'runs', 'broken-run'), { recursive: true });
    writeFileSync(join(home, 'runs', 'broken-run', 'result.json'), '{ not json');
    const market = createYahooMarketData({ fetch: createYahooRouter(acmeRoutes({ chart: good })).fetch });
    expect(await runCli(['evaluate', '--json', '--no-save', '--horizon', '5'], io, { market, now }), io.err()).toBe(3);
    expect(io.err()).toContain('1 saved run(s) could not be read');
    const output = JSON.parse(io.out()) as { decisions: unknown[]; skipped: Array<{ runId: string; reason: string }> };
    expect(output.decisions).toHaveLength(1);
    expect(output.skipped).toEqual([
      {
        runId: 'broken-run',
        reason: expect.stringMatching(/^corrupt: result\.json is not valid JSON/),
        unreadable: true,
      },
    ]);
  });

  it('a named run that does not exist: exit 2, one line, no request', async () => {
    const { code, io, router } = await evaluate(good, ['nope-run']);
    expect(code).toBe(2);
    expect(io.err().trim()).toBe("autohedge: no saved run matches 'nope-run' (list them with: autohedge runs)");
    expect(router.requests).toEqual([]);
  });

  it('a named run without a decision: exit 2 saying why', async () => {
    const { code, io } = await evaluate(good, [runId], [run({ decision: null, status: 'failed' })]);
    expect(code).toBe(2);
    expect(io.err()).toContain(`no saved run with a decision to evaluate: ${runId} — no decision (run failed)`);
  });

  it('a replay cassette that lacks the requests: exit 2, one line per missed request', async () => {
    const io = captureIo();
    await saveRun(io.env.AUTOHEDGE_HOME as string, run(), { transcript: [], markdown: '' });
    const cassette = join(io.cwd, 'empty.cassette.json');
    writeFileSync(
      cassette,
      JSON.stringify({
        format: 'autohedge-cassette',
        version: 1,
        autohedgeVersion: '0.1.0',
        asOf: '2025-06-10T12:00:00.000Z',
        argv: [],
        recordedAt: '2025-06-10T12:00:00.000Z',
        interactions: [],
      }),
    );
    const code = await runCli(['evaluate', '--json', '--no-save', '--replay', cassette], io, { now });
    const lines = io.err().trim().split('\n');
    expect(
      lines
        .map(
          (line) =>
            /^autohedge: no recorded response for GET https:\/\/query\d\.finance\.yahoo\.com\/v8\/finance\/chart\/(\w+)\?/.exec(
              line,
            )?.[1],
        )
        .sort(),
    ).toEqual(['ACME', 'SPY']);
    expect(code).toBe(2);
    expect(io.out()).toBe('');
  });
});
