import { describe, expect, it } from 'vitest';
import { agentDefinitions, type AgentDefinition } from '../../agents/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { BudgetExceededError } from '../../src/errors.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { captureIo } from '../support/cli.js';
import { decision, plan } from '../support/faults.js';
import { fakeMarket } from '../support/market.js';

const asOf = new Date('2026-11-28T12:00:00Z');
/** The fault matrix's sane BUY at a close of 100 (entry 99, stop 94, target 110). */
const sane = decision;
/** A stop above the entry of a BUY: an `error` finding. */
const broken = { ...sane, stopLoss: 101 };

const desks = {
  quant: [{ text: 'Quant: trend up.' }],
  risk: [{ text: 'Risk: size 5 %.' }],
  execution: [{ text: 'Execution: limit 99.' }],
  sentiment: [{ text: 'Sentiment 0.7.' }],
};
const search = { search: async () => [] };

function runWith(director: ScriptedStep[], roster: readonly AgentDefinition[] = agentDefinitions) {
  const model = new ScriptedModel({ director: [{ text: JSON.stringify(plan) }, ...director], ...desks });
  return { model, result: analyze('ACME', { asOf }, { model, market: fakeMarket(), search, agents: roster }) };
}

const userOf = (request: { messages: Array<{ role: string; content: unknown }> }) =>
  request.messages.filter((message) => message.role === 'user').at(-1)?.content as string;

describe("the Director's review pass", () => {
  it('a decision that breaks a rule gets one more turn with the findings; a revision that passes is ok, both decisions kept', async () => {
    const { model, result } = runWith([{ text: JSON.stringify(broken) }, { text: JSON.stringify(sane) }]);
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('ok');
    expect(outcome.decision).toEqual(sane);
    expect(outcome.guardrails.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(outcome.decisionHistory?.map((entry) => entry.decision)).toEqual([broken, sane]);
    expect(
      outcome.decisionHistory?.[0]?.guardrails.some(
        (finding) => finding.severity === 'error' && finding.rule === 'stop-side',
      ),
    ).toBe(true);

    const [, decide, review] = model.requestsOf('director');
    // The same conversation, continued: the first decision, then the findings.
    expect(review!.messages.slice(0, decide!.messages.length)).toEqual(decide!.messages);
    expect(review!.messages.at(-2)).toEqual({ role: 'assistant', content: JSON.stringify(broken) });
    expect(userOf(review!)).toMatch(
      /^Your decision breaks these rules of the deterministic guardrails:\n- stop-side: /,
    );
    expect(review!.responseFormat?.json_schema.name).toBe('decision');
  });

  it('a revision that still breaks a rule is flagged; the warning-free first decision is not reviewed', async () => {
    const { model, result } = runWith([
      { text: JSON.stringify(broken) },
      { text: JSON.stringify({ ...broken, rationale: 'I keep it.' }) },
    ]);
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('flagged');
    expect(outcome.error).toBeNull();
    expect(outcome.decision?.rationale).toBe('I keep it.');
    expect(outcome.decisionHistory).toHaveLength(2);

    const clean = runWith([{ text: JSON.stringify(sane) }]);
    expect((await clean.result).decisionHistory).toEqual([{ decision: sane, guardrails: expect.any(Array) }]);
    clean.model.assertComplete();
  });

  it("reviewPasses 0 in the Director's definition disables it: the first decision stands, flagged", async () => {
    const roster = agentDefinitions.map((definition) =>
      definition.id === 'director' ? { ...definition, reviewPasses: 0 } : definition,
    );
    const { model, result } = runWith([{ text: JSON.stringify(broken) }], roster);
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('flagged');
    expect(outcome.decisionHistory?.map((entry) => entry.decision)).toEqual([broken]);
  });

  it('a review that fails leaves the decision before it standing, flagged, with a warning', async () => {
    const { result } = runWith([
      { text: JSON.stringify(broken) },
      { error: new BudgetExceededError('--max-cost $0.01 reached') },
    ]);
    const outcome = await result;
    expect(outcome.status).toBe('flagged');
    expect(outcome.decision).toEqual(broken);
    expect(outcome.reviewFailure).toEqual({ kind: 'budget', message: '--max-cost $0.01 reached' });
    expect(outcome.warnings).toContain(
      "the Director's review failed (--max-cost $0.01 reached); the decision before it stands",
    );
  });

  it('a flagged run exits 4 and --json says "flagged"', async () => {
    const model = new ScriptedModel({
      director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(broken) }, { text: JSON.stringify(broken) }],
      ...desks,
    });
    const io = captureIo();
    io.env.OPENAI_API_KEY = 'sk-test-not-real';
    const code = await runCli(['analyze', 'ACME', '--json', '--no-save'], io, {
      now: () => asOf,
      model,
      market: fakeMarket(),
      search,
    });
    expect(code, io.err()).toBe(4);
    expect(JSON.parse(io.out()).status).toBe('flagged');
  });
});
