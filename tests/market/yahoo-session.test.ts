/**
 * The one Yahoo fake (tests/support/yahoo.ts) with a session is as strict as Yahoo about
 * the cookie and the crumb, over real loopback HTTP: a replay that lost either fails loudly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalServer } from '../support/local-server.js';
import { startYahooServer } from '../support/yahoo.js';

let server: LocalServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a strict Yahoo session on loopback', () => {
  it('hands out its cookie, then wants it for the crumb, and both for data', async () => {
    server = await startYahooServer({ cookie: 'sessionCookie42', crumb: 'Cr.umb9' });
    const page = await fetch(`${server.url}/quote/AAPL`, { redirect: 'manual' });
    await page.text();
    expect(page.headers.getSetCookie()[0]).toMatch(/^A3=sessionCookie42; /);
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');

    const noCookie = await fetch(`${server.url}/v1/test/getcrumb`);
    expect([noCookie.status, await noCookie.text()]).toEqual([401, 'no cookie']);
    const crumb = await fetch(`${server.url}/v1/test/getcrumb`, { headers: { cookie } });
    expect([crumb.status, await crumb.text()]).toEqual([200, 'Cr.umb9']);

    const noCrumb = await fetch(`${server.url}/v7/finance/quote?symbols=AAPL`, { headers: { cookie } });
    expect(noCrumb.status).toBe(401);
    expect(await noCrumb.json()).toEqual({
      finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } },
    });
    const quote = await fetch(`${server.url}/v7/finance/quote?symbols=AAPL,MSFT&crumb=Cr.umb9`, {
      headers: { cookie },
    });
    expect(quote.status).toBe(200);
    const body = (await quote.json()) as {
      quoteResponse: { result: Array<{ symbol: string; regularMarketPrice: number }> };
    };
    expect(body.quoteResponse.result.map((row) => [row.symbol, row.regularMarketPrice])).toEqual([
      ['AAPL', 187.5],
      ['MSFT', 187.5],
    ]);
    expect(server.requests).toEqual([
      'GET /quote/AAPL',
      'GET /v1/test/getcrumb',
      'GET /v1/test/getcrumb',
      'GET /v7/finance/quote?symbols=AAPL',
      'GET /v7/finance/quote?symbols=AAPL,MSFT&crumb=Cr.umb9',
    ]);
  });
});
