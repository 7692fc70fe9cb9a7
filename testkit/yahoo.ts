import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type LocalServer } from './local-server.js';

/**
 * An injected fetch that answers yahoo-finance2 the way Yahoo does, from bodies on
 * disk: recorded traffic in ../shared/fixtures/recorded/yahoo, or our own fixtures in
 * tests/fixtures/market. Requests are routed by URL path (the crumb in the query is
 * whatever the handshake produced) and every request is kept for assertions.
 *
 * The session handshake: yahoo-finance2 3.14 first GETs finance.yahoo.com/quote/AAPL
 * (redirect: manual) for a cookie, then query1…/v1/test/getcrumb for the crumb it adds
 * to quote and quoteSummary. The recordings have the getcrumb exchange but not the
 * first page (its cookies were session secrets), so that one answer is synthetic: a
 * 200 with one Set-Cookie, which is all the library reads from it.
 *
 * With a `session` the router is as strict as Yahoo: the page sets that cookie, getcrumb
 * needs it, and data URLs need both it and `crumb=` — anything else is a 401, so a replay
 * that lost the cookie or the crumb fails loudly. serveYahoo() puts a router on real HTTP
 * on 127.0.0.1, for the cassette tests.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const recordedYahooDir = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'recorded', 'yahoo');
export const ownFixturesDir = path.resolve(repoRoot, 'tests', 'fixtures', 'market');
export const hasRecordedYahoo = existsSync(recordedYahooDir);

export interface FixtureResponse {
  status: number;
  statusText?: string;
  contentType?: string;
  body: string;
}

export interface SeenRequest {
  url: string;
  method: string;
  cookie: string | null;
  redirect: string | null;
}

export type Answer = FixtureResponse | Error | ((request: Request) => Promise<Response>);

export interface RouterRoutes {
  /** v7 quote; receives the `symbols` parameter. */
  quote?: (symbols: string) => Answer;
  /** v10 quoteSummary; receives the symbol and requested modules. */
  quoteSummary?: (symbol: string, modules: string[]) => Answer;
  /** v8 chart; receives the symbol and the query. */
  chart?: (symbol: string, query: URLSearchParams) => Answer;
  /** The crumb handshake; defaults to a cookie page and the recorded (or a fixed) crumb. */
  cookiePage?: () => Answer;
  getCrumb?: () => Answer;
}

export function json(body: unknown, status = 200, statusText = 'OK'): FixtureResponse {
  return { status, statusText, contentType: 'application/json;charset=utf-8', body: JSON.stringify(body) };
}

/**
 * A recorded exchange: a yahoo-finance2 v3 fetch-mock-cache file (`response.bodyJson` or
 * `bodyText`), a v2 fetchDevel file (`bodyJson` or `body`), or a bare body (yfinance-rs).
 */
export function loadFixture(file: string): FixtureResponse {
  const text = readFileSync(file, 'utf8');
  const parsed = JSON.parse(text) as {
    response?: {
      status: number;
      statusText?: string;
      headers?: Record<string, string | string[]>;
      bodyJson?: unknown;
      bodyText?: string;
      body?: string;
    };
  };
  const response = parsed.response;
  if (!response || typeof response.status !== 'number')
    return { status: 200, statusText: 'OK', contentType: 'application/json;charset=utf-8', body: text };
  const contentType = response.headers?.['content-type'];
  return {
    status: response.status,
    statusText: response.statusText ?? '',
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    body:
      response.bodyJson !== undefined ? JSON.stringify(response.bodyJson) : (response.bodyText ?? response.body ?? ''),
  };
}

export function recorded(relativePath: string): FixtureResponse {
  return loadFixture(path.join(recordedYahooDir, relativePath));
}

export function own(relativePath: string): FixtureResponse {
  return loadFixture(path.join(ownFixturesDir, relativePath));
}

