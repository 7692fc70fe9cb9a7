// The real `openai` SDK over real HTTP to the scripted local server: what goes on the
// wire, and how streamed and whole answers are assembled.
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import type { ChatRequest, ToolDefinition } from '../../src/llm/types.js';
import {
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type Reply,
} from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: Reply[]) {
  server = await startOpenAIServer(script);
  return server;
}

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4.1-mini',
  messages: [
    { role: 'system', content: 'You are Sentiment.' },
    { role: 'user', content: 'What is the news on NVDA?' },
  ],
  ...overrides,
});

const searchTool: ToolDefinition = {
  type: 'function',
  function: {
    name: 'exa_search',
    description: 'Search the web.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    strict: true,
  },
};

const chunkBase = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini-2025-04-14' };
const chunk = (delta: object, finishReason: string | null = null) => ({
  ...chunkBase,
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const usageChunk = (prompt: number, completion: number, cached = 0) => ({
  ...chunkBase,
  choices: [],
  usage: {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  },
});

describe('createOpenAIModel, streaming (the default)', () => {
  it('assembles streamed text, the finish reason, the server model and the usage chunk', async () => {
    const local = await serve([
      {
        chunks: [
          chunk({ role: 'assistant', content: '', refusal: null }),
          chunk({ content: 'NVDA ' }),
          chunk({ content: 'looks ' }),
          chunk({ content: 'strong.' }),
          chunk({}, 'stop'),
          usageChunk(1200, 35, 1024),
        ],
      },
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test-key-123456', baseURL: local.url, maxRetries: 0 });

    const response = await model.complete(ask({ agent: 'sentiment', temperature: 0.2, maxTokens: 800 }));

    expect(response).toEqual({
      message: { role: 'assistant', content: 'NVDA looks strong.' },
      finishReason: 'stop',
      usage: { promptTokens: 1200, completionTokens: 35, cachedPromptTokens: 1024 },
      model: 'gpt-4.1-mini-2025-04-14',
    });
    expect(local.requests).toHaveLength(1);
    const [request] = local.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['x-autohedge-agent']).toBe('sentiment');
    expect(request?.headers['authorization']).toBe('Bearer sk-test-key-123456');
    // Exactly these fields: no tools, no tool_choice, no response_format when unset.
    expect(request?.body).toEqual({
      model: 'gpt-4.1-mini',
      messages: ask().messages,
      temperature: 0.2,
      max_completion_tokens: 800,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('assembles a tool call from argument fragments by index', async () => {
    const local = await serve([
      {
        chunks: [
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: 'call_abc', type: 'function', function: { name: 'exa_search', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"qu' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'ery":"NVDA ' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'earnings"}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk(300, 18),
        ],
      },
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });

    const response = await model.complete(ask({ tools: [searchTool], toolChoice: 'auto' }));

    expect(response.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_abc', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA earnings"}' } },
      ],
    });
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ promptTokens: 300, completionTokens: 18, cachedPromptTokens: 0 });
    expect(local.requests[0]?.body.tools).toEqual([searchTool]);
    expect(local.requests[0]?.body.tool_choice).toBe('auto');
  });

  it('keeps two parallel tool calls apart when their fragments interleave', async () => {
    const local = await serve([
      {
        chunks: [
          chunk({ role: 'assistant', content: null }),
          chunk({
            tool_calls: [
              { index: 0, id: 'call_one', type: 'function', function: { name: 'exa_search', arguments: '' } },
            ],
          }),
          chunk({
            tool_calls: [
              { index: 1, id: 'call_two', type: 'function', function: { name: 'exa_search', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '{"query":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"NVDA"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '"AMD"}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk(10, 5),
        ],
      },
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });

    const response = await model.complete(ask({ tools: [searchTool] }));

    expect(response.message.tool_calls).toEqual([
      { id: 'call_one', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
      { id: 'call_two', type: 'function', function: { name: 'exa_search', arguments: '{"query":"AMD"}' } },
    ]);
  });

  it('keeps reasoning_content that an OpenAI-compatible server streams', async () => {
    const local = await serve([textAnswer('Hold.', { reasoning: 'Momentum is fading; volume is thin.', pieces: 4 })]);
    const model = createOpenAIModel({ baseURL: local.url, maxRetries: 0 });

    const response = await model.complete(ask({ model: 'deepseek-reasoner' }));

    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Hold.',
      reasoning_content: 'Momentum is fading; volume is thin.',
    });
    expect(response.model).toBe('deepseek-reasoner');
    // No key configured for a custom server: a placeholder goes out, never an empty header.
    expect(local.requests[0]?.headers['authorization']).toBe('Bearer not-needed');
  });

  it('assembles a streamed refusal', async () => {
    const local = await serve([{ answer: { refusal: "I can't help with that." } }]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });

    const response = await model.complete(ask());

    expect(response.message).toEqual({ role: 'assistant', content: '', refusal: "I can't help with that." });
  });

  it('sends response_format as a strict json_schema and tool_choice only with tools', async () => {
    const local = await serve([textAnswer('{"action":"hold"}'), textAnswer('ok')]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });
    const responseFormat = {
      type: 'json_schema' as const,
      json_schema: {
        name: 'decision',
        schema: {
          type: 'object',
          properties: { action: { type: 'string' } },
          required: ['action'],
          additionalProperties: false,
        },
        strict: true as const,
      },
    };

    const response = await model.complete(ask({ responseFormat, toolChoice: 'none' }));
    await model.complete(ask({ tools: [], toolChoice: 'none' }));

    expect(response.message.content).toBe('{"action":"hold"}');
    expect(local.requests[0]?.body.response_format).toEqual(responseFormat);
    // OpenAI rejects tool_choice without tools, and an empty tools array counts as none.
    expect(local.requests[0]?.body).not.toHaveProperty('tool_choice');
    expect(local.requests[1]?.body).not.toHaveProperty('tools');
    expect(local.requests[1]?.body).not.toHaveProperty('tool_choice');
  });

  it('sends messages verbatim, including an assistant tool call and its tool result', async () => {
    const local = await serve([textAnswer('Done.')]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'News on NVDA?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '[{"title":"NVDA beats"}]' },
    ];

    await model.complete(ask({ messages, tools: [searchTool], toolChoice: 'auto' }));

    expect(local.requests[0]?.body.messages).toEqual(messages);
  });

  it('omits the agent header when the request names no agent', async () => {
    const local = await serve([textAnswer('hi')]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });

    await model.complete(ask());

    expect(local.requests[0]?.headers).not.toHaveProperty('x-autohedge-agent');
  });

  it('reuses one client for many calls, including concurrent ones', async () => {
    const local = await serve([
      textAnswer('a', { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
      textAnswer('b'),
      textAnswer('c'),
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });

    const answers = await Promise.all([
      model.complete(ask({ agent: 'quant' })),
      model.complete(ask({ agent: 'risk' })),
      model.complete(ask({ agent: 'execution' })),
    ]);

    expect(answers.map((answer) => answer.message.content).sort()).toEqual(['a', 'b', 'c']);
    expect(local.requests.map((request) => request.headers['x-autohedge-agent']).sort()).toEqual([
      'execution',
      'quant',
      'risk',
    ]);
  });

  it('sees a fetch interceptor installed after the client was built (late-bound fetch)', async () => {
    const local = await serve([textAnswer('before'), textAnswer('through the interceptor')]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0 });
    await model.complete(ask()); // the SDK client now exists and holds its fetch
    const original = globalThis.fetch;
    const seen: string[] = [];
    globalThis.fetch = (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return original(input, init);
    };
    try {
      const response = await model.complete(ask());
      expect(response.message.content).toBe('through the interceptor');
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([`${local.url}/chat/completions`]);
  });
});

describe('createOpenAIModel, non-streaming (stream: false)', () => {
  it('maps a whole completion with tool calls and usage', async () => {
    const local = await serve([
      toolCallAnswer(
        [
          { id: 'call_a', name: 'exa_search', arguments: { query: 'NVDA guidance' } },
          { id: 'call_b', name: 'exa_search', arguments: { query: 'NVDA export rules' } },
        ],
        { usage: { prompt_tokens: 500, completion_tokens: 40, cached_tokens: 256 }, model: 'gpt-4o-2024-08-06' },
      ),
    ]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0, stream: false });

    const response = await model.complete(ask({ tools: [searchTool], toolChoice: 'auto', agent: 'sentiment' }));

    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'exa_search', arguments: '{"query":"NVDA guidance"}' } },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'exa_search', arguments: '{"query":"NVDA export rules"}' },
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 500, completionTokens: 40, cachedPromptTokens: 256 },
      model: 'gpt-4o-2024-08-06',
    });
    const body = local.requests[0]?.body;
    expect(body.stream).toBe(false);
    expect(body).not.toHaveProperty('stream_options');
    expect(local.requests[0]?.headers['x-autohedge-agent']).toBe('sentiment');
  });

  it('keeps reasoning_content from a whole completion', async () => {
    const local = await serve([textAnswer('Sell.', { reasoning: 'Overbought.' })]);
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: local.url, maxRetries: 0, stream: false });

    const response = await model.complete(ask());

    expect(response.message).toEqual({ role: 'assistant', content: 'Sell.', reasoning_content: 'Overbought.' });
  });
});

