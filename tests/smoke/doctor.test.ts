// The built CLI's `autohedge doctor` as a child process: a loopback OpenAI-compatible
// server that only takes json_object (DeepSeek-like), Yahoo answered by the synthetic
// market preload (which knows the demo companies only, so the AAPL check fails), no Exa
// key. One screen, the structured setting named, exit 1 for the market failure.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
} from '../support/openai-server.js';
import { ensureBuilt, repoRoot, runBuilt } from './support.js';

const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;
let server: OpenAIServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startOpenAIServer(
    (body: any) => {
      if (body.response_format?.type === 'json_schema')
        return errorReply(400, { message: 'This response_format type is unavailable now' });
      if (body.response_format) return textAnswer('{"sum": 5}');
      return body.messages.at(-1).role === 'tool'
        ? textAnswer('5')
        : toolCallAnswer([{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }]);
    },
    { models: ['deepseek-chat'] },
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('autohedge doctor (built CLI)', () => {
  it('one line per check, the json_object setting named, exit 1 when market data fails, no key printed', async () => {
    const key = 'sk-smoke-doctor-5Tq9Wz';
    const run = await runBuilt(['doctor', '--model', 'deepseek-chat'], {
      env: {
        OPENAI_API_KEY: key,
        OPENAI_BASE_URL: server.url,
        YAHOO_STUB_COOKIE: 'A3=d=smoke',
        YAHOO_STUB_CRUMB: 'crumb-smoke',
      },
      nodeArguments: ['--import', preload],
    });

    // Columns are padded to the longest label: compared with single spaces.
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/ {2,}/g, ' '));
    expect(run.stderr).toBe('');
    expect(lines[0]).toBe(`autohedge doctor — model 'deepseek-chat' at ${server.url}`);
    expect(lines).toContain(
      ' ok structured output json_object works (json_schema refused (400)); set AUTOHEDGE_STRUCTURED=json_object to skip the detection',
    );
    expect(lines).toContain(' warn web search EXA_API_KEY not set: the sentiment desk runs without news search');
    expect(lines).toContain(
      ' ok tool calls streamed add(2, 3), id call_1, finish_reason tool_calls; answered after the result',
    );
    expect(lines).toContain(" FAIL market data unknown ticker 'AAPL'; sources: Yahoo Finance (primary)");
    expect(lines).toContain(
      ' warn fundamentals AUTOHEDGE_SEC_USER_AGENT not set: runs go without SEC EDGAR fundamentals (set it to "Name email")',
    );
    expect(lines.at(-1)).toMatch(/^\d checks? failed: analyze will not work as it is\.$/);
    // The title, the limits line, 15 checks and the verdict.
    expect(lines).toHaveLength(18);
    expect(run.stdout).not.toContain(key);
    expect(run.code).toBe(1);
  });
});
