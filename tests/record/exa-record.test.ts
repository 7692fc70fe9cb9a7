/**
 * Recording exa-js: imported for the first time while the recording is active (as
 * src/tools/exa-search.ts does on the first search), its calls land in the cassette
 * with the key scrubbed. exa-js must not be imported anywhere else in this file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecording } from '../../src/record/index.js';
import type { Cassette } from '../../src/record/index.js';
import { resultNamingTheQuery, startExaStub, type ExaStub } from '../support/exa-server.js';

const exaKey = '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';

let directory: string;
let exa: ExaStub;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-exa-record-'));
  exa = await startExaStub(resultNamingTheQuery);
});

afterAll(async () => {
  await exa.close();
  await rm(directory, { recursive: true, force: true });
});

it('records an exa-js search made after the recording started, without its key', async () => {
  const file = path.join(directory, 'exa.json');
  const recorder = await startRecording(
    { autohedgeVersion: '0.1.0', asOf: '2026-01-05T21:00:00.000Z', argv: ['analyze', 'NVDA'] },
    { secrets: [exaKey] },
  );
  const { Exa } = await import('exa-js');
  const result = await new Exa(exaKey, exa.baseURL).search('NVDA news', { numResults: 2 });
  await recorder.stop(file);
  expect(result.results[0]?.title).toBe('About NVDA news');

  const text = await readFile(file, 'utf8');
  expect(text).not.toContain(exaKey);
  const cassette = JSON.parse(text) as Cassette;
  expect(cassette.interactions).toHaveLength(1);
  expect(cassette.interactions[0]).toMatchObject({
    method: 'POST',
    url: `${exa.baseURL}/search`,
    requestHeaders: { 'content-type': 'application/json', 'x-api-key': 'REDACTED' },
    requestBody: { query: 'NVDA news', numResults: 2, contents: { text: { maxCharacters: 10000 } } },
    status: 200,
  });
  expect(JSON.parse(cassette.interactions[0]?.responseBody as string)).toEqual(result);
});
