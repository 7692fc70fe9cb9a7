import { mapBounded } from '../store/bounded.js';
import { UsageError } from '../errors.js';
import { calendarOf } from '../market/calendar/index.js';
import type { MarketData, MarketSnapshot } from '../market/types.js';
import { tradeFieldsOf } from '../result/trade-fields.js';
import type { AnalysisResult } from '../result/types.js';
import { listRuns, loadRun } from '../store/index.js';
import type { DecisionInput, FxRate, MarketInput } from './types.js';

/**
 * The constructor's inputs from the outside world: the newest finished decision per
 * ticker from the run store, and each name's market data through MarketData. The only
 * part of src/portfolio that does I/O.
 */

const finished = new Set(['ok', 'degraded', 'flagged']);

export interface DecisionQuery {
  /** Tickers named on the command line or in --universe; empty: see `latest`, `runIds`, else the held ones. */
  tickers: string[];
  runIds: string[];
  latest: boolean;
  /** --demo: only demo runs count; otherwise demo runs never do. */
  demo: boolean;
}

export interface SelectedDecisions {
  decisions: DecisionInput[];
  missing: Array<{ ticker: string; reason: string }>;
  /** The market data fresh runs decided on (--analyze), by ticker. */
  snapshots?: ReadonlyMap<string, MarketSnapshot>;
}

export function decisionOf(result: AnalysisResult): DecisionInput | null {
  const decision = result.decision;
  if (!decision || !finished.has(result.status) || result.mode === 'agents') return null;
  return {
    ticker: result.ticker,
    runId: result.runId,
    asOf: result.asOf,
    ...tradeFieldsOf(decision),
    flagged: result.status === 'flagged',
  };
}

/** Exactly the runs named: each must hold a finished decision, one per ticker. */
async function decisionsOfRuns(home: string, runIds: string[], demo: boolean): Promise<SelectedDecisions> {
  const byTicker = new Map<string, DecisionInput>();
  for (const runId of runIds) {
    const result = await loadRun(home, runId);
    // Synthetic decisions never size a real book, nor real ones the demo's.
    if (result.demo !== demo) {
      throw new UsageError(
        result.demo
          ? `run ${result.runId} is a demo run (synthetic data): it sizes a book only with --demo`
          : `run ${result.runId} is not a demo run: --demo sizes only demo runs`,
      );
    }
    const decision = decisionOf(result);
    if (!decision) throw new UsageError(`run ${result.runId} has no finished decision (status ${result.status})`);
    const earlier = byTicker.get(decision.ticker);
    if (earlier)
      throw new UsageError(`runs ${earlier.runId} and ${decision.runId} both decide ${decision.ticker}: name one`);
    byTicker.set(decision.ticker, decision);
  }
  return { decisions: [...byTicker.values()], missing: [] };
}

/** The newest (by as-of, then start) finished decision of each wanted ticker; `null` wants every ticker in the store. */
export async function newestDecisions(
  home: string,
  query: DecisionQuery,
  held: readonly string[],
): Promise<SelectedDecisions> {
  if (query.runIds.length > 0) return decisionsOfRuns(home, query.runIds, query.demo);
  const wanted = query.latest ? null : query.tickers.length > 0 ? new Set(query.tickers) : new Set(held);
  const summaries = (await listRuns(home)).filter(
    (summary) =>
      summary.state === 'ok' &&
      summary.action !== null &&
      summary.ticker !== null &&
      summary.demo === query.demo &&
      (wanted === null || wanted.has(summary.ticker)),
  );
  const newest = new Map<string, { decision: DecisionInput; startedAt: string }>();
  for (const summary of summaries) {
    const result = await loadRun(home, summary.runId);
    const decision = decisionOf(result);
    if (!decision) continue;
    const current = newest.get(decision.ticker);
    const key = `${decision.asOf}|${summary.when}|${summary.runId}`;
    if (!current || key > `${current.decision.asOf}|${current.startedAt}|${current.decision.runId}`) {
      newest.set(decision.ticker, { decision, startedAt: summary.when });
    }
  }
  const decisions = [...newest.values()].map((entry) => entry.decision);
  const missing = [...(wanted ?? [])]
    .filter((ticker) => !newest.has(ticker))
    .sort()
    .map((ticker) => ({
      ticker,
      reason: `no saved finished ${query.demo ? 'demo ' : ''}decision (run \`autohedge analyze ${ticker}${query.demo ? ' --demo' : ''}\`, or --analyze)`,
    }));
  return { decisions, missing };
}

/** A snapshot as the constructor reads it: the last close (else the quote), the year of closes, the sector. */
export function marketInputOf(ticker: string, snapshot: MarketSnapshot): MarketInput {
  const close = snapshot.indicators.lastClose;
  const usableClose = typeof close === 'number' && Number.isFinite(close) && close > 0;
  const quoteTime = snapshot.quote.priceTime ? new Date(snapshot.quote.priceTime) : null;
  const priceDay = usableClose
    ? snapshot.indicators.asOfBar
    : quoteTime && !Number.isNaN(quoteTime.getTime())
      ? calendarOf(ticker).localDay(quoteTime)
      : null;
  const closes = snapshot.bars.flatMap((bar) => {
    const value = bar.adjClose ?? bar.close;
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? [{ date: bar.date, close: value }] : [];
  });
  return {
    ticker,
    price: usableClose ? close : (snapshot.quote.price ?? Number.NaN),
    currency: snapshot.identity.currency,
    sector: snapshot.identity.sector,
    priceDay,
    closes,
  };
}

/**
 * Market inputs for every ticker, fetched two at a time, returned in ticker order. A
 * snapshot in `known` (the one a fresh run of `--analyze` decided on) is used as is.
 */
export async function fetchMarketInputs(
  market: MarketData,
  tickers: readonly string[],
  options: { asOf: Date; refresh: boolean; signal?: AbortSignal },
  known: ReadonlyMap<string, MarketSnapshot> = new Map(),
): Promise<MarketInput[]> {
  const sorted = [...new Set(tickers)].sort();
  // Two fetches at a time, as analyze's default concurrency.
  return mapBounded(sorted, 2, async (ticker) =>
    marketInputOf(ticker, known.get(ticker) ?? (await market.snapshot(ticker, options))),
  );
}

/**
 * Each listing in another currency than the book's, valued at the pair's close of the
 * book's day from the market data (one request per currency). A listing with no rate is
 * left in its own currency, and the constructor refuses it: never converted at 1.0.
 */
export async function inBaseCurrency(
  market: MarketData,
  inputs: readonly MarketInput[],
  options: { base: string; day: string; signal?: AbortSignal },
): Promise<MarketInput[]> {
  const { base, day, signal } = options;
  const foreign = [
    ...new Set(inputs.flatMap((input) => (input.currency && input.currency !== base ? [input.currency] : []))),
  ];
  const rates = new Map<string, FxRate>();
  for (const currency of foreign.sort()) {
    const close = (await market.fxRate?.(currency, base, { day, ...(signal ? { signal } : {}) })) ?? null;
    if (close) rates.set(currency, { from: currency, to: base, rate: close.rate, day: close.day });
  }
  return inputs.map((input) => {
    const fx = input.currency ? rates.get(input.currency) : undefined;
    if (!fx) return input;
    return {
      ...input,
      price: input.price * fx.rate,
      currency: base,
      closes: input.closes.map((point) => ({ date: point.date, close: point.close * fx.rate })),
      fx,
    };
  });
}
