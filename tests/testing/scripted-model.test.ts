import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/llm/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';

const request = (agent: string, content = 'hi'): ChatRequest => ({
  model: 'gpt-4o-mini',
  agent,
  messages: [{ role: 'user', content }],
});

describe('ScriptedModel', () => {
  it('fails assertComplete while scripted turns remain, naming the queue', async () => {
    const model = new ScriptedModel([{ text: 'one' }, { text: 'two' }]);
    await model.complete(request('quant'));
    expect(() => model.assertComplete()).toThrow('ScriptedModel: script not fully consumed (*: 1)');
    await model.complete(request('quant'));
    expect(() => model.assertComplete()).not.toThrow();
  });

  it('answers each agent from its own queue, whatever the arrival order', async () => {
    const model = new ScriptedModel({ quant: [{ text: 'quant answer' }], risk: [{ text: 'risk answer' }] });
    const risk = await model.complete(request('risk'));
    const quant = await model.complete(request('quant'));
    expect(risk.message.content).toBe('risk answer');
    expect(quant.message.content).toBe('quant answer');
    expect(model.requestsOf('risk').map((recorded) => recorded.agent)).toEqual(['risk']);
    model.assertComplete();
  });

  it('reports a call beyond the script, and a per-agent queue left unconsumed', async () => {
    const model = new ScriptedModel({ quant: [{ text: 'q' }], risk: [{ text: 'r' }] });
    await model.complete(request('quant'));
    await expect(model.complete(request('quant'))).rejects.toThrow(
      "ScriptedModel: no scripted turn left for agent 'quant' (call 2)",
    );
    expect(() => model.assertComplete()).toThrow('ScriptedModel: script not fully consumed (risk: 1)');
  });

  it('builds tool calls with ids and JSON-string arguments, and records requests without the signal', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: 'exa_search', arguments: { query: 'NVDA' } }] }]);
    const response = await model.complete({ ...request('sentiment'), signal: new AbortController().signal });
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0 },
      model: 'gpt-4o-mini',
    });
    expect('signal' in model.requests[0]!).toBe(false);
    model.assertComplete();
  });

  it('lets a turn be computed from the request', async () => {
    const model = new ScriptedModel([(sent) => ({ text: `echo: ${sent.messages.at(-1)?.content ?? ''}` })]);
    const response = await model.complete(request('quant', 'ping'));
    expect(response.message.content).toBe('echo: ping');
    model.assertComplete();
  });
});
