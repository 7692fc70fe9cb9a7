import { z } from 'zod';
import { CassetteError, DataError, InterruptedError, findCause } from '../../../errors.js';
import {
  SourceUnreachableError,
  UnexpectedResponseError,
  createResilientFetch,
  defaultRetries,
  defaultRetryDelayMs,
  defaultTimeoutMs,
  type FetchFunction,
} from '../../http.js';
import type { BarsRequest, DailyBars, MarketLogger, MarketSource } from '../../source.js';
import type { Bar } from '../../types.js';

/**
 * Tiingo's end-of-day prices as an opt-in failover for daily bars (`TIINGO_API_KEY`):
 * fetch and parse only. Tiingo sends each day's raw (as traded) prices with the day's
 * split factor, and a split- and dividend-adjusted close. One window is put on the
 * basis of its last session by the split factors inside it, as another vendor's bars
 * are (adjusted for splits, not dividends); the adjusted close stays Tiingo's.
 */

export const keyVariable = 'TIINGO_API_KEY';
const label = 'Tiingo';
const baseUrl = 'https://api.tiingo.com/tiingo/daily';

export interface TiingoSourceOptions {
  apiKey: string;
  fetch?: FetchFunction;
  logger?: MarketLogger;
  retries?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
}

const price = z.number().finite().nullable().optional().catch(null);
const rowSchema = z.object({
  date: z.string().min(10),
  open: price,
  high: price,
  low: price,
  close: price,
  volume: price,
  adjClose: price,
  splitFactor: price,
});
const rowsSchema = z.array(z.unknown());

/** Tiingo's error body ({"detail":"Error: Ticker 'XYZ' not found"}) says what went wrong: read it. */
function isTiingoError(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { detail?: unknown }).detail === 'string';
  } catch {
    return false;
  }
}

export function createSource(options: TiingoSourceOptions): MarketSource {
  const logger = options.logger;
  const fetch = createResilientFetch({
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retries: options.retries ?? defaultRetries,
    retryDelayMs: options.retryDelayMs ?? defaultRetryDelayMs,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    debug: (message) => logger?.debug(message),
    label,
    isErrorEnvelope: isTiingoError,
    expectsData: () => true,
  });
  return {
    vendor: 'tiingo',
    label,
    bars: (request) => fetchBars(fetch, options.apiKey, request),
    symbolOfUrl: tiingoSymbolOf,
  };
}

/** `/tiingo/daily/<symbol>/prices`: which symbol a recorded request asked for. */
export function tiingoSymbolOf(url: string): string | undefined {
  const match = /\/tiingo\/daily\/([^/?]+)\/prices/.exec(new URL(url).pathname);
  return match?.[1] ? decodeURIComponent(match[1]).toUpperCase() : undefined;
}

export function pricesUrl({ ticker, from, to }: BarsRequest): string {
  const query = new URLSearchParams({ startDate: from, endDate: to, format: 'json', resampleFreq: 'daily' });
  return `${baseUrl}/${encodeURIComponent(ticker.toLowerCase())}/prices?${query.toString()}`;
}

async function fetchBars(fetch: FetchFunction, apiKey: string, request: BarsRequest): Promise<DailyBars> {
  let response: Response;
  let body: unknown;
  try {
    // The key in a header, not the URL: a recorded request then carries no secret in its address.
    response = await fetch(pricesUrl(request), {
      headers: { Authorization: `Token ${apiKey}`, 'Content-Type': 'application/json' },
      ...(request.signal ? { signal: request.signal } : {}),
    });
    body = await response.json();
  } catch (error) {
    throw dataErrorOf(error, request);
  }
  if (!response.ok) {
    const detail = (body as { detail?: string }).detail ?? `HTTP ${response.status}`;
    if (response.status === 404)
      throw new DataError(`unknown ticker '${request.ticker}' (${label}: ${detail})`, 'unknown-ticker');
    throw new DataError(`unexpected response from ${label} for '${request.ticker}' (${detail})`, 'invalid');
  }
  return parsePrices(body, request);
}

function dataErrorOf(error: unknown, request: BarsRequest): unknown {
  if (request.signal?.aborted) return new InterruptedError();
  const cassette = findCause(error, (cause): cause is CassetteError => cause instanceof CassetteError);
  if (cassette) return cassette;
  if (error instanceof SourceUnreachableError) return new DataError(error.message, 'unreachable', { cause: error });
  if (error instanceof UnexpectedResponseError)
    return new DataError(`unexpected response from ${label} for '${request.ticker}' (${error.reason})`, 'invalid');
  // A body that is not JSON: not data.
  return new DataError(`unexpected response from ${label} for '${request.ticker}' (not JSON)`, 'invalid', {
    cause: error,
  });
}

/** Tiingo's rows → our bars, on the basis of the window's last session; a body that is not a list of rows is not data. */
export function parsePrices(body: unknown, request: BarsRequest): DailyBars {
  const list = rowsSchema.safeParse(body);
  if (!list.success)
    throw new DataError(`unexpected response from ${label} for '${request.ticker}' (not a list of prices)`, 'invalid');
  const rows = list.data.flatMap((row) => {
    const parsed = rowSchema.safeParse(row);
    return parsed.success ? [parsed.data] : [];
  });
  if (rows.length !== list.data.length)
    throw new DataError(`unexpected response from ${label} for '${request.ticker}' (a row without a date)`, 'invalid');
  const bars: Bar[] = [];
  const splits: string[] = [];
  // Walking back from the last session: each split factor divides the prices before its day.
  let divisor = 1;
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index]!;
    const date = row.date.slice(0, 10);
    const onBasis = (value: number | null | undefined) =>
      value === null || value === undefined ? null : value / divisor;
    if (date >= request.from && date <= request.to) {
      bars.push({
        date,
        open: onBasis(row.open),
        high: onBasis(row.high),
        low: onBasis(row.low),
        close: onBasis(row.close),
        adjClose: row.adjClose ?? null,
        volume: row.volume === null || row.volume === undefined ? null : row.volume * divisor,
      });
    }
    const factor = row.splitFactor ?? 1;
    if (factor > 0 && factor !== 1) {
      divisor *= factor;
      splits.push(`${factor}:1 on ${date}`);
    }
  }
  bars.reverse();
  const notes =
    splits.length > 0
      ? [
          `${label}'s prices before each split in the window (${splits.reverse().join(', ')}) are divided by its split factor`,
        ]
      : [];
  // Tiingo's end-of-day prices are in the listing's currency; US listings (no exchange suffix) are in USD.
  const currency = /^[A-Z0-9-]+$/i.test(request.ticker) ? 'USD' : null;
  // The last session's prices are as they traded: no split after the window is known here.
  return { bars, currency, notes, splitBasis: 'as-traded' };
}
