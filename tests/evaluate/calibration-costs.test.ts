import { describe, expect, it } from 'vitest';
import { calibrationOf } from '../../src/evaluate/calibration.js';
import { costSummary, roundTripCost } from '../../src/evaluate/costs.js';

describe('calibration', () => {
  it('buckets 0–20 … 80–100 (100 in the last) and the Brier score, by hand', () => {
    const calibration = calibrationOf([
      { conviction: 10, won: false },
      { conviction: 35, won: true },
      { conviction: 39.9, won: false },
      { conviction: 60, won: true },
      { conviction: 80, won: true },
      { conviction: 100, won: false },
    ]);
    expect(calibration.buckets).toEqual([
      { from: 0, to: 20, n: 1, hitRate: 0 },
      { from: 20, to: 40, n: 2, hitRate: 0.5 },
      { from: 40, to: 60, n: 0, hitRate: null },
      { from: 60, to: 80, n: 1, hitRate: 1 },
      { from: 80, to: 100, n: 2, hitRate: 0.5 },
    ]);
    // (0.1−0)² + (0.35−1)² + (0.399−0)² + (0.6−1)² + (0.8−1)² + (1−0)²
    // = 0.01 + 0.4225 + 0.159201 + 0.16 + 0.04 + 1 = 1.791701; ÷ 6
    expect(calibration.brier).toBeCloseTo(1.791701 / 6, 12);
    expect(calibrationOf([])).toMatchObject({ brier: null });
  });
});

describe('costs', () => {
  it('a round trip pays spread and slippage on entry and on exit', () => {
    expect(roundTripCost({ spreadBps: 5, slippageBps: 5 })).toBeCloseTo(0.002, 15);
  });

  it('net returns and the break-even notional, by hand', () => {
    // Gross +1 %, +2 %, −0.5 %: mean +0.8333 %; after 20 bps a round trip: +0.6333 %.
    // Bills $0.03, $0.05, $0.04: mean $0.04. Break-even: 0.04 / 0.0063333 = $6.3158.
    const summary = costSummary(
      [
        { signedReturn: 0.01, modelUsd: 0.03 },
        { signedReturn: 0.02, modelUsd: 0.05 },
        { signedReturn: -0.005, modelUsd: 0.04 },
      ],
      { spreadBps: 5, slippageBps: 5, notional: 10 },
    );
    expect(summary.meanNetReturn).toBeCloseTo(0.025 / 3 - 0.002, 12);
    expect(summary.meanModelUsd).toBeCloseTo(0.04, 12);
    expect(summary.breakEvenNotional).toBeCloseTo(0.04 / (0.025 / 3 - 0.002), 9);
    expect(summary.breakEvenNotional).toBeCloseTo(6.315789, 5);
    // At $10 a position the bills are 0.3 %, 0.5 %, 0.4 % of it: net 0.6333 % − 0.4 % = +0.2333 %.
    expect(summary.meanNetReturnAfterModel).toBeCloseTo(0.025 / 3 - 0.002 - 0.004, 12);
    // At exactly the break-even notional the mean net return after the model is zero.
    const atBreakEven = costSummary(
      [
        { signedReturn: 0.01, modelUsd: 0.03 },
        { signedReturn: 0.02, modelUsd: 0.05 },
        { signedReturn: -0.005, modelUsd: 0.04 },
      ],
      { spreadBps: 5, slippageBps: 5, notional: summary.breakEvenNotional },
    );
    expect(atBreakEven.meanNetReturnAfterModel).toBeCloseTo(0, 12);
  });

  it('no break-even when the edge after trading costs is ≤ 0; an unknown bill is counted, not taken as free', () => {
    const losing = costSummary(
      [
        { signedReturn: 0.001, modelUsd: 0.03 },
        { signedReturn: 0.002, modelUsd: null },
      ],
      { spreadBps: 5, slippageBps: 5, notional: 1000 },
    );
    // Gross +0.15 % but −0.05 % after 20 bps.
    expect(losing.meanNetReturn).toBeCloseTo(-0.0005, 12);
    expect(losing.breakEvenNotional).toBeNull();
    expect(losing.modelUsdUnknown).toBe(1);
    expect(losing.meanModelUsd).toBeCloseTo(0.03, 12);
    // Only the decision with a known bill: −0.1 % − 0.003 % … (0.001 − 0.002 − 0.00003).
    expect(losing.meanNetReturnAfterModel).toBeCloseTo(0.001 - 0.002 - 0.03 / 1000, 12);
    expect(costSummary([], { spreadBps: 5, slippageBps: 5, notional: null })).toMatchObject({
      meanNetReturn: null,
      meanNetReturnAfterModel: null,
      breakEvenNotional: null,
    });
  });
});
