import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { interruptedMessage, reviewPrompt, runAgent } from '../../src/agent/run-agent.js';
import { ConfigError, ModelError } from '../../src/errors.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { agentSpec, asOf, assistantToolCall, deferred, eventLog, systemPrompt, weatherTool } from './support.js';
import { jsonErrorOf } from '../support/json.js';

const task = "What's the weather in Beijing, and if it rains also Tianjin?";

describe('runAgent: the seeds conditional two-round run', () => {
  it('calls get_weather for Beijing, sees rain, calls it for Tianjin, then answers', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'call_bj', name: 'get_weather', arguments: { city: 'Beijing' } }] },
      // Decided from what the tool said, like a model would.
      (request: ChatRequest) => {
        const last = request.messages.at(-1);
        return last?.role === 'tool' && last.content.includes('rain')
          ? { toolCalls: [{ id: 'call_tj', name: 'get_weather', arguments: { city: 'Tianjin' } }] }
          : { text: 'Beijing is dry.' };
      },
      { text: 'Beijing has rain (18°C); Tianjin is cloudy (20°C).' },
    ]);
    const report = await runAgent(agentSpec({ tools: [weatherTool], temperature: 0.2, maxTokens: 800 }), task, {
      model,
      asOf,
    });
    model.assertComplete();

    const opening = [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: task },
    ];
    const afterBeijing = [
      ...opening,
      assistantToolCall('call_bj', 'get_weather', '{"city":"Beijing"}'),
      { role: 'tool', tool_call_id: 'call_bj', content: 'Beijing: rain, 18°C' },
    ];
    const afterTianjin = [
      ...afterBeijing,
      assistantToolCall('call_tj', 'get_weather', '{"city":"Tianjin"}'),
      { role: 'tool', tool_call_id: 'call_tj', content: 'Tianjin: cloudy, 20°C' },
    ];
    const sent = model.requests.map(({ startedAt, endedAt, ...request }) => request);
    const common = {
      model: 'gpt-4o-mini',
      tools: [weatherTool.definition],
      toolChoice: 'auto',
      temperature: 0.2,
      maxTokens: 800,
      agent: 'sentiment',
    };
    expect(sent).toEqual([
      { ...common, messages: opening },
      { ...common, messages: afterBeijing },
      { ...common, messages: afterTianjin },
    ]);

    expect(report).toEqual({
      agent: 'sentiment',
      status: 'ok',
      text: 'Beijing has rain (18°C); Tianjin is cloudy (20°C).',
      toolCalls: [
        {
          id: 'call_bj',
          name: 'get_weather',
          arguments: '{"city":"Beijing"}',
          result: 'Beijing: rain, 18°C',
          error: null,
          durationMs: expect.any(Number),
        },
        {
          id: 'call_tj',
          name: 'get_weather',
          arguments: '{"city":"Tianjin"}',
          result: 'Tianjin: cloudy, 20°C',
          error: null,
          durationMs: expect.any(Number),
        },
      ],
      usage: { promptTokens: 300, completionTokens: 60, cachedPromptTokens: 0 },
      model: 'gpt-4o-mini',
      durationMs: expect.any(Number),
      error: null,
      failure: null,
    });
  });

  it('emits events in order, each model-call carrying the request as sent and a 1-based index', async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [{ id: 'call_bj', name: 'get_weather', arguments: { city: 'Beijing' } }],
        usage: { promptTokens: 50, completionTokens: 5 },
      },
      { text: 'Rain in Beijing.' },
    ]);
    const log = eventLog();
    const controller = new AbortController();
    await runAgent(agentSpec({ tools: [weatherTool] }), task, {
      model,
      asOf,
      events: log.sink,
      signal: controller.signal,
    });
    model.assertComplete();

    expect(log.events.map((event) => event.type)).toEqual([
      'agent-start',
      'model-call',
      'usage',
      'tool-call',
      'tool-result',
      'model-call',
      'usage',
      'agent-end',
    ]);
    const [start, firstCall, firstUsage, toolCall, toolResult, secondCall, , end] = log.events;
    expect(start).toEqual({ type: 'agent-start', agent: 'sentiment', model: 'gpt-4o-mini', at: expect.any(Number) });
    expect(firstCall).toMatchObject({ type: 'model-call', agent: 'sentiment', call: 1 });
    expect(secondCall).toMatchObject({ type: 'model-call', call: 2 });
    if (firstCall?.type !== 'model-call' || secondCall?.type !== 'model-call')
      throw new Error('expected model-call events');
    const { startedAt, endedAt, ...firstSent } = model.requests[0]!;
    expect(firstCall.request).toEqual(firstSent);
    expect('signal' in firstCall.request).toBe(false);
    // The conversation grew after the first call; the event still shows what was sent then.
    expect(firstCall.request.messages).toHaveLength(2);
    expect(secondCall.request.messages).toHaveLength(4);
    expect(firstCall.response.finishReason).toBe('tool_calls');
    expect(firstUsage).toEqual({
      type: 'usage',
      agent: 'sentiment',
      model: 'gpt-4o-mini',
      usage: { promptTokens: 50, completionTokens: 5, cachedPromptTokens: 0 },
    });
    expect(toolCall).toEqual({
      type: 'tool-call',
      agent: 'sentiment',
      id: 'call_bj',
      name: 'get_weather',
      arguments: '{"city":"Beijing"}',
    });
    expect(toolResult).toEqual({
      type: 'tool-result',
      agent: 'sentiment',
      id: 'call_bj',
      name: 'get_weather',
      content: 'Beijing: rain, 18°C',
      error: null,
      durationMs: expect.any(Number),
    });
    expect(end).toEqual({
      type: 'agent-end',
      agent: 'sentiment',
      status: 'ok',
      durationMs: expect.any(Number),
      error: null,
    });
  });
});

