import { inspect } from 'node:util';
import { daysBefore, isoDay } from '../clock.js';
import { CassetteError, DataError, findCause, InterruptedError } from '../errors.js';
import { scrubCrumbs } from '../scrub.js';
import { createSnapshotCache, defaultCacheTtlMs, type SnapshotCache } from './cache.js';
import {
  createResilientFetch,
  defaultRetries,
  defaultRetryDelayMs,
  defaultTimeoutMs,
  type FetchFunction,
  YahooUnreachableError,
} from './http.js';
import { computeIndicators } from './indicators.js';
import {
  barsFromChart,
  identityFrom,
  parseChart,
  parseQuote,
  parseSummary,
  quoteStatsFrom,
  type RawSummary,
} from './normalize.js';
import { historicalNotes, pointInTimeQuote } from './historical.js';
import { historyWindow, renderSnapshotText } from './snapshot-text.js';
import { validateTicker } from './ticker.js';
import type { Bar, BarsOptions, MarketData, MarketSnapshot, SnapshotOptions } from './types.js';

/**
 * The only module that touches yahoo-finance2, imported lazily so `autohedge --help`
 * never loads it.
 *
 * One snapshot = three requests in parallel: quote (needs Yahoo's cookie + crumb
 * session, which the library negotiates first), quoteSummary (same session) and one
 * year of daily bars from chart (no session). The chart is essential; the quote and
 * the fundamentals degrade to "not available" with a data note.
 *
 * Sessions: yahoo-finance2 memoises the crumb (and a pending or failed handshake) in
 * module state shared by every client in the process, and never forgets a failure. Each
 * MarketData keeps its cookies and crumb in its own jar, clears that memo when it starts
 * a snapshot with none of its own in flight (the library then re-reads the crumb from
 * our jar, or negotiates anew), and forgets its session after a failed one. Snapshots
 * of one MarketData may run concurrently; two MarketData instances fetching at the
 * same instant could still cross sessions, so use one per process.
 */

export interface MarketLogger {
  /** Library chatter and retries: shown only when the user asks for verbose output. */
  debug(message: string): void;
  /** Something the user should know that is not part of the data (e.g. the cache is unwritable). */
  warn(message: string): void;
}

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

export const quoteSummaryModules = [
  'price',
  'summaryDetail',
  'defaultKeyStatistics',
  'financialData',
  'assetProfile',
] as const;
type SummaryModule = (typeof quoteSummaryModules)[number];

/** Days of bars requested beyond one year, so a bar 252 sessions back exists after holidays. */
const historyMarginDays = 7;

const silentLogger: MarketLogger = { debug: () => {}, warn: () => {} };

interface YahooFinanceLike {
  quote(symbol: string, query?: object, moduleOptions?: object): Promise<unknown>;
  quoteSummary(symbol: string, query: { modules: SummaryModule[] }, moduleOptions?: object): Promise<unknown>;
  chart(
    symbol: string,
    query: { period1: Date; period2: Date; interval: '1d'; return: 'object' },
    moduleOptions?: object,
  ): Promise<unknown>;
}

interface YahooClient {
  yahooFinance: YahooFinanceLike;
  /** Forget our session (cookies and crumb), e.g. after a failed handshake. */
  resetSession(): Promise<void>;
  /** Clear the library's process-wide crumb memo, keeping our jar. */
  forgetSharedCrumb(): Promise<void>;
}

/** Yahoo's own notices and the "requires Node 22" warning are noise, not news. */
const droppedLogLines = [/Unsupported environment/i, /can suppress this message/i, /yahoo-finance-api-feedback/i];

function yahooLogger(logger: MarketLogger) {
  const route = (...values: unknown[]) => {
    const line = values
      .map((value) => (typeof value === 'string' ? value : inspect(value, { depth: 2, breakLength: Infinity })))
      .join(' ');
    if (droppedLogLines.some((pattern) => pattern.test(line))) return;
    logger.debug(`yahoo-finance2: ${scrubCrumbs(line)}`);
  };
  return { info: route, warn: route, error: route, debug: route, dir: route };
}

