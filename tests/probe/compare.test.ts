import { describe, expect, it } from 'vitest';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import { compareProbe, renderProbe } from '../../src/probe/compare.js';
import { decisionFixture } from '../../src/testing/index.js';
import { makeSnapshot } from '../support/market.js';

// makeSnapshot: ATR 2.5.
const decision: Decision = decisionFixture({ conviction: 60, rationale: 'r', keyRisks: [] });

function result(overrides: Partial<Decision> | null, blind = false): AnalysisResult {
  return {
    runId: blind ? 'blind-run' : 'named-run',
    ticker: 'ACME',
    asOf: '2026-11-28T12:00:00.000Z',
    status: overrides === null ? 'failed' : 'ok',
    market: makeSnapshot(),
    decision: overrides === null ? null : { ...decision, ...overrides },
    ...(blind ? { blind: { alias: 'Company A', scale: 1 } } : {}),
  } as AnalysisResult;
}

describe('compareProbe', () => {
  it.each([
    ['the same call', {}, 'consistent', true, 0],
    ['a level exactly 1 ATR away', { entry: 101.5 }, 'consistent', true, 1],
    ['a level more than 1 ATR away', { takeProfit: 113 }, 'differs', true, 0],
    ['another action', { action: 'SELL', stopLoss: 104, takeProfit: 90 }, 'differs', false, 0],
  ] as const)('%s → %s', (_name, blind, verdict, sameAction, entryAtr) => {
    const comparison = compareProbe(result({}), result(blind, true));
    expect(comparison.verdict).toBe(verdict);
    expect(comparison.sameAction).toBe(sameAction);
    expect(comparison.atr).toBe(2.5);
    expect(comparison.levelDifferenceAtr.entry).toBeCloseTo(entryAtr, 9);
    expect(comparison.blind.alias).toBe('Company A');
  });

  it('a run without a decision makes the probe incomplete, never consistent', () => {
    expect(compareProbe(result({}), result(null, true)).verdict).toBe('incomplete');
    expect(compareProbe(result(null), result({}, true)).sameAction).toBeNull();
  });

  it('renders the two calls in columns and the verdict', () => {
    const text = renderProbe(compareProbe(result({}), result({ action: 'SELL', stopLoss: 104, takeProfit: 90 }, true)));
    expect(text).toMatch(/action\s+BUY\s+SELL\s+differs/);
    expect(text).toMatch(/target\s+110\.00\s+90\.00\s+8\.00 ATR/);
    expect(text).toContain('verdict: differs — the call changes when the model does not know which stock it is');
  });
});