describe('runAgent: parallel tool calls', () => {
  it('runs the calls of one response concurrently and answers in call order, matched by id', async () => {
    const started: string[] = [];
    const finished: string[] = [];
    const bothStarted = deferred();
    const secondDone = deferred();
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look a ticker up',
      outputs: 'a line about the ticker',
      parameters: z.object({ ticker: z.string() }),
      run: async ({ ticker }) => {
        started.push(ticker);
        if (started.length === 2) bothStarted.resolve();
        // Neither call can finish before the other has started: a sequential runner would time out here.
        await bothStarted.promise;
        if (ticker === 'NVDA') await secondDone.promise;
        finished.push(ticker);
        if (ticker === 'AMD') secondDone.resolve();
        return `${ticker}: found`;
      },
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'call_first', name: 'lookup', arguments: { ticker: 'NVDA' } },
          { id: 'call_second', name: 'lookup', arguments: { ticker: 'AMD' } },
        ],
      },
      { text: 'Both found.' },
    ]);
    const log = eventLog();
    const report = await runAgent(agentSpec({ tools: [lookup], toolTimeoutMs: 5_000 }), 'Look up NVDA and AMD', {
      model,
      asOf,
      events: log.sink,
    });
    model.assertComplete();

    expect(started).toEqual(['NVDA', 'AMD']);
    expect(finished).toEqual(['AMD', 'NVDA']);
    expect(model.requests[1]?.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_first', type: 'function', function: { name: 'lookup', arguments: '{"ticker":"NVDA"}' } },
          { id: 'call_second', type: 'function', function: { name: 'lookup', arguments: '{"ticker":"AMD"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_first', content: 'NVDA: found' },
      { role: 'tool', tool_call_id: 'call_second', content: 'AMD: found' },
    ]);
    expect(report.toolCalls.map((call) => [call.id, call.result])).toEqual([
      ['call_first', 'NVDA: found'],
      ['call_second', 'AMD: found'],
    ]);
    // Events report tools as they happen: both start, then the second finishes first.
    expect(
      log.events
        .filter((event) => event.type === 'tool-call' || event.type === 'tool-result')
        .map((event) => `${event.type} ${'id' in event ? event.id : ''}`),
    ).toEqual(['tool-call call_first', 'tool-call call_second', 'tool-result call_second', 'tool-result call_first']);
    expect(report.status).toBe('ok');
  });
});

