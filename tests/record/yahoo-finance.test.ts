/**
 * The real yahoo-finance2 SDK through a recording and a replay. Its hosts are fixed
 * (finance.yahoo.com, query1/query2.finance.yahoo.com), so the fetch it is given
 * rewrites them to the local Yahoo stub; everything else — the cookie jar, the
 * getcrumb call, crumb= on the data URL — is the SDK's own.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YahooFinance from 'yahoo-finance2';
import { ExtendedCookieJar } from 'yahoo-finance2/lib/cookieJar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReplay, startRecording } from '../../src/record/index.js';
import type { Cassette } from '../../src/record/index.js';
import type { LocalServer } from '../support/local-server.js';
import { startYahooServer } from '../support/yahoo.js';

const quietLogger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {}, dir: () => {} };

/** Its own cookie jar: the default one is shared by every client in the process and would skip the handshake. */
function yahooClient(fetch: typeof globalThis.fetch) {
  return new YahooFinance({
    fetch,
    cookieJar: new ExtendedCookieJar(),
    logger: quietLogger,
    suppressNotices: ['yahooSurvey', 'ripHistorical'],
  });
}

/** Late-bound like src/market's fetch, so the interceptor sees every call. */
function rewritingFetch(server: LocalServer): typeof globalThis.fetch {
  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input)
      .replace(/^https:\/\/(?:finance|query1|query2)\.yahoo\.com/, server.url)
      .replace(/^https:\/\/(?:query1|query2)\.finance\.yahoo\.com/, server.url);
    return globalThis.fetch(url, init);
  };
}

let directory: string;
let yahoo: LocalServer;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-yahoo-'));
  yahoo = await startYahooServer({ cookie: 'yahooSessionCookie123', crumb: 'Qz8crumb.Yx' });
});

afterEach(async () => {
  await yahoo.close().catch(() => undefined);
  await rm(directory, { recursive: true, force: true });
});

it('yahoo-finance2 completes its cookie and crumb handshake from a scrubbed cassette', async () => {
  const file = path.join(directory, 'yahoo.json');
  const recorder = await startRecording({
    autohedgeVersion: '0.1.0',
    asOf: '2026-01-05T21:00:00.000Z',
    argv: ['market', 'AAPL'],
  });
  const live = await yahooClient(rewritingFetch(yahoo)).quote('AAPL');
  await recorder.stop(file);
  await yahoo.close();
  expect(live).toMatchObject({ symbol: 'AAPL', regularMarketPrice: 187.5, currency: 'USD' });
  expect(yahoo.requests.map((request) => request.replace(/crumb=[^&]+/, 'crumb=…'))).toEqual([
    'GET /quote/AAPL',
    'GET /v1/test/getcrumb',
    expect.stringMatching(/^GET \/v7\/finance\/quote\?.*crumb=…/),
  ]);

  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('yahooSessionCookie123');
  expect(text).not.toContain('Qz8crumb.Yx');
  const cassette = JSON.parse(text) as Cassette;
  expect(cassette.interactions[2]?.url).toMatch(/[?&]crumb=REDACTED(&|$)/);

  const replay = await startReplay(file);
  try {
    // A fresh client, a fresh cookie jar: the handshake runs again, against the cassette.
    const replayed = await yahooClient(rewritingFetch(yahoo)).quote('AAPL');
    expect(replayed).toEqual(live);
    expect(replay.unmatched).toEqual([]);
    expect(replay.unused).toBe(0);
  } finally {
    replay.stop();
  }
});

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const recorded = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'yahoo', 'v3-fetch-mock-cache');
const haveRecorded = existsSync(recorded);
if (!haveRecorded) console.info(`skipping recorded-Yahoo conformance: ${recorded} is absent`);

type FetchMockCacheFile = {
  request: { url: string; method: string };
  response: {
    status: number;
    statusText: string;
    headers: Record<string, string | string[]>;
    bodyJson?: unknown;
    bodyText?: string;
  };
};

describe.skipIf(!haveRecorded)('conformance: real recorded Yahoo responses (../shared/fixtures/recorded)', () => {
  it('yahoo-finance2 replays a real getcrumb + quote exchange at the real hosts', async () => {
    const load = async (name: string) =>
      JSON.parse(await readFile(path.join(recorded, name), 'utf8')) as FetchMockCacheFile;
    const toInteraction = (entry: FetchMockCacheFile) => ({
      method: entry.request.method,
      url: entry.request.url,
      status: entry.response.status,
      statusText: entry.response.statusText,
      responseHeaders: entry.response.headers,
      responseBody: entry.response.bodyText ?? JSON.stringify(entry.response.bodyJson),
    });
    const getcrumb = await load('getCrumb-getcrumb.json');
    const quote = await load('quote-AAPL.json');
    const cassette = {
      format: 'autohedge-cassette',
      version: 1,
      autohedgeVersion: '0.1.0',
      asOf: '2025-02-17T10:54:49.000Z',
      argv: ['market', 'AAPL'],
      recordedAt: '2025-02-17T10:54:49.000Z',
      interactions: [
        // The fixtures hold no quote-page response (it only sets the cookie), so that one is written here.
        {
          method: 'GET',
          url: 'https://finance.yahoo.com/quote/AAPL',
          status: 200,
          responseHeaders: {
            'content-type': 'text/html',
            'set-cookie': ['A3=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly'],
          },
          responseBody: '<html></html>',
        },
        toInteraction(getcrumb),
        toInteraction(quote),
      ],
    };
    const file = path.join(directory, 'recorded-yahoo.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify(cassette));

    const replay = await startReplay(file);
    try {
      const result = await yahooClient((input, init) => globalThis.fetch(input, init)).quote(
        'AAPL',
        {},
        { validateResult: false },
      );
      expect(result).toMatchObject({ symbol: 'AAPL', quoteType: 'EQUITY', currency: 'USD' });
      expect(replay.unmatched).toEqual([]);
    } finally {
      replay.stop();
    }
  });
});