/** The raw body of a recorded or own fixture, parsed. */
export function bodyOf(response: FixtureResponse): unknown {
  return JSON.parse(response.body);
}

const cookiePageResponse: FixtureResponse = {
  status: 200,
  statusText: 'OK',
  contentType: 'text/html',
  body: '<!doctype html><title>AAPL</title>',
};

function defaultCrumb(): FixtureResponse {
  if (hasRecordedYahoo) return recorded('v3-fetch-mock-cache/getCrumb-getcrumb.json');
  return { status: 200, statusText: 'OK', contentType: 'text/plain;charset=utf-8', body: 'fixture-crumb' };
}

/** The session a strict router hands out and then demands. */
export interface YahooSession {
  cookie: string;
  crumb: string;
}

const fixtureSetCookies = ['A3=fixture-session; Max-Age=31557600; Domain=.yahoo.com; Path=/; Secure; HttpOnly'];

function sessionSetCookies(session: YahooSession): string[] {
  return [
    `A3=${session.cookie}; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly`,
    'A1S=first-party; Max-Age=31557600; Domain=.yahoo.com; Path=/',
  ];
}

async function answer(value: Answer, request: Request, setCookies: readonly string[] = []): Promise<Response> {
  if (value instanceof Error) throw value;
  if (typeof value === 'function') return value(request);
  const headers = new Headers();
  if (value.contentType) headers.set('content-type', value.contentType);
  for (const cookie of setCookies) headers.append('set-cookie', cookie);
  return new Response(value.body, { status: value.status, statusText: value.statusText ?? '', headers });
}

const invalidCrumb = json(
  { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } },
  401,
  'Unauthorized',
);

/** What a strict session refuses: getcrumb without the cookie, data without cookie and crumb. */
function refusal(session: YahooSession | undefined, url: URL, cookie: string | null): FixtureResponse | null {
  if (!session) return null;
  const hasCookie = (cookie ?? '').includes(`A3=${session.cookie}`);
  if (url.pathname === '/v1/test/getcrumb')
    return hasCookie ? null : { status: 401, statusText: 'Unauthorized', contentType: 'text/plain', body: 'no cookie' };
  return hasCookie && url.searchParams.get('crumb') === session.crumb ? null : invalidCrumb;
}

function isCookiePage(url: URL): boolean {
  return url.hostname === 'finance.yahoo.com' || url.pathname.startsWith('/quote/');
}

export interface YahooRouter {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  requests: SeenRequest[];
  /** Requests other than the session handshake. */
  dataRequests(): SeenRequest[];
}

export function createYahooRouter(routes: RouterRoutes, options: { session?: YahooSession } = {}): YahooRouter {
  const requests: SeenRequest[] = [];
  const { session } = options;
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const cookie = request.headers.get('cookie');
    requests.push({ url: url.href, method: request.method, cookie, redirect: init?.redirect ?? null });
    if (isCookiePage(url))
      return answer(
        routes.cookiePage?.() ?? cookiePageResponse,
        request,
        session ? sessionSetCookies(session) : fixtureSetCookies,
      );
    const refused = refusal(session, url, cookie);
    if (refused) return answer(refused, request);
    if (url.pathname === '/v1/test/getcrumb')
      return answer(routes.getCrumb?.() ?? (session ? crumbBody(session.crumb) : defaultCrumb()), request);
    const quoteSummary = url.pathname.match(/^\/v10\/finance\/quoteSummary\/([^/]+)$/);
    if (quoteSummary && routes.quoteSummary) {
      return answer(
        routes.quoteSummary(decodeURIComponent(quoteSummary[1]!), (url.searchParams.get('modules') ?? '').split(',')),
        request,
      );
    }
    const chart = url.pathname.match(/^\/v8\/finance\/chart\/([^/]+)$/);
    if (chart && routes.chart) return answer(routes.chart(decodeURIComponent(chart[1]!), url.searchParams), request);
    if (url.pathname === '/v7/finance/quote' && routes.quote)
      return answer(routes.quote(url.searchParams.get('symbols') ?? ''), request);
    return answer(
      json(
        { finance: { result: null, error: { code: 'Not Found', description: `no fixture for ${url.pathname}` } } },
        404,
        'Not Found',
      ),
      request,
    );
  };
  return {
    fetch,
    requests,
    dataRequests: () =>
      requests.filter(
        (request) =>
          !request.url.startsWith('https://finance.yahoo.com/') && !request.url.includes('/v1/test/getcrumb'),
      ),
  };
}

