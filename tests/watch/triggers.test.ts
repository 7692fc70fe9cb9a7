import { describe, expect, it } from 'vitest';
import type { Bar } from '../../src/market/types.js';
import { admitWithinBudget, monthSpend } from '../../src/watch/budget.js';
import { changesBetween } from '../../src/watch/delta.js';
import { evaluateTriggers, defaultTriggerLimits, type LastCall } from '../../src/watch/triggers.js';
import type { RunSummary } from '../../src/store/run-store.js';

const bar = (date: string, close: number, extra: Partial<Bar> = {}): Bar => ({
  date,
  open: close,
  high: close * 1.005,
  low: close * 0.995,
  close,
  adjClose: close,
  volume: 1,
  ...extra,
});
// 30 quiet sessions in November (weekdays are enough for a pure function).
const quiet = Array.from({ length: 30 }, (_, index) =>
  bar(`2026-10-${String(index + 1).padStart(2, '0')}`, 100 * (index % 2 === 0 ? 1.002 : 0.998)),
);
const call = (overrides: Partial<LastCall> = {}): LastCall => ({
  runId: 'r1',
  day: '2026-10-25',
  decision: { action: 'BUY', stopLoss: 95, takeProfit: 106 },
  price: 100,
  ...overrides,
});
const market = (bars: Bar[], extra: { earningsDate?: string | null; atr14?: number } = {}) => ({
  bars,
  atr14: extra.atr14 ?? 1,
  earningsDate: extra.earningsDate ?? null,
});
const names = (found: ReturnType<typeof evaluateTriggers>) => found.map((trigger) => trigger.name);

describe('evaluateTriggers', () => {
  it.each([
    ['no call at all', null, quiet, [], ['no-call']],
    ['nothing since the call', call(), quiet, [], []],
    [
      'a BUY whose stop a low touched',
      call(),
      [...quiet.slice(0, 25), bar('2026-10-26', 100, { low: 94.9 })],
      [],
      ['stop-touched'],
    ],
    [
      'a BUY whose target a high touched',
      call(),
      [...quiet.slice(0, 25), bar('2026-10-26', 100, { high: 106 })],
      [],
      ['target-touched'],
    ],
    [
      'a SELL: the stop is above (a high), the target below (a low)',
      call({ decision: { action: 'SELL', stopLoss: 105, takeProfit: 94 } }),
      [...quiet.slice(0, 25), bar('2026-10-26', 100, { high: 105.2, low: 93.9 })],
      [],
      ['stop-touched', 'target-touched'],
    ],
    [
      'a HOLD has no levels to touch',
      call({ decision: { action: 'HOLD', stopLoss: null, takeProfit: null } }),
      quiet,
      [],
      [],
    ],
    [
      'a stop touched before the call does not count',
      call({ day: '2026-10-26' }),
      [...quiet.slice(0, 25), bar('2026-10-26', 100, { low: 90 })],
      [],
      [],
    ],
    ['a 3 % gap on quiet days', call(), [...quiet, bar('2026-10-31', 103, { open: 103 })], [], ['gap', 'move']],
    ['a close 2.5 ATR from the call price', call(), [...quiet, bar('2026-10-31', 102.5, { open: 99.8 })], [], ['move']],
    ['earnings after the call, on or before today', call(), quiet, [{ earningsDate: '2026-10-28' }], ['earnings']],
    ['earnings still to come', call(), quiet, [{ earningsDate: '2026-11-05' }], []],
  ] as const)('%s', (_name, last, bars, extra, expected) => {
    const found = evaluateTriggers(last, market([...bars], extra[0] ?? {}), defaultTriggerLimits);
    expect(names(found)).toEqual(expected);
  });

  it('stale past --max-age sessions', () => {
    const found = evaluateTriggers(call({ day: '2026-10-10' }), market(quiet), {
      ...defaultTriggerLimits,
      maxAgeSessions: 10,
    });
    expect(names(found)).toEqual(['stale']);
    expect(found[0]!.detail).toBe('the call is 20 sessions old (limit 10)');
  });
});

describe('the budget and the delta', () => {
  const run = (when: string, costUsd: number | null, demo = false): RunSummary =>
    ({
      runId: when,
      when,
      ticker: 'A',
      action: 'BUY',
      conviction: 1,
      status: 'ok',
      mode: 'full',
      demo,
      costUsd,
      state: 'ok',
    }) as RunSummary;

  it("the month's spend counts this month's priced, non-demo runs only", () => {
    const runs = [
      run('2026-12-01T10:00:00Z', 0.1),
      run('2026-12-03T10:00:00Z', 0.05),
      run('2026-11-30T23:00:00Z', 9),
      run('2026-12-02T00:00:00Z', 7, true),
      run('2026-12-02T00:00:00Z', null),
    ];
    expect(monthSpend(runs, new Date('2026-12-04T12:00:00Z'))).toBeCloseTo(0.15, 10);
  });

  it('admits in order while the spend plus every admitted worst case fits', () => {
    expect(admitWithinBudget(['a', 'b', 'c', 'd', 'e'], 0, 1, 0.25)).toEqual({
      admitted: ['a', 'b', 'c', 'd'],
      skipped: ['e'],
    });
    expect(admitWithinBudget(['a', 'b'], 0.9, 1, 0.25)).toEqual({ admitted: [], skipped: ['a', 'b'] });
    expect(admitWithinBudget(['a', 'b'], 5, undefined, 0.25)).toEqual({ admitted: ['a', 'b'], skipped: [] });
  });

  it('names an action change, level changes and new flags', () => {
    const before = {
      runId: 'a',
      day: '2026-11-01',
      status: 'ok' as const,
      action: 'BUY' as const,
      conviction: 60,
      positionSizePct: 4,
      entry: 99,
      stopLoss: 94,
      takeProfit: 110,
      flags: [],
    };
    expect(changesBetween(before, { ...before, runId: 'b' })).toEqual([]);
    expect(changesBetween(before, { ...before, action: 'HOLD', stopLoss: 96.5, flags: ['stop-too-tight'] })).toEqual([
      'action BUY → HOLD',
      'stop 94 → 96.5',
      'new flag: stop-too-tight',
    ]);
    expect(changesBetween(null, before)).toEqual(['first call: BUY (conviction 60)']);
  });
});
