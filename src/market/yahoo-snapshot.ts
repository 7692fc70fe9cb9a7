import { daysBefore, isoDay } from '../clock.js';
import { DataError, InterruptedError } from '../errors.js';
import { historicalNotes, pointInTimeQuote } from './historical.js';
import { computeIndicators } from './indicators.js';
import {
  barsFromChart,
  identityFrom,
  parseChart,
  parseQuote,
  parseSummary,
  quoteStatsFrom,
  type RawChart,
  type RawQuote,
  type RawSummary,
} from './normalize.js';
import { historyWindow, renderSnapshotText } from './snapshot-text.js';
import type { MarketSnapshot } from './types.js';
import {
  call,
  classifyYahooError,
  findCassetteError,
  quoteFor,
  quoteSummaryModules,
  settledError,
  type Failure,
  type Outcome,
  type SummaryModule,
  type YahooClient,
} from './yahoo-client.js';

/**
 * One live or point-in-time snapshot from Yahoo, in three phases: fetch (quote,
 * quoteSummary and a year of daily bars, in parallel), normalise (each answer parsed,
 * what failed classified and said in a data note), and notes (about the history and
 * the quote's timing). The chart is essential; the quote and the fundamentals degrade
 * to "not available" with a note.
 */

/** Days of bars requested beyond one year, so a bar 252 sessions back exists after holidays. */
const historyMarginDays = 7;

export interface SnapshotRequest {
  symbol: string;
  asOf: Date;
  signal: AbortSignal | undefined;
  historical: boolean;
}

/**
 * `complete` is false when a part could not be had because Yahoo was out of reach: such
 * a snapshot is served once but never cached, so the next run asks again.
 */
export async function fetchSnapshot(
  client: YahooClient,
  request: SnapshotRequest,
): Promise<{ snapshot: MarketSnapshot; complete: boolean }> {
  const { symbol } = request;
  const answers = await requestAnswers(client, request);
  const failures = await failuresOf(client, answers, symbol);
  const warnings: string[] = [];
  const chart = readChart(answers.chart, failures.chart, symbol, warnings);
  const quote = readQuote(answers.quote, failures.quote, symbol, warnings);
  const summary = await readSummary(answers, failures.summary, symbol, quote, warnings);
  return {
    snapshot: assemble(request, { chart, quote, summary: summary.value }, warnings),
    complete: failures.quote?.kind !== 'unreachable' && !summary.unreachable,
  };
}

type Settled = PromiseSettledResult<Outcome<unknown>>;

interface Answers {
  quote: Settled;
  summary: Settled;
  chart: Settled;
  /** quoteSummary for some modules: asked again module by module when the combined request fails. */
  summaryFor: (modules: SummaryModule[]) => Promise<Outcome<unknown>>;
}

/** Fetch: the three requests at once; a cassette with no answer for one is the caller's to report, as such. */
async function requestAnswers(client: YahooClient, { symbol, asOf, signal }: SnapshotRequest): Promise<Answers> {
  const { yahooFinance } = client;
  const moduleOptions = signal ? { fetchOptions: { signal } } : {};
  const summaryFor = (modules: SummaryModule[]) =>
    call('quoteSummary', () => yahooFinance.quoteSummary(symbol, { modules }, moduleOptions));
  const period = { period1: daysBefore(asOf, 365 + historyMarginDays), period2: asOf };
  const [quote, summary, chart] = await Promise.allSettled([
    call('quote', () => yahooFinance.quote(symbol, {}, moduleOptions)),
    summaryFor([...quoteSummaryModules]),
    call('chart', () => yahooFinance.chart(symbol, { ...period, interval: '1d', return: 'object' }, moduleOptions)),
  ]);
  if (signal?.aborted) throw new InterruptedError();
  const cassetteProblem = [quote, summary, chart].find(
    (settled): settled is PromiseRejectedResult =>
      settled.status === 'rejected' && findCassetteError(settled.reason) !== undefined,
  );
  if (cassetteProblem) throw findCassetteError(cassetteProblem.reason);
  return { quote, summary, chart, summaryFor };
}

const failureOf = (settled: Settled): Failure | null =>
  settled.status === 'rejected' ? classifyYahooError(settled.reason) : null;

