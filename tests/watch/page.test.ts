// Issue 44 item 25: the watch page (delta.html) has the run page's look and one row per
// ticker — the call with its status, conviction, levels, the price the cycle read, what the
// cycle did, and a link to the run's report.html — and writes ages in words.
import { describe, expect, it } from 'vitest';
import { reportStyle } from '../../src/report/html-style.js';
import type { CallSummary } from '../../src/watch/calls.js';
import type { WatchReport } from '../../src/watch/delta.js';
import { renderWatchHtml, renderWatchMarkdown, renderWatchText } from '../../src/watch/render.js';
import { ageInWords, watchRows } from '../../src/watch/rows.js';

const call = (overrides: Partial<CallSummary>): CallSummary => ({
  runId: 'run-old',
  day: '2026-11-20',
  status: 'ok',
  action: 'BUY',
  conviction: 64,
  positionSizePct: 4,
  entry: 139.57,
  stopLoss: 130.43,
  takeProfit: 155.57,
  flags: [],
  ...overrides,
});

const report: WatchReport = {
  cycle: '2026-11-27T18:00:00.000Z@2026-12-07T17:00:00.000Z',
  asOf: '2026-11-27T18:00:00.000Z',
  historical: false,
  analysed: [
    {
      ticker: 'ACME',
      triggers: [{ name: 'stop-touched', detail: 'low 129 reached the stop 130.43' }],
      runId: 'run-new',
      previous: call({}),
      current: call({ runId: 'run-new', status: 'flagged', action: 'HOLD', conviction: 55, entry: null }),
      changes: ['action BUY → HOLD', 'entry 139.57 → none'],
      price: 131.2,
    },
    {
      ticker: 'GLBX',
      triggers: [{ name: 'stale', detail: '12 sessions old' }],
      runId: null,
      previous: call({ runId: 'run-glbx', action: 'SELL', status: 'degraded', conviction: 40 }),
      current: null,
      changes: [],
      problem: 'ReplayMissError: no recorded response for GET https://query2.finance.yahoo.com/v7/finance/quote?x=1',
      price: 50,
    },
  ],
  carried: [
    { ticker: 'TODAY', ageSessions: 0, runId: 'run-t', action: 'BUY', status: 'ok', conviction: 70, price: 10 },
    { ticker: 'ONE', ageSessions: 1, runId: 'run-1', action: 'HOLD', status: 'ok', conviction: 50 },
    {
      ticker: 'THREE',
      ageSessions: 3,
      runId: 'run-3',
      action: 'SELL',
      status: 'flagged',
      conviction: 61,
      entry: 20,
      stopLoss: 22,
      takeProfit: 15,
      price: 19.5,
    },
  ],
  skipped: [
    {
      ticker: 'SKIP',
      triggers: [{ name: 'move', detail: '2.5 ATR' }],
      reason: "the month's budget ($1.00) has no room",
      previous: call({ runId: 'run-skip' }),
      price: 141,
    },
  ],
  unavailable: [
    { ticker: 'GONE', reason: 'DataError: no chart at https://query2.finance.yahoo.com/v8/finance/chart/GONE' },
  ],
  spend: { monthUsd: 0.12, budgetUsd: 1, worstCasePerRunUsd: 0.25 },
};

describe('ages in words', () => {
  it('says "from today\'s session", "1 session old", "3 sessions old" — never "0 session(s) old"', () => {
    expect(ageInWords(0)).toBe("from today's session");
    expect(ageInWords(1)).toBe('1 session old');
    expect(ageInWords(3)).toBe('3 sessions old');
    const text = renderWatchText(report);
    expect(text).toContain("TODAY: BUY, conviction 70; from today's session (run run-t)");
    expect(text).toContain('ONE: HOLD, conviction 50; 1 session old');
    expect(text).toContain('THREE: SELL (FLAGGED), conviction 61; 3 sessions old');
    expect(`${text}${renderWatchMarkdown(report)}${renderWatchHtml(report)}`).not.toMatch(/session\(s\)|0 sessions/);
  });
});

