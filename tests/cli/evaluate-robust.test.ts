import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { evaluateRuns } from '../../src/evaluate/evaluate.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { saveRun } from '../../src/store/index.js';
import { acmeRoutes, createYahooRouter } from '../market/support/yahoo-router.js';
import { captureIo } from '../support/cli.js';
import { makeDecision, makeMarket, makeResult } from '../support/results.js';
import { acmePath, benchmarkPath, chartOf, yearBefore } from '../evaluate/support.js';

/**
 * One bad saved run among good ones (issue #34, item 3): it is skipped with its id and
 * reason, the rest is scored, the count is said and the exit is 3 — never "unexpected
 * error: Invalid time value". A broken reference close leaves its row unscored.
 */

const now = () => new Date('2025-06-10T12:00:00Z');

function run(runId: string, overrides: Partial<AnalysisResult> = {}, decision: Partial<Decision> = {}): AnalysisResult {
  const bars = [...yearBefore('2025-06-02', () => 100), acmePath[0]!].map((session) => ({
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
    decision: makeDecision({
      action: 'BUY',
      orderType: 'market',
      entry: null,
      stopLoss: 95,
      takeProfit: 105,
      ...decision,
    }),
    ...overrides,
  });
}

function withClose(runId: string, close: number): AnalysisResult {
  const result = run(runId);
  const bars = result.market!.bars;
  bars[bars.length - 1] = { ...bars[bars.length - 1]!, close };
  return result;
}

function market() {
  const router = createYahooRouter(
    acmeRoutes({ chart: (symbol) => chartOf(symbol, symbol === 'SPY' ? benchmarkPath : acmePath) }),
  );
  return createYahooMarketData({ fetch: router.fetch }) as Required<ReturnType<typeof createYahooMarketData>>;
}

describe('evaluate with broken saved runs', () => {
  it('a reference close of 1e-320, 5e-324 or 1e308: the row is unscored with the reason, the others scored', async () => {
    const evaluation = await evaluateRuns(
      [run('good'), withClose('tiny', 1e-320), withClose('denormal', 5e-324), withClose('huge', 1e308)],
      { horizons: [5], benchmark: 'SPY', now: now() },
      market(),
    );
    const row = (id: string) => evaluation.decisions.find((item) => item.runId === id)!;
    expect(row('good')).toMatchObject({ problem: null, rescaled: null });
    expect(row('good').horizons[0]!.outcome).toBe('target');
    for (const id of ['tiny', 'denormal', 'huge']) {
      expect(row(id).problem).toMatch(/a rescale ratio of (Infinity|1e-306) is not a split or a revision/);
      expect(row(id).horizons).toEqual([]);
    }
    expect(row('huge').problem).toContain('was saved as 1e+308');
    expect(evaluation.warnings.filter((warning) => warning.includes('not scored'))).toHaveLength(3);
    expect(evaluation.warnings.join('\n')).not.toContain('rescaled by');
  });

  it('asOf "garbage", a bar dated 2025-13-45 and a corrupt result.json among good runs: skipped by id and reason, counted, exit 3', async () => {
    const io = captureIo();
    const home = io.env.AUTOHEDGE_HOME as string;
    const broken = run('20250602T200000Z-ACME-bbbbbb', { asOf: 'garbage' });
    const badBar = run('20250602T200000Z-ACME-cccccc');
    badBar.market!.bars[10] = { ...badBar.market!.bars[10]!, date: '2025-13-45' };
    for (const result of [
      run('20250602T200000Z-ACME-aaaaaa'),
      broken,
      badBar,
      withClose('20250602T200000Z-ACME-eeeeee', 1e308),
    ])
      await saveRun(home, result, { transcript: [], markdown: '' });
    mkdirSync(join(home, 'runs', '20250602T200000Z-ACME-dddddd'));
    writeFileSync(join(home, 'runs', '20250602T200000Z-ACME-dddddd', 'result.json'), '{"runId": "truncated');

    const code = await runCli(['evaluate', '--json', '--no-save', '--horizon', '5'], io, { market: market(), now });
    expect(io.err()).not.toContain('unexpected error');
    expect(code).toBe(3);
    const output = JSON.parse(io.out()) as {
      decisions: Array<{ runId: string; problem: string | null }>;
      skipped: Array<{ runId: string; reason: string; unreadable?: boolean }>;
      unreadable: number;
    };
    expect(output.decisions.map((row) => [row.runId, row.problem === null])).toEqual([
      ['20250602T200000Z-ACME-aaaaaa', true],
      ['20250602T200000Z-ACME-eeeeee', false],
    ]);
    expect(output.unreadable).toBe(3);
    const reason = (id: string) => output.skipped.find((item) => item.runId === id)?.reason;
    expect(reason('20250602T200000Z-ACME-bbbbbb')).toBe("cannot be scored: its asOf 'garbage' is not a date");
    expect(reason('20250602T200000Z-ACME-cccccc')).toBe(
      "cannot be scored: a saved bar is dated '2025-13-45', not a calendar day",
    );
    expect(reason('20250602T200000Z-ACME-dddddd')).toMatch(/^corrupt: /);
    expect(io.err()).toContain('autohedge: 3 saved run(s) could not be read and are not in this evaluation');
  });

  it('the terminal view lists each skipped run with its reason', async () => {
    const io = captureIo();
    const home = io.env.AUTOHEDGE_HOME as string;
    for (const result of [
      run('20250602T200000Z-ACME-aaaaaa'),
      run('20250602T200000Z-ACME-bbbbbb', { asOf: 'garbage' }),
    ])
      await saveRun(home, result, { transcript: [], markdown: '' });
    const code = await runCli(['evaluate', '--no-save', '--horizon', '5', '--quiet'], io, { market: market(), now });
    expect(code).toBe(3);
    expect(io.out()).toContain(
      "skipped 20250602T200000Z-ACME-bbbbbb: cannot be scored: its asOf 'garbage' is not a date",
    );
    // Said even with --quiet: it is why the exit code is 3.
    expect(io.err()).toContain('1 saved run(s) could not be read');
  });
});
