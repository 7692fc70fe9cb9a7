import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CassetteError, ExitCode } from '../../src/errors.js';
import { startReplay } from '../../src/record/index.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'record');
const fixture = (name: string) => path.join(fixtures, name);

async function replayFailure(file: string): Promise<CassetteError> {
  const original = globalThis.fetch;
  const error = await startReplay(file).then(
    (replay) => {
      replay.stop();
      throw new Error(`expected '${file}' to be refused`);
    },
    (thrown: unknown) => thrown,
  );
  // A refused cassette must not leave fetch patched.
  expect(globalThis.fetch).toBe(original);
  expect(error).toBeInstanceOf(CassetteError);
  expect((error as CassetteError).exitCode).toBe(ExitCode.usage);
  return error as CassetteError;
}

describe('cassettes that cannot be replayed are usage errors naming the path', () => {
  it('a missing file', async () => {
    const file = fixture('no-such-cassette.json');
    expect((await replayFailure(file)).message).toBe(`cannot replay '${file}': file not found`);
  });

  it('a truncated file', async () => {
    const file = fixture('truncated.json');
    expect((await replayFailure(file)).message).toBe(`cannot replay '${file}': not valid JSON (truncated or corrupt?)`);
  });

  it('a JSON file that is not a cassette', async () => {
    const file = fixture('foreign.json');
    expect((await replayFailure(file)).message).toBe(`cannot replay '${file}': not an autohedge cassette`);
  });

  it('a directory', async () => {
    expect((await replayFailure(fixtures)).message).toBe(
      `cannot replay '${fixtures}': is a directory, not a cassette file`,
    );
  });

  it('a cassette from a newer autohedge', async () => {
    const file = fixture('future-version.json');
    expect((await replayFailure(file)).message).toBe(
      `cannot replay '${file}': unsupported cassette version 99 (this autohedge reads versions 1 and 2)`,
    );
  });

  it('a cassette with an impossible interaction', async () => {
    const file = fixture('bad-status.json');
    expect((await replayFailure(file)).message).toBe(
      `cannot replay '${file}': invalid cassette (interactions[0].status: Too small: expected number to be >=200)`,
    );
  });
});

describe('a hand-written cassette', () => {
  it('exposes its meta and serves JSON-valued bodies, text bodies and redirects', async () => {
    const file = fixture('hand-written.json');
    const replay = await startReplay(file);
    try {
      expect(replay.meta).toEqual({
        format: 'autohedge-cassette',
        version: 1,
        autohedgeVersion: '0.1.0',
        asOf: '2026-01-05T21:00:00.000Z',
        argv: ['analyze', 'DEMO', '--demo'],
        recordedAt: '2026-01-06T09:30:00.000Z',
        demo: true,
        note: 'Hand-written: a JSON-valued body, a text body, and a redirect.',
      });
      expect(replay.path).toBe(file);

      const search = await fetch('https://api.exa.ai/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'a-real-key-would-be-here' },
        body: JSON.stringify({ numResults: 2, query: 'DEMO news' }),
      });
      expect(search.headers.get('content-type')).toBe('application/json');
      expect(await search.json()).toEqual({
        requestId: 'demo-1',
        results: [{ url: 'https://example.com/demo', title: 'Demo news' }],
      });

      const page = await fetch('https://finance.yahoo.com/quote/DEMO', { redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('https://finance.yahoo.com/quote/DEMO/');
      expect(page.headers.getSetCookie()).toEqual(['A3=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/']);

      const crumb = await fetch('https://query1.finance.yahoo.com/v1/test/getcrumb');
      expect([crumb.status, crumb.statusText, await crumb.text()]).toEqual([200, 'OK', 'REDACTED']);
      expect(replay.unused).toBe(0);
    } finally {
      replay.stop();
    }
  });
});
