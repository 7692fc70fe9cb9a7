/**
 * A Yahoo-like cookie + crumb handshake on 127.0.0.1 for the cassette tests (the chat
 * stand-in is tests/support/openai-server.ts, Exa's tests/support/exa-server.ts).
 */
import { startServer, type LocalServer } from '../support/local-server.js';

/**
 * Yahoo's handshake: the quote page sets a session cookie, getcrumb needs the
 * cookie, and data URLs need both the cookie and `crumb=`. Anything else is 401,
 * so a replay that lost the cookie or the crumb fails loudly.
 */
export function startYahooServer(secrets: { cookie: string; crumb: string }): Promise<LocalServer> {
  return startServer((request, _text, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const hasCookie = (request.headers.cookie ?? '').includes(`A3=${secrets.cookie}`);
    if (url.pathname === '/quote/AAPL') {
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'set-cookie': [
          `A3=${secrets.cookie}; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly`,
          'A1S=first-party; Max-Age=31557600; Domain=.yahoo.com; Path=/',
        ],
      });
      response.end('<html><body>Apple Inc. (AAPL)</body></html>');
      return;
    }
    if (url.pathname === '/v1/test/getcrumb') {
      if (!hasCookie) {
        response.writeHead(401, { 'content-type': 'text/plain' });
        response.end('no cookie');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain;charset=utf-8' });
      response.end(secrets.crumb);
      return;
    }
    if (url.pathname === '/v7/finance/quote') {
      if (!hasCookie || url.searchParams.get('crumb') !== secrets.crumb) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"finance":{"result":null,"error":{"code":"Unauthorized","description":"Invalid Crumb"}}}');
        return;
      }
      const symbols = (url.searchParams.get('symbols') ?? '').split(',');
      response.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
      response.end(
        JSON.stringify({
          quoteResponse: {
            result: symbols.map((symbol) => ({
              language: 'en-US',
              region: 'US',
              quoteType: 'EQUITY',
              typeDisp: 'Equity',
              quoteSourceName: 'Nasdaq Real Time Price',
              triggerable: true,
              customPriceAlertConfidence: 'HIGH',
              currency: 'USD',
              exchange: 'NMS',
              shortName: `${symbol} Synthetic Inc.`,
              marketState: 'CLOSED',
              tradeable: false,
              cryptoTradeable: false,
              exchangeTimezoneName: 'America/New_York',
              exchangeTimezoneShortName: 'EST',
              gmtOffSetMilliseconds: -18_000_000,
              market: 'us_market',
              esgPopulated: false,
              hasPrePostMarketData: true,
              firstTradeDateMilliseconds: 345_479_400_000,
              priceHint: 2,
              regularMarketPrice: 187.5,
              regularMarketTime: 1_760_000_000,
              fullExchangeName: 'NasdaqGS',
              sourceInterval: 15,
              exchangeDataDelayedBy: 0,
              symbol,
            })),
            error: null,
          },
        }),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
}
