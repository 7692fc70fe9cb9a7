import { isoDay } from '../../../clock.js';
import { DataError, InterruptedError } from '../../../errors.js';
import { optionalCache } from '../../cache.js';
import {
  createResilientFetch,
  defaultRetries,
  defaultRetryDelayMs,
  defaultTimeoutMs,
  type FetchFunction,
} from '../../http.js';
import { createMarketData } from '../../service.js';
import { barsInMajorUnits, minorUnitOf } from '../../currency.js';
import type { BarsRequest, DailyBars, MarketLogger, MarketSource, QuoteRequest } from '../../source.js';
import type { MarketData } from '../../types.js';
import type { SplitEvent } from '../../fundamentals-types.js';
import {
  call,
  classifyYahooError,
  findCassetteError,
  loadClient,
  yahooChartSymbolOf,
  yahooLabel,
  yahooShortLabel,
  type YahooClient,
  type YahooFinanceLike,
} from './client.js';
import { fetchSnapshot, snapshotRequestOf, type SnapshotRequest } from './snapshot.js';
import { barsFromChart, parseChart } from './normalize.js';

export { yahooChartSymbolOf } from './client.js';

/**
 * Yahoo Finance as a market source: fetch and parse only. yahoo-finance2 is loaded
 * lazily (client.ts, its only importer) so `autohedge --help` never loads it.
 *
 * One snapshot = three requests in parallel (snapshot.ts): quote (needs Yahoo's
 * cookie + crumb session, which the library negotiates first), quoteSummary (same
 * session) and one year of daily bars from chart (no session). The library itself sits
 * behind yahoo-client.ts.
 *
 * Sessions: yahoo-finance2 memoises the crumb (and a pending or failed handshake) in
 * module state shared by every client in the process, and never forgets a failure. Each
 * MarketData keeps its cookies and crumb in its own jar, clears that memo when it starts
 * a snapshot with none of its own in flight (the library then re-reads the crumb from
 * our jar, or negotiates anew), and forgets its session after a failed one. Snapshots
 * of one MarketData may run concurrently; two MarketData instances fetching at the
 * same instant could still cross sessions, so use one per process.
 */

export interface YahooSourceOptions {
  /** Defaults to a late-bound globalThis.fetch, so an interceptor installed later sees every call. */
  fetch?: FetchFunction;
  logger?: MarketLogger;
  retries?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
}

export interface YahooMarketDataOptions extends YahooSourceOptions {
  /** `$AUTOHEDGE_HOME/cache`; null or absent disables the disk cache. */
  cacheDir?: string | null;
  /** How long an entry for the current day stays fresh. */
  ttlMs?: number;
  /** Wall clock for cache freshness only; the data's time always comes from asOf. */
  now?: () => Date;
}

const silentLogger: MarketLogger = { debug: () => {}, warn: () => {} };

/** Yahoo's JSON error envelope ({"chart":{"error":{"code":"Not Found",…}}}): the library reads it. */
function isYahooErrorEnvelope(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null) return false;
    const keys = Object.keys(parsed);
    if (keys.length !== 1) return false;
    const error = (parsed as Record<string, { error?: { code?: unknown } } | null>)[keys[0]!]?.error;
    return typeof error?.code === 'string';
  } catch {
    return false;
  }
}

/** Data URLs (chart, quote, quoteSummary) answer JSON; the consent and quote pages of the handshake are HTML. */
const dataPathPattern = /\/v\d+\/finance\//;

export function createYahooSource(options: YahooSourceOptions = {}): MarketSource {
  const logger = options.logger ?? silentLogger;
  const baseFetch: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetch = createResilientFetch({
    fetch: baseFetch,
    retries: options.retries ?? defaultRetries,
    retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    debug: (message) => logger.debug(message),
    label: yahooLabel,
    isErrorEnvelope: isYahooErrorEnvelope,
    expectsData: (url) => dataPathPattern.test(new URL(url).pathname),
  });
  let client: Promise<YahooClient> | null = null;
  const getClient = () => {
    client ??= loadClient(fetch, logger).catch((error: unknown) => {
      client = null;
      throw error;
    });
    return client;
  };
  const fetchOnce = sharedSession(getClient);
  return {
    vendor: 'yahoo',
    label: yahooLabel,
    shortLabel: yahooShortLabel,
    quote: (request: QuoteRequest) => fetchOnce(snapshotRequestOf(request)),
    async bars(request: BarsRequest): Promise<DailyBars> {
      const { yahooFinance } = await getClient();
      return fetchBars(yahooFinance, request);
    },
    // The share-basis seam of the fundamentals (fundamentals-attach.ts): split events through today.
    async splits(request: BarsRequest): Promise<SplitEvent[]> {
      const { yahooFinance } = await getClient();
      return fetchSplits(yahooFinance, request);
    },
    symbolOfUrl: yahooChartSymbolOf,
    // EURUSD=X: one euro in dollars.
    fxSymbol: (from, to) => `${from}${to}=X`,
  };
}

