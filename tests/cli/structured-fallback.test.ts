// A DeepSeek-style server (json_object only, its real 400 for json_schema) produces a
// decision end to end: `autohedge analyze ACME` with the real chat client over loopback.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';
import { agentOf, decision, fixedNow, goodAnswer, plan, requestsOf } from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  type OpenAIServer,
  type RecordedRequest,
  type Reply,
} from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** DeepSeek's API: json_object works (the schema is only in the prompt), json_schema is refused. */
function deepSeek(body: any, _index: number, request: RecordedRequest): Reply {
  const agent = agentOf(request);
  if (body.response_format?.type === 'json_schema') {
    return errorReply(400, {
      message: 'This response_format type is unavailable now',
      type: 'invalid_request_error',
      code: 'invalid_request_error',
    });
  }
  if (agent !== 'director') return goodAnswer(agent, body);
  const system: string = body.messages[0]?.content ?? '';
  return textAnswer(JSON.stringify(/Reply with one JSON object: the plan,/.test(system) ? plan : decision));
}

const search = { search: async () => [] };

describe('structured output against a json_object-only server (DeepSeek)', () => {
  it('analyze ACME makes its decision, warning once on stderr about the mode it switched to', async () => {
    server = await startOpenAIServer(deepSeek);
    const io = captureIo();
    const env = { ...io.env, OPENAI_API_KEY: 'sk-test-deepseek-000000', OPENAI_BASE_URL: server.url };

    const code = await runCli(
      ['analyze', 'ACME', '--json', '--no-save'],
      { ...io, env },
      { market: fakeMarket(), search, now: fixedNow },
    );

    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.decision).toMatchObject({ action: decision.action, positionSizePct: decision.positionSizePct });
    expect(result.plan).toMatchObject({ thesis: plan.thesis });
    expect(code).toBe(0);
    const formats = requestsOf(server, 'director').map((request) => request.body.response_format?.type);
    // One refused json_schema attempt, then json_object for the plan and the decision.
    expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
    expect(io.err().match(/refused response_format json_schema/g)).toHaveLength(1);
  });

  it('AUTOHEDGE_STRUCTURED=json_object skips the refused attempt; a bad value is exit 2 before any call', async () => {
    server = await startOpenAIServer(deepSeek);
    const io = captureIo();
    const env = {
      ...io.env,
      OPENAI_API_KEY: 'sk-test-deepseek-000000',
      OPENAI_BASE_URL: server.url,
      AUTOHEDGE_STRUCTURED: 'json_object',
    };

    const code = await runCli(
      ['analyze', 'ACME', '--json', '--no-save'],
      { ...io, env },
      { market: fakeMarket(), search, now: fixedNow },
    );

    expect(code).toBe(0);
    expect(requestsOf(server, 'director').map((request) => request.body.response_format?.type)).toEqual([
      'json_object',
      'json_object',
    ]);
    expect(io.err()).not.toContain('refused response_format');

    const bad = captureIo();
    const before = server.requests.length;
    const badCode = await runCli(
      ['analyze', 'ACME', '--json', '--no-save'],
      { ...bad, env: { ...env, AUTOHEDGE_STRUCTURED: 'yaml' } },
      { market: fakeMarket(), search, now: fixedNow },
    );
    expect(badCode).toBe(2);
    expect(bad.err()).toContain(
      "AUTOHEDGE_STRUCTURED must be one of grammar, json_schema, json_object, prompt (got 'yaml')",
    );
    expect(server.requests.length).toBe(before);
  });
});
