// Each quirk of a real OpenAI-compatible server (issue 13), as a constructed stream or
// body served over loopback HTTP to the real `openai` SDK through createOpenAIModel.
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import type { ChatMessage, ChatRequest, ChatResponse } from '../../src/llm/types.js';
import { answerCompletion, startOpenAIServer, type OpenAIServer, type Reply } from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: Reply[], options: OpenAIModelOptions = {}) {
  server = await startOpenAIServer(script);
  return {
    model: createOpenAIModel({ apiKey: 'sk-test-quirks', baseURL: server.url, maxRetries: 0, ...options }),
    local: server,
    host: new URL(server.url).host,
  };
}

const ask = (messages: ChatMessage[] = [{ role: 'user', content: 'News on NVDA and AMD?' }]): ChatRequest => ({
  model: 'test-model',
  messages,
  tools: [
    {
      type: 'function',
      function: {
        name: 'exa_search',
        description: 'Search.',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  ],
});

const base = { id: 'chatcmpl-q', object: 'chat.completion.chunk', created: 1, model: 'test-model' };
const chunk = (delta: object, finishReason: string | null = null, extra: object = {}) => ({
  ...base,
  choices: [{ index: 0, delta, finish_reason: finishReason, ...extra }],
});
const usageChunk = { ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } };
const sse = (items: object[], lineEnd = '\n') =>
  items.map((item) => `data: ${JSON.stringify(item)}${lineEnd}${lineEnd}`).join('');

/** The follow-up a loop sends: the assistant message and one tool result per call, by id. */
function followUp(request: ChatRequest, response: ChatResponse): ChatRequest {
  const results = (response.message.tool_calls ?? []).map((call): ChatMessage => ({
    role: 'tool',
    tool_call_id: call.id,
    content: `result for ${call.function.arguments}`,
  }));
  return { ...request, messages: [...request.messages, response.message, ...results] };
}

function expectCoherentPairing(body: {
  messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
}) {
  const assistant = body.messages.find((message) => message.role === 'assistant');
  const ids = (assistant?.tool_calls ?? []).map((call) => call.id);
  expect(ids.every((id) => id !== '')).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect(body.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(
    ids,
  );
}

describe('tool calls as servers really stream them', () => {
  it('a tool-call delta without index (Mistral) is one call, not lost', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({ role: 'assistant', content: '' }),
          chunk(
            {
              content: null,
              tool_calls: [{ id: 'gSIMJiOkT', function: { name: 'exa_search', arguments: '{"query": "NVDA"}' } }],
            },
            'tool_calls',
          ),
          usageChunk,
        ],
      },
    ]);

    const response = await model.complete(ask());

    expect(response.message.tool_calls).toEqual([
      { id: 'gSIMJiOkT', type: 'function', function: { name: 'exa_search', arguments: '{"query": "NVDA"}' } },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('index-less deltas with two ids are two calls', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({ tool_calls: [{ id: 'a1', function: { name: 'exa_search', arguments: '{"query":' } }] }),
          chunk({ tool_calls: [{ function: { arguments: '"NVDA"}' } }] }),
          chunk({ tool_calls: [{ id: 'b2', function: { name: 'exa_search', arguments: '{"query":"AMD"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    const calls = (await model.complete(ask())).message.tool_calls;

    expect(calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['a1', '{"query":"NVDA"}'],
      ['b2', '{"query":"AMD"}'],
    ]);
  });

  it('parallel calls all on index 0 with distinct ids are split by id', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({
            tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { name: 'exa_search', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"NVDA"}' } }] }),
          chunk({
            tool_calls: [{ index: 0, id: 'call_y', type: 'function', function: { name: 'exa_search', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"AMD"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    const calls = (await model.complete(ask())).message.tool_calls;

    expect(calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['call_x', '{"query":"NVDA"}'],
      ['call_y', '{"query":"AMD"}'],
    ]);
  });

  it('id-less calls of one tool all on index 0 are split where a whole call ends; a repeated name mid-call is not a new call', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({ tool_calls: [{ index: 0, function: { name: 'exa_search', arguments: '{"query":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { name: 'exa_search', arguments: '"NVDA"}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { name: 'exa_search', arguments: '{"query":"AMD"}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { name: 'exa_search', arguments: '' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    const calls = (await model.complete(ask())).message.tool_calls;

    expect(calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['call_autohedge_1', '{"query":"NVDA"}'],
      ['call_autohedge_2', '{"query":"AMD"}'],
    ]);
  });

  it('"id": "" on later deltas (Qwen) keeps the first id', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({
            tool_calls: [
              { index: 0, id: 'call_eee1', type: 'function', function: { name: 'exa_search', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, id: '', type: 'function', function: { arguments: '{"query": "NVDA' } }] }),
          chunk({ tool_calls: [{ index: 0, id: '', type: 'function', function: { arguments: '"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    expect((await model.complete(ask())).message.tool_calls).toEqual([
      { id: 'call_eee1', type: 'function', function: { name: 'exa_search', arguments: '{"query": "NVDA"}' } },
    ]);
  });

  it('streamed calls with no ids, or a repeated id, get unique ids that pair in the follow-up request', async () => {
    const { model, local } = await modelFor([
      {
        chunks: [
          chunk({ tool_calls: [{ index: 0, function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { name: 'exa_search', arguments: '{"query":"AMD"}' } }] }),
          chunk({
            tool_calls: [{ index: 2, id: 'dup', function: { name: 'exa_search', arguments: '{"query":"TSM"}' } }],
          }),
          chunk({
            tool_calls: [{ index: 3, id: 'dup', function: { name: 'exa_search', arguments: '{"query":"INTC"}' } }],
          }),
          chunk({}, 'tool_calls'),
        ],
      },
      { chunks: [chunk({ content: 'done' }, 'stop')] },
    ]);
    const request = ask();

    const response = await model.complete(request);
    const ids = response.message.tool_calls?.map((call) => call.id) ?? [];
    await model.complete(followUp(request, response));

    expect(ids).toHaveLength(4);
    expect(ids[2]).toBe('dup');
    expect(new Set(ids).size).toBe(4);
    expectCoherentPairing(local.requests[1]?.body);
  });

  it('a huge index (4294967294) is one call, assembled at once (a Map, never a sparse array)', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({
            tool_calls: [
              {
                index: 4294967294,
                id: 'call_big',
                type: 'function',
                function: { name: 'exa_search', arguments: '{"query":' },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 4294967294, function: { arguments: '"NVDA"}' } }] }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    expect((await model.complete(ask())).message.tool_calls).toEqual([
      { id: 'call_big', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
    ]);
  });

  it('arguments sent as a JSON object rather than a string become the JSON string', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_o',
                type: 'function',
                function: { name: 'exa_search', arguments: { query: 'NVDA' } },
              },
            ],
          }),
          chunk({}, 'tool_calls'),
        ],
      },
    ]);

    expect((await model.complete(ask())).message.tool_calls?.[0]?.function.arguments).toBe('{"query":"NVDA"}');
  });

  it('finish_reason "stop" with tool calls keeps the calls (the loop runs them)', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_s',
                type: 'function',
                function: { name: 'exa_search', arguments: '{"query":"NVDA"}' },
              },
            ],
          }),
          chunk({}, 'stop'),
        ],
      },
    ]);

    const response = await model.complete(ask());

    expect(response.message.tool_calls?.map((call) => call.id)).toEqual(['call_s']);
    expect(response.finishReason).toBe('stop');
  });
});

