import { inspect } from 'node:util';
import { CassetteError, errorMessage, findCause } from '../../../errors.js';
import { scrubCrumbs } from '../../../scrub.js';
import { SourceUnreachableError, UnexpectedResponseError, type FetchFunction } from '../../http.js';
import type { MarketLogger } from '../../source.js';

/** The vendor's names: in the agents' block ("Source: Yahoo Finance") and after a figure ("(Yahoo)"). */
export const yahooLabel = 'Yahoo Finance';
export const yahooShortLabel = 'Yahoo';

/**
 * yahoo-finance2 behind a small interface: loading the library (lazily, with our own
 * cookie jar), calling it (keeping the raw result of a failed validation), and
 * classifying its errors. The only importer of the library.
 */

export const quoteSummaryModules = [
  'price',
  'summaryDetail',
  'defaultKeyStatistics',
  'financialData',
  'assetProfile',
] as const;
export type SummaryModule = (typeof quoteSummaryModules)[number];

export interface YahooFinanceLike {
  quote(symbol: string, query?: object, moduleOptions?: object): Promise<unknown>;
  quoteSummary(symbol: string, query: { modules: SummaryModule[] }, moduleOptions?: object): Promise<unknown>;
  chart(
    symbol: string,
    query: { period1: Date; period2: Date; interval: '1d'; return: 'object' },
    moduleOptions?: object,
  ): Promise<unknown>;
}

export interface YahooClient {
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

export async function loadClient(fetch: FetchFunction, logger: MarketLogger): Promise<YahooClient> {
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

export type Failure =
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
  if (error instanceof SourceUnreachableError) return { kind: 'unreachable', reason: error.reason };
  const unexpected = findCause(
    error,
    (cause): cause is UnexpectedResponseError => cause instanceof UnexpectedResponseError,
  );
  if (unexpected) return { kind: 'invalid', reason: unexpected.reason };
  const message = errorMessage(error);
  if (/Quote not found|No data found|symbol may be delisted/i.test(message))
    return { kind: 'unknown-ticker', reason: firstLine(message) };
  if (/No fundamentals data found/i.test(message)) return { kind: 'missing', reason: firstLine(message) };
  // The cookie/crumb handshake failing means we have no session: Yahoo is out of reach for us.
  if (/crumb|set-cookie|cookie|Unauthorized/i.test(message))
    return { kind: 'unreachable', reason: `no Yahoo session: ${firstLine(scrubCrumbs(message))}` };
  return { kind: 'invalid', reason: firstLine(scrubCrumbs(message)) };
}

export interface Outcome<T> {
  value: T;
  warning: string | null;
}

/**
 * Run one library call. When yahoo-finance2's schema validation rejects Yahoo's
 * answer, its error still carries the raw result: use it, and say so.
 */
export async function call<T>(name: string, run: () => Promise<T>): Promise<Outcome<T>> {
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
export function quoteFor(symbol: string, value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? undefined;
  const matching = value.find(
    (item: unknown) => typeof item === 'object' && item !== null && (item as { symbol?: unknown }).symbol === symbol,
  );
  return matching ?? value[0];
}

export function settledError(result: PromiseSettledResult<unknown>): unknown {
  return result.status === 'rejected' ? result.reason : null;
}

export function findCassetteError(error: unknown): CassetteError | undefined {
  return findCause(error, (cause): cause is CassetteError => cause instanceof CassetteError);
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
