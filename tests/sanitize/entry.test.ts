// The sanitiser applied where untrusted text enters: the real `openai` SDK over real HTTP
// to the loopback server, streamed and whole. Whatever control sequences a server puts in
// an answer (content, refusal, reasoning, a tool name) or in an error body, the ChatResponse
// or ModelError autohedge builds holds them only as visible, inert characters.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAgent } from '../../src/agent/run-agent.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { ModelError } from '../../src/errors.js';
import { createOpenAIModel } from '../../src/llm/openai-model.js';
import { identityFrom } from '../../src/market/sources/yahoo/normalize.js';
import { hasUnsafeCharacters } from '../../src/sanitize.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type Reply,
} from '../support/openai-server.js';

const hostile =
  '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;ZXZpbA==\u0007\u001b]8;;https://evil.example/\u001b\\x\u001b]8;;\u001b\\\u009b31m';
const inert = '␛[2J␛]0;pwned␇␛]52;c;ZXZpbA==␇␛]8;;https://evil.example/␛\\x␛]8;;␛\\\ufffd31m';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function modelFor(script: Reply[], stream: boolean) {
  server = await startOpenAIServer(script);
  return createOpenAIModel({ apiKey: 'sk-test-0123456789', baseURL: server.url, maxRetries: 0, stream });
}

const ask = { model: 'gpt-4.1-mini', messages: [{ role: 'user' as const, content: 'Analyse ACME.' }] };

describe.each([true, false])('model output, stream %s', (stream) => {
  it('content, refusal and reasoning arrive sanitised', async () => {
    const model = await modelFor(
      [textAnswer(`Buy ${hostile}`, { refusal: `No ${hostile}`, reasoning: `Think ${hostile}` })],
      stream,
    );
    const response = await model.complete(ask);
    expect(response.message.content).toBe(`Buy ${inert}`);
    expect(response.message.refusal).toBe(`No ${inert}`);
    expect(response.message.reasoning_content).toBe(`Think ${inert}`);
  });

  it('a tool name arrives sanitised; its JSON arguments as sent', async () => {
    const model = await modelFor(
      [toolCallAnswer([{ id: 'call_1', name: `exa_search${hostile}`, arguments: { query: 'acme' } }])],
      stream,
    );
    const response = await model.complete(ask);
    expect(response.message.tool_calls?.map((call) => [call.function.name, call.function.arguments])).toEqual([
      [`exa_search${inert}`, '{"query":"acme"}'],
    ]);
  });

  it('a 400 error body arrives sanitised in the one-line message', async () => {
    const model = await modelFor([errorReply(400, { message: `bad ${hostile}` })], stream);
    const error = (await model.complete(ask).catch((caught: unknown) => caught)) as ModelError;
    expect(error).toBeInstanceOf(ModelError);
    expect(error.message).toContain(`(400): bad ${inert}`);
    expect(hasUnsafeCharacters(error.message)).toBe(false);
  });
});

it("Yahoo's names arrive sanitised", () => {
  const identity = identityFrom('ACME', {
    quote: { longName: `Acme ${hostile}`, fullExchangeName: `NMS${hostile}` } as never,
    summary: null,
    meta: null,
  });
  expect(identity.name).toBe(`Acme ${inert}`);
  expect(identity.exchange).toBe(`NMS${inert}`);
});

it('a tool result and a tool error (web pages, MCP servers) arrive sanitised in the tool message and the report', async () => {
  const page = defineTool({
    name: 'read_page',
    description: 'Reads a page.',
    parameters: z.object({ fail: z.boolean() }),
    outputs: 'the page text',
    async run({ fail }) {
      if (fail) throw new Error(`server said ${hostile}`);
      return `page ${hostile}`;
    },
  });
  const model = new ScriptedModel([
    {
      toolCalls: [
        { id: 'ok', name: 'read_page', arguments: { fail: false } },
        { id: 'bad', name: 'read_page', arguments: { fail: true } },
      ],
    },
    { text: 'Done.' },
  ]);
  const report = await runAgent(
    { id: 'sentiment', name: 'Sentiment', description: '', model: 'gpt-test', instructions: 'Read.', tools: [page] },
    'Read ACME.',
    {
      model,
      asOf: new Date('2026-11-28T12:00:00Z'),
    },
  );
  const sent = model.requests[1]!.messages.filter((message) => message.role === 'tool').map(
    (message) => message.content,
  );
  expect(sent).toEqual([`page ${inert}`, `Error: server said ${inert}`]);
  expect(report.toolCalls.map((call) => [call.result, call.error])).toEqual([
    [`page ${inert}`, null],
    [null, `server said ${inert}`],
  ]);
});
