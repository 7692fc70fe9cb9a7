// Fault matrix, Yahoo: the real yahoo-finance2 client (createYahooMarketData) over an
// injected fetch that plays Yahoo from our own fixtures, the run driven through the
// CLI with the real chat client. A symbol that is not one ends the run before any
// model call; Yahoo out of reach leaves the desks working without numbers, and says so.
import { expect } from 'vitest';
import { createYahooMarketData } from '../../src/market/sources/yahoo/index.js';
import type { FaultContext, FaultScenario } from '../support/faults.js';
import { allOk, byAgent, faultMatrix, requestsOf } from '../support/faults.js';
import { acmeRoutes, bodyOf, createYahooRouter, json, own, type RouterRoutes } from '../support/yahoo.js';

/** The fixtures' own day: their last bar is 2025-10-10. */
const now = () => new Date('2025-10-10T21:00:00Z');
const search = { search: async () => [] };
/** The fixture chart has one session without a price. */
const fixtureGap = 'market data: 1 session(s) without a price were skipped';

/** The model and Yahoo for one row; the router is returned for assertions on what was asked. */
async function yahooRun(context: FaultContext, routes: RouterRoutes, argv?: string[]) {
  const server = await context.openai(byAgent());
  const router = createYahooRouter(routes);
  const market = createYahooMarketData({
    fetch: router.fetch,
    cacheDir: null,
    retries: 1,
    retryDelayMs: 0,
    timeoutMs: 500,
  });
  return {
    arranged: { ...(argv ? { argv } : {}), deps: { model: context.model(server), market, search, now } },
    router,
    server,
  };
}

const unreachable = (reason: string) => ({
  exitCode: 3,
  result: {
    status: 'degraded' as const,
    error: null,
    decision: true,
    reports: allOk,
    warnings: [`market data missing: could not reach Yahoo Finance (${reason})`],
  },
  stderrLines: [`[ACME] warning: market data missing: could not reach Yahoo Finance (${reason})`],
});

/** With no numbers, every prompt says so instead of leaving room for guesses. */
function verifyNoNumbers(
  outcome: { result: { market: unknown } | null },
  { servers }: { servers: Array<{ requests: Array<{ body: any }> }> },
) {
  expect(outcome.result?.market).toBeNull();
  for (const request of servers[0]!.requests) {
    const prompt = request.body.messages.map((message: { content: string }) => message.content).join('\n');
    expect(prompt).toContain(
      'Market data is not available for this run — do not estimate any price, level or statistic.',
    );
  }
}