describe('runAgent: tool failures reach the model as tool messages', () => {
  it('turns an unknown tool, bad JSON, invalid arguments, a throw and a timeout into readable errors, and goes on', async () => {
    let hangSignal: AbortSignal | undefined;
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails',
      outputs: 'never',
      parameters: z.object({}),
      run: async () => {
        throw new Error('upstream answered 503');
      },
    });
    const hang = defineTool({
      name: 'hang',
      description: 'Never answers',
      outputs: 'never',
      parameters: z.object({}),
      run: (_args, context) => {
        hangSignal = context.signal;
        return new Promise<string>(() => {});
      },
    });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { id: 'c1', name: 'place_order', arguments: { ticker: 'NVDA' } },
          { id: 'c2', name: 'get_weather', arguments: '{"city":' },
          { id: 'c3', name: 'get_weather', arguments: { city: 42 } },
          { id: 'c4', name: 'flaky', arguments: {} },
          { id: 'c5', name: 'hang', arguments: {} },
        ],
      },
      { text: 'I could not get the data.' },
    ]);
    const report = await runAgent(agentSpec({ tools: [weatherTool, flaky, hang], toolTimeoutMs: 50 }), task, {
      model,
      asOf,
    });
    model.assertComplete();

    const toolMessages = model.requests[1]?.messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: "Error: unknown tool 'place_order'. Available tools: get_weather, flaky, hang",
      },
      {
        role: 'tool',
        tool_call_id: 'c2',
        content: `Error: Invalid arguments for get_weather: not valid JSON (${jsonErrorOf('{"city":')})`,
      },
      {
        role: 'tool',
        tool_call_id: 'c3',
        content: 'Error: Invalid arguments for get_weather: city: Invalid input: expected string, received number',
      },
      { role: 'tool', tool_call_id: 'c4', content: 'Error: upstream answered 503' },
      { role: 'tool', tool_call_id: 'c5', content: 'Error: tool hang timed out after 50 ms' },
    ]);
    expect(report.status).toBe('ok');
    expect(report.text).toBe('I could not get the data.');
    expect(report.toolCalls.map((call) => [call.id, call.result, call.error])).toEqual([
      ['c1', null, "unknown tool 'place_order'. Available tools: get_weather, flaky, hang"],
      ['c2', null, `Invalid arguments for get_weather: not valid JSON (${jsonErrorOf('{"city":')})`],
      ['c3', null, 'Invalid arguments for get_weather: city: Invalid input: expected string, received number'],
      ['c4', null, 'upstream answered 503'],
      ['c5', null, 'tool hang timed out after 50 ms'],
    ]);
    // The timed-out tool was told to stop.
    expect(hangSignal?.aborted).toBe(true);
  });

  it('truncates a huge tool result with a marker saying how much was cut', async () => {
    const dump = defineTool({
      name: 'dump',
      description: 'Returns a lot',
      outputs: 'text',
      parameters: z.object({}),
      run: async () => 'x'.repeat(60_213),
    });
    const model = new ScriptedModel([{ toolCalls: [{ id: 'big', name: 'dump', arguments: {} }] }, { text: 'Done.' }]);
    const log = eventLog();
    const report = await runAgent(agentSpec({ tools: [dump] }), 'Dump it', { model, asOf, events: log.sink });
    model.assertComplete();

    const expected = `${'x'.repeat(12_000)}\n[truncated: 48213 more characters]`;
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'big', content: expected });
    expect(report.toolCalls[0]?.result).toBe(expected);
    expect(log.events.find((event) => event.type === 'tool-result')).toMatchObject({ content: expected });
  });

  it('honours a smaller maxToolResultChars', async () => {
    const dump = defineTool({
      name: 'dump',
      description: 'x',
      outputs: 'x',
      parameters: z.object({}),
      run: async () => 'abcdefghij',
    });
    const model = new ScriptedModel([{ toolCalls: [{ id: 'd', name: 'dump', arguments: {} }] }, { text: 'Done.' }]);
    await runAgent(agentSpec({ tools: [dump], maxToolResultChars: 4 }), 'Dump it', { model, asOf });
    model.assertComplete();
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'd',
      content: 'abcd\n[truncated: 6 more characters]',
    });
  });
});