async function loadClient(fetch: FetchFunction, logger: MarketLogger): Promise<YahooClient> {
  const [{ default: YahooFinance }, { ExtendedCookieJar }, { getCrumbClear }] = await Promise.all([
    import('yahoo-finance2'),
    import('yahoo-finance2/lib/cookieJar'),
    import('yahoo-finance2/lib/getCrumb'),
  ]);
  // Our own jar: the library's default one is shared by every client in the process.
  const cookieJar = new ExtendedCookieJar();
  const yahooFinance = new YahooFinance({
    fetch: fetch as typeof globalThis.fetch,
    cookieJar,
    logger: yahooLogger(logger),
    suppressNotices: ['yahooSurvey', 'ripHistorical'],
    validation: { logErrors: false, logOptionsErrors: false },
    versionCheck: false,
  });
  return {
    yahooFinance: yahooFinance as unknown as YahooFinanceLike,
    resetSession: () => getCrumbClear(cookieJar),
    // getCrumbClear also empties the jar it is given: give it a throwaway one.
    forgetSharedCrumb: () => getCrumbClear(new ExtendedCookieJar()),
  };
}

type Failure =
  | { kind: 'unknown-ticker'; reason: string }
  | { kind: 'unreachable'; reason: string }
  /** Yahoo has no such data for this symbol (e.g. no fundamentals for an ETF). */
  | { kind: 'missing'; reason: string }
  | { kind: 'invalid'; reason: string };

function firstLine(message: string): string {
  const line = message.split('\n')[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

export function classifyYahooError(error: unknown): Failure {
  if (error instanceof YahooUnreachableError) return { kind: 'unreachable', reason: error.reason };
  const message = error instanceof Error ? error.message : String(error);
  if (/Quote not found|No data found|symbol may be delisted/i.test(message))
    return { kind: 'unknown-ticker', reason: firstLine(message) };
  if (/No fundamentals data found/i.test(message)) return { kind: 'missing', reason: firstLine(message) };
  // The cookie/crumb handshake failing means we have no session: Yahoo is out of reach for us.
  if (/crumb|set-cookie|cookie|Unauthorized/i.test(message))
    return { kind: 'unreachable', reason: `no Yahoo session: ${firstLine(scrubCrumbs(message))}` };
  return { kind: 'invalid', reason: firstLine(scrubCrumbs(message)) };
}

interface Outcome<T> {
  value: T;
  warning: string | null;
}

/**
 * Run one library call. When yahoo-finance2's schema validation rejects Yahoo's
 * answer, its error still carries the raw result: use it, and say so.
 */
async function call<T>(name: string, run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await run(), warning: null };
  } catch (error) {
    if (
      error instanceof Error &&
      error.name === 'FailedYahooValidationError' &&
      'result' in error &&
      error.result !== undefined
    ) {
      return {
        value: (error as { result: T }).result,
        warning: `Yahoo's ${name} response did not match the expected schema; its raw values were used`,
      };
    }
    throw error;
  }
}

/**
 * quote(symbol) answers one quote, or undefined for an unknown symbol; but the raw
 * result of a failed validation is the library's whole result list.
 */
function quoteFor(symbol: string, value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? undefined;
  const matching = value.find(
    (item: unknown) => typeof item === 'object' && item !== null && (item as { symbol?: unknown }).symbol === symbol,
  );
  return matching ?? value[0];
}

