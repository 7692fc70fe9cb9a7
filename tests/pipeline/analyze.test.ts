import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentDefinitions, deskIds } from '../../agents/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { analyze, type AnalyzeDeps } from '../../src/pipeline/analyze.js';
import { SpendingCap } from '../../src/pipeline/budget.js';
import { DataError, ModelError } from '../../src/errors.js';
import type { RunEvent } from '../../src/events.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import type { SearchProvider } from '../../src/tools/exa-search.js';
import { decision } from '../support/faults.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { planFor } from '../../src/testing/index.js';

const asOf = new Date('2026-11-28T12:00:00Z');

const plan = planFor(deskIds, {
  thesis: 'Acme trends up above every moving average; the question is whether momentum holds.',
});

const searchProvider = (): SearchProvider & { queries: string[] } => {
  const queries: string[] = [];
  return {
    queries,
    async search(request) {
      queries.push(request.query);
      return [
        {
          title: 'Acme beats estimates',
          url: 'https://news.example/acme',
          publishedDate: '2026-11-20',
          author: null,
          snippet: 'Acme raised guidance.',
        },
      ];
    },
  };
};

function script(overrides: Partial<Record<string, ScriptedStep[]>> = {}): Record<string, ScriptedStep[]> {
  return {
    director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decision) }],
    quant: [{ text: 'Quant: trend up, score 0.7.', delayMs: 30 }],
    risk: [{ text: 'Risk: risk score 0.4, size 5 %.', delayMs: 30 }],
    execution: [{ text: 'Execution: limit at 99, stop 94, target 110.', delayMs: 30 }],
    sentiment: [
      {
        toolCalls: [
          { name: 'exa_search', arguments: { query: 'Acme Robotics news', numResults: null, daysBack: null } },
        ],
      },
      { text: 'Sentiment 0.7 (https://news.example/acme).' },
    ],
    ...overrides,
  };
}

function run(model: ScriptedModel, options = {}, extra: Partial<AnalyzeDeps> = {}) {
  const events: RunEvent[] = [];
  const result = analyze(
    'acme',
    { asOf, ...options },
    { model, market: fakeMarket(), search: searchProvider(), events: (event) => events.push(event), ...extra },
  );
  return { result, events };
}

/** The shared block: the start of the first system message (the cacheable layout). */
const systemText = (request: ChatRequest) => String(request.messages[0]?.content ?? '');

const userText = (request: ChatRequest) =>
  request.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');