describe('runAgent: round cap and forced answer', () => {
  const again = (id: string) => ({ toolCalls: [{ id, name: 'get_weather', arguments: { city: 'Beijing' } }] });

  it('after maxToolRounds rounds asks once more with tool_choice "none", tools still sent', async () => {
    const model = new ScriptedModel([again('r1'), again('r2'), { text: 'Rain all day.' }]);
    const report = await runAgent(agentSpec({ tools: [weatherTool], maxToolRounds: 2 }), task, { model, asOf });
    model.assertComplete();

    expect(model.requests.map((request) => request.toolChoice)).toEqual(['auto', 'auto', 'none']);
    expect(model.requests[2]?.tools).toEqual([weatherTool.definition]);
    // The forced request carries both rounds' history, so it is a valid conversation.
    expect(model.requests[2]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(report).toMatchObject({ status: 'ok', text: 'Rain all day.', error: null });
    expect(report.toolCalls.map((call) => call.id)).toEqual(['r1', 'r2']);
  });

  it('uses five rounds by default', async () => {
    const model = new ScriptedModel([
      again('r1'),
      again('r2'),
      again('r3'),
      again('r4'),
      again('r5'),
      { text: 'Rain.' },
    ]);
    await runAgent(agentSpec({ tools: [weatherTool] }), task, { model, asOf });
    model.assertComplete();
    expect(model.requests.map((request) => request.toolChoice)).toEqual([
      'auto',
      'auto',
      'auto',
      'auto',
      'auto',
      'none',
    ]);
  });

  it('fails clearly when the model still calls tools after the forced answer, without running them', async () => {
    let runs = 0;
    const counted = defineTool({
      name: 'get_weather',
      description: 'x',
      outputs: 'x',
      parameters: z.object({ city: z.string() }),
      run: async () => {
        runs += 1;
        return 'rain';
      },
    });
    const model = new ScriptedModel([again('r1'), again('r2')]);
    const report = await runAgent(agentSpec({ tools: [counted], maxToolRounds: 1 }), task, { model, asOf });
    model.assertComplete();

    expect(runs).toBe(1);
    expect(report).toMatchObject({
      status: 'failed',
      text: '',
      error: 'model still requested tools after 1 tool rounds and a forced final answer (tool_choice "none")',
    });
    expect(report.toolCalls.map((call) => call.id)).toEqual(['r1']);
  });
});

describe('runAgent: self-review loops', () => {
  it('gives each loop its own tool-round budget; tool rounds never consume a loop', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'l1', name: 'get_weather', arguments: { city: 'Beijing' } }] },
      { text: 'Draft: rain in Beijing.' },
      { toolCalls: [{ id: 'l2', name: 'get_weather', arguments: { city: 'Tianjin' } }] },
      { text: 'Final: rain in Beijing, clouds in Tianjin.' },
    ]);
    const report = await runAgent(agentSpec({ tools: [weatherTool], reviewPasses: 1, maxToolRounds: 1 }), task, {
      model,
      asOf,
    });
    model.assertComplete();

    // Loop 1: one round, then forced; loop 2 starts with a fresh budget ("auto" again).
    expect(model.requests.map((request) => request.toolChoice)).toEqual(['auto', 'none', 'auto', 'none']);
    expect(model.requests[2]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Draft: rain in Beijing.' },
      { role: 'user', content: reviewPrompt },
    ]);
    expect(model.requests.filter((request) => request.messages.at(-1)?.content === reviewPrompt)).toHaveLength(1);
    expect(report).toMatchObject({ status: 'ok', text: 'Final: rain in Beijing, clouds in Tianjin.' });
    expect(report.toolCalls.map((call) => call.id)).toEqual(['l1', 'l2']);
  });

  it('answers once with the default single loop, however many tool rounds it took', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'a', name: 'get_weather', arguments: { city: 'Beijing' } }] },
      { toolCalls: [{ id: 'b', name: 'get_weather', arguments: { city: 'Tianjin' } }] },
      { text: 'Done.' },
    ]);
    const report = await runAgent(agentSpec({ tools: [weatherTool] }), task, { model, asOf });
    model.assertComplete();
    expect(report.text).toBe('Done.');
    expect(model.requests.some((request) => request.messages.some((message) => message.content === reviewPrompt))).toBe(
      false,
    );
  });

  it('keeps the earlier answer as text when a review loop fails', async () => {
    const model = new ScriptedModel([{ text: 'First answer.' }, { error: new Error('connection reset') }]);
    const report = await runAgent(agentSpec({ reviewPasses: 1 }), 'Say something', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'failed', text: 'First answer.', error: 'connection reset' });
  });
});

