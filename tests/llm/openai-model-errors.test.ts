// Failures of a model call, over real HTTP through the real SDK, each mapped to one
// typed ModelError with one line a user understands and no key in it.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, ModelError, CassetteError } from '../../src/errors.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { errorReply, startOpenAIServer, textAnswer, type OpenAIServer, type Reply } from '../support/openai-server.js';
import { closedPort } from '../support/local-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: Reply[], options: OpenAIModelOptions = {}) {
  server = await startOpenAIServer(script);
  const model = createOpenAIModel({ apiKey: 'sk-test-0123456789', baseURL: server.url, maxRetries: 0, ...options });
  return { model, local: server, host: new URL(server.url).host };
}

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4.1-mini',
  messages: [{ role: 'user', content: 'Analyse NVDA.' }],
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const chunkBase = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-mini' };
const chunk = (delta: object, finishReason: string | null = null) => ({
  ...chunkBase,
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const toolCallChunks = [
  chunk({
    role: 'assistant',
    content: null,
    tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'exa_search', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"NVDA"}' } }] }),
  chunk({}, 'tool_calls'),
  { ...chunkBase, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
];

describe('retries and rate limits', () => {
  it('retries a 429 (honouring retry-after-ms) and returns the answer that follows', async () => {
    const { model, local } = await modelFor(
      [
        errorReply(
          429,
          { message: 'Rate limit reached for gpt-4.1-mini', type: 'requests', code: 'rate_limit_exceeded' },
          { 'retry-after-ms': '10' },
        ),
        textAnswer('after the wait'),
      ],
      { maxRetries: 2 },
    );

    const response = await model.complete(ask());

    expect(response.message.content).toBe('after the wait');
    expect(local.requests).toHaveLength(2);
    // The retry is the pacer's, after the server's wait: a fresh request, not the SDK's retry.
    expect(local.requests[1]!.receivedAt - local.requests[0]!.receivedAt).toBeGreaterThanOrEqual(10);
  });

  it('maps a 429 that outlasts the retries to rate-limited, naming the model and the retries', async () => {
    const limited = errorReply(
      429,
      {
        message:
          'Rate limit reached for gpt-4.1-mini in organization org-AbCdEf123456 on tokens per min (TPM): Limit 30000.',
        type: 'tokens',
        code: 'rate_limit_exceeded',
      },
      { 'retry-after-ms': '5' },
    );
    const { model, local, host } = await modelFor([limited, limited, limited], { maxRetries: 2 });

    const error = await failure(model.complete(ask()));

    expect(local.requests).toHaveLength(3);
    expect(error.kind).toBe('rate-limited');
    expect(error.status).toBe(429);
    expect(error.message).toBe(
      `${host} rate limit hit (429) for model 'gpt-4.1-mini' after 2 retries: Rate limit reached for gpt-4.1-mini in organization REDACTED on tokens per min (TPM): Limit 30000.`,
    );
  });

  it('maps 429 insufficient_quota to quota', async () => {
    const { model, host } = await modelFor([
      errorReply(
        429,
        { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
        { 'x-should-retry': 'false' },
      ),
    ]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('quota');
    expect(error.message).toBe(`${host} quota exceeded (429 insufficient_quota): check your plan and billing`);
  });
});

describe('server and request errors', () => {
  it.each([500, 503])('maps %i to server after the retries', async (status) => {
    const broken = errorReply(
      status,
      { message: 'The server had an error while processing your request.', type: 'server_error' },
      { 'retry-after-ms': '1' },
    );
    const { model, local, host } = await modelFor([broken, broken], { maxRetries: 1 });

    const error = await failure(model.complete(ask()));

    expect(local.requests).toHaveLength(2);
    expect(error.kind).toBe('server');
    expect(error.status).toBe(status);
    expect(error.message).toBe(
      `${host} server error (${status}) for model 'gpt-4.1-mini' after 1 retry: The server had an error while processing your request.`,
    );
  });

  it('maps a 502 with an HTML body to server, on one line', async () => {
    const { model, host } = await modelFor([
      { status: 502, text: '<html>\n<body>Bad gateway</body>\n</html>', headers: { 'content-type': 'text/html' } },
    ]);

    const error = await failure(model.complete(ask()));

    expect(error.message).toBe(
      `${host} server error (502) for model 'gpt-4.1-mini': <html> <body>Bad gateway</body> </html>`,
    );
  });

  it('maps 400 to bad-request with the server message, and does not retry it', async () => {
    const { model, local, host } = await modelFor(
      [
        errorReply(400, {
          message: "Unsupported parameter: 'temperature' is not supported with this model.",
          code: 'unsupported_parameter',
        }),
      ],
      { maxRetries: 2 },
    );

    const error = await failure(model.complete(ask({ temperature: 0 })));

    expect(local.requests).toHaveLength(1);
    expect(error.kind).toBe('bad-request');
    expect(error.message).toBe(
      `${host} rejected the request for model 'gpt-4.1-mini' (400): Unsupported parameter: 'temperature' is not supported with this model.`,
    );
  });

  it('maps a 404 that is not about a model to a base URL problem', async () => {
    server = await startOpenAIServer([]);
    const wrongBase = `${server.origin}/api`;
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL: wrongBase, maxRetries: 0 });

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('bad-request');
    expect(error.message).toBe(`no chat completions endpoint at ${wrongBase} (404): check the base URL`);
  });

  it('maps an error event inside the stream to server', async () => {
    const { model, host } = await modelFor([
      { sse: 'data: {"error":{"message":"The model is overloaded.","type":"server_error"}}\n\n' },
    ]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('server');
    expect(error.message).toBe(
      `${host} reported an error mid-stream for model 'gpt-4.1-mini': The model is overloaded.`,
    );
  });
});

describe('connection, timeout and abort', () => {
  it('maps a refused connection to connection, naming the base URL', async () => {
    const port = await closedPort();
    const baseURL = `http://127.0.0.1:${port}/v1`;
    const model = createOpenAIModel({ apiKey: 'sk-test', baseURL, maxRetries: 0 });

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('connection');
    expect(error.message).toBe(`could not connect to ${baseURL} (ECONNREFUSED)`);
  });

  it('maps a server that never answers to timeout', async () => {
    const { model, host } = await modelFor([{ hang: true }], { timeoutMs: 150 });

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(`model call timed out after 0.15 s (model 'gpt-4.1-mini' at ${host})`);
  });

  it('maps a stream that falls silent mid-answer to timeout', async () => {
    const { model, host } = await modelFor([{ chunks: toolCallChunks, stallAfterChunks: 2 }], { timeoutMs: 150 });

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      `model call timed out after 0.15 s of silence mid-stream (model 'gpt-4.1-mini' at ${host})`,
    );
  });

  it('maps an abort before the answer starts to aborted', async () => {
    const { model, local } = await modelFor([{ hang: true }]);
    const controller = new AbortController();
    const call = model.complete(ask({ signal: controller.signal }));
    await until(() => local.requests.length === 1);
    controller.abort();

    const error = await failure(call);

    expect(error.kind).toBe('aborted');
    expect(error.message).toBe('model call aborted');
  });

  it('maps an abort in the middle of a stream to aborted, not to a cut stream', async () => {
    const { model } = await modelFor([{ chunks: toolCallChunks, stallAfterChunks: 2 }]);
    const controller = new AbortController();
    const call = model.complete(ask({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);

    const error = await failure(call);

    expect(error.kind).toBe('aborted');
  });

  it('fails at once for a signal that is already aborted, without a request', async () => {
    const { model, local } = await modelFor([textAnswer('never')]);

    const error = await failure(model.complete(ask({ signal: AbortSignal.abort() })));

    expect(error.kind).toBe('aborted');
    expect(local.requests).toHaveLength(0);
  });
});

describe('incomplete answers', () => {
  it('maps a connection dropped mid-tool-call to invalid-response', async () => {
    const { model, host } = await modelFor([{ chunks: toolCallChunks, cutAfterChunks: 2 }]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      `the connection to ${host} dropped mid-stream during tool call 'exa_search' (9 argument characters received) (model 'gpt-4.1-mini')`,
    );
  });

  it('maps a stream that ends without [DONE] to invalid-response', async () => {
    const { model, host } = await modelFor([{ chunks: toolCallChunks.slice(0, 3), omitDone: true }]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      `the stream from ${host} ended without [DONE] during tool call 'exa_search' (16 argument characters received) (model 'gpt-4.1-mini')`,
    );
  });

  it('accepts a stream that ends without [DONE] after a finish_reason (Cerebras, routers): the answer is complete', async () => {
    const { model } = await modelFor([{ chunks: toolCallChunks, omitDone: true }]);

    const response = await model.complete(ask());

    expect(response.finishReason).toBe('tool_calls');
    expect(response.message.tool_calls?.[0]?.function.arguments).toBe('{"query":"NVDA"}');
  });

  it('accepts [DONE] split across network writes and without its trailing blank line', async () => {
    const body = toolCallChunks.map((item) => `data: ${JSON.stringify(item)}\n\n`).join('') + 'data: [DONE]';
    const { model } = await modelFor([{ sse: body }]);

    const response = await model.complete(ask());

    expect(response.message.tool_calls?.[0]?.function.arguments).toBe('{"query":"NVDA"}');
  });

  it('maps a streamed chunk that is not JSON to invalid-response', async () => {
    const { model, host } = await modelFor([
      { sse: 'data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"Hi\n\n' },
    ]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(`the answer from ${host} is not valid JSON (model 'gpt-4.1-mini')`);
  });

  it('maps a stream with no choices at all to invalid-response', async () => {
    const { model, host } = await modelFor([{ chunks: [toolCallChunks[4]!] }]);

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(`the model returned no choices (model 'gpt-4.1-mini' at ${host})`);
  });

  it('maps a whole completion with empty choices to invalid-response', async () => {
    const { model, host } = await modelFor(
      [{ json: { id: 'x', object: 'chat.completion', created: 1, model: 'gpt-4.1-mini', choices: [] } }],
      { stream: false },
    );

    const error = await failure(model.complete(ask()));

    expect(error.message).toBe(`the model returned no choices (model 'gpt-4.1-mini' at ${host})`);
  });

  it('maps a whole completion cut off mid-body to invalid-response', async () => {
    const body = {
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'A long answer' }, finish_reason: 'stop' }],
    };
    const { model, host } = await modelFor([{ json: body, destroyAfterBytes: 40 }], { stream: false });

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      `the connection to ${host} dropped before the answer was complete (model 'gpt-4.1-mini')`,
    );
  });

  it('maps a 200 that is not JSON (a wrong base URL serving a web page) to invalid-response', async () => {
    const { model, host } = await modelFor(
      [{ status: 200, text: '<!doctype html><title>Welcome</title>', headers: { 'content-type': 'application/json' } }],
      { stream: false },
    );

    const error = await failure(model.complete(ask()));

    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(`the answer from ${host} is not valid JSON (model 'gpt-4.1-mini')`);
  });
});

describe('configuration and secrets', () => {
  it('throws ConfigError, without a request, when there is neither a key nor a base URL', async () => {
    const model = createOpenAIModel({});

    await expect(model.complete(ask())).rejects.toThrow(new ConfigError('OPENAI_API_KEY is not set'));
  });

  it('names OpenAI when talking to api.openai.com (fetch injected, no network)', async () => {
    const replies = [
      {
        status: 401,
        body: {
          error: {
            message: 'Incorrect API key provided: sk-proj-****abcd.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      },
      {
        status: 404,
        body: {
          error: {
            message: 'The model `gpt-5.2-proo` does not exist or you do not have access to it.',
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        },
      },
      {
        status: 429,
        body: {
          error: {
            message: 'You exceeded your current quota.',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          },
        },
      },
    ];
    const seen: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      seen.push(String(input));
      const reply = replies.shift()!;
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
      });
    };
    const model = createOpenAIModel({ apiKey: 'sk-proj-realkey-abcd', fetch: fakeFetch, maxRetries: 0 });

    const messages = [
      (await failure(model.complete(ask()))).message,
      (await failure(model.complete(ask({ model: 'gpt-5.2-proo' })))).message,
      (await failure(model.complete(ask()))).message,
    ];

    expect(seen).toEqual(Array(3).fill('https://api.openai.com/v1/chat/completions'));
    expect(messages).toEqual([
      'OpenAI rejected the API key (401): check OPENAI_API_KEY',
      "model 'gpt-5.2-proo' was not found (404) — check --model / AUTOHEDGE_MODEL",
      'OpenAI quota exceeded (429 insufficient_quota): check your plan and billing',
    ]);
  });

  it('never lets the configured key (canary) into a message, its cause or its stack', async () => {
    const canary = 'sk-canary-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX1234';
    const { model } = await modelFor(
      [
        errorReply(401, {
          message: `Incorrect API key provided: ${canary}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          code: 'invalid_api_key',
        }),
        errorReply(400, { message: `Bad header Authorization: Bearer ${canary}` }),
      ],
      { apiKey: canary },
    );

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await failure(model.complete(ask()));
      const everything = [
        error.message,
        error.stack,
        String((error.cause as Error | undefined)?.message),
        String((error.cause as Error | undefined)?.stack),
      ].join('\n');
      expect(everything).not.toContain('canary');
      expect(everything).not.toContain('XXXXXXXX');
    }
  });

  it('scrubs a key that does not look like sk-… (a custom provider key quoted back)', async () => {
    const key = 'gsk_live_7Hq2Lw9PzX4t';
    const { model } = await modelFor([errorReply(400, { message: `key ${key} is not valid for this model` })], {
      apiKey: key,
    });

    const error = await failure(model.complete(ask()));

    expect(error.message).toContain('key REDACTED is not valid for this model');
    expect(error.message).not.toContain(key);
  });

  it('passes a typed error thrown by an injected fetch (a replay miss) through unchanged', async () => {
    const miss = new CassetteError('no recorded answer for agent sentiment');
    const model = createOpenAIModel({ apiKey: 'sk-test', maxRetries: 0, fetch: async () => Promise.reject(miss) });

    await expect(model.complete(ask())).rejects.toBe(miss);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never became true');
}
