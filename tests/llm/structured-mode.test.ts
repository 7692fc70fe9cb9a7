// Structured output on servers without json_schema (issue 13.9): the ChatModel steps
// json_schema -> json_object -> prompt on a 400 naming response_format, remembers the
// mode, or starts where AUTOHEDGE_STRUCTURED says. Real SDK, loopback servers.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, ModelError } from '../../src/errors.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import { extractJson, structuredModeFromEnv } from '../../src/llm/structured-mode.js';
import type { ChatRequest } from '../../src/llm/types.js';
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

const schema = {
  type: 'object',
  properties: { action: { type: 'string', enum: ['BUY', 'HOLD'] } },
  required: ['action'],
  additionalProperties: false,
};
const structured: ChatRequest = {
  model: 'deepseek-chat',
  messages: [
    { role: 'system', content: 'You are the Director.' },
    { role: 'user', content: 'Decide.' },
  ],
  responseFormat: { type: 'json_schema', json_schema: { name: 'decision', schema, strict: true } },
};

/** DeepSeek's API: json_object only; json_schema is answered with its real 400. */
const deepSeekLike: ReplyHandler = (body: { response_format?: { type: string } }) =>
  body.response_format?.type === 'json_schema'
    ? errorReply(400, {
        message: 'This response_format type is unavailable now',
        type: 'invalid_request_error',
        code: 'invalid_request_error',
      })
    : textAnswer('{"action":"BUY"}');

async function modelFor(handler: ReplyHandler, options: OpenAIModelOptions = {}) {
  server = await startOpenAIServer(handler);
  const warnings: string[] = [];
  const model = createOpenAIModel({
    apiKey: 'sk-test-structured',
    baseURL: server.url,
    maxRetries: 0,
    warn: (line) => warnings.push(line),
    ...options,
  });
  return { model, local: server, warnings, host: new URL(server.url).host };
}

describe('structured output fallback inside the ChatModel', () => {
  it('a json_object-only server (DeepSeek): refused json_schema, then json_object with the schema in the system prompt, remembered for the run', async () => {
    const { model, local, warnings, host } = await modelFor(deepSeekLike);

    const first = await model.complete(structured);
    const second = await model.complete(structured);

    expect(first.message.content).toBe('{"action":"BUY"}');
    expect(first.structuredMode).toBe('json_object');
    expect(second.message.content).toBe('{"action":"BUY"}');
    expect(local.requests.map((request) => request.body.response_format)).toEqual([
      structured.responseFormat,
      { type: 'json_object' },
      { type: 'json_object' },
    ]);
    const system = local.requests[1]?.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are the Director.');
    expect(system.content).toContain(JSON.stringify(schema));
    expect(system.content).toMatch(/JSON/);
    expect(warnings).toEqual([
      `${host} refused response_format json_schema; using json_object structured output for the rest of the run (AUTOHEDGE_STRUCTURED=json_object skips this check)`,
    ]);
  });

  it('a server with neither (LM Studio-like refusals): prompt mode, the JSON taken out of a fenced answer after a <think> block', async () => {
    const { model, local, warnings } = await modelFor((body: { response_format?: { type: string } }) =>
      body.response_format
        ? errorReply(400, { message: `'response_format.type' must be 'json_schema' or 'text'` })
        : textAnswer('<think>The trend is up {maybe}.</think>\nHere it is:\n```json\n{"action": "HOLD"}\n```'),
    );

    const response = await model.complete(structured);

    expect(response.message.content).toBe('{"action": "HOLD"}');
    expect(response.structuredMode).toBe('prompt');
    expect(local.requests).toHaveLength(3);
    expect(local.requests[2]?.body.response_format).toBeUndefined();
    expect(local.requests[2]?.body.messages[0].content).toContain(JSON.stringify(schema));
    expect(warnings).toHaveLength(2);
  });

  it('AUTOHEDGE_STRUCTURED=json_object starts there: no json_schema attempt, no warning', async () => {
    const mode = structuredModeFromEnv({ AUTOHEDGE_STRUCTURED: 'json_object' });
    const { model, local, warnings } = await modelFor(deepSeekLike, { structuredMode: mode });

    await model.complete(structured);

    expect(local.requests.map((request) => request.body.response_format)).toEqual([{ type: 'json_object' }]);
    expect(warnings).toEqual([]);
  });

  it('a 400 that does not name the response format is not a reason to change mode', async () => {
    const { model, local } = await modelFor(() => errorReply(400, { message: "Unsupported parameter: 'max_tokens'" }));

    const error = await model.complete(structured).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('bad-request');
    expect(local.requests).toHaveLength(1);
  });

  it("OpenAI's 400 for an invalid schema is our bug, reported, not a reason to drop json_schema", async () => {
    const invalid =
      "Invalid schema for response_format 'decision': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'action'.";
    const { model, local } = await modelFor(() => errorReply(400, { message: invalid, code: 'invalid_json_schema' }));

    const error = await model.complete(structured).catch((caught: unknown) => caught);

    expect((error as ModelError).message).toContain("Invalid schema for response_format 'decision'");
    expect(local.requests).toHaveLength(1);
  });

  it('with fallback off (doctor probing one mode) the refusal is the answer', async () => {
    const { model, local } = await modelFor(deepSeekLike, { fallback: false });

    const error = await model.complete(structured).catch((caught: unknown) => caught);

    expect((error as ModelError).message).toContain('This response_format type is unavailable now');
    expect(local.requests).toHaveLength(1);
  });

  it('a request without responseFormat is sent as it is, whatever the mode', async () => {
    const { model, local } = await modelFor(() => textAnswer('plain'), { structuredMode: 'prompt' });

    await model.complete({ ...structured, responseFormat: undefined });

    expect(local.requests[0]?.body.response_format).toBeUndefined();
    expect(local.requests[0]?.body.messages).toEqual(structured.messages);
  });
});

describe('AUTOHEDGE_STRUCTURED', () => {
  it('is validated: a bad value is a configuration error (exit 2) naming the choices', () => {
    const error = (() => {
      try {
        structuredModeFromEnv({ AUTOHEDGE_STRUCTURED: 'json' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    expect((error as ConfigError).message).toBe(
      "AUTOHEDGE_STRUCTURED must be one of grammar, json_schema, json_object, prompt (got 'json')",
    );
    expect(structuredModeFromEnv({})).toBeUndefined();
    expect(structuredModeFromEnv({ AUTOHEDGE_STRUCTURED: ' prompt ' })).toBe('prompt');
  });
});

describe('extractJson', () => {
  it('takes the object from bare JSON, a fence, or surrounding prose; leaves text without one as it was', () => {
    expect(extractJson('{"a":1}')).toBe('{"a":1}');
    expect(extractJson('```\n{"a":1}\n```')).toBe('{"a":1}');
    expect(extractJson('Sure! {"a":{"b":2}} Hope that helps.')).toBe('{"a":{"b":2}}');
    expect(extractJson('no json here')).toBe('no json here');
    expect(extractJson(null)).toBeNull();
  });
});
