import { isoDay } from '../clock.js';
import { DataError, InterruptedError } from '../errors.js';
import { createSnapshotCache, defaultCacheTtlMs, type SnapshotCache } from './cache.js';
import {
  createResilientFetch,
  defaultRetries,
  defaultRetryDelayMs,
  defaultTimeoutMs,
  type FetchFunction,
} from './http.js';
import { barsFromChart, parseChart } from './normalize.js';
import { renderSnapshotText } from './snapshot-text.js';
import { validateTicker } from './ticker.js';
import type { SplitEvent } from './fundamentals-types.js';
import type { Bar, BarsOptions, MarketData, MarketSnapshot, SnapshotOptions } from './types.js';
import {
  call,
  classifyYahooError,
  findCassetteError,
  loadClient,
  type MarketLogger,
  type YahooClient,
  type YahooFinanceLike,
} from './yahoo-client.js';
import { fetchSnapshot } from './yahoo-snapshot.js';

export { yahooChartSymbolOf, type MarketLogger } from './yahoo-client.js';

/**
 * The only module that touches yahoo-finance2, imported lazily so `autohedge --help`
 * never loads it.
 *
 * One snapshot = three requests in parallel (yahoo-snapshot.ts): quote (needs Yahoo's
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

export interface YahooMarketDataOptions {
  /** Defaults to a late-bound globalThis.fetch, so an interceptor installed later sees every call. */
  fetch?: FetchFunction;
  /** `$AUTOHEDGE_HOME/cache`; null or absent disables the disk cache. */
  cacheDir?: string | null;
  /** How long an entry for the current day stays fresh. */
  ttlMs?: number;
  logger?: MarketLogger;
  /** Wall clock for cache freshness only; the data's time always comes from asOf. */
  now?: () => Date;
  retries?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
}

const silentLogger: MarketLogger = { debug: () => {}, warn: () => {} };

export function createYahooMarketData(options: YahooMarketDataOptions = {}): MarketData {
  const logger = options.logger ?? silentLogger;
  const baseFetch: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetch = createResilientFetch({
    fetch: baseFetch,
    retries: options.retries ?? defaultRetries,
    retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    debug: (message) => logger.debug(message),
  });
  const cache: SnapshotCache | null = options.cacheDir
    ? createSnapshotCache({
        dir: options.cacheDir,
        ttlMs: options.ttlMs ?? defaultCacheTtlMs,
        now: options.now,
        logger,
      })
    : null;
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
    async snapshot(ticker: string, snapshotOptions: SnapshotOptions): Promise<MarketSnapshot> {
      const symbol = validateTicker(ticker);
      const { asOf, signal, refresh } = snapshotOptions;
      const historical = snapshotOptions.historical === true;
      const kind = historical ? 'historical' : 'live';
      if (signal?.aborted) throw new InterruptedError();
      const cached = cache && !refresh ? await cache.read(symbol, asOf, kind) : null;
      if (cache && cached) {
        logger.debug(`market cache: ${symbol} ${isoDay(asOf)} served from ${cache.pathFor(symbol, asOf, kind)}`);
        const data = { ...cached, asOf: asOf.toISOString(), source: 'cache' };
        return { ...data, text: renderSnapshotText(data) };
      }
      const fetched = await fetchOnce({ symbol, asOf, signal, historical });
      if (cache && fetched.complete) await cache.write(fetched.snapshot, asOf, kind);
      else if (cache)
        logger.debug(`market cache: ${symbol} ${isoDay(asOf)} not cached (part of Yahoo's answer was unreachable)`);
      return fetched.snapshot;
    },

    async bars(ticker: string, barsOptions: BarsOptions): Promise<Bar[]> {
      const symbol = validateTicker(ticker);
      const { yahooFinance } = await getClient();
      return fetchBars(yahooFinance, symbol, barsOptions);
    },

    // The share-basis seam of the fundamentals (fundamentals-attach.ts): split events through today.
    async splits(ticker: string, range: BarsOptions): Promise<SplitEvent[]> {
      const symbol = validateTicker(ticker);
      const { yahooFinance } = await getClient();
      return fetchSplits(yahooFinance, symbol, range);
    },
  };
}

/** One daily chart over the range, for its split events (the library asks for them by default). */
async function fetchSplits(
  yahooFinance: YahooFinanceLike,
  symbol: string,
  { from, to, signal }: BarsOptions,
): Promise<SplitEvent[]> {
  const moduleOptions = signal ? { fetchOptions: { signal } } : {};
  const query = {
    period1: new Date(`${from}T00:00:00Z`),
    period2: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
    interval: '1d' as const,
    return: 'object' as const,
  };
  const { value } = await call('chart', () => yahooFinance.chart(symbol, query, moduleOptions));
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

/**
 * Snapshots of one MarketData share its session: the library's process-wide crumb memo
 * is cleared when the first of them starts (none of ours in flight), never under one
 * that is still fetching.
 */
function sharedSession(getClient: () => Promise<YahooClient>) {
  /** Snapshots of this instance currently fetching. */
  let inFlight = 0;
  return async (request: Parameters<typeof fetchSnapshot>[1]) => {
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
  symbol: string,
  { from, to, signal }: BarsOptions,
): Promise<Bar[]> {
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
  return barsFromChart(chart, to).filter((bar) => bar.date >= from);
}
