import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import type { SearchProvider } from '../../src/tools/exa-search.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

// fakeMarket: last close 100, ATR 2.5. The decision puts 20 % of the portfolio 12 % from its stop
// (2.4 % at risk) with reward/risk 1.5.
const plan = planFor(deskIds, { thesis: 'Thesis.' });
const decision = decisionFixture({
  conviction: 90,
  timeHorizon: '1 year',
  positionSizePct: 20,
  entry: 100,
  stopLoss: 88,
  takeProfit: 118,
  rationale: 'Because.',
  keyRisks: [],
});
const search: SearchProvider = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');

async function findingsWith(flags: string[]): Promise<string[]> {
  const io = captureIo();
  const model = new ScriptedModel({
    director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decision) }, { text: JSON.stringify(decision) }],
    quant: [{ text: 'Quant.' }],
    risk: [{ text: 'Risk.' }],
    execution: [{ text: 'Execution.' }],
    sentiment: [{ text: 'Sentiment.' }],
  });
  await runCli(['analyze', 'ACME', '--json', '--no-save', ...flags], io, { model, market: fakeMarket(), search, now });
  const result = JSON.parse(io.out()) as AnalysisResult;
  return result.guardrails
    .filter((finding) => finding.severity !== 'info')
    .map((finding) => `${finding.severity}:${finding.rule}`);
}

describe('guardrail limits on the command line', () => {
  it('--max-position, --max-risk and --min-reward-risk move the limits the decision is checked against', async () => {
    expect(await findingsWith([])).toEqual(['error:position-size', 'error:risk-per-trade']);
    expect(await findingsWith(['--max-position', '20'])).toEqual(['error:risk-per-trade']);
    expect(await findingsWith(['--max-position', '20', '--max-risk', '2.5'])).toEqual([]);
    expect(await findingsWith(['--max-position', '20', '--max-risk', '2.5', '--min-reward-risk', '2'])).toEqual([
      'warning:reward-risk',
    ]);
  });

  it('rejects a bad limit with one usage line, exit 2', async () => {
    const io = captureIo();
    const code = await runCli(['analyze', 'ACME', '--max-risk', '-1'], io, {
      model: new ScriptedModel({}),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(2);
    expect(io.err()).toBe("autohedge: --max-risk must be a positive number (got '-1')\n");
  });
});
