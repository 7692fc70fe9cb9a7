// Secrets in cassettes: a `--record` run with canary keys in the environment and
// servers that quote them back. Its own file: exa-js binds fetch when first imported,
// so the recorded run must be the first search in the process.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { captureIo } from '../support/cli.js';
import { startExaStub, type ExaStub } from '../support/exa-server.js';
import {
  byAgent,
  deskText,
  exaCanary,
  expectNoFragments,
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

const cassettePath = () => join(mkdtempSync(join(tmpdir(), 'autohedge-cassette-')), 'run.json');

describe('canary keys never reach a cassette', () => {
  it('a recorded run whose error bodies quote both keys whole: the cassette holds no fragment of either', async () => {
    const openai = await startOpenAIServer(
      byAgent({
        quant: [
          (_body, request) =>
            errorReply(400, {
              message: `Invalid request from ${String(request.headers.authorization)} (key ${openaiCanary})`,
            }),
        ],
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
    const cassette = cassettePath();
    const env = {
      ...io.env,
      OPENAI_API_KEY: openaiCanary,
      OPENAI_BASE_URL: openai.url,
      EXA_API_KEY: exaCanary,
      EXA_BASE_URL: exa.baseURL,
    };
    const code = await runCli(
      ['analyze', 'ACME', '--json', '--record', cassette],
      { ...io, env },
      { market: fakeMarket(), now: fixedNow },
    );

    expect(code).toBe(3);
    expect(requestsOf(openai, 'quant')[0]?.headers.authorization).toBe(`Bearer ${openaiCanary}`);
    expect(exa.requests[0]?.headers.authorization).toBe(`Bearer ${exaCanary}`);
    expect(io.err()).toContain(`autohedge: recorded the run's HTTP exchanges to ${cassette}`);
    const text = readFileSync(cassette, 'utf8');
    // Both echoes were recorded, scrubbed: the cassette is the run, minus the keys.
    expect(text).toContain('Invalid request from Bearer REDACTED (key REDACTED)');
    expect(text).toContain('Invalid API key REDACTED');
    expectNoFragments({ stdout: io.out(), stderr: io.err(), cassette: text });
  });

  // OpenAI's own masking (`sk-canar****…tN3c`) keeps the key's first 8 and last 4
  // characters; a recorded 401 body must not carry even those.
  it('a --record cassette of a run whose 401 body quotes the masked key holds no fragment of it', async () => {
    const masked = errorReply(401, {
      message:
        'Incorrect API key provided: sk-canar**********************tN3c. You can find your API key at https://platform.openai.com/account/api-keys.',
      code: 'invalid_api_key',
    });
    const openai = await startOpenAIServer(byAgent({ director: [masked], sentiment: [{ ...masked, delayMs: 1_000 }] }));
    servers.push(openai);
    const io = captureIo();
    const cassette = cassettePath();
    const env = { ...io.env, OPENAI_API_KEY: openaiCanary, OPENAI_BASE_URL: openai.url, EXA_API_KEY: exaCanary };
    const code = await runCli(
      ['analyze', 'ACME', '--json', '--record', cassette],
      { ...io, env },
      { market: fakeMarket(), now: fixedNow },
    );

    expect(code).toBe(1);
    const text = readFileSync(cassette, 'utf8');
    expect(text).toContain('Incorrect API key provided');
    expectNoFragments({ stdout: io.out(), stderr: io.err(), cassette: text });
  });
});