describe('createOpenAIModel.prepare', () => {
  it('loads the client ahead of the first call, which then reuses it', async () => {
    const { url } = await serve([textAnswer('ready')]);
    const model = createOpenAIModel({ apiKey: 'sk-test-key-0000', baseURL: url, maxRetries: 0 });
    model.prepare?.();
    model.prepare?.();
    const response = await model.complete(ask());
    expect(response.message.content).toBe('ready');
    expect(server?.requests).toHaveLength(1);
  });

  it('does nothing without a key or base URL; the call still names what to set', async () => {
    const model = createOpenAIModel({});
    expect(() => model.prepare?.()).not.toThrow();
    await expect(model.complete(ask())).rejects.toThrow('OPENAI_API_KEY is not set');
  });
});

describe('temperature', () => {
  it('is left out for reasoning models, which reject it, and sent to the others', async () => {
    const { url } = await serve([textAnswer('a'), textAnswer('b'), textAnswer('c'), textAnswer('d')]);
    const model = createOpenAIModel({ apiKey: 'sk-test-key-0000', baseURL: url, maxRetries: 0 });
    for (const name of ['gpt-4.1', 'o4-mini', 'gpt-5-mini', 'gpt-5-chat-latest'])
      await model.complete(ask({ model: name, temperature: 0.2 }));
    expect(server?.requests.map((request) => [request.body.model, request.body.temperature])).toEqual([
      ['gpt-4.1', 0.2],
      ['o4-mini', undefined],
      ['gpt-5-mini', undefined],
      ['gpt-5-chat-latest', 0.2],
    ]);
  });
});