const scenarios: FaultScenario[] = [
  {
    name: 'a malformed symbol: exit 2 before any request to Yahoo or the model',
    async arrange(context) {
      const { arranged, router, server } = await yahooRun(context, acmeRoutes(), ['analyze', 'AC/ME', '--json']);
      context.defer(() => expect([router.requests.length, server.requests.length]).toEqual([0, 0]));
      return arranged;
    },
    expect: {
      exitCode: 2,
      result: null,
      stderr:
        "autohedge: invalid ticker 'AC/ME': expected 1–15 characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)",
    },
  },
  {
    name: 'an unknown symbol (empty quote, 404 "No data found" chart): exit 2, one line, no model call',
    async arrange(context) {
      const { arranged, server } = await yahooRun(
        context,
        acmeRoutes({
          quote: () => json({ quoteResponse: { result: [], error: null } }),
          quoteSummary: () =>
            json(
              {
                quoteSummary: {
                  result: null,
                  error: { code: 'Not Found', description: 'Quote not found for symbol: NOPE' },
                },
              },
              404,
              'Not Found',
            ),
          chart: () =>
            json(
              {
                chart: {
                  result: null,
                  error: { code: 'Not Found', description: 'No data found, symbol may be delisted' },
                },
              },
              404,
              'Not Found',
            ),
        }),
        ['analyze', 'NOPE', '--json'],
      );
      context.defer(() => expect(server.requests).toEqual([]));
      return arranged;
    },
    expect: { exitCode: 2, result: null, stderr: "autohedge: unknown ticker 'NOPE'" },
  },
  {
    name: 'Yahoo answers 404 pages (not its JSON error): degraded, exit 3, the desks told there are no numbers',
    async arrange(context) {
      const notFound = {
        status: 404,
        statusText: 'Not Found',
        contentType: 'text/html',
        body: '<html>Not Found</html>',
      };
      return (
        await yahooRun(
          context,
          acmeRoutes({ quote: () => notFound, quoteSummary: () => notFound, chart: () => notFound }),
        )
      ).arranged;
    },
    expect: unreachable('HTTP 404 Not Found'),
    verify: verifyNoNumbers,
  },
  {
    name: 'network down (every request refused): retried, then degraded, exit 3',
    async arrange(context) {
      const refused = () =>
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      return (
        await yahooRun(context, {
          cookiePage: refused,
          getCrumb: refused,
          quote: refused,
          quoteSummary: refused,
          chart: refused,
        })
      ).arranged;
    },
    expect: unreachable('connection refused'),
    verify: verifyNoNumbers,
  },
  {
    name: 'Yahoo 503 on every attempt: degraded, exit 3',
    async arrange(context) {
      const busy = {
        status: 503,
        statusText: 'Service Unavailable',
        contentType: 'text/html',
        body: '<html>busy</html>',
      };
      const { arranged, router } = await yahooRun(
        context,
        acmeRoutes({ quote: () => busy, quoteSummary: () => busy, chart: () => busy }),
      );
      context.defer(() =>
        expect(router.dataRequests().filter((request) => request.url.includes('/v8/finance/chart/ACME'))).toHaveLength(
          2,
        ),
      );
      return arranged;
    },
    expect: unreachable('HTTP 503 Service Unavailable'),
    verify: verifyNoNumbers,
  },
  {
    name: "a quote that fails yahoo-finance2's validation: its raw values used, a warning says so, exit 0",
    async arrange(context) {
      const body = bodyOf(own('quote-ACME.json')) as { quoteResponse: { result: Array<Record<string, unknown>> } };
      delete body.quoteResponse.result[0]!.language;
      delete body.quoteResponse.result[0]!.exchangeTimezoneName;
      return (await yahooRun(context, acmeRoutes({ quote: () => json(body) }))).arranged;
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: [
          "market data: Yahoo's quote response did not match the expected schema; its raw values were used",
          fixtureGap,
        ],
      },
    },
    verify(outcome) {
      expect(outcome.result?.market?.quote.price).toBe(106.25);
    },
  },
  {
    name: 'a year of bars with gaps: the empty sessions skipped and counted, the indicators from the rest, exit 0',
    async arrange(context) {
      type Series = Record<string, Array<number | null>>;
      const body = bodyOf(own('chart-ACME.json')) as {
        chart: { result: Array<{ indicators: { quote: Series[]; adjclose: Series[] } }> };
      };
      const { quote, adjclose } = body.chart.result[0]!.indicators;
      // Blank five more sessions in the middle of the year, every series, as Yahoo does for a halt.
      for (const index of [40, 41, 42, 120, 200]) {
        for (const field of ['open', 'high', 'low', 'close', 'volume']) quote[0]![field]![index] = null;
        adjclose[0]!.adjclose![index] = null;
      }
      return (await yahooRun(context, acmeRoutes({ chart: () => json(body) }))).arranged;
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: ['market data: 6 session(s) without a price were skipped'],
      },
    },
    verify(outcome, { servers }) {
      const market = outcome.result?.market;
      expect(market?.indicators.lastClose).toBe(106.25);
      expect(market?.indicators.sma200).not.toBeNull();
      expect(market?.bars.filter((bar) => bar.close === null)).toHaveLength(6);
      // What the desks were told carries the same note (the shared block opens the request).
      const messages = requestsOf(servers[0] as never, 'quant')[0]?.body.messages as Array<{ content: unknown }>;
      expect(messages.map((message) => JSON.stringify(message.content)).join('\n')).toContain(
        '6 session(s) without a price were skipped',
      );
    },
  },
];

faultMatrix('fault matrix: Yahoo', scenarios);
