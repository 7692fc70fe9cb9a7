/**
 * The analysis process's side of the benchmark: the real clients (openai, exa-js,
 * yahoo-finance2) pointed at loopback, with the latencies of the services that are
 * not the model's. Yahoo answers through an injected fetch from our own fixtures (the
 * same router the market tests use), each exchange after `yahooLatencyMs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOpenAIModel } from '../src/llm/openai-model.js';
import type { PacerRegistry } from '../src/llm/pacer.js';
import { createYahooMarketData } from '../src/market/sources/yahoo/index.js';
import type { MarketData } from '../src/market/types.js';
import type { AnalyzeDeps } from '../src/pipeline/analyze.js';
import { createExaProvider } from '../src/search/exa.js';
import type { SearchProvider } from '../src/search/types.js';
import { createYahooRouter, quoteSummaryFrom, type FixtureResponse } from '../testkit/yahoo.js';

export interface ServiceAddresses {
  openaiURL: string;
  exaURL: string;
  yahooLatencyMs: number;
  exaLatencyMs: number;
}

/**
 * One wait on Yahoo or Exa: the service's own time, i.e. the latency slept before the
 * (instant, local) answer. Loading an SDK and handling the answer are the client's
 * work, so they stay out of the physical limit.
 */
export interface ServiceWait {
  service: 'yahoo' | 'exa';
  startedAt: number;
  endedAt: number;
}

export function benchDeps(
  addresses: ServiceAddresses,
  repoRoot: string,
  onWait: (wait: ServiceWait) => void = () => {},
  pacers?: PacerRegistry,
): AnalyzeDeps {
  return {
    model: createOpenAIModel({
      baseURL: addresses.openaiURL,
      apiKey: 'sk-bench-not-a-key',
      ...(pacers ? { pacers } : {}),
    }),
    market: benchMarket(addresses.yahooLatencyMs, repoRoot, onWait),
    search: delayedSearch(
      createExaProvider({ apiKey: 'exa-bench-not-a-key', baseURL: addresses.exaURL }),
      addresses.exaLatencyMs,
      onWait,
    ),
  };
}

/** The ACME fixtures, renamed to whichever symbol is asked for. */
export function benchMarket(
  latencyMs: number,
  repoRoot: string,
  onWait: (wait: ServiceWait) => void = () => {},
): MarketData {
  const fixtures = path.join(repoRoot, 'tests', 'fixtures', 'market');
  const read = (name: string) => readFileSync(path.join(fixtures, name), 'utf8');
  const texts = {
    quote: read('quote-ACME.json'),
    quoteSummary: read('quoteSummary-ACME.json'),
    chart: read('chart-ACME.json'),
  };
  const as = (text: string, symbol: string): FixtureResponse => ({
    status: 200,
    statusText: 'OK',
    contentType: 'application/json;charset=utf-8',
    body: text.replaceAll('ACME', symbol),
  });
  const router = createYahooRouter({
    getCrumb: () => ({ status: 200, statusText: 'OK', contentType: 'text/plain;charset=utf-8', body: 'bench-crumb' }),
    quote: (symbols) => as(texts.quote, symbols),
    quoteSummary: (symbol, modules) => quoteSummaryFrom([as(texts.quoteSummary, symbol)], modules),
    chart: (symbol) => as(texts.chart, symbol),
  });
  return createYahooMarketData({
    fetch: async (input, init) => {
      const startedAt = Date.now();
      await sleep(latencyMs, undefined, init?.signal ? { signal: init.signal } : undefined);
      onWait({ service: 'yahoo', startedAt, endedAt: Date.now() });
      return router.fetch(input, init);
    },
    cacheDir: null,
    retryDelayMs: 0,
  });
}

/** The stub answers at once; the search service's own time is slept in front. */
function delayedSearch(
  provider: SearchProvider,
  latencyMs: number,
  onWait: (wait: ServiceWait) => void,
): SearchProvider {
  return {
    async search(request, signal) {
      const startedAt = Date.now();
      await sleep(latencyMs, undefined, { signal }).catch(() => undefined);
      onWait({ service: 'exa', startedAt, endedAt: Date.now() });
      return provider.search(request, signal);
    },
  };
}
