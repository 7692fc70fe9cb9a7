// Local engines (issue 46): detected by their own signs, structured output in the grammar
// mode with the full schema, their fallbacks, a new seed on a re-ask, and the guard
// against a silently truncated prompt. Real SDK, loopback servers.
import { afterEach, describe, expect, it } from 'vitest';
import { fullSchemaFor, responseFormatFor } from '../../src/agent/output.js';
import { ModelError } from '../../src/errors.js';
import { detectEngine } from '../../src/llm/engine.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import type { ChatRequest } from '../../src/llm/types.js';
import { decisionSchema } from '../../src/result/schemas.js';
import { engineRoutes, type EngineSign } from '../../testkit/engine-signs.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  type OpenAIServer,
  type ReplyHandler,
} from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modelName = 'qwen3';
const output = { name: 'decision', schema: decisionSchema };
const decision = {
  action: 'BUY',
  conviction: 70,
  timeHorizon: '2–6 weeks',
  positionSizePct: 3,
  orderType: 'limit',
  entry: 100,
  stopLoss: 92,
  takeProfit: 120,
  rationale: 'Momentum and valuation agree.',
  keyRisks: ['guidance'],
  dissent: null,
};
const structured = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  model: modelName,
  messages: [
    { role: 'system', content: 'You are the Director.' },
    { role: 'user', content: 'Decide.' },
  ],
  responseFormat: responseFormatFor(output),
  fullSchema: fullSchemaFor(output),
  ...overrides,
});

async function setup(
  handler: ReplyHandler,
  engine: EngineSign | null,
  options: Partial<OpenAIModelOptions> & { contextTokens?: number } = {},
) {
  const { contextTokens, ...rest } = options;
  server = await startOpenAIServer(handler, engine ? { routes: engineRoutes(engine, modelName, contextTokens) } : {});
  const warnings: string[] = [];
  const model = createOpenAIModel({
    baseURL: server.url,
    maxRetries: 0,
    detectEngine: true,
    warn: (line) => warnings.push(line),
    ...rest,
  });
  const chats = () => server!.requests.filter((request) => request.method === 'POST');
  return { model, warnings, chats };
}

const answer = () => textAnswer(JSON.stringify(decision));

describe('engine detection', () => {
  it.each([
    ['llama.cpp', 4096],
    ['ollama', 32768],
    ['vllm', 8192],
    ['lmstudio', 8192],
  ] as const)('tells %s by its own sign, with the context it shows', async (engine, context) => {
    server = await startOpenAIServer([], { routes: engineRoutes(engine, modelName, context) });
    expect(await detectEngine(server.url, modelName)).toEqual({ engine, contextTokens: context });
  });

  it('finds no engine on a loopback server without signs: a loopback address alone is no sign', async () => {
    server = await startOpenAIServer([]);
    expect(await detectEngine(server.url, modelName)).toEqual({ engine: null });
  });
});

describe('the grammar mode', () => {
  it('sends a detected engine the full schema, bounds and integer conviction included, and the meanings as text', async () => {
    const { model, chats, warnings } = await setup(() => answer(), 'llama.cpp');
    const response = await model.complete(structured());
    expect(response.structuredMode).toBe('grammar');
    const body = chats()[0]!.body;
    const schema = body.response_format.json_schema.schema;
    expect(body.response_format.type).toBe('json_schema');
    expect(schema.properties.rationale).toEqual({ type: 'string', minLength: 1 });
    expect(schema.properties.conviction).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(schema.properties.action.enum).toEqual(['BUY', 'SELL', 'HOLD']);
    expect(schema.properties.stopLoss.anyOf[0]).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
    expect(schema.additionalProperties).toBe(false);
    const system = body.messages[0].content as string;
    expect(system).toContain('- conviction (integer >= 0 and <= 100): 0–100');
    expect(system).toContain(
      '- stopLoss (number > 0 and <= 10000000, or null): stop-loss price, null if not applicable',
    );
    expect(warnings[0]).toMatch(/is llama\.cpp \(qwen3, context 4096 tokens\): structured output in the grammar mode/);
  });

  it('keeps the strict schema for a server with no engine sign (hosted-style), unchanged', async () => {
    const { model, chats } = await setup(() => answer(), null);
    const response = await model.complete(structured());
    expect(response.structuredMode).toBeUndefined();
    const body = chats()[0]!.body;
    expect(body.response_format).toEqual(responseFormatFor(output));
    expect(body.messages).toEqual(structured().messages);
  });

  it('asks the signs once per base URL and model, however many calls', async () => {
    const { model } = await setup(() => answer(), 'ollama');
    await Promise.all([model.complete(structured()), model.complete(structured()), model.complete(structured())]);
    const probes = server!.signRequests.filter((request) => request.path === '/api/version');
    expect(probes).toHaveLength(1);
  });

  it('starts in grammar when AUTOHEDGE_STRUCTURED says so, with no engine detected', async () => {
    const { model, chats } = await setup(() => answer(), null, { structuredMode: 'grammar' });
    await model.complete(structured());
    expect(chats()[0]!.body.response_format.json_schema.schema.properties.rationale.minLength).toBe(1);
  });

  it('falls back to {type: json_object, schema} when llama.cpp refuses json_schema: the form it enforces', async () => {
    const refusing: ReplyHandler = (body: { response_format?: { type: string } }) =>
      body.response_format?.type === 'json_schema'
        ? errorReply(400, { message: "Unsupported response_format type 'json_schema'", type: 'invalid_request_error' })
        : answer();
    const { model, chats, warnings } = await setup(refusing, 'llama.cpp');
    const response = await model.complete(structured());
    expect(response.structuredMode).toBe('json_object');
    const format = chats()[1]!.body.response_format;
    expect(format.type).toBe('json_object');
    expect(format.schema.properties.rationale.minLength).toBe(1);
    expect(warnings.at(-1)).toMatch(
      /refused response_format grammar; using json_object \(the schema inside it, which llama\.cpp enforces\)/,
    );
  });

  it('goes from grammar straight to the prompt on LM Studio, which refuses json_object', async () => {
    const refusing: ReplyHandler = (body: { response_format?: { type: string } }) =>
      body.response_format
        ? errorReply(400, { message: "'response_format.type' must be 'json_schema'", type: 'invalid_request_error' })
        : answer();
    const { model, chats } = await setup(refusing, 'lmstudio');
    const response = await model.complete(structured());
    expect(response.structuredMode).toBe('prompt');
    expect(chats().map((request) => request.body.response_format?.type ?? 'none')).toEqual(['json_schema', 'none']);
  });
});

