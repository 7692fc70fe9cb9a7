/**
 * A cassette holds every exchange of a run, a 429 or 5xx that the client then retried
 * included; a replay must retry the same way, or it serves that error and stops.
 *
 * - the built CLI records `analyze ACME` against loopback stand-ins while the quant
 *   desk's first call gets a 429, then replays it with every server stopped;
 * - the built CLI replays `market ACME` from a cassette whose first chart request got a 503;
 * - a replayed 429 comes without its recorded retry-after, which was already waited out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { startReplay, type Cassette, type Interaction } from '../../src/record/index.js';
import { analysisResultSchema } from '../smoke/analysis-result.js';
import { runBuilt, smokeCassette } from '../smoke/support.js';
import { byAgent } from '../support/faults.js';
import { errorReply } from '../support/openai-server.js';
import { comparable, recordAnalyze, useScratch } from './support.js';

const rateLimited = errorReply(
  429,
  { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
  { 'retry-after-ms': '5' },
);

const inScratch = useScratch('autohedge-replay-retry-');

it('a run whose quant desk was rate-limited once, then answered, replays into the same result, exit 0', async () => {
  const { run: recording, cassette } = await recordAnalyze({
    cassette: inScratch('retried.cassette.json'),
    openai: byAgent({ quant: [rateLimited] }),
    keys: {
      openai: 'sk-test-retry0123456789abcdef',
      exa: 'exa-test-retry0123456789',
      yahooCookie: 'A3=d=retrytest',
      yahooCrumb: 'retrycrumb1',
    },
    args: ['--no-save'],
  });
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  expect(recorded.status).toBe('ok');
  // The 429 really is in the cassette, ahead of the retry that succeeded.
  const interactions = (JSON.parse(readFileSync(cassette, 'utf8')) as Cassette).interactions;
  const quant = interactions.filter((interaction) => interaction.requestHeaders['x-autohedge-agent'] === 'quant');
  expect(quant.map((interaction) => interaction.status)).toEqual([429, 200]);

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json', '--no-save']);
  expect(replaying.code, replaying.stderr).toBe(0);
  expect(replaying.stderr).not.toContain('no recorded response');
  expect(comparable(analysisResultSchema.parse(JSON.parse(replaying.stdout)))).toEqual(comparable(recorded));
}, 60_000);

it('market data whose first chart request got a 503 replays like the retry that followed it', async () => {
  const original = JSON.parse(readFileSync(smokeCassette, 'utf8')) as Cassette;
  const chartAt = original.interactions.findIndex((interaction) => interaction.url.includes('/v8/finance/chart/ACME'));
  const chart = original.interactions[chartAt] as Interaction;
  const unavailable: Interaction = {
    ...chart,
    status: 503,
    statusText: 'Service Unavailable',
    responseHeaders: { 'retry-after': '3600' },
    responseBody: '',
  };
  const retried = { ...original, interactions: original.interactions.toSpliced(chartAt, 0, unavailable) };
  const cassette = inScratch('yahoo-503.cassette.json');
  writeFileSync(cassette, JSON.stringify(retried));

  const [plain, replayed] = await Promise.all([
    runBuilt(['market', 'ACME', '--replay', smokeCassette, '--json']),
    runBuilt(['market', 'ACME', '--replay', cassette, '--json']),
  ]);
  expect([plain.code, plain.stderr]).toEqual([0, '']);
  expect([replayed.code, replayed.stderr]).toEqual([0, '']);
  expect(replayed.stdout).toBe(plain.stdout);
}, 60_000);

it('serves a recorded 429 without its retry-after headers, and every other header as recorded', async () => {
  const file = inScratch('rate-limited.cassette.json');
  const request = {
    method: 'POST',
    url: 'https://api.openai.com/v1/chat/completions',
    requestHeaders: {},
    requestBody: { model: 'gpt-4.1' },
  };
  const cassette: Cassette = {
    format: 'autohedge-cassette',
    version: 1,
    autohedgeVersion: '0.1.0',
    asOf: '2026-01-05T21:00:00.000Z',
    argv: ['analyze', 'ACME'],
    recordedAt: '2026-01-06T09:30:00.000Z',
    interactions: [
      {
        ...request,
        status: 429,
        responseHeaders: {
          'retry-after': '600',
          'retry-after-ms': '600000',
          'x-request-id': 'req_1',
          'content-type': 'application/json',
        },
        responseBody: { error: { message: 'Rate limit reached' } },
      },
      { ...request, status: 200, responseHeaders: { 'x-request-id': 'req_2' }, responseBody: { ok: true } },
    ],
  };
  writeFileSync(file, JSON.stringify(cassette));
  const replay = await startReplay(file);
  try {
    const ask = () => fetch(request.url, { method: 'POST', body: JSON.stringify(request.requestBody) });
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect([...limited.headers.entries()].sort()).toEqual([
      ['content-type', 'application/json'],
      ['x-request-id', 'req_1'],
    ]);
    const answered = await ask();
    expect([answered.status, answered.headers.get('x-request-id'), await answered.json()]).toEqual([
      200,
      'req_2',
      { ok: true },
    ]);
  } finally {
    replay.stop();
  }
});
