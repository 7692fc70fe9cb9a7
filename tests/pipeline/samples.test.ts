// `--samples k`: the Director's decision step k times on the same desk reports.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/pipeline/analyze.js';
import { SpendingCap } from '../../src/pipeline/budget.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { decision, fixedNow } from '../support/faults.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { deskIds } from '../../agents/index.js';
import { planFor } from '../../src/testing/index.js';

const plan = planFor(deskIds, { thesis: 'Thesis.' });
const buy = (entry: number) => ({ ...decision, entry, stopLoss: entry - 5, takeProfit: entry + 11 });
const sell = { ...decision, action: 'SELL', entry: 101, stopLoss: 106, takeProfit: 90 };
const hold = { ...decision, action: 'HOLD', positionSizePct: 0, entry: null, stopLoss: null, takeProfit: null };

function script(decisions: object[], usage?: { promptTokens: number; completionTokens: number }) {
  const turn = (value: object): ScriptedStep => ({ text: JSON.stringify(value), ...(usage ? { usage } : {}) });
  return new ScriptedModel({
    director: [turn(plan), ...decisions.map(turn)],
    quant: [turn({ report: 'Quant report.' })],
    risk: [turn({ report: 'Risk report.' })],
    execution: [turn({ report: 'Execution report.' })],
    sentiment: [turn({ report: 'Sentiment report.' })],
  });
}

const run = (model: ScriptedModel, options: { samples: number; maxCostUsd?: number; minAgreement?: number }) => {
  const { maxCostUsd, ...rest } = options;
  return analyze(
    'ACME',
    { asOf: fixedNow(), model: 'gpt-4.1', ...rest },
    {
      model,
      market: fakeMarket(makeSnapshot()),
      search: null,
      ...(maxCostUsd !== undefined ? { cap: new SpendingCap(maxCostUsd) } : {}),
    },
  );
};

/** The desks in the order a decision request lists them. */
function deskOrder(request: ChatRequest): string[] {
  const text = request.messages.at(-1)?.content ?? '';
  return [...String(text).matchAll(/"desk": "(\w+)"/g)].map((match) => match[1]!);
}

const decisionRequests = (model: ScriptedModel) =>
  model.requestsOf('director').filter((request) => request.responseFormat?.json_schema.name === 'decision');

describe('analyze with samples', () => {
  it('BUY, BUY, SELL: agreement 0.67, the BUY levels’ median, each sample its own order and seed', async () => {
    const model = script([buy(98), sell, buy(99)]);
    const result = await run(model, { samples: 3 });
    expect(result.status).toBe('ok');
    expect(result.stability).toMatchObject({ k: 3, actions: { BUY: 2, SELL: 1, HOLD: 0 }, failed: 0 });
    expect(result.stability!.agreement).toBeCloseTo(0.67, 2);
    expect(result.stability!.spread).toEqual({ positionSizePct: 0, entry: 1, stopLoss: 1, takeProfit: 1 });
    expect(result.decision).toMatchObject({ action: 'BUY', entry: 98.5, stopLoss: 93.5, takeProfit: 109.5 });
    expect(result.guardrails.some((finding) => finding.rule === 'unstable-decision')).toBe(false);
    const requests = decisionRequests(model);
    expect(requests.map((request) => request.seed)).toEqual([1, 2, 3]);
    const orders = requests.map(deskOrder);
    expect(orders[0]).toEqual(['Quant', 'Risk', 'Execution', 'Sentiment']);
    expect(new Set(orders.map((order) => order.join())).size).toBe(3);
    model.assertComplete();
  });

  it('BUY, SELL, HOLD: an unstable-decision error, the run flagged, never a silent HOLD', async () => {
    const result = await run(script([buy(99), sell, hold]), { samples: 3 });
    expect(result.status).toBe('flagged');
    expect(result.decision?.action).toBe('BUY');
    expect(result.guardrails).toContainEqual(expect.objectContaining({ rule: 'unstable-decision', severity: 'error' }));
    expect(result.stability!.agreement).toBeCloseTo(1 / 3, 9);
  });

  it('--samples 1 is today’s request: no seed, one decision, no stability', async () => {
    const model = script([buy(99)]);
    const result = await run(model, { samples: 1 });
    expect(result.stability).toBeUndefined();
    expect(decisionRequests(model).map((request) => request.seed)).toEqual([undefined]);
  });

  it('the cost cap counts every sample: it stops the third, and the run is degraded, never ok (issue 45 item 4)', async () => {
    // Each call reports 2,000 completion tokens of gpt-4.1 ($0.016); a decision call's worst case is
    // about $0.012 of completion plus its prompt. Five calls and two samples fit under $0.12; a third does not.
    const usage = { promptTokens: 0, completionTokens: 2_000 };
    const model = script([buy(98), buy(99), buy(100)], usage);
    const result = await run(model, { samples: 3, maxCostUsd: 0.12 });
    expect(decisionRequests(model)).toHaveLength(2);
    // The figures are over the samples made, and say how many were asked for.
    expect(result.stability).toMatchObject({ k: 2, asked: 3, failed: 0, actions: { BUY: 2, SELL: 0, HOLD: 0 } });
    expect(result.samples).toEqual({ asked: 3, made: 2 });
    expect(result.status).toBe('degraded');
    expect(result.failure).toMatchObject({ stage: 'decision', kind: 'budget' });
    expect(result.warnings.join('\n')).toMatch(
      /the --max-cost cap stopped the Director's samples: 2 of 3 made a decision/,
    );
    expect(result.usage.byAgent.director?.completionTokens).toBe(6_000);
    expect(result.warnings.join('\n')).toMatch(/sample 3 of 3 made no decision: --max-cost \$0\.1200 reached/);
    expect(result.usage.costUsd).toBeLessThanOrEqual(0.12);
    expect(result.decision).toMatchObject({ action: 'BUY', entry: 98.5 });
  });

  it('a bad samples or minAgreement value is the caller’s error, before any call', async () => {
    const model = script([]);
    await expect(run(model, { samples: 0 })).rejects.toThrow(/samples must be a whole number/);
    await expect(run(model, { samples: 2, minAgreement: 1.5 })).rejects.toThrow(/minAgreement must be between/);
    expect(model.requests).toHaveLength(0);
  });
});
