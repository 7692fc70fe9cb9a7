import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSnapshotCache } from '../../src/market/index.js';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import { acmeRoutes, createYahooRouter, own, quoteSummaryFrom } from '../support/yahoo.js';

/**
 * The disk cache, through the real client: what is fetched and what is served. The
 * wall clock is injected (`now`); the data's time is the run's asOf.
 */

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'autohedge-market-cache-'));
});
afterEach(async () => {
  await rm(cacheDir, { recursive: true, force: true });
});

function setup(clock: { now: Date }, directory = () => cacheDir) {
  const router = createYahooRouter({
    getCrumb: () => ({ status: 200, statusText: 'OK', contentType: 'text/plain', body: 'fixture-crumb' }),
    quote: () => own('quote-ACME.json'),
    quoteSummary: (_symbol, modules) => quoteSummaryFrom([own('quoteSummary-ACME.json')], modules),
    chart: () => own('chart-ACME.json'),
  });
  const warnings: string[] = [];
  const market = createYahooMarketData({
    fetch: router.fetch,
    cacheDir: directory(),
    now: () => clock.now,
    logger: { debug: () => {}, warn: (message) => warnings.push(message) },
  });
  const charts = () => router.requests.filter((request) => request.url.includes('/v8/finance/chart/')).length;
  return { market, router, warnings, charts };
}

const minutes = (count: number) => count * 60_000;
const asOf = new Date('2025-10-10T21:00:00Z');
const entryPath = () => path.join(cacheDir, 'market', 'ACME', '2025-10-10.json');