/**
 * A quoteSummary body holding only the requested modules, picked from one or more
 * recorded quoteSummary bodies — Yahoo answers a multi-module request with whichever
 * of the modules it has.
 */
export function quoteSummaryFrom(sources: FixtureResponse[], modules: string[]): FixtureResponse {
  const available: Record<string, unknown> = {};
  for (const source of sources) {
    const body = bodyOf(source) as { quoteSummary?: { result?: Array<Record<string, unknown>> } };
    Object.assign(available, body.quoteSummary?.result?.[0] ?? {});
  }
  const picked = Object.fromEntries(modules.filter((name) => name in available).map((name) => [name, available[name]]));
  if (Object.keys(picked).length === 0) {
    return json(
      {
        quoteSummary: {
          result: null,
          error: {
            code: 'Not Found',
            description: `No fundamentals data found for any of the summaryTypes=${modules.join(',')}`,
          },
        },
      },
      404,
      'Not Found',
    );
  }
  return json({ quoteSummary: { result: [picked], error: null } });
}

function crumbBody(crumb: string): FixtureResponse {
  return { status: 200, statusText: 'OK', contentType: 'text/plain;charset=utf-8', body: crumb };
}

/** The crumb the fixtures' handshake hands out. */
export const fixtureCrumb: FixtureResponse = crumbBody('fixture-crumb');

/** Yahoo answering for the fictional ACME from the project's own fixtures; override any route. */
export function acmeRoutes(overrides: Partial<RouterRoutes> = {}): RouterRoutes {
  return {
    getCrumb: () => fixtureCrumb,
    quote: () => own('quote-ACME.json'),
    quoteSummary: (_symbol, modules) => quoteSummaryFrom([own('quoteSummary-ACME.json')], modules),
    chart: () => own('chart-ACME.json'),
    ...overrides,
  };
}

/** A v7 quote body for any symbols: a synthetic equity at 187.50 USD each. */
export function syntheticQuotes(symbols: string): FixtureResponse {
  const result = symbols.split(',').map((symbol) => ({
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
  }));
  return json({ quoteResponse: { result, error: null } });
}

/** A router on real HTTP on 127.0.0.1: the URL stands in for every Yahoo host. */
export function serveYahoo(router: YahooRouter): Promise<LocalServer> {
  let origin = '';
  const started = startServer(async (request, body, response) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === 'string') headers.set(name, value);
    const answered = await router.fetch(`${origin}${request.url ?? '/'}`, {
      method: request.method,
      headers,
      ...(body ? { body } : {}),
    });
    const outgoing: Record<string, string | string[]> = {};
    answered.headers.forEach((value, name) => {
      if (name !== 'set-cookie') outgoing[name] = value;
    });
    const cookies = answered.headers.getSetCookie();
    if (cookies.length > 0) outgoing['set-cookie'] = cookies;
    response.writeHead(answered.status, answered.statusText, outgoing);
    response.end(await answered.text());
  });
  return started.then((server) => {
    origin = server.url;
    return server;
  });
}

/** The cassette tests' Yahoo: a strict session with these secrets and synthetic quotes, over HTTP. */
export function startYahooServer(session: YahooSession): Promise<LocalServer> {
  return serveYahoo(createYahooRouter({ quote: syntheticQuotes }, { session }));
}
