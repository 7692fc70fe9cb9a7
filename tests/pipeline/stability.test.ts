import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { consensusOf, median, sampleOrders, stabilityBucket, stabilityFindings } from '../../src/pipeline/stability.js';
import type { Decision } from '../../src/result/types.js';
import { decisionFixture } from '../../src/testing/index.js';

const base: Decision = decisionFixture({ conviction: 60, rationale: 'r', keyRisks: ['k'] });
const sell: Decision = { ...base, action: 'SELL', entry: 101, stopLoss: 106, takeProfit: 90, rationale: 'sell' };
const hold: Decision = {
  ...base,
  action: 'HOLD',
  positionSizePct: 0,
  entry: null,
  stopLoss: null,
  takeProfit: null,
  rationale: 'hold',
};

describe('consensusOf', () => {
  it('BUY, BUY, SELL: agreement 2/3, the BUY levels’ median, spread over the BUYs', () => {
    const first = { ...base, entry: 98, stopLoss: 93, takeProfit: 108, conviction: 70, rationale: 'first' };
    const second = { ...base, entry: 99.5, stopLoss: 94.5, takeProfit: 111, conviction: 50, positionSizePct: 3 };
    const agreed = consensusOf([first, sell, second])!;
    expect(agreed.stability).toEqual({
      k: 3,
      agreement: 2 / 3,
      actions: { BUY: 2, SELL: 1, HOLD: 0 },
      spread: { positionSizePct: 1, entry: 1.5, stopLoss: 1.5, takeProfit: 3 },
      failed: 0,
    });
    expect(agreed.decision).toMatchObject({
      action: 'BUY',
      entry: 98.75,
      stopLoss: 93.75,
      takeProfit: 109.5,
      conviction: 60,
      positionSizePct: 3.5,
    });
  });

  it('an odd number of agreeing samples takes the middle one; its words come from the sample nearest the medians', () => {
    const samples = [98, 100, 99].map((entry, index) => ({ ...base, entry, rationale: `sample ${index + 1}` }));
    const agreed = consensusOf(samples)!;
    expect(agreed.decision.entry).toBe(99);
    expect(agreed.decision.rationale).toBe('sample 3');
    expect(agreed.stability.agreement).toBe(1);
  });

  it('BUY, SELL, HOLD: a tie goes to the earliest sample, agreement 1/3, and the finding is an error', () => {
    const agreed = consensusOf([base, sell, hold])!;
    expect(agreed.decision.action).toBe('BUY');
    expect(agreed.stability.agreement).toBeCloseTo(1 / 3, 12);
    const findings = stabilityFindings(agreed.stability, 0.6);
    expect(findings).toEqual([
      {
        rule: 'unstable-decision',
        severity: 'error',
        message: expect.stringContaining('agree 33 % on one action (BUY 1, SELL 1, HOLD 1)'),
      },
    ]);
    expect(consensusOf([hold, sell, base])!.decision.action).toBe('HOLD');
  });

  it('a sample with no decision agrees with nothing; none at all is no consensus', () => {
    const agreed = consensusOf([base, null, base])!;
    expect(agreed.stability).toMatchObject({ k: 3, agreement: 2 / 3, failed: 1 });
    expect(stabilityFindings(agreed.stability, 0.6)).toEqual([]);
    expect(stabilityFindings(consensusOf([base, null, null])!.stability, 0.6)[0]?.message).toContain(
      '2 without a decision',
    );
    expect(consensusOf([null, null])).toBeNull();
  });

  it('two of three pass the default 0.6 exactly at the boundary; a stricter --min-agreement flags them', () => {
    const stability = consensusOf([base, base, sell])!.stability;
    expect(stabilityFindings(stability, 0.6)).toEqual([]);
    expect(stabilityFindings(stability, 2 / 3)).toEqual([]);
    expect(stabilityFindings(stability, 0.7)).toHaveLength(1);
  });

  it('the modal action always wins at least 1/k, and the levels stay inside the agreeing samples’ range (property)', () => {
    const decision = fc.record({
      action: fc.constantFrom('BUY', 'SELL', 'HOLD' as const),
      entry: fc.option(fc.double({ min: 1, max: 1000, noNaN: true }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(decision, { minLength: 1, maxLength: 9 }), (drawn) => {
        const samples = drawn.map((sample) => ({ ...base, ...sample }) as Decision);
        const agreed = consensusOf(samples)!;
        expect(agreed.stability.agreement).toBeGreaterThanOrEqual(1 / samples.length - 1e-12);
        const entries = samples
          .filter((sample) => sample.action === agreed.decision.action && sample.entry !== null)
          .map((sample) => sample.entry!);
        if (entries.length === 0) expect(agreed.decision.entry).toBeNull();
        else {
          expect(agreed.decision.entry).toBeGreaterThanOrEqual(Math.min(...entries));
          expect(agreed.decision.entry).toBeLessThanOrEqual(Math.max(...entries));
        }
      }),
    );
  });
});

describe('helpers', () => {
  it('median, buckets', () => {
    expect(median([3, null, 1, 2])).toBe(2);
    expect(median([4, 1])).toBe(2.5);
    expect(median([null])).toBeNull();
    expect([1, 2 / 3, 0.67, 0.66, 1 / 3].map(stabilityBucket)).toEqual(['1.0', '>=0.67', '>=0.67', '<0.67', '<0.67']);
  });

  it('sample orders: the first as given, each later one a different seeded order, the same on every call', () => {
    const reports = ['quant', 'risk', 'execution', 'sentiment'];
    const orders = sampleOrders(reports, 5);
    expect(orders[0]).toEqual(reports);
    expect(new Set(orders.map((order) => order.join())).size).toBe(5);
    for (const order of orders) expect([...order].sort()).toEqual([...reports].sort());
    expect(sampleOrders(reports, 5)).toEqual(orders);
  });
});