describe('non-streamed tool calls', () => {
  const completionWith = (message: object, finishReason = 'tool_calls') => ({
    json: {
      id: 'cmpl',
      object: 'chat.completion',
      created: 1,
      model: 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    },
  });

  it('a call without `type` (Mistral) is kept', async () => {
    const { model } = await modelFor(
      [
        completionWith({
          tool_calls: [{ id: 'gSIMJiOkT', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } }],
        }),
      ],
      { stream: false },
    );

    expect((await model.complete(ask())).message.tool_calls).toEqual([
      { id: 'gSIMJiOkT', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
    ]);
  });

  it('empty ids (Gemini) become unique ids, also unique against the ids already in the conversation, and pair in the follow-up', async () => {
    const earlier: ChatMessage[] = [
      { role: 'user', content: 'News?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_autohedge_1', type: 'function', function: { name: 'exa_search', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_autohedge_1', content: 'nothing' },
    ];
    const calls = [
      { id: '', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
      { id: '', type: 'function', function: { name: 'exa_search', arguments: { query: 'AMD' } } },
    ];
    const { model, local } = await modelFor(
      [completionWith({ tool_calls: calls }), completionWith({ content: 'done' }, 'stop')],
      { stream: false },
    );
    const request = ask(earlier);

    const response = await model.complete(request);
    await model.complete(followUp(request, response));

    const ids = response.message.tool_calls?.map((call) => call.id);
    expect(ids).toEqual(['call_autohedge_2', 'call_autohedge_3']);
    expect(response.message.tool_calls?.[1]?.function.arguments).toBe('{"query":"AMD"}');
    const sent = local.requests[1]?.body as {
      messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    };
    expectCoherentPairing({ messages: sent.messages.slice(3) });
  });

  it('`reasoning` (Groq, OpenRouter, Ollama) is kept as the reasoning of the message', async () => {
    const { model } = await modelFor(
      [completionWith({ content: 'Up.', reasoning: 'Because the trend is up.' }, 'stop')],
      { stream: false },
    );

    expect((await model.complete(ask())).message).toEqual({
      role: 'assistant',
      content: 'Up.',
      reasoning_content: 'Because the trend is up.',
    });
  });
});

describe('reasoning, refusal, usage', () => {
  it('streamed `reasoning` deltas (Groq gpt-oss, LM Studio, newer vLLM) are kept, like `reasoning_content`', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({ reasoning: 'Think ' }),
          chunk({ reasoning: 'twice.' }),
          chunk({ content: 'Hold.' }),
          chunk({}, 'stop'),
          usageChunk,
        ],
      },
    ]);

    expect((await model.complete(ask())).message).toEqual({
      role: 'assistant',
      content: 'Hold.',
      reasoning_content: 'Think twice.',
    });
  });

  it('a refusal next to content is kept next to it', async () => {
    const { model } = await modelFor([
      {
        chunks: [chunk({ content: 'Partial answer.' }), chunk({ refusal: 'I cannot give advice.' }), chunk({}, 'stop')],
      },
    ]);

    expect((await model.complete(ask())).message).toEqual({
      role: 'assistant',
      content: 'Partial answer.',
      refusal: 'I cannot give advice.',
    });
  });

  it('usage absent altogether is zero usage, not a failure', async () => {
    const { model } = await modelFor([{ chunks: [chunk({ content: 'Hi.' }), chunk({}, 'stop')] }]);

    expect((await model.complete(ask())).usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      cachedPromptTokens: 0,
    });
  });

  it('usage only on the last chunk with choices (no separate usage chunk) is read', async () => {
    const { model } = await modelFor([
      {
        chunks: [
          chunk({ content: 'Hi.' }),
          { ...chunk({}, 'stop'), usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } },
        ],
      },
    ]);

    expect((await model.complete(ask())).usage).toEqual({
      promptTokens: 5,
      completionTokens: 1,
      cachedPromptTokens: 0,
    });
  });
});

