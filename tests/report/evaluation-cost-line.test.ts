/** The evaluation's cost line: dollar amounts a reader can act on, small ones in cents. */
import { describe, expect, it } from 'vitest';
import type { Attribution } from '../../src/evaluate/attribution.js';
import type { CostSummary } from '../../src/evaluate/costs.js';
import { costLine } from '../../src/report/evaluation-attribution.js';

function lineFor(costs: Partial<CostSummary>): string {
  const summary: CostSummary = {
    spreadBps: 5,
    slippageBps: 5,
    notional: null,
    meanModelUsd: 0.0295,
    modelUsdUnknown: 0,
    meanNetReturn: 0.1126,
    meanNetReturnAfterModel: null,
    breakEvenNotional: null,
    ...costs,
  };
  return costLine({ costs: summary } as Attribution);
}

describe('costLine', () => {
  it.each([
    [0.262, '$0.26'],
    [6.315789, '$6.32'],
    [99.994, '$99.99'],
    [1_250.4, '$1,250'],
  ])('a break-even notional of %d reads %s', (breakEvenNotional, text) => {
    expect(lineFor({ breakEvenNotional })).toContain(`the model pays for itself from ${text} a position`);
  });

  it('says when no position size pays for the model', () => {
    expect(lineFor({ meanNetReturn: -0.01 })).toContain('no position size pays for the model');
  });
});
