import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
    response?: { status: number; statusText?: string; headers?: Record<string, string | string[]>; bodyJson?: unknown; bodyText?: string; body?: string };
  };
  const response = parsed.response;
  if (!response || typeof response.status !== 'number') return { status: 200, statusText: 'OK', contentType: 'application/json;charset=utf-8', body: text };
  const contentType = response.headers?.['content-type'];
  return {
    status: response.status,
    statusText: response.statusText ?? '',
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    body: response.bodyJson !== undefined ? JSON.stringify(response.bodyJson) : (response.bodyText ?? response.body ?? ''),
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

const cookiePageResponse: FixtureResponse = { status: 200, statusText: 'OK', contentType: 'text/html', body: '<!doctype html><title>AAPL</title>' };

function defaultCrumb(): FixtureResponse {
  if (hasRecordedYahoo) return recorded('v3-fetch-mock-cache/getCrumb-getcrumb.json');
  return { status: 200, statusText: 'OK', contentType: 'text/plain;charset=utf-8', body: 'fixture-crumb' };
}

async function answer(value: Answer, request: Request, setCookie = false): Promise<Response> {
  if (value instanceof Error) throw value;
  if (typeof value === 'function') return value(request);
  const headers = new Headers();
  if (value.contentType) headers.set('content-type', value.contentType);
  if (setCookie) headers.append('set-cookie', 'A3=fixture-session; Max-Age=31557600; Domain=.yahoo.com; Path=/; Secure; HttpOnly');
  return new Response(value.body, { status: value.status, statusText: value.statusText ?? '', headers });
}

export interface YahooRouter {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  requests: SeenRequest[];
  /** Requests other than the session handshake. */
  dataRequests(): SeenRequest[];
}

export function createYahooRouter(routes: RouterRoutes): YahooRouter {
  const requests: SeenRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers = new Headers(init?.headers);
    requests.push({ url: url.href, method: request.method, cookie: headers.get('cookie'), redirect: init?.redirect ?? null });
    if (url.hostname === 'finance.yahoo.com') return answer(routes.cookiePage?.() ?? cookiePageResponse, request, true);
    if (url.pathname === '/v1/test/getcrumb') return answer(routes.getCrumb?.() ?? defaultCrumb(), request);
    const quoteSummary = url.pathname.match(/^\/v10\/finance\/quoteSummary\/([^/]+)$/);
    if (quoteSummary && routes.quoteSummary) {
      return answer(routes.quoteSummary(decodeURIComponent(quoteSummary[1]!), (url.searchParams.get('modules') ?? '').split(',')), request);
    }
    const chart = url.pathname.match(/^\/v8\/finance\/chart\/([^/]+)$/);
    if (chart && routes.chart) return answer(routes.chart(decodeURIComponent(chart[1]!), url.searchParams), request);
    if (url.pathname === '/v7/finance/quote' && routes.quote) return answer(routes.quote(url.searchParams.get('symbols') ?? ''), request);
    return answer(json({ finance: { result: null, error: { code: 'Not Found', description: `no fixture for ${url.pathname}` } } }, 404, 'Not Found'), request);
  };
  return {
    fetch,
    requests,
    dataRequests: () => requests.filter((request) => !request.url.startsWith('https://finance.yahoo.com/') && !request.url.includes('/v1/test/getcrumb')),
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
      { quoteSummary: { result: null, error: { code: 'Not Found', description: `No fundamentals data found for any of the summaryTypes=${modules.join(',')}` } } },
      404,
      'Not Found',
    );
  }
  return json({ quoteSummary: { result: [picked], error: null } });
}

/** The crumb the fixtures' handshake hands out. */
export const fixtureCrumb: FixtureResponse = { status: 200, statusText: 'OK', contentType: 'text/plain;charset=utf-8', body: 'fixture-crumb' };

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
