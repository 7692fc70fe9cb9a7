import { describe, expect, it } from 'vitest';
import { agentDefinitions, deskIds } from '../../agents/index.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { housePreamble } from '../../src/pipeline/shared-prefix.js';
import { cacheCapabilitiesOf } from '../../src/llm/cache-capabilities.js';
import type { ChatModel, ChatRequest } from '../../src/llm/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { decision } from '../support/faults.js';
import { fakeMarket, makeSnapshot } from '../support/market.js';
import { planFor } from '../../src/testing/index.js';

const asOf = new Date('2026-11-28T12:00:00Z');
const plan = planFor(deskIds, { thesis: 'The trend is up; does momentum hold?' });
const search = { search: async () => [] };

/** Every agent's answers; with `forced`, the Director answers through its submit tool. */
function script(forced: boolean): Record<string, ScriptedStep[]> {
  const answer = (name: string, value: object): ScriptedStep =>
    forced
      ? { toolCalls: [{ name: `submit_${name}`, arguments: JSON.stringify(value) }] }
      : { text: JSON.stringify(value) };
  return {
    director: [answer('plan', plan), answer('decision', decision)],
    quant: [{ text: 'Quant.' }],
    risk: [{ text: 'Risk.' }],
    execution: [{ text: 'Execution.' }],
    sentiment: [{ text: 'Sentiment.' }],
  };
}

/** A scripted model on a server whose cache prefix begins with the tools (OpenAI's rule). */
function onOpenAI(model: ScriptedModel): ChatModel {
  return {
    complete: (request) => model.complete(request),
    cacheCapabilities: (name) => cacheCapabilitiesOf(undefined, name),
  };
}

/** The shared bytes of a request: the start of its first system message, as long as its cache hint says. */
function sharedBytes(request: ChatRequest): string {
  expect(request.cache, request.agent).toBeDefined();
  return String(request.messages[0]!.content).slice(0, request.cache!.sharedChars);
}

async function requestsFor(ticker: string, options: { model?: string; forced?: boolean } = {}) {
  const scripted = new ScriptedModel(script(options.forced === true));
  const model = options.forced ? onOpenAI(scripted) : scripted;
  const snapshot = makeSnapshot(ticker, { text: `MARKET DATA — ${ticker} (fixture)\nLast close: 100 USD` });
  const result = await analyze(
    ticker,
    { asOf, ...(options.model ? { model: options.model } : {}) },
    { model, market: fakeMarket(snapshot), search },
  );
  scripted.assertComplete();
  return { requests: scripted.requests, result };
}

describe('the cacheable layout', () => {
  it("starts every request of a ticker with the same bytes, and another ticker's with others", async () => {
    const acme = await requestsFor('ACME');
    const glbx = await requestsFor('GLBX');
    const acmeShared = new Set(acme.requests.map(sharedBytes));
    const glbxShared = new Set(glbx.requests.map(sharedBytes));
    expect(acme.requests.length).toBeGreaterThanOrEqual(6);
    expect(acmeShared.size).toBe(1);
    expect(glbxShared.size).toBe(1);
    const [acmeBlock] = [...acmeShared];
    const [glbxBlock] = [...glbxShared];
    expect(acmeBlock).toContain('MARKET DATA — ACME');
    expect(acmeBlock).not.toBe(glbxBlock);
    // The preamble is what both share, byte for byte; the agent's role comes after the block.
    expect(acmeBlock!.startsWith(housePreamble())).toBe(true);
    expect(glbxBlock!.startsWith(housePreamble())).toBe(true);
    for (const request of acme.requests) {
      expect(request.cache?.key).toBe('ACME@2026-11-28');
      expect(String(request.messages[0]!.content).slice(acmeBlock!.length)).toMatch(/^You are the /);
    }
  });

  it('has no date, run id, ticker or placeholder in the house preamble', async () => {
    const preamble = housePreamble();
    const { result } = await requestsFor('ACME');
    expect(preamble).not.toMatch(/\d{4}-\d{2}-\d{2}|\{\{|\}\}/);
    expect(preamble).not.toContain(result.runId);
    expect(preamble).not.toContain(asOf.toISOString().slice(0, 10));
    for (const ticker of ['ACME', 'GLBX']) expect(preamble).not.toMatch(new RegExp(`\\b${ticker}\\b`));
  });

  it('gives the agents of one model one head on a server that caches the tools: the plan call writes what the desks read', async () => {
    const { requests, result } = await requestsFor('ACME', { model: 'gpt-4.1', forced: true });
    expect(result.status).toBe('ok');
    expect(result.plan).toEqual(plan);
    expect(result.decision).toEqual(decision);
    const heads = new Set(requests.map((request) => JSON.stringify(request.tools)));
    expect(heads.size).toBe(1);
    const names = requests[0]!.tools!.map((tool) => tool.function.name);
    expect(names).toEqual(['exa_search', 'submit_decision', 'submit_plan']);
    for (const request of requests) expect(request.responseFormat).toBeUndefined();
    const [planCall, decideCall] = requests.filter((request) => request.agent === 'director');
    expect(planCall!.toolChoice).toEqual({ type: 'function', function: { name: 'submit_plan' } });
    expect(decideCall!.toolChoice).toEqual({ type: 'function', function: { name: 'submit_decision' } });
    for (const request of requests.filter((candidate) => ['quant', 'risk', 'execution'].includes(candidate.agent!)))
      expect(request.toolChoice).toBe('none');
  });

  it('keeps an agent alone on its model on its own tools (it shares a cache with no one)', async () => {
    // The default roster: Sentiment on another model than the Director and the three desks.
    expect(agentDefinitions.find((definition) => definition.id === 'sentiment')!.defaultModel).not.toBe(
      agentDefinitions.find((definition) => definition.id === 'director')!.defaultModel,
    );
    const { requests } = await requestsFor('ACME', { forced: true });
    const sentiment = requests.find((request) => request.agent === 'sentiment')!;
    expect(sentiment.tools?.map((tool) => tool.function.name)).toEqual(['exa_search']);
    const quant = requests.find((request) => request.agent === 'quant')!;
    expect(quant.tools?.map((tool) => tool.function.name)).toEqual(['submit_decision', 'submit_plan']);
  });

  it('sends the legacy layout (no shared block, no cache key) for a version 1 cassette', async () => {
    const scripted = new ScriptedModel(script(false));
    await analyze('ACME', { asOf, promptLayout: 'legacy' }, { model: scripted, market: fakeMarket(), search });
    for (const request of scripted.requests) {
      expect(request.cache).toBeUndefined();
      expect(String(request.messages[0]!.content)).toMatch(/^You are the /);
    }
  });

  it('keys a blind run by a digest of its block, never by the ticker or the day', async () => {
    const scripted = new ScriptedModel(script(false));
    await analyze('ACME', { asOf, blind: true }, { model: scripted, market: fakeMarket(), search: null });
    const keys = new Set(scripted.requests.map((request) => request.cache?.key));
    expect(keys.size).toBe(1);
    const [key] = [...keys];
    expect(key).toMatch(/^blind-[0-9a-f]{16}$/);
  });
});