describe('the watch page rows', () => {
  it('one row per ticker, in the order analysed, failed, skipped, carried, unavailable', () => {
    const rows = watchRows(report);
    expect(rows.map((row) => [row.ticker, row.kind])).toEqual([
      ['ACME', 'analysed'],
      ['GLBX', 'failed'],
      ['SKIP', 'skipped'],
      ['TODAY', 'carried'],
      ['ONE', 'carried'],
      ['THREE', 'carried'],
      ['GONE', 'unavailable'],
    ]);
  });

  it('a new call shows its status, conviction, levels, price, what changed and its run', () => {
    expect(watchRows(report)[0]).toEqual({
      ticker: 'ACME',
      kind: 'analysed',
      action: 'HOLD',
      status: 'flagged',
      conviction: 55,
      entry: null,
      stopLoss: 130.43,
      takeProfit: 155.57,
      price: 131.2,
      note: 'analysed (stop-touched): action BUY → HOLD; entry 139.57 → none',
      runId: 'run-new',
    });
  });

  it('a failed analysis keeps the standing call and says why plainly; a skipped one keeps its call too', () => {
    const [, failed, skipped] = watchRows(report);
    expect(failed).toMatchObject({ action: 'SELL', status: 'degraded', conviction: 40, runId: 'run-glbx', price: 50 });
    expect(failed!.note).toBe('analysis failed (stale): no recorded response for GET query2.finance.yahoo.com');
    expect(skipped).toMatchObject({ action: 'BUY', status: null, runId: 'run-skip', price: 141 });
    expect(skipped!.note).toBe("skipped (move): the month's budget ($1.00) has no room");
  });

  it('a carried call shows its levels (absent in older reports: none) and age; no market data has no call', () => {
    const rows = watchRows(report);
    expect(rows[5]).toMatchObject({ status: 'flagged', entry: 20, stopLoss: 22, takeProfit: 15, price: 19.5 });
    expect(rows[5]!.note).toBe('carried, 3 sessions old');
    expect(rows[4]).toMatchObject({ entry: null, price: null, note: 'carried, 1 session old' });
    expect(rows[6]).toMatchObject({
      action: null,
      runId: null,
      note: 'no market data: no chart at query2.finance.yahoo.com',
    });
  });
});

describe('the watch page', () => {
  const html = renderWatchHtml(report);
  const row = (ticker: string) => new RegExp(`<tr data-ticker="${ticker}"[^]*?</tr>`).exec(html)?.[0] ?? '';

  it("has the run report's head and stylesheet, and its table scrolls sideways on a phone", () => {
    expect(html).toContain(`<style>${reportStyle}</style>`);
    expect(html).toContain('Content-Security-Policy" content="default-src \'none\'');
    expect(html).toMatch(/<div class="scroll"><table>/);
    expect(html).not.toContain('<script');
  });

  it('each row: ticker, action with its status, conviction, entry / stop / target, price, and a link to the report', () => {
    const acme = row('ACME');
    expect(acme).toContain(
      '<strong class="action-HOLD">HOLD</strong> <span class="status status-flagged">FLAGGED</span>',
    );
    expect(acme).toContain('<td class="number">55</td>');
    expect(acme).toContain(
      '<td class="number">–</td><td class="number">130.43</td><td class="number">155.57</td><td class="number">131.20</td>',
    );
    expect(acme).toContain('<a href="../../runs/run-new/report.html"');
    expect(row('THREE')).toContain(
      '<td class="number">20.00</td><td class="number">22.00</td><td class="number">15.00</td>',
    );
    expect(row('GONE')).toContain('no call');
    expect(row('GONE')).not.toContain('<a ');
  });

  it('a demo cycle says DEMO in its title and in a banner under the heading, and links up from watch/demo/<cycle>/', () => {
    const demo = renderWatchHtml({ ...report, demo: true });
    expect(demo).toMatch(/<title>DEMO/);
    expect(demo).toContain('<p class="banner" data-demo="">DEMO');
    expect(demo).toContain('<a href="../../../runs/run-new/report.html"');
    expect(html).not.toContain('DEMO');
  });

  it('escapes what came from outside', () => {
    const hostile = renderWatchHtml({
      ...report,
      unavailable: [{ ticker: 'X<Y', reason: '<img src=x onerror=alert(1)>' }],
    });
    expect(hostile).not.toContain('<img');
    expect(hostile).toContain('X&lt;Y');
  });
});
