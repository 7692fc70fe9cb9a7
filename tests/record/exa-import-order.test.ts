/**
 * exa-js copies `global.fetch` when its module is first imported. These tests pin
 * down the rule documented in src/record/index.ts: a replay started BEFORE the first
 * import serves exa-js from the cassette, and so does every later session in the same
 * process (the interceptor's one patch stays). exa-js must not be imported anywhere
 * else in this file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReplay } from '../../src/record/index.js';
import { resultNamingTheQuery, startExaStub, type ExaStub } from '../support/exa-server.js';

const exaKey = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
const recordedResults = {
  requestId: 'from-the-cassette',
  results: [{ id: 'https://example.com/c', url: 'https://example.com/c', title: 'Recorded NVDA news' }],
};

let directory: string;
let exa: ExaStub;
let file: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-exa-'));
  exa = await startExaStub(resultNamingTheQuery);
  file = path.join(directory, 'exa.json');
  const cassette = {
    format: 'autohedge-cassette',
    version: 1,
    autohedgeVersion: '0.1.0',
    asOf: '2026-01-05T21:00:00.000Z',
    argv: ['analyze', 'NVDA', '--agent', 'sentiment'],
    recordedAt: '2026-01-05T21:00:01.000Z',
    interactions: [
      {
        method: 'POST',
        url: `${exa.baseURL}/search`,
        requestHeaders: { 'content-type': 'application/json', 'x-api-key': 'REDACTED' },
        // Exactly what exa-js 2.22 sends for search(query, { numResults: 2 }).
        requestBody: { query: 'NVDA news', numResults: 2, contents: { text: { maxCharacters: 10000 } } },
        status: 200,
        responseHeaders: { 'content-type': 'application/json' },
        responseBody: JSON.stringify(recordedResults),
      },
    ],
  };
  await writeFile(file, JSON.stringify(cassette));
});

afterAll(async () => {
  await exa.close();
  await rm(directory, { recursive: true, force: true });
});

it('exa-js imported after the replay started is served from the cassette, with no connection', async () => {
  const replay = await startReplay(file);
  try {
    const { Exa } = await import('exa-js');
    const result = await new Exa(exaKey, exa.baseURL).search('NVDA news', { numResults: 2 });
    expect(result).toEqual(recordedResults);
    expect(replay.unused).toBe(0);
  } finally {
    replay.stop();
  }
  expect(exa.connections).toBe(0);
});

it('a second session in the same process serves the already-imported exa-js from its cassette too', async () => {
  const replay = await startReplay(file);
  try {
    const { Exa } = await import('exa-js');
    const result = await new Exa(exaKey, exa.baseURL).search('NVDA news', { numResults: 2 });
    expect(result).toEqual(recordedResults);
    expect(replay.unused).toBe(0);
  } finally {
    replay.stop();
  }
  expect(exa.connections).toBe(0);
});
