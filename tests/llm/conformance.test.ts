// Conformance with real OpenAI traffic recorded by public projects' test suites
// (../shared/fixtures/recorded/openai, see its MANIFEST.md): the recorded bodies are
// served verbatim by the local server to the real SDK through createOpenAIModel.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { startOpenAIServer, type OpenAIServer, type Reply } from '../support/openai-server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const recorded = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'openai');
const present = existsSync(recorded);
if (!present) console.warn(`[conformance] skipped: recorded OpenAI traffic not found at ${recorded}`);

const readText = (name: string) => readFileSync(path.join(recorded, name), 'utf8');
const readJson = (name: string) => JSON.parse(readText(name)) as unknown;

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(reply: Reply, options: OpenAIModelOptions = {}) {
  server = await startOpenAIServer([reply]);
  const model = createOpenAIModel({ apiKey: 'sk-test-conformance', baseURL: server.url, maxRetries: 0, ...options });
  return { model, host: new URL(server.url).host };
}

/** The recorded body, byte for byte, as the server sent it. */
const verbatim = (status: number, name: string): Reply => ({
  status,
  text: readText(name),
  headers: { 'content-type': 'application/json' },
});

const capitalTool = {
  type: 'function' as const,
  function: {
    name: 'get_capital',
    description: '',
    parameters: {
      type: 'object',
      properties: { country: { type: 'string' } },
      required: ['country'],
      additionalProperties: false,
    },
    strict: true as const,
  },
};

const question: ChatRequest = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'What is the capital of the UK? Use the tool, then answer.' }],
  tools: [capitalTool],
  toolChoice: 'auto',
};

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe.skipIf(!present)('conformance with recorded OpenAI traffic (../shared/fixtures/recorded/openai)', () => {
  it('our request has the shape of the recorded streamed request', async () => {
    const { model } = await modelFor({ sse: readText('extracted/stream_single_tool_call.sse.txt') });

    await model.complete(question);

    const recordedRequest = readJson('extracted/stream_single_tool_call.request.json');
    expect(server?.requests[0]?.body).toEqual(recordedRequest);
  });

  it('assembles the recorded streamed tool call (arguments in fragments) and its usage', async () => {
    const { model } = await modelFor({ sse: readText('extracted/stream_single_tool_call.sse.txt') });

    const response = await model.complete(question);

    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
            type: 'function',
            function: { name: 'get_capital', arguments: '{"country":"UK"}' },
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 53, completionTokens: 15, cachedPromptTokens: 0 },
      model: 'gpt-4o-mini-2024-07-18',
    });
  });

  it('assembles the recorded streamed text answer after the tool result', async () => {
    const { model } = await modelFor({ sse: readText('extracted/stream_after_tool_result_stop.sse.txt') });
    const followUp = readJson('extracted/stream_after_tool_result.request.json') as {
      messages: ChatRequest['messages'];
    };

    const response = await model.complete({ ...question, messages: followUp.messages });

    expect(response).toEqual({
      message: { role: 'assistant', content: 'The capital of the UK is London.' },
      finishReason: 'stop',
      usage: { promptTokens: 78, completionTokens: 9, cachedPromptTokens: 0 },
      model: 'gpt-4o-mini-2024-07-18',
    });
    // The follow-up (assistant tool_calls + role "tool") goes out exactly as recorded.
    expect(server?.requests[0]?.body).toEqual(readJson('extracted/stream_after_tool_result.request.json'));
  });

  it('rejects the recorded tool-call stream when it is cut off mid-arguments', async () => {
    const sse = readText('extracted/stream_single_tool_call.sse.txt');
    const cutAt = sse.indexOf('"arguments":"UK"');
    const { model, host } = await modelFor({ sse, destroyAfterBytes: cutAt });

    const error = await failure(model.complete(question));

    // Received before the cut: '{"' + 'country' + '":"' = 12 characters.
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      `the connection to ${host} dropped mid-stream during tool call 'get_capital' (12 argument characters received) (model 'gpt-4o-mini')`,
    );
  });

  it('maps the recorded raw non-streamed tool call', async () => {
    const { model } = await modelFor(verbatim(200, 'extracted/nonstream_tool_call.raw.response.json'), {
      stream: false,
    });

    const response = await model.complete({ ...question, model: 'gpt-4o-mini' });

    expect(response).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_rZQU4F2cauxK3VUKfLtXoNVC',
            type: 'function',
            function: { name: 'calculator', arguments: '{"expression":"100 / 4"}' },
          },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 127, completionTokens: 17, cachedPromptTokens: 0 },
      model: 'gpt-4o-mini-2024-07-18',
    });
  });

  it('maps the recorded non-streamed parallel tool calls', async () => {
    const { model } = await modelFor(
      { json: readJson('extracted/nonstream_parallel_tool_calls.response.json') },
      { stream: false },
    );

    const response = await model.complete({ ...question, model: 'gpt-4o' });

    expect(response.message.tool_calls).toEqual([
      {
        id: 'call_jYdIdRZHxZTn5bWCq5jlMrJi',
        type: 'function',
        function: { name: 'delete_file', arguments: '{"path": ".env"}' },
      },
      {
        id: 'call_TmlTVWQbzrXCZ4jNsCVNbNqu',
        type: 'function',
        function: { name: 'create_file', arguments: '{"path": "test.txt"}' },
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ promptTokens: 71, completionTokens: 46, cachedPromptTokens: 0 });
    expect(response.model).toBe('gpt-4o-2024-08-06');
  });

  it('maps the recorded 401 invalid_api_key body to authentication, with no key fragment', async () => {
    const { model, host } = await modelFor(verbatim(401, 'extracted/error_401_invalid_api_key.body.json'));

    const error = await failure(model.complete(question));

    expect(error.kind).toBe('authentication');
    expect(error.status).toBe(401);
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(`${host} rejected the API key (401): check OPENAI_API_KEY`);
    expect(`${error.message}\n${(error.cause as Error).message}`).not.toMatch(/sk-(?!\*\*\*)/);
  });

  it('maps the recorded 404 model_not_found body to model-not-found', async () => {
    const { model, host } = await modelFor(verbatim(404, 'extracted/error_404_model_not_found.body.json'));

    const error = await failure(model.complete({ ...question, model: 'gpt-5.2-proo' }));

    expect(error.kind).toBe('model-not-found');
    expect(error.message).toBe(`model 'gpt-5.2-proo' was not found on ${host} (404) — check --model / AUTOHEDGE_MODEL`);
  });

  it('maps the recorded insufficient_quota body (HTTP 429) to quota at once: retrying cannot help', async () => {
    const { model, host } = await modelFor(verbatim(429, 'vercel-ai__error_insufficient_quota.json'), {
      maxRetries: 2,
    });

    const error = await failure(model.complete(question));

    expect(error.kind).toBe('quota');
    expect(error.message).toBe(`${host} quota exceeded (429 insufficient_quota): check your plan and billing`);
    expect(server?.requests).toHaveLength(1);
  });

  it('maps the recorded 400 unsupported_parameter body to bad-request with the server message', async () => {
    const { model, host } = await modelFor(verbatim(400, 'vercel-ai__error_400_unsupported_parameter.json'));

    const error = await failure(model.complete(question));

    expect(error.kind).toBe('bad-request');
    expect(error.message).toBe(
      `${host} rejected the request for model 'gpt-4o-mini' (400): Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.`,
    );
  });
});