/** Each answer's failure, classified; an unknown ticker ends the snapshot here. */
async function failuresOf(client: YahooClient, answers: Answers, symbol: string) {
  const failures = {
    quote: failureOf(answers.quote),
    summary: failureOf(answers.summary),
    chart: failureOf(answers.chart),
  };
  const sessionLost = [failures.quote, failures.summary].some(
    (failure) => failure && failure.kind !== 'missing' && failure.kind !== 'unknown-ticker',
  );
  // The library remembers a failed handshake for the life of the process; start over next time.
  if (sessionLost) await client.resetSession().catch(() => undefined);
  const quoteMissing =
    answers.quote.status === 'fulfilled' && quoteFor(symbol, answers.quote.value.value) === undefined;
  if (quoteMissing || failures.quote?.kind === 'unknown-ticker' || failures.chart?.kind === 'unknown-ticker') {
    throw new DataError(`unknown ticker '${symbol}'`, 'unknown-ticker', {
      cause: settledError(answers.chart) ?? settledError(answers.quote) ?? undefined,
    });
  }
  return failures;
}

/** The chart, which the snapshot cannot do without. */
function readChart(settled: Settled, failure: Failure | null, symbol: string, warnings: string[]): RawChart {
  if (settled.status === 'rejected') {
    if (failure!.kind === 'unreachable')
      throw new DataError(`could not reach Yahoo Finance (${failure!.reason})`, 'unreachable', {
        cause: settled.reason,
      });
    throw new DataError(`unexpected response from Yahoo Finance for '${symbol}' (${failure!.reason})`, 'invalid', {
      cause: settled.reason,
    });
  }
  const chart = parseChart(settled.value.value);
  if (chart === null)
    throw new DataError(`unexpected response from Yahoo Finance for '${symbol}' (chart is not an object)`, 'invalid');
  if (settled.value.warning) warnings.push(settled.value.warning);
  return chart;
}

function readQuote(settled: Settled, failure: Failure | null, symbol: string, warnings: string[]): RawQuote | null {
  if (settled.status === 'rejected') {
    warnings.push(`quote unavailable (${failure!.reason}); price and identity come from the chart`);
    return null;
  }
  const quote = parseQuote(quoteFor(symbol, settled.value.value));
  if (settled.value.warning) warnings.push(settled.value.warning);
  if (quote === null) warnings.push("Yahoo's quote was unusable; price and identity come from the chart");
  return quote;
}

/** The fundamentals: the combined answer, else module by module; a note for what is absent. */
async function readSummary(
  answers: Answers,
  failure: Failure | null,
  symbol: string,
  quote: RawQuote | null,
  warnings: string[],
): Promise<{ value: RawSummary | null; unreachable: boolean }> {
  let summary: RawSummary | null = null;
  let unreachable = failure?.kind === 'unreachable';
  if (answers.summary.status === 'fulfilled') {
    summary = parseSummary(answers.summary.value.value);
    if (answers.summary.value.warning) warnings.push(answers.summary.value.warning);
  } else if (failure!.kind !== 'unreachable') {
    // One missing module (assetProfile for an ETF) can fail the combined request; ask module by module.
    const byModule = await summaryModuleByModule(answers.summaryFor, warnings, failure!);
    summary = byModule.summary;
    unreachable = byModule.unreachable;
  } else {
    warnings.push(`key statistics and company profile unavailable (${failure!.reason})`);
  }
  if (summary !== null) {
    const absent = quoteSummaryModules.filter((name) => !summary?.[name]);
    if (absent.length > 0 && absent.length < quoteSummaryModules.length)
      warnings.push(missingModulesNote(absent, symbol, quote?.regularMarketPrice));
    if (absent.length === quoteSummaryModules.length)
      warnings.push(`Yahoo returned no key statistics or company profile for ${symbol}`);
  }
  return { value: summary, unreachable };
}

/** Bars, indicators, identity and quote from the parsed answers, with the notes about history and timing. */
function assemble(
  { symbol, asOf, historical }: SnapshotRequest,
  parsed: { chart: RawChart; quote: RawQuote | null; summary: RawSummary | null },
  warnings: string[],
): MarketSnapshot {
  const bars = barsFromChart(parsed.chart, isoDay(asOf));
  const indicators = computeIndicators(bars);
  const sources = { quote: parsed.quote, summary: parsed.summary, meta: parsed.chart.meta };
  const identity = identityFrom(symbol, sources);
  const quote = historical ? pointInTimeQuote(bars, asOf, symbol) : quoteStatsFrom(sources);
  warnings.push(...historyNotes(bars, asOf));
  warnings.push(
    ...(historical ? historicalNotes(bars, asOf) : quoteTimingNotes(quote.priceTime, indicators.asOfBar, asOf)),
  );
  const data = { symbol, asOf: asOf.toISOString(), identity, quote, bars, indicators, warnings, source: 'yahoo' };
  // The key order of a saved snapshot (result.json, the cache) stays as it always was.
  return {
    symbol,
    asOf: data.asOf,
    identity,
    quote,
    bars,
    indicators,
    text: renderSnapshotText(data),
    warnings,
    source: 'yahoo',
  };
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
