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
  /** P14: the model server applies OpenAI's caching rule, so the model is told its prefix starts with the tools. */
  cacheRule?: boolean;
  /** P14: a FUNDAMENTALS block of filed figures follows the market block (a stand-in until EDGAR's is in). */
  fundamentals?: boolean;
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
      ...(addresses.cacheRule ? { cacheCapabilities: { toolsInPrefix: true } } : {}),
    }),
    market: withFundamentals(benchMarket(addresses.yahooLatencyMs, repoRoot, onWait), addresses.fundamentals === true),
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

/**
 * P14's stand-in for the FUNDAMENTALS block as filed: eight quarters of a dozen line
 * items, different per ticker, about the size the issue "Fundamentals as filed" adds.
 */
function withFundamentals(market: MarketData, enabled: boolean): MarketData {
  if (!enabled) return market;
  return {
    async snapshot(symbol, options) {
      const snapshot = await market.snapshot(symbol, options);
      return { ...snapshot, text: `${snapshot.text}\n\n${fundamentalsBlock(symbol)}` };
    },
  };
}

function fundamentalsBlock(symbol: string): string {
  const seed = [...symbol].reduce((sum, character) => sum + character.charCodeAt(0), 0);
  const items = [
    'Revenue',
    'Cost of revenue',
    'Gross profit',
    'R&D',
    'SG&A',
    'Operating income',
    'Net income',
    'Diluted EPS',
    'Operating cash flow',
    'Capital expenditure',
    'Cash and equivalents',
    'Total debt',
  ];
  const quarters = ['2024-Q3', '2024-Q4', '2025-Q1', '2025-Q2', '2025-Q3', '2025-Q4', '2026-Q1', '2026-Q2'];
  const lines = items.map((item, row) => {
    const values = quarters.map(
      (quarter, column) => `${quarter} ${((seed * (row + 3) + column * 97) % 9000) / 10 + 100} M USD`,
    );
    return `${item} (10-Q as filed, accession 0000${seed}${row}): ${values.join('; ')}`;
  });
  return [
    `FUNDAMENTALS — ${symbol} (SEC EDGAR, as filed; USD; fiscal quarters)`,
    ...lines,
    'VALUATION — on the trailing four quarters as filed',
    `P/E ${(seed % 40) + 10}.0; EV/sales ${(seed % 12) + 2}.1; FCF yield ${(seed % 7) + 1}.2 %`,
  ].join('\n');
}