describe('analyze (scripted model)', () => {
  it('runs plan, four desks, decision and guardrails in order', async () => {
    const model = new ScriptedModel(script());
    const { result } = run(model);
    const outcome = await result;
    model.assertComplete();

    expect(outcome.status).toBe('ok');
    expect(outcome.ticker).toBe('ACME');
    expect(outcome.plan).toEqual(plan);
    expect(outcome.decision).toEqual(decision);
    expect(outcome.reports.map((report) => report.agent)).toEqual(['quant', 'risk', 'execution', 'sentiment']);
    expect(outcome.reports.every((report) => report.status === 'ok')).toBe(true);
    expect(outcome.guardrails).toEqual([]);

    const order = model.requests.map((request) => request.agent);
    // The plan precedes quant, risk and execution; the decision comes last.
    const firstDirector = order.indexOf('director');
    for (const desk of ['quant', 'risk', 'execution']) expect(order.indexOf(desk)).toBeGreaterThan(firstDirector);
    expect(order.at(-1)).toBe('director');
    expect(order.filter((agent) => agent === 'director')).toHaveLength(2);
  });

  it('runs the desks concurrently', async () => {
    const model = new ScriptedModel(script());
    await run(model).result;
    const desks = ['quant', 'risk', 'execution'].map((agent) => model.requestsOf(agent)[0]!);
    // Every desk started before any desk finished.
    const lastStart = Math.max(...desks.map((request) => request.startedAt));
    const firstEnd = Math.min(...desks.map((request) => request.endedAt!));
    expect(lastStart).toBeLessThanOrEqual(firstEnd);
  });

  it('starts Sentiment with the snapshot, alongside the Director plan', async () => {
    const model = new ScriptedModel(
      script({ director: [{ text: JSON.stringify(plan), delayMs: 40 }, { text: JSON.stringify(decision) }] }),
    );
    await run(model).result;
    const planRequest = model.requestsOf('director')[0]!;
    const sentimentFirst = model.requestsOf('sentiment')[0]!;
    expect(sentimentFirst.startedAt).toBeLessThan(planRequest.endedAt!);
  });

  it('sends tools only with Sentiment, and gives every desk the market block (shared, first) and its brief', async () => {
    const model = new ScriptedModel(script());
    await run(model).result;
    for (const agent of ['quant', 'risk', 'execution']) {
      const [request] = model.requestsOf(agent);
      expect(request).toBeDefined();
      expect('tools' in request!).toBe(false);
      expect(systemText(request!)).toContain('MARKET DATA — ACME');
      expect(userText(request!)).not.toContain('MARKET DATA — ACME');
      expect(userText(request!)).toContain(`${agent.toUpperCase()}-BRIEF`);
    }
    const [sentiment] = model.requestsOf('sentiment');
    expect(sentiment!.tools?.map((tool) => tool.function.name)).toEqual(['exa_search']);
    expect(systemText(sentiment!)).toContain('MARKET DATA — ACME');
    for (const request of model.requestsOf('director')) expect(request.tools).toBeUndefined();
    // The run's clock reaches the prompts.
    expect(model.requestsOf('quant')[0]!.messages[0]!.content).toContain('Today is 2026-11-28');
  });

  it('labels each brief by who wrote it: the Director for three desks, Sentiment its own standing brief', async () => {
    const model = new ScriptedModel(script());
    await run(model).result;
    for (const agent of ['quant', 'risk', 'execution'])
      expect(userText(model.requestsOf(agent)[0]!)).toMatch(/The Director's brief for you:\n[A-Z]+-BRIEF/);
    const sentiment = userText(model.requestsOf('sentiment')[0]!);
    expect(sentiment).toContain('Your brief:\nResearch the news and sentiment on ACME over the last 30 days.');
    expect(sentiment).not.toContain("The Director's brief");
  });

  it('gives the decision every desk report', async () => {
    const model = new ScriptedModel(script());
    await run(model).result;
    const decide = model.requestsOf('director')[1]!;
    const text = userText(decide);
    for (const fragment of ['Quant: trend up', 'Risk: risk score', 'Execution: limit at 99', 'Sentiment 0.7'])
      expect(text).toContain(fragment);
    expect(decide.responseFormat?.json_schema.name).toBe('decision');
    expect(decide.responseFormat?.json_schema.strict).toBe(true);
  });

  it('a failed desk degrades the run; the decision names the missing desk', async () => {
    const model = new ScriptedModel(
      script({ risk: [{ error: new ModelError('model call timed out after 60 s', 'timeout') }] }),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    expect(outcome.status).toBe('degraded');
    const risk = outcome.reports.find((report) => report.agent === 'risk')!;
    expect(risk.status).toBe('failed');
    expect(risk.error).toBe('model call timed out after 60 s');
    expect(outcome.decision).toEqual(decision);
    expect(outcome.warnings).toContain('risk failed: model call timed out after 60 s');
    expect(userText(model.requestsOf('director')[1]!)).toContain('These desks failed and sent no report: risk');
  });

  it('every desk failing gives failed and no decision', async () => {
    const failing = [{ error: new ModelError('OpenAI service error (503)', 'server') }];
    const model = new ScriptedModel(
      script({
        director: [{ text: JSON.stringify(plan) }],
        quant: failing,
        risk: failing,
        execution: failing,
        sentiment: failing,
      }),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    expect(outcome.status).toBe('failed');
    expect(outcome.decision).toBeNull();
    expect(outcome.error).toBe('every desk failed; no decision was made');
  });

  it('retries a decision that breaks the schema once, then succeeds', async () => {
    const model = new ScriptedModel(
      script({
        director: [
          { text: JSON.stringify(plan) },
          { text: JSON.stringify({ ...decision, action: 'MAYBE' }) },
          { text: JSON.stringify(decision) },
        ],
      }),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    expect(outcome.status).toBe('ok');
    expect(outcome.decision).toEqual(decision);
    const retry = model.requestsOf('director')[2]!;
    expect(retry.messages.at(-1)!.content).toMatch(
      /did not match the required JSON schema: action must be one of "BUY", "SELL", "HOLD"; you sent "MAYBE"/,
    );
  });

  it('reports a decision that breaks the schema twice, never inventing a HOLD', async () => {
    const model = new ScriptedModel(
      script({
        director: [
          { text: JSON.stringify(plan) },
          { text: 'I think BUY' },
          { text: JSON.stringify({ ...decision, conviction: 300 }) },
        ],
      }),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    expect(outcome.status).toBe('failed');
    expect(outcome.decision).toBeNull();
    expect(outcome.error).toMatch(
      /^Director decision failed: director: the model's decision broke the schema twice \(conviction must be <= 100; you sent 300\)$/,
    );
    expect(outcome.reports).toHaveLength(4);
  });

  it('runs only the chosen desks with --agent, without the Director', async () => {
    const model = new ScriptedModel({ sentiment: script().sentiment! });
    const outcome = await run(model, { agents: ['sentiment'] }).result;
    model.assertComplete();
    expect(outcome.mode).toBe('agents');
    expect(outcome.status).toBe('ok');
    expect(outcome.plan).toBeNull();
    expect(outcome.decision).toBeNull();
    expect(outcome.reports.map((report) => report.agent)).toEqual(['sentiment']);
    expect(outcome.reports[0]!.toolCalls[0]!.name).toBe('exa_search');
  });

  it('runs --agent quant --agent risk concurrently', async () => {
    const model = new ScriptedModel({ quant: script().quant!, risk: script().risk! });
    const outcome = await run(model, { agents: ['quant', 'risk'] }).result;
    model.assertComplete();
    expect(outcome.reports.map((report) => report.agent)).toEqual(['quant', 'risk']);
    const [quant, risk] = [model.requestsOf('quant')[0]!, model.requestsOf('risk')[0]!];
    expect(Math.max(quant.startedAt, risk.startedAt)).toBeLessThanOrEqual(Math.min(quant.endedAt!, risk.endedAt!));
  });

  it('an unknown ticker is thrown; an unreachable Yahoo degrades the run and flags every level', async () => {
    const unknown = { snapshot: async () => Promise.reject(new DataError("unknown ticker 'ACME'", 'unknown-ticker')) };
    await expect(
      analyze('ACME', { asOf }, { model: new ScriptedModel([]), market: unknown, search: searchProvider() }),
    ).rejects.toThrow("unknown ticker 'ACME'");

    const down = {
      snapshot: async () =>
        Promise.reject(new DataError('could not reach Yahoo Finance (ECONNREFUSED)', 'unreachable')),
    };
    const model = new ScriptedModel(script());
    const outcome = await analyze('ACME', { asOf }, { model, market: down, search: searchProvider() });
    expect(outcome.status).toBe('degraded');
    expect(outcome.market).toBeNull();
    expect(outcome.warnings[0]).toBe('market data missing: could not reach Yahoo Finance (ECONNREFUSED)');
    expect(systemText(model.requestsOf('quant')[0]!)).toContain(
      'Market data is not available for this run — do not estimate',
    );
    expect(outcome.guardrails.map((finding) => finding.rule)).toEqual(['unverifiable', 'unverifiable', 'unverifiable']);
  });

  it('a failed plan fails the run with its reason, and stops Sentiment', async () => {
    const model = new ScriptedModel({
      director: [
        { error: new ModelError('OpenAI rejected the API key (401): check OPENAI_API_KEY', 'authentication') },
      ],
      sentiment: [{ text: 'never used', delayMs: 5_000 }],
    });
    const outcome = await run(model).result;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('Director plan failed: OpenAI rejected the API key (401): check OPENAI_API_KEY');
    expect(outcome.reports.map((report) => [report.agent, report.status])).toEqual([['sentiment', 'failed']]);
  });

  it('an aborted run is interrupted and keeps what finished', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel(
      script({
        quant: [{ text: 'Quant done.' }],
        risk: [(request) => (controller.abort(new Error('interrupted')), { text: 'late', delayMs: 1_000 })],
        execution: [{ text: 'slow', delayMs: 2_000 }],
        director: [{ text: JSON.stringify(plan) }],
      }),
    );
    const outcome = await run(model, { signal: controller.signal }).result;
    expect(outcome.status).toBe('interrupted');
    expect(outcome.decision).toBeNull();
    expect(outcome.reports.find((report) => report.agent === 'quant')?.status).toBe('ok');
    expect(outcome.reports.find((report) => report.agent === 'risk')?.error).toBe('interrupted');
  });

  it('emits events and sums usage per agent', async () => {
    const model = new ScriptedModel(script());
    const { result, events } = run(model, { model: 'gpt-4o-mini' });
    const outcome = await result;
    expect(
      events
        .filter((event) => event.type === 'agent-start')
        .map((event) => event.agent)
        .sort(),
    ).toEqual(['director', 'execution', 'quant', 'risk', 'sentiment']);
    // ScriptedModel reports 100 prompt + 20 completion tokens a call: 2 director, 1 each desk, 2 sentiment.
    expect(outcome.usage.byAgent.director).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    expect(outcome.usage.byAgent.sentiment).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    expect(outcome.usage.promptTokens).toBe(700);
    // gpt-4o-mini has a known price, so the cost is a number.
    expect(outcome.usage.costUsd).toBeGreaterThan(0);
  });

  it('stops spending at --max-cost: the call that would pass the cap is not made', async () => {
    const model = new ScriptedModel(script());
    const outcome = await run(model, { model: 'gpt-4.1' }, { cap: new SpendingCap(0.0001) }).result;
    // Not even the plan fits under a hundredth of a cent with gpt-4.1's worst case.
    expect(model.requestsOf('director')).toHaveLength(0);
    expect(outcome.status).toBe('degraded');
    expect(outcome.warnings.join('\n')).toMatch(
      /--max-cost \$0\.0001 reached: the next director call could cost up to \$/,
    );
  });

  it('asks the model and search clients to load while the market data is fetched', async () => {
    const order: string[] = [];
    const model = new ScriptedModel(script());
    const prepared = Object.assign(model, { prepare: () => void order.push('model.prepare') });
    const search = Object.assign(searchProvider(), { prepare: () => void order.push('search.prepare') });
    const market = { snapshot: async () => (order.push('market.snapshot'), makeSnapshot()) };
    await analyze('ACME', { asOf }, { model: prepared, market, search });
    expect(order).toEqual(['model.prepare', 'search.prepare', 'market.snapshot']);
  });
});

describe('analyzeMany', () => {
  it('starts no ticker once the signal aborts; those begun come back in order', async () => {
    const { analyzeMany } = await import('../../src/universe/analyze-many.js');
    const controller = new AbortController();
    const started: string[] = [];
    const market = {
      snapshot: async (ticker: string) => {
        started.push(ticker);
        if (ticker === 'AAA') controller.abort(new Error('interrupted'));
        return makeSnapshot(ticker);
      },
    };
    const outcomes = await analyzeMany(
      ['AAA', 'BBB', 'CCC'],
      1,
      () => ({ asOf, agents: ['quant'], signal: controller.signal }),
      () => ({ model: new ScriptedModel({ quant: [{ text: 'q' }] }), market, search: searchProvider() }),
      controller.signal,
    );
    expect(started).toEqual(['AAA']);
    expect(outcomes.map((outcome) => [outcome.ticker, outcome.result?.status])).toEqual([['AAA', 'interrupted']]);
  });
});

describe('the --max-cost budget', () => {
  it('a desk stopped by the cap degrades the run instead of failing it, even when it is the only desk', async () => {
    const model = new ScriptedModel({ quant: [{ text: 'never sent' }] });
    const outcome = await analyze(
      'ACME',
      { asOf, agents: ['quant'], model: 'gpt-4.1' },
      { model, market: fakeMarket(), search: searchProvider(), cap: new SpendingCap(0.0001) },
    );
    expect(model.requests).toHaveLength(0);
    expect(outcome.status).toBe('degraded');
    expect(outcome.warnings[0]).toMatch(
      /^quant failed: --max-cost \$0\.0001 reached: the next quant call could cost up to \$/,
    );
  });

  it('one withBudget() model caps several analyses together, counting what was really spent', async () => {
    const { estimatePromptTokens, withBudget } = await import('../../src/pipeline/budget.js');
    const { defaultPriceTable, priceFor, worstCaseCost } = await import('../../src/llm/prices.js');
    const run = (model: ScriptedModel | ReturnType<typeof withBudget>) =>
      analyze(
        'ACME',
        { asOf, agents: ['quant'], model: 'gpt-4.1' },
        { model, market: fakeMarket(), search: searchProvider() },
      );
    // One unbudgeted run shows the request a quant call sends, so its worst case is known exactly.
    const probe = new ScriptedModel({ quant: [{ text: 'probe' }] });
    await run(probe);
    const request = probe.requests[0]!;
    const price = priceFor('gpt-4.1', defaultPriceTable)!;
    const worstCase = worstCaseCost(estimatePromptTokens(request), request.maxTokens!, price);
    // A scripted call really spends 100 prompt + 20 completion tokens.
    const spentByOneCall = (100 * price.input + 20 * price.output) / 1_000_000;

    // Room for one call's worst case, but not for a second one on top of what the first spent.
    const inner = new ScriptedModel({ quant: [{ text: 'q1' }, { text: 'q2' }] });
    const shared = withBudget(inner, worstCase + spentByOneCall / 2, defaultPriceTable);
    const first = await run(shared);
    const second = await run(shared);
    expect(first.status).toBe('ok');
    expect(second.status).toBe('degraded');
    expect(inner.requests).toHaveLength(1);
  });

  it("the Director's plan has first claim on the cap: a desk that starts with the snapshot waits until the plan's call is made", async () => {
    const { estimatePromptTokens } = await import('../../src/pipeline/budget.js');
    const { defaultPriceTable, priceFor, worstCaseCost } = await import('../../src/llm/prices.js');
    // One unbudgeted run shows the plan's request, so its worst case is known exactly.
    const probe = new ScriptedModel(script());
    await run(probe, { model: 'gpt-4.1' }).result;
    const planRequest = probe.requestsOf('director')[0]!;
    const price = priceFor('gpt-4.1', defaultPriceTable)!;
    const planWorstCase = worstCaseCost(estimatePromptTokens(planRequest), planRequest.maxTokens!, price);
    // Room for the plan's worst case and not for Sentiment's first call beside it. Sentiment
    // starts with the snapshot; were it admitted first, the plan would be refused.
    const model = new ScriptedModel(script());
    const outcome = await run(model, { model: 'gpt-4.1' }, { cap: new SpendingCap(planWorstCase * 1.01) }).result;
    expect(model.requestsOf('director').length).toBeGreaterThan(0);
    expect(outcome.plan).toEqual(plan);
    expect(outcome.reports.find((report) => report.agent === 'sentiment')?.status).toBe('failed');
  });
});

describe('the Director', () => {
  it('has its own time limit', async () => {
    const model = new ScriptedModel(
      script({
        director: [{ text: JSON.stringify(plan), delayMs: 2_000 }],
        sentiment: [{ text: 'never', delayMs: 2_000 }],
      }),
    );
    const outcome = await analyze(
      'ACME',
      { asOf, agentTimeoutMs: 100 },
      { model, market: fakeMarket(), search: searchProvider() },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe('Director plan failed: timed out after 0.1 s');
  });

  it('numbers its calls across the plan and the decision', async () => {
    const model = new ScriptedModel(script());
    const { result, events } = run(model);
    await result;
    const calls = events.flatMap((event) =>
      event.type === 'model-call' && event.agent === 'director' ? [event.call] : [],
    );
    expect(calls).toEqual([1, 2]);
  });

  it('a decision cut off at the token limit is reported as such, not retried', async () => {
    const model = new ScriptedModel(
      script({ director: [{ text: JSON.stringify(plan) }, { text: '{"action":"BUY","conv', finishReason: 'length' }] }),
    );
    const outcome = await run(model).result;
    model.assertComplete();
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBe(
      "Director decision failed: director: the model's decision was cut off at the 1500-token limit before the JSON was complete",
    );
  });
});

describe('agents as data: tools bound by name from the definitions', () => {
  it('a definition that gives Quant exa_search makes its request carry it, with 3 tool rounds when it set none', async () => {
    const roster = agentDefinitions.map((definition) =>
      definition.id === 'quant' ? { ...definition, tools: ['exa_search'] } : definition,
    );
    const model = new ScriptedModel(
      script({
        quant: [
          {
            toolCalls: [
              { name: 'exa_search', arguments: { query: 'Acme technicals', numResults: null, daysBack: null } },
            ],
          },
          { toolCalls: [{ name: 'exa_search', arguments: { query: 'Acme again', numResults: null, daysBack: null } }] },
          {
            toolCalls: [
              { name: 'exa_search', arguments: { query: 'Acme once more', numResults: null, daysBack: null } },
            ],
          },
          { text: 'Quant: trend up, with the news.' },
        ],
      }),
    );
    const search = searchProvider();
    const outcome = await analyze('ACME', { asOf }, { model, market: fakeMarket(), search, agents: roster });
    model.assertComplete();
    expect(outcome.status).toBe('ok');
    const quant = model.requestsOf('quant');
    expect(quant[0]!.tools?.map((tool) => tool.function.name)).toEqual(['exa_search']);
    expect(quant.map((request) => request.toolChoice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(search.queries).toContain('Acme technicals');
    expect(outcome.reports.find((report) => report.agent === 'quant')?.toolCalls).toHaveLength(3);
  });

  it("appends AnalyzeDeps.agentTools to an agent's own tools", async () => {
    const ruler = defineTool({
      name: 'ruler',
      description: 'Measures',
      outputs: 'a length',
      parameters: z.object({}),
      run: async () => '3 cm',
    });
    const model = new ScriptedModel(
      script({ risk: [{ toolCalls: [{ name: 'ruler', arguments: {} }] }, { text: 'Risk: 3 cm of risk.' }] }),
    );
    const outcome = await analyze(
      'ACME',
      { asOf },
      { model, market: fakeMarket(), search: searchProvider(), agentTools: { risk: [ruler], sentiment: [ruler] } },
    );
    expect(model.requestsOf('risk')[0]!.tools?.map((tool) => tool.function.name)).toEqual(['ruler']);
    expect(model.requestsOf('sentiment')[0]!.tools?.map((tool) => tool.function.name)).toEqual(['exa_search', 'ruler']);
    expect(outcome.reports.find((report) => report.agent === 'risk')?.toolCalls.map((call) => call.result)).toEqual([
      '3 cm',
    ]);
  });

  it('refuses a definition naming a tool nothing provides, before any model call', async () => {
    const roster = agentDefinitions.map((definition) =>
      definition.id === 'risk' ? { ...definition, tools: ['place_order'] } : definition,
    );
    const model = new ScriptedModel(script());
    await expect(
      analyze(
        'ACME',
        { asOf, agents: ['risk'] },
        { model, market: fakeMarket(), search: searchProvider(), agents: roster },
      ),
    ).rejects.toThrow("agent risk names tool 'place_order', which is not available (known: exa_search)");
    expect(model.requests).toHaveLength(0);
  });
});

describe('typed failures in the result', () => {
  it('each report carries failure {kind, message} beside error', async () => {
    const model = new ScriptedModel(script({ quant: [{ error: new ModelError('upstream 503', 'server') }] }));
    const outcome = await run(model).result;
    const quant = outcome.reports.find((report) => report.agent === 'quant');
    expect(quant).toMatchObject({
      status: 'failed',
      error: 'upstream 503',
      failure: { kind: 'model', message: 'upstream 503' },
    });
    expect(outcome.reports.find((report) => report.agent === 'risk')?.failure).toBeNull();
  });
});
