// Issue 47 item 8: watch processes that share a home and start together must not overspend
// the month's budget. Three cycles (as three processes would) with --budget-usd 0.5 and a
// worst case of 0.25 a run admit two runs in all, not two each: each admission sees the
// others' runs in flight through the home's reservations, and a saved run after release.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeSpendReservations } from '../../src/run/spend-reservations.js';
import type { RunSummary } from '../../src/store/run-store.js';
import { runCycle, type CycleDeps } from '../../src/watch/cycle.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { makeSnapshot } from '../support/market.js';
import { makeResult } from '../support/results.js';

const now = new Date('2026-11-20T22:00:00.000Z');

function processOn(home: string, saved: RunSummary[], withReservations: boolean, ran: string[]): CycleDeps {
  return {
    // No known call: every ticker is due (max-age trigger).
    snapshot: async (ticker) => makeSnapshot(ticker),
    lastCalls: async () => new Map(),
    savedRuns: async () => [...saved],
    now: () => now,
    analyse: async (tickers) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const results = new Map<string, AnalysisResult | Error>();
      for (const ticker of tickers) {
        ran.push(ticker);
        // Saved before the reservation is released, as runAndSave does.
        saved.push({ state: 'ok', demo: false, when: now.toISOString(), costUsd: 0.25 } as unknown as RunSummary);
        results.set(ticker, makeResult({ ticker }));
      }
      return results;
    },
    ...(withReservations ? { reservations: homeSpendReservations(home, () => now) } : {}),
  };
}

async function threeAtOnce(withReservations: boolean): Promise<{ ran: string[]; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'ah-reservations-'));
  const saved: RunSummary[] = [];
  const ran: string[] = [];
  const input = {
    tickers: ['AAA', 'BBB', 'CCC'],
    asOf: new Date('2026-11-20T21:00:00.000Z'),
    historical: true,
    limits: { maxAgeSessions: 0, gapSigma: 3, moveAtr: 2 },
    budgetUsd: 0.5,
    worstCasePerRunUsd: 0.25,
  };
  await Promise.all([0, 1, 2].map(() => runCycle(input, processOn(home, saved, withReservations, ran))));
  return { ran, home };
}

describe('the month budget across processes on one home', () => {
  it('without reservations, three cycles each admit two runs: the overspend the issue reports', async () => {
    expect((await threeAtOnce(false)).ran).toHaveLength(6);
  });

  it('with reservations, two runs in all fit the budget, and nothing stays reserved after', async () => {
    const { ran, home } = await threeAtOnce(true);
    expect(ran.length).toBeLessThanOrEqual(2);
    expect(ran.length).toBeGreaterThan(0);
    const file = JSON.parse(readFileSync(join(home, 'spend-reservations.json'), 'utf8')) as { reservations: unknown[] };
    expect(file.reservations).toEqual([]);
  });

  it('a reservation left by a process that is gone no longer counts', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ah-reservations-'));
    const reservations = homeSpendReservations(home, () => now);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(home, 'spend-reservations.json'),
      JSON.stringify({ reservations: [{ id: 'x', pid: 2 ** 22 + 17, usd: 100, at: now.toISOString() }] }),
    );
    const { decision } = await reservations.admit(async (reservedUsd) => ({ decision: reservedUsd, reserveUsd: [] }));
    expect(decision).toBe(0);
  });
});