describe('runAgent: an agent without tools', () => {
  it('sends no tools key and no tool_choice at all', async () => {
    const model = new ScriptedModel([{ text: 'Momentum is strong.' }]);
    const report = await runAgent(agentSpec({ id: 'quant' }), 'Analyse NVDA', { model, asOf });
    model.assertComplete();

    const [request] = model.requests;
    expect(request).toBeDefined();
    expect(Object.keys(request!).sort()).toEqual(['agent', 'messages', 'model', 'startedAt', 'endedAt'].sort());
    expect(report).toMatchObject({ agent: 'quant', status: 'ok', text: 'Momentum is strong.', toolCalls: [] });
  });

  it('fails when the model calls a tool the agent does not have', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ name: 'exa_search', arguments: { query: 'NVDA' } }] }]);
    const report = await runAgent(agentSpec({ id: 'quant' }), 'Analyse NVDA', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({
      status: 'failed',
      error: 'model requested tools (exa_search) but agent quant has none',
    });
  });
});

describe('runAgent: answers that are not answers', () => {
  it('fails a refusal with the model words', async () => {
    const model = new ScriptedModel([{ refusal: "I can't help with that." }]);
    const report = await runAgent(agentSpec(), 'x', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'failed', text: '', error: "model refused: I can't help with that." });
  });

  it('fails an empty answer', async () => {
    const model = new ScriptedModel([{ text: '  ' }]);
    const report = await runAgent(agentSpec(), 'x', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'failed', error: 'model returned an empty answer' });
  });

  it('keeps a truncated answer (finish_reason "length") and warns', async () => {
    const model = new ScriptedModel([{ text: 'The outlook is', finishReason: 'length' }]);
    const log = eventLog();
    const report = await runAgent(agentSpec(), 'x', { model, asOf, events: log.sink });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'ok', text: 'The outlook is', error: null });
    expect(log.events.filter((event) => event.type === 'warning')).toEqual([
      { type: 'warning', message: 'agent sentiment: answer cut off at the token limit (finish_reason "length")' },
    ]);
  });

  it('fails output stopped by the content filter', async () => {
    const model = new ScriptedModel([{ text: 'partial', finishReason: 'content_filter' }]);
    const report = await runAgent(agentSpec(), 'x', { model, asOf });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'failed', error: 'model output was stopped by the content filter' });
  });
});

