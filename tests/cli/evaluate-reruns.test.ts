import { readdirSync, readFileSync } from 'node:fs';
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

/** Issue 44 items 1, 14, 15: re-runs scored once, each row's status shown, "would be excluded" said as such. */

const now = () => new Date('2025-06-10T12:00:00Z');
const bars = [...yearBefore('2025-06-02', (index) => 80 + index * 0.05), acmePath[0]!].map((session) => ({
  ...session,
  adjClose: session.close,
  volume: 1_000_000,
}));

function rerun(runId: string, startedAt: string, overrides: Partial<AnalysisResult> = {}): AnalysisResult {
  const decision: Partial<Decision> = { action: 'BUY', conviction: 80, stopLoss: 95, takeProfit: 105 };
  return makeResult({
    runId,
    startedAt,
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
  const router = createYahooRouter(
    acmeRoutes({ chart: (symbol) => chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath) }),
  );
  return { io, home, market: createYahooMarketData({ fetch: router.fetch }) };
}

// Three runs of one call (same ticker, session, configuration); the newest was flagged.
const runs = [
  rerun('20250602T200000Z-ACME-aaaaaa', '2025-06-02T20:00:00.000Z'),
  rerun('20250602T200000Z-ACME-bbbbbb', '2025-06-02T20:05:00.000Z'),
  rerun('20250602T200000Z-ACME-cccccc', '2025-06-02T20:10:00.000Z', { status: 'flagged' }),
];

describe('evaluate scores one decision per call', () => {
  it('--json: n is the independent calls, the newest scored, the re-runs counted and listed', async () => {
    const { io, home, market } = await setup(runs);
    const code = await runCli(['evaluate', '--json', '--horizon', '5'], io, { market, now });
    expect(code).toBe(0);
    const output = JSON.parse(io.out()) as {
      decisions: Array<{ runId: string; status: string }>;
      summary: { groups: Array<{ decisions: number; strategies: Array<{ strategy: string; count: number }> }> };
      skipped: Array<{ runId: string; reason: string; rerun?: true }>;
      reruns: number;
    };
    expect(output.decisions.map((row) => [row.runId, row.status])).toEqual([
      ['20250602T200000Z-ACME-cccccc', 'flagged'],
    ]);
    expect(output.reruns).toBe(2);
    expect(output.summary.groups[0]!.decisions).toBe(1);
    for (const group of output.summary.groups)
      for (const stats of group.strategies) expect(stats.count).toBeLessThanOrEqual(1);
    expect(
      output.skipped
        .filter((item) => item.rerun)
        .map((item) => item.runId)
        .sort(),
    ).toEqual(['20250602T200000Z-ACME-aaaaaa', '20250602T200000Z-ACME-bbbbbb']);
    expect(output.skipped[0]!.reason).toContain('re-run of 20250602T200000Z-ACME-cccccc');
    const [saved] = readdirSync(join(home, 'evaluations'));
    const markdown = readFileSync(join(home, 'evaluations', saved!, 'evaluation.md'), 'utf8');
    expect(markdown).toContain('1 independent decision(s) (2 re-run(s) set aside');
    const html = readFileSync(join(home, 'evaluations', saved!, 'evaluation.html'), 'utf8');
    expect(html).toContain('2 re-run(s) were set aside');
  });

  it('the terminal: the count of re-runs beside n, each row its status, the ledger verdict as "would be excluded"', async () => {
    const { io, market } = await setup(runs);
    const code = await runCli(['evaluate', '--horizon', '5', '--no-save'], io, { market, now });
    expect(code).toBe(0);
    const text = io.out();
    expect(text).toContain('Evaluation of 1 independent decision(s) (2 re-run(s) set aside');
    expect(text).toMatch(/BUY\s+flagged\s+80/);
    expect(text).toContain('would be excluded under --forward-only: 1 no ledger record');
    expect(text).not.toContain('excluded: 1');
  });

  it('different configurations of one day are independent calls', async () => {
    const { io, market } = await setup([
      runs[0]!,
      rerun('20250602T200000Z-ACME-dddddd', '2025-06-02T20:20:00.000Z', { autohedgeVersion: 'another' }),
    ]);
    expect(await runCli(['evaluate', '--json', '--horizon', '5', '--no-save'], io, { market, now })).toBe(0);
    const output = JSON.parse(io.out()) as { decisions: unknown[]; reruns: number };
    expect(output.decisions).toHaveLength(2);
    expect(output.reruns).toBe(0);
  });
});