describe('the event stream itself', () => {
  it('keep-alive comment lines and `choices: []` chunks mid-stream are skipped', async () => {
    const body =
      ': OPENROUTER PROCESSING\n\n' +
      sse([chunk({ content: 'Hel' })]) +
      ': ping\n\n' +
      sse([{ ...base, choices: [] }, { ...base }, chunk({ content: 'lo.' }), chunk({}, 'stop'), usageChunk]) +
      'data: [DONE]\n\n';
    const { model } = await modelFor([{ sse: body }]);

    const response = await model.complete(ask());

    expect(response.message.content).toBe('Hello.');
    expect(response.usage.promptTokens).toBe(11);
  });

  it('CR-only line endings are a complete stream', async () => {
    const body =
      sse([chunk({ content: 'Hi ' }), chunk({ content: 'there.' }), chunk({}, 'stop')], '\r') + 'data: [DONE]\r\r';
    const { model } = await modelFor([{ sse: body }]);

    expect((await model.complete(ask())).message.content).toBe('Hi there.');
  });

  it('a CR-only stream cut before any finish_reason still fails', async () => {
    const { model, host } = await modelFor([{ sse: sse([chunk({ content: 'Hi ' })], '\r') }]);

    const error = await model.complete(ask()).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe(`the stream from ${host} ended without [DONE] (model 'test-model')`);
  });

  it('a stream that ends without [DONE] after its finish_reason is complete; one cut before it is not', async () => {
    const complete = [chunk({ content: 'Fine.' }), chunk({}, 'stop'), usageChunk];
    const { model, host } = await modelFor([
      { chunks: complete, omitDone: true },
      { chunks: [chunk({ content: 'Fi' })], omitDone: true },
    ]);

    expect((await model.complete(ask())).message.content).toBe('Fine.');
    const error = await model.complete(ask()).catch((caught: unknown) => caught);
    expect((error as ModelError).message).toBe(`the stream from ${host} ended without [DONE] (model 'test-model')`);
  });

  it('a whole application/json completion where a stream was asked (proxies ignoring stream: true) is used', async () => {
    const completion = answerCompletion({
      model: 'test-model',
      toolCalls: [{ id: 'call_j', name: 'exa_search', arguments: '{"query":"NVDA"}' }],
      reasoning: 'Look it up.',
    });
    const { model, local } = await modelFor([{ json: completion }]);

    const response = await model.complete(ask());

    expect(local.requests[0]?.body.stream).toBe(true);
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_j', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
        ],
        reasoning_content: 'Look it up.',
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 100, completionTokens: 20, cachedPromptTokens: 0 },
      model: 'test-model',
    });
  });
});
