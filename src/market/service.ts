import { noQuoteStats } from './historical.js';
import { daysBefore, isoDay } from '../clock.js';
import { CassetteError, DataError, InterruptedError, errorMessage } from '../errors.js';
import { assembleSnapshot, type Gathered } from './assemble.js';
import type { SnapshotCache } from './cache.js';
import { calendarOf } from './calendar/index.js';
import { renderSnapshotText } from './snapshot-text.js';
import { partVendor, type DailyBars, type MarketLogger, type MarketSource, type PartVendor } from './source.js';
import { validateTicker } from './ticker.js';
import type { Bar, BarsOptions, FxClose, MarketData, MarketSnapshot, SnapshotOptions } from './types.js';

/**
 * The snapshot service: one vendor-neutral snapshot, built once. The cache first, then
 * the sources in order. A source that is unreachable, rate-limited or answers something
 * that is not data is passed over for the next one, and the snapshot says so in its
 * data notes; an unknown ticker is final. All bars of one window come from one vendor:
 * a series is never spliced from two. The snapshot records which vendor answered each
 * part and whether it came from the cache (`vendors`), and the text the agents read
 * names the vendor from that record. Fallback is a wrapper over the sources, never code
 * inside one (vercel/ai's `customProvider({ fallbackProvider })`).
 *
 * A fundamentals source (SEC EDGAR) sits in the same list; sources without `quote` or
 * `bars` are skipped here.
 */

/** The exchange clock the service needs: when one session of a ticker closed. */
export interface SnapshotCalendar {
  sessionClose(ticker: string, day: string): Date;
}

/** Today's calendar (the US one), until the exchange calendars take its place. */
/** Each ticker's own exchange (src/market/calendar): a bar's day closes at that exchange's close. */
export const exchangeSnapshotCalendar: SnapshotCalendar = {
  sessionClose: (ticker, day) => calendarOf(ticker).closeAt(day),
};

export interface MarketDataOptions {
  /** In order of preference: the first that answers serves the part. */
  sources: readonly MarketSource[];
  cache?: SnapshotCache | null;
  calendar?: SnapshotCalendar;
  logger?: MarketLogger;
}

/** Days of bars asked for beyond one year, so a bar 252 sessions back exists after holidays. */
const historyMarginDays = 7;

const silentLogger: MarketLogger = { debug: () => {}, warn: () => {} };

export function createMarketData(options: MarketDataOptions): MarketData {
  const { sources, cache = null } = options;
  const calendar = options.calendar ?? exchangeSnapshotCalendar;
  const logger = options.logger ?? silentLogger;
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
        return fromCache(cached, asOf);
      }
      const { gathered, complete } = await gather(sources, { symbol, asOf, signal, historical });
      const closeOf = (day: string) => calendar.sessionClose(symbol, day);
      const snapshot = assembleSnapshot({ symbol, asOf, historical, closeOf }, gathered);
      if (cache && complete) await cache.write(snapshot, asOf, kind);
      else if (cache)
        logger.debug(`market cache: ${symbol} ${isoDay(asOf)} not cached (part of the data was unreachable)`);
      return snapshot;
    },

    async bars(ticker: string, barsOptions: BarsOptions): Promise<Bar[]> {
      const symbol = validateTicker(ticker);
      const answer = await firstAnswer(
        sources,
        (source) => source.bars !== undefined,
        (source) => source.bars!({ ticker: symbol, ...barsOptions }),
      );
      for (const note of answer.failover) logger.warn(note);
      return answer.value.bars;
    },

    async splits(ticker: string, range: BarsOptions) {
      const symbol = validateTicker(ticker);
      const source = sources.find((candidate) => candidate.splits !== undefined);
      return source ? source.splits!({ ticker: symbol, ...range }) : [];
    },

    fxRate: (from, to, { day, signal }) => fxClose(sources, { from, to, day, signal }),

    describeSources: () =>
      sources
        .filter((source) => source.quote !== undefined || source.bars !== undefined)
        .map((source, index) => `${source.label} (${index === 0 ? 'primary' : 'failover for daily bars'})`),
  };
}

/** Days looked back for a pair's close: a long holiday weekend, and a margin. */
const fxLookbackDays = 10;