/** The market data of Yahoo alone, with the disk cache: what tests and the doctor use. */
export function createYahooMarketData(options: YahooMarketDataOptions = {}): MarketData {
  const logger = options.logger ?? silentLogger;
  return createMarketData({
    sources: [createYahooSource(options)],
    cache: optionalCache({ dir: options.cacheDir, ttlMs: options.ttlMs, now: options.now, logger }),
    logger,
  });
}

/**
 * Snapshots of one MarketData share its session: the library's process-wide crumb memo
 * is cleared when the first of them starts (none of ours in flight), never under one
 * that is still fetching.
 */
function sharedSession(getClient: () => Promise<YahooClient>) {
  /** Snapshots of this instance currently fetching. */
  let inFlight = 0;
  return async (request: SnapshotRequest) => {
    const client = await getClient();
    if (inFlight === 0) await client.forgetSharedCrumb();
    inFlight += 1;
    try {
      return await fetchSnapshot(client, request);
    } catch (error) {
      if (request.signal?.aborted) throw new InterruptedError();
      throw error;
    } finally {
      inFlight -= 1;
    }
  };
}

/**
 * One chart request for a span of days (the chart needs no session). period2 is the
 * day after `to`, so its session is included; bars after `to` are dropped.
 */
async function fetchBars(
  yahooFinance: YahooFinanceLike,
  { ticker: symbol, from, to, signal }: BarsRequest,
): Promise<DailyBars> {
  const moduleOptions = signal ? { fetchOptions: { signal } } : {};
  const query = {
    period1: new Date(`${from}T00:00:00Z`),
    period2: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
    interval: '1d' as const,
    return: 'object' as const,
  };
  let value: unknown;
  try {
    value = (await call('chart', () => yahooFinance.chart(symbol, query, moduleOptions))).value;
  } catch (error) {
    if (signal?.aborted) throw new InterruptedError();
    const cassette = findCassetteError(error);
    if (cassette) throw cassette;
    const failure = classifyYahooError(error);
    if (failure.kind === 'unknown-ticker')
      throw new DataError(`unknown ticker '${symbol}'`, 'unknown-ticker', { cause: error });
    if (failure.kind === 'unreachable')
      throw new DataError(`could not reach Yahoo Finance (${failure.reason})`, 'unreachable', { cause: error });
    throw new DataError(`unexpected response from Yahoo Finance for '${symbol}' (${failure.reason})`, 'invalid', {
      cause: error,
    });
  }
  const chart = parseChart(value);
  if (chart === null)
    throw new DataError(`unexpected response from Yahoo Finance for '${symbol}' (chart is not an object)`, 'invalid');
  const bars = barsFromChart(chart, to).filter((bar) => bar.date >= from);
  const conversion = minorUnitOf(chart.meta.currency);
  if (!conversion) return { bars, currency: chart.meta.currency };
  return { bars: barsInMajorUnits(bars, conversion.factor), currency: conversion.currency, conversion };
}

/** The registry's name for this vendor's factory (src/market/sources/index.ts). */
export const createSource = createYahooSource;

/** One daily chart over the range, for its split events (the library asks for them by default). */
async function fetchSplits(
  yahooFinance: YahooFinanceLike,
  { ticker, from, to, signal }: BarsRequest,
): Promise<SplitEvent[]> {
  const moduleOptions = signal ? { fetchOptions: { signal } } : {};
  const query = {
    period1: new Date(`${from}T00:00:00Z`),
    period2: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
    interval: '1d' as const,
    return: 'object' as const,
  };
  const { value } = await call('chart', () => yahooFinance.chart(ticker, query, moduleOptions));
  return splitEventsOf(value);
}

/**
 * `events.splits` of a chart (the library's object, or the raw body's result): the session
 * day and numerator ÷ denominator. Its `date` is the session's opening instant, a Date from
 * the library or epoch seconds in a raw body.
 */
export function splitEventsOf(chart: unknown): SplitEvent[] {
  const splits = (chart as { events?: { splits?: Record<string, unknown> } } | null)?.events?.splits;
  if (!splits || typeof splits !== 'object') return [];
  return Object.values(splits).flatMap((entry) => {
    const { date, numerator, denominator } = entry as { date?: unknown; numerator?: unknown; denominator?: unknown };
    const instant = date instanceof Date ? date.getTime() : typeof date === 'number' ? date * 1000 : Number.NaN;
    if (!Number.isFinite(instant) || typeof numerator !== 'number' || typeof denominator !== 'number') return [];
    if (!(numerator > 0 && denominator > 0)) return [];
    return [{ date: isoDay(new Date(instant)), ratio: numerator / denominator }];
  });
}
