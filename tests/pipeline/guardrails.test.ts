import { describe, expect, it } from 'vitest';
import { checkDecision } from '../../src/pipeline/guardrails.js';
import type { Decision } from '../../src/pipeline/types.js';
import { makeSnapshot } from '../support/market.js';

// The snapshot: last close 100, ATR(14) 2.5, so 3 ATR = 7.5.
const market = makeSnapshot();
const buy: Decision = {
  action: 'BUY',
  conviction: 70,
  timeHorizon: '4 weeks',
  positionSizePct: 5,
  orderType: 'limit',
  entry: 99,
  stopLoss: 94,
  takeProfit: 110,
  rationale: 'r',
  keyRisks: [],
  dissent: null,
};
const rules = (decision: Decision, snapshot = market, maxPositionPct = 10) =>
  checkDecision(decision, snapshot, { maxPositionPct, maxEntryAtr: 3, minRewardRisk: 1 });

describe('guardrails', () => {
  it('passes a sound BUY', () => {
    expect(rules(buy)).toEqual([]);
  });

  it('flags a stop above entry on a BUY', () => {
    expect(rules({ ...buy, stopLoss: 101 })).toContainEqual({ rule: 'stop-side', severity: 'error', message: 'stop-loss 101 is at or above the entry 99 for a BUY' });
  });

  it('flags a take-profit below entry on a BUY and the reverse sides on a SELL', () => {
    expect(rules({ ...buy, takeProfit: 98 }).map((finding) => finding.rule)).toEqual(['target-side']);
    const sell: Decision = { ...buy, action: 'SELL', entry: 100, stopLoss: 96, takeProfit: 104 };
    expect(rules(sell)).toEqual([
      { rule: 'stop-side', severity: 'error', message: 'stop-loss 96 is at or below the entry 100 for a SELL' },
      { rule: 'target-side', severity: 'error', message: 'take-profit 104 is at or above the entry 100 for a SELL' },
    ]);
    expect(rules({ ...sell, stopLoss: 104, takeProfit: 92 })).toEqual([]);
  });

  it('flags an entry 40 % from the price (beyond 3 ATR)', () => {
    expect(rules({ ...buy, entry: 140, stopLoss: 130, takeProfit: 160 })).toEqual([
      { rule: 'entry-distance', severity: 'error', message: 'entry 140 is 16.0 ATR from the last close 100 (limit 3 ATR)' },
    ]);
    // 7.5 away is exactly 3 ATR: allowed.
    expect(rules({ ...buy, entry: 107.5, stopLoss: 100, takeProfit: 120 })).toEqual([]);
  });

  it('flags a size of 80 % against the 10 % limit, and honours --max-position', () => {
    expect(rules({ ...buy, positionSizePct: 80 })).toEqual([{ rule: 'position-size', severity: 'error', message: 'position size 80 % exceeds the 10 % limit' }]);
    expect(rules({ ...buy, positionSizePct: 80 }, market, 100)).toEqual([]);
  });

  it('warns when reward/risk is below 1', () => {
    expect(rules({ ...buy, takeProfit: 102 })).toEqual([{ rule: 'reward-risk', severity: 'warning', message: 'reward/risk is 0.60, below 1' }]);
  });

  it('notes a HOLD carrying levels, without other checks', () => {
    expect(rules({ ...buy, action: 'HOLD', positionSizePct: 0, entry: 140, stopLoss: 150, takeProfit: null })).toEqual([
      { rule: 'hold-levels', severity: 'info', message: 'HOLD carries levels (entry 140, stopLoss 150); they are informational only' },
    ]);
    expect(rules({ ...buy, action: 'HOLD', positionSizePct: 0, entry: null, stopLoss: null, takeProfit: null })).toEqual([]);
  });

  it('flags every level unverifiable without market data', () => {
    expect(checkDecision(buy, null).map((finding) => [finding.rule, finding.message])).toEqual([
      ['unverifiable', 'entry 99 cannot be checked: no market price is available'],
      ['unverifiable', 'stopLoss 94 cannot be checked: no market price is available'],
      ['unverifiable', 'takeProfit 110 cannot be checked: no market price is available'],
    ]);
  });

  it('warns when a BUY has no stop or entry, and when ATR is missing', () => {
    expect(rules({ ...buy, stopLoss: null }).map((finding) => finding.rule)).toEqual(['stop-missing']);
    expect(rules({ ...buy, entry: null }).map((finding) => finding.rule)).toEqual(['entry-missing']);
    const noAtr = makeSnapshot('ACME', { indicators: { ...market.indicators, atr14: null } });
    expect(rules(buy, noAtr)).toEqual([{ rule: 'entry-distance', severity: 'warning', message: 'entry 99 cannot be checked against ATR(14): not available' }]);
  });
});