describe('market-data cache', () => {
  it('serves the same day again from disk within the TTL, as source "cache"', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    const { market, charts } = setup(clock);
    const fetched = await market.snapshot('ACME', { asOf });
    expect(charts()).toBe(1);
    expect(JSON.parse(await readFile(entryPath(), 'utf8'))).toMatchObject({
      version: 2,
      savedAt: '2025-10-10T21:00:00.000Z',
      snapshot: { symbol: 'ACME', vendors: { bars: { vendor: 'yahoo', cached: false } } },
    });

    clock.now = new Date(clock.now.getTime() + minutes(14));
    const later = new Date(asOf.getTime() + minutes(14));
    const cached = await market.snapshot('ACME', { asOf: later });
    expect(charts()).toBe(1);
    expect(cached.source).toBe('cache');
    expect(cached.asOf).toBe(later.toISOString());
    // the record says every part came from the cache, and who first answered it
    expect(cached.vendors).toMatchObject({
      bars: { vendor: 'yahoo', cached: true },
      quote: { vendor: 'yahoo', cached: true },
    });
    expect(fetched.vendors?.bars.cached).toBe(false);
    expect({ ...cached, source: 'yahoo', asOf: fetched.asOf, vendors: fetched.vendors }).toEqual(fetched);
  });

  it('refetches the current day once the TTL has passed', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    const { market, charts } = setup(clock);
    await market.snapshot('ACME', { asOf });
    clock.now = new Date(clock.now.getTime() + minutes(16));
    const again = await market.snapshot('ACME', { asOf });
    expect(charts()).toBe(2);
    expect(again.source).toBe('yahoo');
  });

  it('never expires a past day that was cached after it ended', async () => {
    const clock = { now: new Date('2025-10-13T09:00:00Z') };
    const { market, charts } = setup(clock);
    await market.snapshot('ACME', { asOf });
    clock.now = new Date('2026-01-01T00:00:00Z');
    const cached = await market.snapshot('ACME', { asOf });
    expect(charts()).toBe(1);
    expect(cached.source).toBe('cache');
  });

  it('refreshes, once, a past day that was cached while it was still trading', async () => {
    const clock = { now: new Date('2025-10-10T15:00:00Z') };
    const { market, charts } = setup(clock);
    await market.snapshot('ACME', { asOf: new Date('2025-10-10T15:00:00Z') });
    clock.now = new Date('2025-10-11T10:00:00Z');
    await market.snapshot('ACME', { asOf: new Date('2025-10-10T15:00:00Z') });
    clock.now = new Date('2025-10-20T10:00:00Z');
    await market.snapshot('ACME', { asOf: new Date('2025-10-10T15:00:00Z') });
    expect(charts()).toBe(2);
  });

  it('--refresh bypasses a fresh entry and rewrites it', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    const { market, charts } = setup(clock);
    await market.snapshot('ACME', { asOf });
    clock.now = new Date(clock.now.getTime() + minutes(1));
    const refreshed = await market.snapshot('ACME', { asOf, refresh: true });
    expect(charts()).toBe(2);
    expect(refreshed.source).toBe('yahoo');
    expect(JSON.parse(await readFile(entryPath(), 'utf8')).savedAt).toBe('2025-10-10T21:01:00.000Z');
  });

  it('keys entries by symbol and day', async () => {
    const clock = { now: new Date('2025-10-13T09:00:00Z') };
    const { market, charts } = setup(clock);
    await market.snapshot('ACME', { asOf });
    await market.snapshot('ACME', { asOf: new Date('2025-10-09T21:00:00Z') });
    expect(charts()).toBe(2);
    const cache = createSnapshotCache({ dir: cacheDir, now: () => clock.now });
    expect(await cache.read('OTHER', asOf)).toBeNull();
    expect(cache.pathFor('^GSPC', asOf)).toBe(path.join(cacheDir, 'market', '%5EGSPC', '2025-10-10.json'));
  });

  it('ignores a corrupt entry without failing, then rewrites it', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    await mkdir(path.dirname(entryPath()), { recursive: true });
    await writeFile(
      entryPath(),
      '{"version":1,"savedAt":"2025-10-10T21:00:00.000Z","snapshot":{"symbol":"ACME"',
      'utf8',
    );
    const { market, charts, warnings } = setup(clock);
    const snapshot = await market.snapshot('ACME', { asOf });
    expect(snapshot.source).toBe('yahoo');
    expect(charts()).toBe(1);
    expect(warnings).toEqual([]);
    expect(JSON.parse(await readFile(entryPath(), 'utf8')).snapshot.symbol).toBe('ACME');

    // a well-formed file of the wrong shape is just as ignored
    await writeFile(
      entryPath(),
      JSON.stringify({ version: 1, savedAt: '2025-10-10T21:00:00.000Z', snapshot: { symbol: 'ACME', bars: 'none' } }),
      'utf8',
    );
    await market.snapshot('ACME', { asOf });
    expect(charts()).toBe(2);
  });

  it('does not cache a snapshot degraded by an unreachable part: the next one, within the TTL, is fetched afresh', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    let summaryDown = true;
    const router = createYahooRouter(
      acmeRoutes({
        quoteSummary: (_symbol, modules) =>
          summaryDown
            ? { status: 503, statusText: 'Service Unavailable', body: 'busy' }
            : quoteSummaryFrom([own('quoteSummary-ACME.json')], modules),
      }),
    );
    const market = createYahooMarketData({ fetch: router.fetch, cacheDir, now: () => clock.now, retryDelayMs: 0 });
    const degraded = await market.snapshot('ACME', { asOf });
    expect(degraded.warnings).toContain(
      'key statistics and company profile unavailable (HTTP 503 Service Unavailable)',
    );
    expect(existsSync(entryPath())).toBe(false);

    summaryDown = false;
    clock.now = new Date(clock.now.getTime() + minutes(1));
    const healthy = await market.snapshot('ACME', { asOf });
    expect(healthy.source).toBe('yahoo');
    expect(healthy.quote.beta).toBe(1.15);
    expect(healthy.warnings).not.toContain(
      'key statistics and company profile unavailable (HTTP 503 Service Unavailable)',
    );
    expect(JSON.parse(await readFile(entryPath(), 'utf8')).savedAt).toBe('2025-10-10T21:01:00.000Z');

    clock.now = new Date(clock.now.getTime() + minutes(1));
    expect((await market.snapshot('ACME', { asOf })).source).toBe('cache');
  });

  it('an unwritable cache directory is a warning, not a failure', async () => {
    const clock = { now: new Date('2025-10-10T21:00:00Z') };
    // a regular file where the directory should be: mkdir fails even for root
    const blocked = path.join(cacheDir, 'not-a-directory');
    await writeFile(blocked, 'x', 'utf8');
    const { market, warnings } = setup(clock, () => path.join(blocked, 'cache'));
    const snapshot = await market.snapshot('ACME', { asOf });
    expect(snapshot.source).toBe('yahoo');
    expect(warnings).toEqual([
      `could not write the market-data cache in ${path.join(blocked, 'cache', 'market')} (ENOTDIR); continuing without it`,
    ]);
  });
});
