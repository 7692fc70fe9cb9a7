import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';

async function demo(flags: string[]): Promise<AnalysisResult> {
  const io = captureIo();
  expect(await runCli(['analyze', 'ACME', '--demo', ...flags, '--json', '--no-save', '--quiet'], io), io.err()).toBe(0);
  return JSON.parse(io.out()) as AnalysisResult;
}

describe("the demo's figures", () => {
  it("the full demo run has no contradicted figure and traces most of every agent's figures to the data", async () => {
    const result = await demo([]);
    expect(result.claims?.filter((claim) => claim.status === 'contradicted')).toEqual([]);
    expect(result.guardrails).toEqual([]);
    expect(Object.keys(result.claimsSummary?.byAgent ?? {})).toEqual([
      'director',
      'quant',
      'risk',
      'execution',
      'sentiment',
    ]);
    for (const [agent, counts] of Object.entries(result.claimsSummary!.byAgent)) {
      expect(counts.verifiedShare, agent).toBeGreaterThan(0.8);
    }
    // The levels the Director states are its own; reward/risk is computed from them.
    const rationale = result.claims!.filter((claim) => claim.field === 'decision.rationale');
    expect(rationale.find((claim) => claim.text === '1.75')).toMatchObject({
      status: 'derived',
      quantity: 'reward-to-risk',
    });
    expect(rationale.find((claim) => claim.text === '130.43 USD')).toMatchObject({
      status: 'verified',
      source: 'decision.stopLoss',
    });
  });

  it('the desks alone contradict nothing either', async () => {
    const result = await demo(['--agent', 'quant', '--agent', 'risk', '--agent', 'execution']);
    expect(result.claimsSummary?.contradicted).toBe(0);
    expect(result.guardrails).toEqual([]);
  });
});
