// Issue 44 items 2 and 8: carried and new calls show their status and conviction, a demo cycle
// says DEMO, failures have their own heading without class names or vendor URLs, and the
// cycle's outcome gives the documented exit code (1 failed analysis, 3 missing data).
import { describe, expect, it } from 'vitest';
import { cycleOutcome, plainProblem, type WatchReport } from '../../src/watch/delta.js';
import { renderWatchHtml, renderWatchMarkdown, renderWatchText } from '../../src/watch/render.js';

const summary = (status: 'ok' | 'flagged' | 'degraded') => ({
  runId: 'run-2',
  day: '2026-11-27',
  status,
  action: 'BUY' as const,
  conviction: 64,
  positionSizePct: 4,
  entry: 100,
  stopLoss: 95,
  takeProfit: 110,
  flags: [],
});

const base: WatchReport = {
  cycle: 'c',
  asOf: '2026-11-27T18:00:00.000Z',
  historical: true,
  analysed: [],
  carried: [{ ticker: 'ACME', ageSessions: 1, runId: 'run-1', action: 'BUY', status: 'flagged', conviction: 64 }],
  skipped: [],
  unavailable: [],
  spend: { monthUsd: 0, budgetUsd: null, worstCasePerRunUsd: 0.25 },
  demo: true,
};

describe('the watch delta report', () => {
  it('a flagged carried call is never a plain "ACME: BUY"; the demo says DEMO on every surface', () => {
    const text = renderWatchText(base);
    expect(text).toContain('ACME: BUY (FLAGGED), conviction 64; 1 session old');
    expect(text.split('\n')[0]).toMatch(/^DEMO/);
    expect(renderWatchMarkdown(base)).toContain('DEMO');
    expect(renderWatchHtml(base)).toContain('DEMO');
    expect(cycleOutcome(base)).toBe('ok');
  });

  it('a new degraded call shows its status, and the cycle is degraded (exit 3)', () => {
    const report: WatchReport = {
      ...base,
      analysed: [
        {
          ticker: 'GLBX',
          triggers: [{ name: 'no-call', detail: 'never analysed' }],
          runId: 'run-2',
          previous: null,
          current: summary('degraded'),
          changes: ['first call: BUY (conviction 64)'],
        },
      ],
    };
    expect(renderWatchText(report)).toContain('GLBX [no-call]: BUY (DEGRADED), conviction 64: first call');
    expect(cycleOutcome(report)).toBe('degraded');
    expect(cycleOutcome({ ...base, unavailable: [{ ticker: 'X', reason: 'no data' }] })).toBe('degraded');
  });

  it('a failed analysis is listed under Failed, plainly, and the cycle failed (exit 1)', () => {
    const problem =
      "ReplayMissError: no recorded response for GET https://query2.finance.yahoo.com/v7/finance/quote?symbols=ACME&crumb=REDACTED in cassette 'x'";
    const report: WatchReport = {
      ...base,
      analysed: [
        {
          ticker: 'ACME',
          triggers: [{ name: 'stale', detail: 'old' }],
          runId: null,
          previous: null,
          current: null,
          changes: [],
          problem,
        },
      ],
    };
    const text = renderWatchText(report);
    expect(text).toContain('Failed (1):');
    expect(text).toContain('ACME [stale]: no recorded response for GET query2.finance.yahoo.com in cassette');
    expect(text).not.toContain('ReplayMissError');
    expect(text).not.toContain('crumb');
    expect(cycleOutcome(report)).toBe('failed');
    expect(plainProblem('DataError: x at https://a.example/b?token=1')).toBe('x at a.example');
  });
});