function settledError(result: PromiseSettledResult<unknown>): unknown {
  return result.status === 'rejected' ? result.reason : null;
}

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
  /** Snapshots of this instance currently fetching (they share one session). */
  let inFlight = 0;
  const getClient = () => {
    client ??= loadClient(fetch, logger).catch((error: unknown) => {
      client = null;
      throw error;
    });
    return client;
  };

  /**
   * `complete` is false when a part could not be had because Yahoo was out of reach: such
   * a snapshot is served once but never cached, so the next run asks again.
   */
  async function fetchSnapshot(
    symbol: string,
    asOf: Date,
    signal: AbortSignal | undefined,
    historical: boolean,
  ): Promise<{ snapshot: MarketSnapshot; complete: boolean }> {
    const { yahooFinance, resetSession } = await getClient();
    const moduleOptions = signal ? { fetchOptions: { signal } } : {};
    const warnings: string[] = [];

    const summaryFor = (modules: SummaryModule[]) =>
      call('quoteSummary', () => yahooFinance.quoteSummary(symbol, { modules }, moduleOptions));
    const [quoteResult, summaryResult, chartResult] = await Promise.allSettled([
      call('quote', () => yahooFinance.quote(symbol, {}, moduleOptions)),
      summaryFor([...quoteSummaryModules]),
      call('chart', () =>
        yahooFinance.chart(
          symbol,
          { period1: daysBefore(asOf, 365 + historyMarginDays), period2: asOf, interval: '1d', return: 'object' },
          moduleOptions,
        ),
      ),
    ]);
    if (signal?.aborted) throw new InterruptedError();
    // A cassette that has no answer for a request is the caller's problem to report as such,
    // not "Yahoo unreachable".
    const cassetteProblem = [quoteResult, summaryResult, chartResult].find(
      (settled): settled is PromiseRejectedResult =>
        settled.status === 'rejected' && findCassetteError(settled.reason) !== undefined,
    );
    if (cassetteProblem) throw findCassetteError(cassetteProblem.reason);

    const quoteFailure = quoteResult.status === 'rejected' ? classifyYahooError(quoteResult.reason) : null;
    const summaryFailure = summaryResult.status === 'rejected' ? classifyYahooError(summaryResult.reason) : null;
    const chartFailure = chartResult.status === 'rejected' ? classifyYahooError(chartResult.reason) : null;
    if (
      [quoteFailure, summaryFailure].some(
        (failure) => failure && failure.kind !== 'missing' && failure.kind !== 'unknown-ticker',
      )
    ) {
      // The library remembers a failed handshake for the life of the process; start over next time.
      await resetSession().catch(() => undefined);
    }

    const quoteMissing = quoteResult.status === 'fulfilled' && quoteFor(symbol, quoteResult.value.value) === undefined;
    if (quoteMissing || quoteFailure?.kind === 'unknown-ticker' || chartFailure?.kind === 'unknown-ticker') {
      throw new DataError(`unknown ticker '${symbol}'`, 'unknown-ticker', {
        cause: settledError(chartResult) ?? settledError(quoteResult) ?? undefined,
      });
    }
    if (chartResult.status === 'rejected') {
      if (chartFailure!.kind === 'unreachable')
        throw new DataError(`could not reach Yahoo Finance (${chartFailure!.reason})`, 'unreachable', {
          cause: chartResult.reason,
        });
      throw new DataError(
        `unexpected response from Yahoo Finance for '${symbol}' (${chartFailure!.reason})`,
        'invalid',
        { cause: chartResult.reason },
      );
    }

    const chart = parseChart(chartResult.value.value);
    if (chart === null)
      throw new DataError(`unexpected response from Yahoo Finance for '${symbol}' (chart is not an object)`, 'invalid');
    if (chartResult.value.warning) warnings.push(chartResult.value.warning);

    let quote = null;
    if (quoteResult.status === 'fulfilled') {
      quote = parseQuote(quoteFor(symbol, quoteResult.value.value));
      if (quoteResult.value.warning) warnings.push(quoteResult.value.warning);
      if (quote === null) warnings.push("Yahoo's quote was unusable; price and identity come from the chart");
    } else {
      warnings.push(`quote unavailable (${quoteFailure!.reason}); price and identity come from the chart`);
    }

    let summary: RawSummary | null = null;
    let summaryUnreachable = summaryFailure?.kind === 'unreachable';
    if (summaryResult.status === 'fulfilled') {
      summary = parseSummary(summaryResult.value.value);
      if (summaryResult.value.warning) warnings.push(summaryResult.value.warning);
    } else if (summaryFailure!.kind !== 'unreachable') {
      // One missing module (assetProfile for an ETF) can fail the combined request; ask module by module.
      const byModule = await summaryModuleByModule(summaryFor, warnings, summaryFailure!);
      summary = byModule.summary;
      summaryUnreachable = byModule.unreachable;
    } else {
      warnings.push(`key statistics and company profile unavailable (${summaryFailure!.reason})`);
    }
    if (summary !== null) {
      const absent = quoteSummaryModules.filter((name) => !summary?.[name]);
      if (absent.length > 0 && absent.length < quoteSummaryModules.length)
        warnings.push(missingModulesNote(absent, symbol, quote?.regularMarketPrice));
      if (absent.length === quoteSummaryModules.length)
        warnings.push(`Yahoo returned no key statistics or company profile for ${symbol}`);
    }

    const bars = barsFromChart(chart, isoDay(asOf));
    const indicators = computeIndicators(bars);
    const sources = { quote, summary, meta: chart.meta };
    const identity = identityFrom(symbol, sources);
    const stats = historical ? pointInTimeQuote(bars, asOf) : quoteStatsFrom(sources);
    warnings.push(...historyNotes(bars, asOf));
    warnings.push(
      ...(historical ? historicalNotes(bars, asOf) : quoteTimingNotes(stats.priceTime, indicators.asOfBar, asOf)),
    );

    const data = {
      symbol,
      asOf: asOf.toISOString(),
      identity,
      quote: stats,
      bars,
      indicators,
      warnings,
      source: 'yahoo',
    };
    return {
      snapshot: {
        symbol,
        asOf: data.asOf,
        identity,
        quote: stats,
        bars,
        indicators,
        text: renderSnapshotText(data),
        warnings,
        source: 'yahoo',
      },
      complete: quoteFailure?.kind !== 'unreachable' && !summaryUnreachable,
    };
  }

  return {
    async snapshot(ticker: string, snapshotOptions: SnapshotOptions): Promise<MarketSnapshot> {
      const symbol = validateTicker(ticker);
      const { asOf, signal, refresh } = snapshotOptions;
      const historical = snapshotOptions.historical === true;
      const kind = historical ? 'historical' : 'live';
      if (signal?.aborted) throw new InterruptedError();
      if (cache && !refresh) {
        const cached = await cache.read(symbol, asOf, kind);
        if (cached) {
          logger.debug(`market cache: ${symbol} ${isoDay(asOf)} served from ${cache.pathFor(symbol, asOf, kind)}`);
          const data = { ...cached, asOf: asOf.toISOString(), source: 'cache' };
          return { ...data, text: renderSnapshotText(data) };
        }
      }
      let fetched: { snapshot: MarketSnapshot; complete: boolean };
      const { forgetSharedCrumb } = await getClient();
      if (inFlight === 0) await forgetSharedCrumb();
      inFlight += 1;
      try {
        fetched = await fetchSnapshot(symbol, asOf, signal, historical);
      } catch (error) {
        if (signal?.aborted) throw new InterruptedError();
        throw error;
      } finally {
        inFlight -= 1;
      }
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

async function summaryModuleByModule(
  summaryFor: (modules: SummaryModule[]) => Promise<Outcome<unknown>>,
  warnings: string[],
  combinedFailure: Failure,
): Promise<{ summary: RawSummary | null; unreachable: boolean }> {
  const results = await Promise.allSettled(quoteSummaryModules.map((name) => summaryFor([name])));
  const merged: Record<string, unknown> = {};
  let unreachable = false;
  results.forEach((result, index) => {
    const name = quoteSummaryModules[index]!;
    if (result.status === 'fulfilled') {
      if (result.value.warning) warnings.push(result.value.warning);
      const body = result.value.value as Record<string, unknown> | null;
      if (body && typeof body === 'object' && body[name] !== undefined) merged[name] = body[name];
    } else if (classifyYahooError(result.reason).kind === 'unreachable') {
      unreachable = true;
    }
  });
  if (Object.keys(merged).length === 0) {
    warnings.push(`key statistics and company profile unavailable (${combinedFailure.reason})`);
    return { summary: null, unreachable };
  }
  return { summary: parseSummary(merged), unreachable };
}

/**
 * Yahoo's quote and key statistics are always today's: for a past as-of date they come
 * from after it, and a halted or stale symbol can carry a quote older than its bars.
 */
function quoteTimingNotes(priceTime: string | null, lastBar: string | null, asOf: Date): string[] {
  if (!priceTime) return [];
  const quoteDay = priceTime.slice(0, 10);
  if (quoteDay > isoDay(asOf)) {
    return [
      `the quote and key statistics are Yahoo's values of ${quoteDay}, after the as-of date ${isoDay(asOf)}; the daily bars and technicals stop at ${lastBar ?? isoDay(asOf)}`,
    ];
  }
  if (lastBar && quoteDay < lastBar)
    return [`the quote is from ${quoteDay}, older than the last daily bar (${lastBar})`];
  if (lastBar && quoteDay > lastBar) {
    return [
      `the quote (${priceTime.slice(0, 16).replace('T', ' ')} UTC) is newer than the last daily bar (${lastBar}): last price and day change are the quote's; the technicals stop at ${lastBar}`,
    ];
  }
  return [];
}

/** What each quoteSummary module supplies, so a note names what is missing rather than a module. */
const moduleContents: Record<SummaryModule, string> = {
  price: 'price module (name, exchange, market cap)',
  summaryDetail: 'summary detail (P/E, dividend yield, 52-week range, beta)',
  defaultKeyStatistics: 'key statistics (forward P/E, beta)',
  financialData: 'financial data (margins, growth, analyst target)',
  assetProfile: 'company profile (sector, industry)',
};

/** "Yahoo's quoteSummary has no price module (…) for X; the quote has the price": what is absent, and where the price comes from. */
function missingModulesNote(absent: readonly SummaryModule[], symbol: string, quotePrice: unknown): string {
  const missing = absent.map((name) => moduleContents[name]).join('; ');
  const price =
    absent.includes('price') && typeof quotePrice === 'number' && Number.isFinite(quotePrice)
      ? '; the last price comes from the quote'
      : '';
  return `Yahoo's quoteSummary has no ${missing} for ${symbol}${price}`;
}

/** Data notes about the bars themselves: a short history, skipped sessions. */
function historyNotes(bars: MarketSnapshot['bars'], asOf: Date): string[] {
  const notes: string[] = [];
  const window = historyWindow(bars);
  if (window.sessions === 0) {
    notes.push(`no daily bars up to ${isoDay(asOf)}; technicals are not available`);
    return notes;
  }
  if (!window.coversYear) {
    notes.push(
      `only ${window.sessions} daily sessions (${window.first} → ${window.last}): 1-year figures cover this shorter window, the 1-year return is not available`,
    );
  }
  const skipped = bars.length - window.sessions;
  if (skipped > 0) notes.push(`${skipped} session(s) without a price were skipped`);
  return notes;
}

/** yahoo-finance2's chart endpoint, `/v8/finance/chart/<symbol>`. */
const chartPathPattern = /\/finance\/chart\/([^/?]+)/;

/**
 * The symbol a recorded chart request asked for, or undefined for any other URL:
 * which tickers a cassette holds, without the cassette code knowing Yahoo's paths.
 */
export function yahooChartSymbolOf(url: string): string | undefined {
  const match = chartPathPattern.exec(new URL(url).pathname);
  return match?.[1] ? decodeURIComponent(match[1]).toUpperCase() : undefined;
}

function findCassetteError(error: unknown): CassetteError | undefined {
  return findCause(error, (cause): cause is CassetteError => cause instanceof CassetteError);
}
