/**
 * Tiny "live services" on 127.0.0.1 for the cassette tests: an OpenAI-compatible
 * chat endpoint that really streams SSE and a Yahoo-like cookie + crumb handshake
 * (Exa's stand-in is tests/support/exa-server.ts). Each counts TCP connections, so a test can prove that replay
 * never touched it.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LocalServer = {
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Requests served so far, as `METHOD /path?query`. */
  readonly requests: readonly string[];
  close(): Promise<void>;
};

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<LocalServer> {
  let connections = 0;
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push(`${request.method} ${request.url}`);
      Promise.resolve(handler(request, Buffer.concat(chunks).toString('utf8'), response)).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get requests() {
      return [...requests];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

type ChatBody = { model: string; stream?: boolean; messages: Array<{ role: string; content: string }> };

/** The reply echoes the last message, so each request has its own recognisable answer. */
export function replyFor(body: ChatBody): string {
  return `echo: ${body.messages.at(-1)?.content ?? ''}`;
}

/**
 * POST /v1/chat/completions. Streams real SSE (three chunks, with pauses between them)
 * when `stream` is true, else answers pretty-printed JSON, as OpenAI does.
 * `delayFor` lets a test make some answers slower than others.
 */
export function startChatServer(options: { delayFor?: (body: ChatBody) => number } = {}): Promise<LocalServer> {
  let served = 0;
  return startServer(async (request, text, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"not found"}}');
      return;
    }
    served += 1;
    const body = JSON.parse(text) as ChatBody;
    await pause(options.delayFor?.(body) ?? 0);
    const id = `chatcmpl-${served}`;
    const reply = replyFor(body);
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': `req_${served}`, 'openai-organization': 'org-canaryorganisation' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_760_000_000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.write(chunk({ role: 'assistant', content: '' }, null));
      await pause(20);
      response.write(chunk({ content: reply.slice(0, 5) }, null));
      await pause(20);
      response.write(chunk({ content: reply.slice(5) }, 'stop'));
      response.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_760_000_000, model: body.model, choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`,
      );
      response.end('data: [DONE]\n\n');
      return;
    }
    const completion = {
      id,
      object: 'chat.completion',
      created: 1_760_000_000,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    };
    response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${served}` });
    response.end(JSON.stringify(completion, null, 2));
  });
}

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