describe('runAgent: model errors and interruption', () => {
  it('ends failed with the error message, never throwing, and counts usage so far', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: 'c', name: 'get_weather', arguments: { city: 'Beijing' } }] },
      { error: new ModelError('rate limited by the provider (429)', 'rate-limited', 429) },
    ]);
    const log = eventLog();
    const report = await runAgent(agentSpec({ tools: [weatherTool] }), task, { model, asOf, events: log.sink });
    model.assertComplete();

    expect(report).toMatchObject({
      status: 'failed',
      text: '',
      error: 'rate limited by the provider (429)',
      usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0 },
    });
    expect(report.toolCalls).toHaveLength(1);
    expect(log.events.at(-1)).toEqual({
      type: 'agent-end',
      agent: 'sentiment',
      status: 'failed',
      durationMs: expect.any(Number),
      error: 'rate limited by the provider (429)',
    });
  });

  it('reports "interrupted" when the signal aborts during a model call', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([
      () => {
        controller.abort();
        return { text: 'too late', delayMs: 1 };
      },
    ]);
    const report = await runAgent(agentSpec(), 'x', { model, asOf, signal: controller.signal });
    model.assertComplete();
    expect(report).toMatchObject({ status: 'failed', error: interruptedMessage });
    expect(interruptedMessage).toBe('interrupted');
  });

  it('stops after the tool round when the signal aborts while tools run, even if a tool ignores it', async () => {
    const controller = new AbortController();
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'Ignores its signal',
      outputs: 'never',
      parameters: z.object({}),
      run: () => {
        controller.abort();
        return new Promise<string>(() => {});
      },
    });
    const model = new ScriptedModel([{ toolCalls: [{ id: 's', name: 'stubborn', arguments: {} }] }]);
    const report = await runAgent(agentSpec({ tools: [stubborn] }), 'x', { model, asOf, signal: controller.signal });
    model.assertComplete();
    expect(model.requests).toHaveLength(1);
    expect(report).toMatchObject({ status: 'failed', error: 'interrupted' });
    expect(report.toolCalls).toEqual([
      {
        id: 's',
        name: 'stubborn',
        arguments: '{}',
        result: null,
        error: 'tool stubborn was interrupted',
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('makes no model call when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModel([]);
    const report = await runAgent(agentSpec(), 'x', { model, asOf, signal: controller.signal });
    expect(model.requests).toHaveLength(0);
    expect(report).toMatchObject({ status: 'failed', error: 'interrupted' });
  });

  it('passes the run signal to the model', async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    const model = {
      complete: async (request: ChatRequest) => {
        received = request.signal;
        return {
          message: { role: 'assistant' as const, content: 'ok' },
          finishReason: 'stop' as const,
          usage: { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
          model: 'gpt-4o-mini-2024-07-18',
        };
      },
    };
    const report = await runAgent(agentSpec(), 'x', { model, asOf, signal: controller.signal });
    expect(received).toBe(controller.signal);
    // The report names the model the server says answered.
    expect(report.model).toBe('gpt-4o-mini-2024-07-18');
  });
});

describe('runAgent: a broken spec is a programmer error', () => {
  it('throws for duplicate tool names and impossible limits', async () => {
    const model = new ScriptedModel([]);
    await expect(runAgent(agentSpec({ tools: [weatherTool, weatherTool] }), 'x', { model, asOf })).rejects.toThrow(
      ConfigError,
    );
    await expect(runAgent(agentSpec({ reviewPasses: -1 }), 'x', { model, asOf })).rejects.toThrow(
      'agent sentiment: reviewPasses must be an integer of at least 0, got -1',
    );
    await expect(runAgent(agentSpec({ maxToolRounds: 1.5 }), 'x', { model, asOf })).rejects.toThrow(
      'maxToolRounds must be an integer of at least 0',
    );
    expect(model.requests).toHaveLength(0);
  });
});
