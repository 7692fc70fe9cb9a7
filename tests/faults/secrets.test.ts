// Secrets: canary keys for OpenAI and Exa set in the environment, servers that quote
// them back (whole and masked) in error bodies and even in answers, and a run that
// writes every artifact it can: stdout, stderr with --trace, the saved run, --out,
// and a --record cassette. No fragment of either key may appear in any of them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';
import { startExaStub, type ExaStub } from '../support/exa-server.js';
import {
  byAgent,
  deskText,
  exaCanary,
  expectNoFragments,
  filesUnder,
  fixedNow,
  openaiCanary,
  requestsOf,
} from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
} from '../support/openai-server.js';

const servers: Array<OpenAIServer | ExaStub> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const bearer = (request: { headers: Record<string, unknown> }) => String(request.headers.authorization);

describe('canary keys never leave the process', () => {
  it('a degraded run with keys echoed everywhere: stdout, stderr (--trace), the saved run and --out hold no fragment of either key', async () => {
    const openai = await startOpenAIServer(
      byAgent({
        // A 400 whose message quotes the whole Authorization header and key.
        quant: [
          (_body, request) =>
            errorReply(400, { message: `Invalid request from ${bearer(request)} (key ${openaiCanary})` }),
        ],
        // OpenAI's own masking of a key, as in its 401/403 bodies.
        risk: [
          () =>
            errorReply(403, {
              message: 'Project key sk-canar**********************tN3c does not have access to model gpt-4.1',
            }),
        ],
        // A proxy that pastes the caller's header into the answer itself.
        execution: [(_body, request) => textAnswer(`Execution: limit 99. Debug: authorization=${bearer(request)}`)],
        sentiment: [
          toolCallAnswer([
            { id: 'call_exa', name: 'exa_search', arguments: { query: 'Acme news', numResults: 3, daysBack: 30 } },
          ]),
          textAnswer(deskText.sentiment!),
        ],
      }),
    );
    const exa = await startExaStub((request) => ({
      status: 401,
      body: { error: `Invalid API key ${String(request.headers.authorization).replace(/^Bearer /, '')}` },
    }));
    servers.push(openai, exa);

    const io = captureIo();
    const out = mkdtempSync(join(tmpdir(), 'autohedge-out-'));
    const env = {
      ...io.env,
      OPENAI_API_KEY: openaiCanary,
      OPENAI_BASE_URL: openai.url,
      EXA_API_KEY: exaCanary,
      EXA_BASE_URL: exa.baseURL,
    };
    const code = await runCli(
      ['analyze', 'ACME', '--json', '--trace', '--out', out],
      { ...io, env },
      { market: fakeMarket(), now: fixedNow },
    );

    // The keys were really sent, and really echoed: otherwise this test proves nothing.
    expect(requestsOf(openai, 'quant')[0]?.headers.authorization).toBe(`Bearer ${openaiCanary}`);
    expect(exa.requests[0]?.headers.authorization).toBe(`Bearer ${exaCanary}`);
    expect(code).toBe(3);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.status).toBe('degraded');
    expect(result.reports.map((report) => [report.agent, report.status])).toEqual([
      ['quant', 'failed'],
      ['risk', 'failed'],
      ['execution', 'ok'],
      ['sentiment', 'ok'],
    ]);
    const host = new URL(openai.url).host;
    expect(result.reports[0]?.error).toBe(
      `${host} rejected the request for model 'gpt-4.1' (400): Invalid request from Bearer REDACTED (key REDACTED)`,
    );
    expect(result.reports[1]?.error).toBe(
      `${host} denied access (403) for model 'gpt-4.1': Project key REDACTED does not have access to model gpt-4.1`,
    );
    expect(result.reports[3]?.toolCalls[0]?.error).toBe('Exa rejected the API key (401)');
    expect(io.err()).toContain('[sentiment] ');

    const home = io.env.AUTOHEDGE_HOME as string;
    const saved = filesUnder(join(home, 'runs'));
    expect(
      Object.keys(saved)
        .map((path) => path.split('/').at(-1))
        .sort(),
    ).toEqual(['chart.svg', 'report.html', 'report.md', 'result.json', 'transcript.jsonl']);
    expect(Object.keys(filesUnder(out)).sort()).toEqual([
      'chart.svg',
      'report.html',
      'report.md',
      'result.json',
      'transcript.jsonl',
    ]);
    // The echoed answer is kept, with the key taken out.
    expect(result.reports[2]?.text).toBe('Execution: limit 99. Debug: authorization=Bearer REDACTED');
    expectNoFragments({
      stdout: io.out(),
      stderr: io.err(),
      ...Object.fromEntries(Object.entries(saved).map(([path, text]) => [`home/runs/${path}`, text])),
      ...Object.fromEntries(Object.entries(filesUnder(out)).map(([path, text]) => [`out/${path}`, text])),
    });
  });

  it('a 401 whose body quotes the whole key: failed, exit 1, the one line and every file without it', async () => {
    const openai = await startOpenAIServer(
      byAgent({
        director: [
          (_body, request) =>
            errorReply(401, {
              message: `Incorrect API key provided: ${bearer(request).replace('Bearer ', '')}.`,
              code: 'invalid_api_key',
            }),
        ],
        sentiment: [
          (_body, request) => ({
            ...errorReply(401, { message: `Incorrect API key provided: ${bearer(request)}` }),
            delayMs: 1_000,
          }),
        ],
      }),
    );
    servers.push(openai);
    const io = captureIo();
    const env = { ...io.env, OPENAI_API_KEY: openaiCanary, OPENAI_BASE_URL: openai.url, EXA_API_KEY: exaCanary };
    const code = await runCli(
      ['analyze', 'ACME', '--verbose'],
      { ...io, env },
      { market: fakeMarket(), now: fixedNow },
    );

    expect(code).toBe(1);
    const host = new URL(openai.url).host;
    expect(io.err().split('\n')).toContain(
      `[ACME] director: failed — Director plan failed: ${host} rejected the API key (401): check OPENAI_API_KEY`,
    );
    expect(io.out()).toContain(`Error: Director plan failed: ${host} rejected the API key (401): check OPENAI_API_KEY`);
    expectNoFragments({ stdout: io.out(), stderr: io.err(), ...filesUnder(io.env.AUTOHEDGE_HOME as string) });
  });
});
