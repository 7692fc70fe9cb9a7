// Adding a desk is an entry in the roster and a prompt file: a fixture fifth desk, with its
// own tool, reaches the plan's schema, runs on its brief, calls its tool, and is named in the
// Director's prompts, the decision request and the report — with no other source edited.
import { describe, expect, it } from 'vitest';
import { agentDefinitions, deskIds } from '../../agents/index.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { decisionFixture, planFor, ScriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { fakeMarket } from '../support/market.js';
import { macroDesk, ratesBoard } from './fixtures/fifth-desk/macro.js';

const asOf = new Date('2026-11-28T12:00:00Z');
const roster = [...agentDefinitions, macroDesk];
const desks = [...deskIds, macroDesk.id];
const search = { search: async () => [] };

function script(director: ScriptedStep[]): Record<string, ScriptedStep[]> {
  return {
    director,
    quant: [{ text: 'Quant: trend up.' }],
    risk: [{ text: 'Risk: size 4 %.' }],
    execution: [{ text: 'Execution: limit at 99.' }],
    sentiment: [{ text: 'Sentiment: quiet.' }],
    macro: [
      { toolCalls: [{ name: 'rates_board', arguments: { market: 'US' } }] },
      { text: 'Macro: policy rate 4.25 %, a flat curve; score 0.5.' },
    ],
  };
}

function run(model: ScriptedModel) {
  const board = ratesBoard();
  const result = analyze(
    'ACME',
    { asOf },
    { model, market: fakeMarket(), search, agents: roster, agentTools: { macro: [board.tool] } },
  );
  return { result, calls: board.calls };
}

const systemText = (request: ChatRequest) =>
  request.messages
    .filter((message) => message.role === 'system')
    .map((message) => String(message.content))
    .join('\n');
const userText = (request: ChatRequest) =>
  request.messages
    .filter((message) => message.role === 'user')
    .map((message) => String(message.content))
    .join('\n');

describe('a fifth desk from the roster alone', () => {
  it('is briefed by the plan, runs with its tool, and is named in the prompts, the decision request and the report', async () => {
    const plan = planFor(desks);
    const model = new ScriptedModel(
      script([{ text: JSON.stringify(plan) }, { text: JSON.stringify(decisionFixture()) }]),
    );
    const { result, calls } = run(model);
    const outcome = await result;
    model.assertComplete();
    expect(outcome.status).toBe('ok');

    // The Director's plan schema asks for the fifth desk's brief, and its prompts name it.
    const [planRequest, decideRequest] = model.requestsOf('director');
    const schema = planRequest!.responseFormat!.json_schema.schema as {
      properties: { briefs: { required: string[] } };
    };
    expect(schema.properties.briefs.required).toEqual(desks);
    expect(systemText(planRequest!)).toContain(
      'You run five desks: Quant (technicals), Risk (sizing and drawdown), Execution (order plan), Sentiment (news, searched on the web) and Macro (rates and the cycle).',
    );
    expect(systemText(planRequest!)).toContain('the Quant, Risk, Execution, Sentiment and Macro desks report');

    // The desk runs on the Director's brief, with its own prompt, and calls its tool.
    const [macroRequest] = model.requestsOf('macro');
    expect(userText(macroRequest!)).toContain("The Director's brief for you:\nMACRO-BRIEF");
    expect(systemText(macroRequest!)).toContain('You are the Macro desk. Today is 2026-11-28.');
    expect(calls).toEqual(['US']);
    expect(outcome.plan?.briefs.macro).toBe(plan.briefs.macro);
    expect(outcome.reports.map((report) => report.agent)).toEqual(desks);
    const macro = outcome.reports.at(-1)!;
    expect(macro).toMatchObject({ agent: 'macro', status: 'ok' });
    expect(macro.toolCalls).toMatchObject([{ name: 'rates_board', error: null }]);
    expect(macro.toolCalls[0]!.result).toContain('policy 4.25 %');

    // The decision is made on its report, named as the roster names it; the report shows it.
    expect(userText(decideRequest!)).toContain('"desk": "Macro"');
    expect(userText(decideRequest!)).toContain('policy rate 4.25 %');
    const markdown = renderMarkdown(outcome);
    expect(markdown).toMatch(/^#+ Macro$/m);
    expect(markdown).toContain('MACRO-BRIEF');
  });

  it("the plan's schema holds the Director to a brief for it", async () => {
    const model = new ScriptedModel(
      script([
        { text: JSON.stringify(planFor(deskIds)) },
        { text: JSON.stringify(planFor(desks)) },
        { text: JSON.stringify(decisionFixture()) },
      ]),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    const [first, again] = model.requestsOf('director');
    expect(first!.reask ?? 0).toBe(0);
    expect(again!.reask).toBe(1);
    expect(userText(again!)).toContain('macro');
    expect(outcome.status).toBe('ok');
    expect(Object.keys(outcome.plan!.briefs)).toEqual(desks);
  });
});