describe('a re-ask to a local engine', () => {
  it('carries another seed; a hosted-style server gets the request unchanged', async () => {
    const local = await setup(() => answer(), 'ollama');
    await local.model.complete(structured({ reask: 1 }));
    await local.model.complete(structured());
    const [reasked, first] = local.chats().map((request) => request.body.seed);
    expect(first).toBeUndefined();
    expect(typeof reasked).toBe('number');
    await server!.close();
    const hosted = await setup(() => answer(), null);
    await hosted.model.complete(structured({ reask: 1 }));
    expect(hosted.chats()[0]!.body.seed).toBeUndefined();
  });
});

describe('the truncation guard', () => {
  const long = (words: number): ChatRequest => ({
    model: modelName,
    messages: [{ role: 'user', content: 'market data '.repeat(words) }],
  });

  it("fails a call whose reported prompt tokens are below 75 % of the estimate, naming Ollama's fix", async () => {
    const { model } = await setup(
      () => textAnswer('ok', { usage: { prompt_tokens: 4096, completion_tokens: 2 } }),
      'ollama',
    );
    const error = await model.complete(long(3000)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('context-truncated');
    expect((error as ModelError).message).toMatch(
      /read 4,096 of the about 9,\d{3} prompt tokens sent: the prompt was cut to its context size; set OLLAMA_CONTEXT_LENGTH=32768 where the Ollama server starts \(or a Modelfile with PARAMETER num_ctx 32768\)/,
    );
  });

  it('then refuses to send a prompt larger than the context the server has shown it keeps', async () => {
    const { model, chats } = await setup(
      () => textAnswer('ok', { usage: { prompt_tokens: 4096, completion_tokens: 2 } }),
      'ollama',
    );
    await expect(model.complete(long(3000))).rejects.toThrow(/cut/);
    await expect(model.complete(long(4000))).rejects.toThrow(/larger than the 4,096-token context/);
    expect(chats()).toHaveLength(1);
  });

  it('refuses before sending when the engine showed its context (llama.cpp n_ctx)', async () => {
    const { model, chats } = await setup(() => textAnswer('ok'), 'llama.cpp', { contextTokens: 2048 });
    await expect(model.complete(long(3000))).rejects.toThrow(/start llama-server with --ctx-size 32768/);
    expect(chats()).toHaveLength(0);
  });

  it('fails the same count for prompts that differ by more than a quarter, even with no engine sign', async () => {
    const { model } = await setup(
      () => textAnswer('ok', { usage: { prompt_tokens: 2000, completion_tokens: 2 } }),
      null,
    );
    await model.complete(long(700));
    await expect(model.complete(long(1400))).rejects.toThrow(/reported 2,000 prompt tokens for two prompts/);
  });

  it('passes an honest count, and judges no short prompt', async () => {
    const { model } = await setup((body: { messages: Array<{ content: string }> }) => {
      const tokens = Math.round(JSON.stringify(body.messages).length / 4.6);
      return textAnswer('ok', { usage: { prompt_tokens: tokens, completion_tokens: 2 } });
    }, 'ollama');
    await model.complete(long(3000));
    await model.complete(long(6000));
    await model.complete(long(10));
  });
});
