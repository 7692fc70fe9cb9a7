import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startRecording, startReplay } from '../../src/record/index.js';
import { startServer, type LocalServer } from '../support/local-server.js';

const openaiCanary = 'sk-canary-5f0c1d2e3a4b5c6d7e8f9a0b';
const exaCanary = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
/** Shaped like nothing in particular: only the caller's secrets list can catch it. */
const plainCanary = 'canary-plain-secret-77';

let directory: string;
let echo: LocalServer;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-canary-'));
  // Echoes every credential back, so a leak through a response body would show too.
  echo = await startServer((request, body, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'set-cookie': [`session=${plainCanary}; Path=/; HttpOnly`],
      'x-echo-key': request.headers['x-api-key'] ?? '',
    });
    response.end(
      JSON.stringify({
        url: request.url,
        authorization: request.headers.authorization,
        sentKey: request.headers['x-api-key'],
        cookie: request.headers.cookie,
        body,
      }),
    );
  });
});

afterEach(async () => {
  await echo.close().catch(() => undefined);
  await rm(directory, { recursive: true, force: true });
});

function leakyRequest(server: LocalServer): Promise<Response> {
  return fetch(`${server.url}/search?apiKey=${exaCanary}&token=${openaiCanary}&crumb=${plainCanary}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${openaiCanary}`,
      'x-api-key': exaCanary,
      cookie: `session=${plainCanary}`,
      'content-type': 'application/json',
      'x-autohedge-agent': 'sentiment',
    },
    body: JSON.stringify({ apiKey: exaCanary, query: `what is ${openaiCanary}`, note: plainCanary }),
  });
}

it('no canary key reaches the cassette, and the scrubbed cassette still replays', async () => {
  const file = path.join(directory, 'canary.json');
  const recorder = await startRecording(
    { autohedgeVersion: '0.1.0', asOf: '2026-01-05T21:00:00.000Z', argv: ['analyze', 'NVDA', `--note=${plainCanary}`] },
    { secrets: [plainCanary] },
  );
  const live = await leakyRequest(echo);
  expect(await live.text()).toContain(exaCanary);
  await recorder.stop(file);
  await echo.close();

  const text = await readFile(file, 'utf8');
  for (const canary of [openaiCanary, exaCanary, plainCanary, '5f0c1d2e3a4b5c6d7e8f', 'a1b2c3d4e5f6']) {
    expect(text).not.toContain(canary);
  }
  expect(text).toContain('REDACTED');

  // As the CLI does: the same secrets as when recording, if the user has them set.
  const replay = await startReplay(file, { secrets: [plainCanary] });
  try {
    // The live request still carries the real keys; it matches because both sides are scrubbed alike.
    const replayed = await leakyRequest(echo);
    expect(replayed.headers.getSetCookie()).toEqual(['session=REDACTED; Path=/; HttpOnly']);
    expect(replayed.headers.get('x-echo-key')).toBe('REDACTED');
    expect(await replayed.json()).toEqual({
      url: '/search?apiKey=REDACTED&token=REDACTED&crumb=REDACTED',
      authorization: 'Bearer REDACTED',
      sentKey: 'REDACTED',
      cookie: 'session=REDACTED',
      body: JSON.stringify({ apiKey: 'REDACTED', query: 'what is REDACTED', note: 'REDACTED' }),
    });
    expect(replay.unmatched).toEqual([]);
  } finally {
    replay.stop();
  }
});
