import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/pipeline/analyze.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { decision, plan } from '../support/faults.js';
import type { MarketData } from '../../src/market/types.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';

const asOf = new Date('2026-11-28T12:00:00Z');
/** The fault matrix's sane BUY at a close of 100 (entry 99, stop 94, target 110); the snapshot's RSI(14) is 61. */
const wrongRsi = { ...decision, rationale: 'RSI(14) at 48.2 leaves room; a limit at 99.00 with a stop at 94.00.' };
const fixed = { ...decision, rationale: 'RSI(14) at 61.0 leaves room; a limit at 99.00 with a stop at 94.00.' };
const search = { search: async () => [] };

function run(director: Array<{ text: string }>, quant = 'Quant: RSI(14) 61.0, close 100.00 USD.') {
  const model = new ScriptedModel({
    director: [{ text: JSON.stringify(plan) }, ...director],
    quant: [{ text: quant }],
    risk: [{ text: 'Risk: ATR(14) 2.50 USD.' }],
    execution: [{ text: 'Execution: limit 99, stop 94, target 110.' }],
    sentiment: [{ text: 'Sentiment 0.7.' }],
  });
  return { model, result: analyze('ACME', { asOf }, { model, market: fakeMarket(), search }) };
}

const userOf = (request: { messages: Array<{ role: string; content: unknown }> }) =>
  request.messages.filter((message) => message.role === 'user').at(-1)?.content as string;

describe("claims in the Director's review pass", () => {
  it('a decision citing a wrong RSI is flagged to the Director; a revision that fixes it is ok, both decisions kept', async () => {
    const { model, result } = run([{ text: JSON.stringify(wrongRsi) }, { text: JSON.stringify(fixed) }]);
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('ok');
    expect(outcome.decisionHistory?.map((entry) => entry.decision)).toEqual([wrongRsi, fixed]);
    const first = outcome.decisionHistory![0]!.guardrails.filter((finding) => finding.rule === 'claim-contradicted');
    expect(first).toEqual([
      {
        rule: 'claim-contradicted',
        severity: 'error',
        message: "the decision's rationale says RSI(14) 48.2 where the data has 61.0 (snapshot.indicators.rsi14)",
      },
    ]);
    expect(outcome.guardrails.filter((finding) => finding.severity === 'error')).toEqual([]);
    const review = model.requestsOf('director')[2]!;
    expect(userOf(review)).toContain(
      "- claim-contradicted: the decision's rationale says RSI(14) 48.2 where the data has 61.0",
    );

    // The result's claims are the standing decision's: RSI verified, the levels its own.
    const rationale = outcome.claims!.filter((claim) => claim.field === 'decision.rationale');
    expect(rationale.map((claim) => [claim.text, claim.status, claim.source])).toEqual([
      ['61.0', 'verified', 'snapshot.indicators.rsi14'],
      ['99.00', 'verified', 'decision.entry'],
      ['94.00', 'verified', 'decision.stopLoss'],
    ]);
    expect(outcome.claimsSummary?.byAgent.director).toMatchObject({ total: 3, verified: 3, contradicted: 0 });
  });

  it('a revision that keeps the wrong RSI is flagged', async () => {
    const { result } = run([{ text: JSON.stringify(wrongRsi) }, { text: JSON.stringify(wrongRsi) }]);
    const outcome = await result;
    expect(outcome.status).toBe('flagged');
    expect(outcome.guardrails.map((finding) => [finding.rule, finding.severity])).toContainEqual([
      'claim-contradicted',
      'error',
    ]);
    expect(outcome.claims?.find((claim) => claim.text === '48.2')).toMatchObject({
      status: 'contradicted',
      sourceText: '61.0',
    });
  });

  it("a desk's contradicted figure, and a mostly unsourced decision text, are warnings that need no review", async () => {
    const vague = {
      ...decision,
      rationale: 'Upside of 12.40 %, a 3.70 % edge, 0.82 breadth and 1.9x flows; RSI(14) at 61.0.',
    };
    const { model, result } = run([{ text: JSON.stringify(vague) }], 'Quant: RSI(14) 75.3, ATR(14) 2.50 USD.');
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('ok');
    const claimRules = outcome.guardrails.filter((finding) => finding.rule.includes('claim'));
    expect(claimRules).toEqual([
      {
        rule: 'desk-claim-contradicted',
        severity: 'warning',
        message: "Quant's report says RSI(14) 75.3 where the data has 61.0 (snapshot.indicators.rsi14)",
      },
      {
        rule: 'claims-unsourced',
        severity: 'warning',
        message: "only 1 of the 5 figures in the decision's text trace to the data (20 %; at least 50 % expected)",
      },
    ]);
  });

  it('desks run alone (--agent) carry their claims and their contradicted figures as findings', async () => {
    const model = new ScriptedModel({ quant: [{ text: 'RSI(14) 75.3 and beta 1.20.' }] });
    const outcome = await analyze('ACME', { asOf, agents: ['quant'] }, { model, market: fakeMarket(), search });
    expect(outcome.claims?.map((claim) => [claim.text, claim.status])).toEqual([
      ['75.3', 'contradicted'],
      ['1.20', 'verified'],
    ]);
    expect(outcome.guardrails.map((finding) => finding.rule)).toEqual(['desk-claim-contradicted']);
    expect(outcome.status).toBe('ok');
  });

  it("a historical run checks the figures against the as-of snapshot it was shown, not today's", async () => {
    const today = makeSnapshot();
    const asOfDay = makeSnapshot('ACME', { indicators: { ...today.indicators, rsi14: 40 } });
    const market: MarketData = { snapshot: async (_ticker, options) => (options.historical ? asOfDay : today) };
    const model = new ScriptedModel({ quant: [{ text: 'RSI(14) 40.0 on the day.' }] });
    const outcome = await analyze('ACME', { asOf, historical: true, agents: ['quant'] }, { model, market, search });
    expect(outcome.asOfMode).toBe('historical');
    expect(outcome.claims?.map((claim) => [claim.text, claim.status, claim.source])).toEqual([
      ['40.0', 'verified', 'snapshot.indicators.rsi14'],
    ]);
  });
});