/** The pair's last close on or before `day`, from the first source that quotes pairs and answers. */
async function fxClose(
  sources: readonly MarketSource[],
  request: { from: string; to: string; day: string; signal: AbortSignal | undefined },
): Promise<FxClose | null> {
  const { from, to, day, signal } = request;
  const start = isoDay(daysBefore(new Date(`${day}T00:00:00Z`), fxLookbackDays));
  const answer = await firstAnswer(
    sources,
    (source) => source.fxSymbol !== undefined && source.bars !== undefined,
    (source) => source.bars!({ ticker: source.fxSymbol!(from, to), from: start, to: day, signal }),
  ).catch((error: unknown) => {
    if (error instanceof DataError) return null;
    throw error;
  });
  const last = answer?.value.bars.filter((bar) => bar.close !== null && bar.close > 0).at(-1);
  if (!answer || !last) return null;
  return { from, to, rate: last.close!, day: last.date, vendor: answer.source.label };
}

/** A cached snapshot: its record says every part came from the cache; its text is written anew. */
function fromCache(cached: MarketSnapshot, asOf: Date): MarketSnapshot {
  const mark = (part: PartVendor | null) => (part ? { ...part, cached: true } : null);
  const vendors = cached.vendors
    ? {
        bars: { ...cached.vendors.bars, cached: true },
        quote: mark(cached.vendors.quote),
        profile: mark(cached.vendors.profile),
      }
    : undefined;
  const data = { ...cached, asOf: asOf.toISOString(), source: 'cache', ...(vendors ? { vendors } : {}) };
  return { ...data, text: renderSnapshotText(data) };
}

/** Failures worth another vendor: out of reach, rate-limited, or not data. An unknown ticker is not. */
function passesOver(error: unknown): boolean {
  if (error instanceof CassetteError || error instanceof InterruptedError) return false;
  return error instanceof DataError && (error.kind === 'unreachable' || error.kind === 'invalid');
}

interface Answer<T> {
  source: MarketSource;
  value: T;
  failover: string[];
}

/** The first of the sources that `can` whose `ask` answers, with a note per source passed over. */
async function firstAnswer<T>(
  sources: readonly MarketSource[],
  can: (source: MarketSource) => boolean,
  ask: (source: MarketSource) => Promise<T>,
): Promise<Answer<T>> {
  const failover: string[] = [];
  let firstError: unknown;
  const able = sources.filter(can);
  for (const [index, source] of able.entries()) {
    try {
      const value = await ask(source);
      return { source, value, failover: failover.map((note) => `${note}; ${source.label} served instead`) };
    } catch (error) {
      firstError ??= error;
      if (!passesOver(error) || index === able.length - 1) throw firstError;
      failover.push(`${source.label} could not be used (${errorMessage(error)})`);
    }
  }
  throw new DataError('no market data source is configured', 'unreachable');
}

interface GatherRequest {
  symbol: string;
  asOf: Date;
  signal: AbortSignal | undefined;
  historical: boolean;
}

/**
 * Quote, profile and bars from the first source that has them together; past a source
 * that fails, the next one's daily bars alone (the quote and the profile then say
 * "not available"). Such a snapshot is never cached: the next run asks the first again.
 */
async function gather(
  sources: readonly MarketSource[],
  { symbol, asOf, signal, historical }: GatherRequest,
): Promise<{ gathered: Gathered; complete: boolean }> {
  const from = isoDay(daysBefore(asOf, 365 + historyMarginDays));
  const answer = await firstAnswer(
    sources,
    (source) => source.quote !== undefined || source.bars !== undefined,
    async (source) =>
      source.quote
        ? { parts: await source.quote({ ticker: symbol, asOf, signal, historical }), barsOnly: false }
        : {
            parts: barsOnlyParts(symbol, await source.bars!({ ticker: symbol, from, to: isoDay(asOf), signal })),
            barsOnly: true,
          },
  );
  const vendor = partVendor(answer.source);
  const { parts, barsOnly } = answer.value;
  const failover = answer.failover.map((note) =>
    barsOnly
      ? `${note}: its daily bars only, all from that one vendor; the quote, key statistics and profile are not available`
      : note,
  );
  return {
    gathered: {
      parts,
      vendors: { bars: vendor, quote: barsOnly ? null : vendor, profile: barsOnly ? null : vendor },
      failover,
    },
    complete: parts.complete && failover.length === 0,
  };
}

/** What daily bars alone say about a symbol. */
function barsOnlyParts(symbol: string, daily: DailyBars): Gathered['parts'] {
  const identity = {
    symbol,
    name: null,
    exchange: null,
    currency: daily.currency,
    quoteType: null,
    sector: null,
    industry: null,
  };
  return {
    identity,
    // Replaced by the price of the last daily close (pointInTimeQuote) when the snapshot is assembled.
    quote: { ...noQuoteStats },
    bars: daily.bars,
    ...(daily.conversion ? { conversion: daily.conversion } : {}),
    notes: daily.notes ?? [],
    complete: false,
    ...(daily.splitBasis ? { splitBasis: daily.splitBasis } : {}),
  };
}
