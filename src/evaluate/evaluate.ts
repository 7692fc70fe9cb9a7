import { contaminationLabel } from '../result/run-facts.js';
import { runKindOf, type RunKind } from './run-kind.js';
import { DataError, errorMessage, InterruptedError } from '../errors.js';
import { addDays, calendarOf, findCalendarOf, type ExchangeCalendar } from '../market/calendar/index.js';
import type { Bar, BarsOptions } from '../market/types.js';
import type { ContaminationLabel } from '../result/types.js';
import type { AnalysisResult } from '../result/types.js';
import { rowContext, type RowContext } from './context.js';
import { simulateTrade, type Action, type PricedSession, type TradeOutcome, type TradePlan } from './outcome.js';
import { regimeLookback } from './regimes.js';
import { sectorEtfOf } from './sectors.js';
import { unscorableReason } from './validate.js';

/**
 * Scores saved decisions against the prices that came after them. Each ticker's bars,
 * from a few days before its earliest run to its latest horizon, come in one request,
 * so the reference close and the outcome share one adjustment basis; the benchmark's
 * likewise. Statistics are left to summary.ts.
 */

export interface PriceSource {
  bars(ticker: string, options: BarsOptions): Promise<Bar[]>;
}

export interface EvaluateOptions {
  /** Horizons in trading sessions, e.g. [5, 21, 63]. */
  horizons: number[];
  benchmark: string;
  /** The evaluation's clock: horizons ending after it are pending. */
  now: Date;
  signal?: AbortSignal;
  /** Also fetch each decision's sector SPDR ETF, the second regressor of the attribution. */
  sectorBenchmarks?: boolean;
}

/** The saved levels were rescaled: the refetched as-of close differs from the saved one (a split, or a revision). */
export interface Rescaling {
  date: string;
  savedClose: number;
  refetchedClose: number;
  ratio: number;
}

/** One horizon's trade (simulateTrade) beside its benchmark and baselines. */
export interface HorizonResult extends TradeOutcome {
  horizon: number;
  /** The benchmark from the entry session's open to the exit session's close. */
  benchmarkReturn: number | null;
  /** signed (stock − benchmark): BUY beats the benchmark when the stock does, SELL when it lags. */
  excess: number | null;
  /**
   * Open of the entry session → close of the horizon's last session, for the stock and the
   * benchmark: what the baselines are scored on. Null when the horizon is pending.
   */
  buyAndHold: { stockReturn: number; benchmarkReturn: number | null } | null;
  /** With --sector-benchmarks: the sector ETF over the same dates as `benchmarkReturn`. */
  sectorReturn?: number | null;
}

/** The optional fields come from context.ts (attribution); rows built before it lack them. */
export interface DecisionRow extends Partial<RowContext> {
  runId: string;
  ticker: string;
  asOf: string;
  asOfMode: 'live' | 'historical';
  contamination: ContaminationLabel;
  action: Action;
  conviction: number;
  orderType: 'market' | 'limit';
  /** The levels scored (rescaled when `rescaled` is set). */
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  rescaled: Rescaling | null;
  /** The sign of the 12-1 momentum at the run (from its own saved bars), the momentum baseline's call. */
  momentum: 'BUY' | 'SELL' | null;
  /** The session the decision enters at. */
  entrySession: string;
  horizons: HorizonResult[];
  /** Why this decision could not be scored, when it could not. */
  problem: string | null;
  /** The run's status (ok, degraded, flagged …) and whether it was a demo run; absent in older evaluations. */
  status?: AnalysisResult['status'];
  demo?: boolean;
  /** A --blind run; its --samples stability group (null when decided once). */
  blind?: RunKind['blind'];
  stability?: RunKind['stability'];
}

export interface Evaluation {
  evaluatedAt: string;
  horizons: number[];
  benchmark: string;
  decisions: DecisionRow[];
  warnings: string[];
}

/** Beyond this, the refetched as-of close is not the saved one (a split, a revision), not rounding. */
export const rescaleTolerance = 0.005;

/** Calendar days fetched before the reference close, for a holiday or a missing bar. */
const leadDays = 7;

/** The benchmark's lead: its regime trend needs 63 sessions before the earliest run (about 92 calendar days). */
const benchmarkLeadDays = Math.ceil((regimeLookback * 7) / 5) + 14;

/**
 * A refetched close this far from the saved one is not a split or a revision but a broken
 * number (a saved close of 1e-320 or 1e308): the row is left unscored rather than rescaled.
 * The largest splits and reverse splits on record are well inside 1:1000.
 */
export const absurdRescaleRatio = 1000;

function priced(bars: readonly Bar[]): PricedSession[] {
  const sessions: PricedSession[] = [];
  for (const { date, open, high, low, close } of bars) {
    if ([open, high, low, close].every((value) => typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      sessions.push({ date, open: open!, high: high!, low: low!, close: close! });
    }
  }
  return sessions;
}

/** The run's last completed session in its own saved bars: the close its levels were set against. */
function referenceBar(result: AnalysisResult, calendar: ExchangeCalendar): Bar | null {
  const asOf = Date.parse(result.asOf);
  const bars = result.market?.bars ?? [];
  // From the end: the reference is nearly always the last bar, and a session close costs a time-zone lookup.
  for (let index = bars.length - 1; index >= 0; index -= 1) {
    const bar = bars[index]!;
    if (typeof bar.close === 'number' && bar.close > 0 && calendar.closeAt(bar.date).getTime() <= asOf) return bar;
  }
  return null;
}

/** 12-1 momentum: the return from 252 to 21 sessions before the run, in the run's own (adjusted) closes. */
export function momentumSign(result: AnalysisResult): 'BUY' | 'SELL' | null {
  const closes = (result.market?.bars ?? [])
    .map((bar) => bar.adjClose ?? bar.close)
    .filter((value): value is number => typeof value === 'number' && value > 0);
  if (closes.length < 253) return null;
  const recent = closes[closes.length - 1 - 21]!;
  const yearAgo = closes[closes.length - 1 - 252]!;
  const momentum = recent / yearAgo - 1;
  return momentum > 0 ? 'BUY' : momentum < 0 ? 'SELL' : null;
}

interface Prepared {
  result: AnalysisResult;
  entrySession: string;
  reference: Bar | null;
  context: RowContext;
}

/** A run placed on the calendar, before its context (which needs the benchmark's bars). */
type Placed = Omit<Prepared, 'context'>;

/** Entry and reference on the ticker's own exchange: the next open after the decision, the last close it saw. */
function prepare(result: AnalysisResult): Placed {
  const calendar = calendarOf(result.ticker);
  return {
    result,
    entrySession: calendar.nextSessionAfter(new Date(result.asOf)),
    reference: referenceBar(result, calendar),
  };
}

/**
 * The span one request must cover for these runs: a few days before the first reference to
 * the last horizon (never past today's last close), in the sessions of the symbol fetched.
 */
function spanOf(
  prepared: readonly Placed[],
  calendar: ExchangeCalendar,
  horizons: readonly number[],
  now: Date,
  lead = leadDays,
): BarsOptions {
  const longest = Math.max(...horizons);
  const starts = prepared.map((item) => item.reference?.date ?? item.result.asOf.slice(0, 10));
  // sessionsAfter grows with its start: the latest entry session has the latest end (one walk, not one per run).
  const lastEntry = prepared.reduce((max, item) => (item.entrySession > max ? item.entrySession : max), '');
  const latest = calendar.latestClosedSession(now);
  const to = calendar.sessionsAfter(addDays(lastEntry, -1), longest);
  return {
    from: addDays(
      starts.reduce((min, day) => (day < min ? day : min)),
      -lead,
    ),
    to: to < latest ? to : latest,
  };
}

function rescalingOf(reference: Bar | null, sessions: readonly PricedSession[]): Rescaling | null {
  if (!reference?.close) return null;
  const refetched = sessions.find((session) => session.date === reference.date);
  if (!refetched) return null;
  const ratio = refetched.close / reference.close;
  if (Math.abs(ratio - 1) <= rescaleTolerance) return null;
  return { date: reference.date, savedClose: reference.close, refetchedClose: refetched.close, ratio };
}

/** Why a rescaling cannot be trusted (an infinite or absurd ratio), or null when it can. */
export function rescaleProblem(rescaled: Rescaling | null): string | null {
  if (rescaled === null) return null;
  const { ratio, savedClose, refetchedClose, date } = rescaled;
  if (Number.isFinite(ratio) && ratio > 0 && ratio <= absurdRescaleRatio && ratio >= 1 / absurdRescaleRatio)
    return null;
  return `the ${date} close is ${refetchedClose} now but was saved as ${savedClose}: a rescale ratio of ${ratio} is not a split or a revision, so the row is not scored`;
}

function scale(value: number | null, rescaled: Rescaling | null): number | null {
  return value === null || rescaled === null ? value : value * rescaled.ratio;
}

function benchmarkReturn(
  benchmark: ReadonlyMap<string, PricedSession> | null,
  from: string | null,
  to: string | null,
): number | null {
  if (!benchmark || !from || !to) return null;
  const start = benchmark.get(from);
  const end = benchmark.get(to);
  return start && end ? end.close / start.open - 1 : null;
}

interface Benchmarks {
  market: ReadonlyMap<string, PricedSession> | null;
  /** By sector ETF, with --sector-benchmarks; a missing entry is an ETF whose prices could not be had. */
  sectors: ReadonlyMap<string, ReadonlyMap<string, PricedSession>> | null;
}

function scoreRow(
  item: Prepared,
  sessions: readonly PricedSession[],
  benchmarks: Benchmarks,
  horizons: readonly number[],
): DecisionRow {
  const { result } = item;
  const decision = result.decision!;
  const benchmark = benchmarks.market;
  const rescaled = rescalingOf(item.reference, sessions);
  const badRatio = rescaleProblem(rescaled);
  if (badRatio !== null) return { ...unscoredRow(item, badRatio), rescaled };
  const sector = item.context.sectorBenchmark ? (benchmarks.sectors?.get(item.context.sectorBenchmark) ?? null) : null;
  const plan: TradePlan = {
    action: decision.action,
    orderType: decision.orderType,
    entry: scale(decision.entry, rescaled),
    stopLoss: scale(decision.stopLoss, rescaled),
    takeProfit: scale(decision.takeProfit, rescaled),
  };
  const found = sessions.findIndex((session) => session.date >= item.entrySession);
  const entryIndex = found === -1 ? sessions.length : found;
  const sign = decision.action === 'BUY' ? 1 : decision.action === 'SELL' ? -1 : 0;
  const scored = horizons.map((horizon): HorizonResult => {
    const trade = simulateTrade(plan, sessions, entryIndex, horizon);
    const bench = benchmarkReturn(benchmark, trade.entryDate, trade.exitDate);
    const exitIndex = entryIndex + horizon - 1;
    const buyAndHold =
      exitIndex < sessions.length
        ? {
            stockReturn: sessions[exitIndex]!.close / sessions[entryIndex]!.open - 1,
            benchmarkReturn: benchmarkReturn(benchmark, sessions[entryIndex]!.date, sessions[exitIndex]!.date),
          }
        : null;
    const excess =
      trade.signedReturn !== null && trade.stockReturn !== null && bench !== null
        ? sign * (trade.stockReturn - bench)
        : null;
    const sectorReturn = benchmarks.sectors
      ? { sectorReturn: benchmarkReturn(sector, trade.entryDate, trade.exitDate) }
      : {};
    return { horizon, ...trade, benchmarkReturn: bench, excess, buyAndHold, ...sectorReturn };
  });
  return { ...baseRow(item), ...plan, rescaled, horizons: scored };
}

function baseRow(
  item: Prepared,
): Omit<DecisionRow, 'entry' | 'stopLoss' | 'takeProfit' | 'rescaled' | 'horizons' | 'action' | 'orderType'> &
  Pick<DecisionRow, 'action' | 'orderType'> {
  const { result } = item;
  const decision = result.decision!;
  return {
    runId: result.runId,
    ticker: result.ticker,
    asOf: result.asOf,
    asOfMode: result.asOfMode ?? 'live',
    contamination: contaminationLabel(result),
    action: decision.action,
    conviction: decision.conviction,
    orderType: decision.orderType,
    momentum: momentumSign(result),
    entrySession: item.entrySession,
    ...item.context,
    problem: null,
    status: result.status,
    demo: result.demo === true,
    ...runKindOf(result),
  };
}

function unscoredRow(item: Prepared, problem: string): DecisionRow {
  const decision = item.result.decision!;
  return {
    ...baseRow(item),
    entry: decision.entry,
    stopLoss: decision.stopLoss,
    takeProfit: decision.takeProfit,
    rescaled: null,
    horizons: [],
    problem,
  };
}

async function fetchSessions(
  prices: PriceSource,
  ticker: string,
  span: BarsOptions,
  signal: AbortSignal | undefined,
): Promise<PricedSession[] | string> {
  try {
    return priced(await prices.bars(ticker, { ...span, ...(signal ? { signal } : {}) }));
  } catch (error) {
    if (signal?.aborted) throw new InterruptedError();
    // A cassette miss or a programmer error is not "no prices for this ticker".
    if (!(error instanceof DataError)) throw error;
    return errorMessage(error);
  }
}

interface Fetched {
  benchmark: PricedSession[] | string;
  tickers: Array<PricedSession[] | string>;
  sectors: Map<string, Map<string, PricedSession>> | null;
}

/** Every request at once: the benchmark's (reaching back far enough for the regimes), one per ticker, one per sector ETF. */
async function fetchAll(
  byTicker: ReadonlyArray<[string, Placed[]]>,
  options: EvaluateOptions,
  prices: PriceSource,
  warnings: string[],
): Promise<Fetched> {
  const all = byTicker.flatMap(([, items]) => items);
  const span = (symbol: string, items: readonly Placed[], lead?: number) =>
    spanOf(items, calendarOf(symbol), options.horizons, options.now, lead);
  const etfs = options.sectorBenchmarks
    ? [...new Set(all.flatMap((item) => sectorEtfOf(item.result) ?? []))].sort()
    : [];
  const [benchmark, tickers, sectorSessions] = await Promise.all([
    fetchSessions(prices, options.benchmark, span(options.benchmark, all, benchmarkLeadDays), options.signal),
    Promise.all(byTicker.map(([ticker, items]) => fetchSessions(prices, ticker, span(ticker, items), options.signal))),
    Promise.all(etfs.map((etf) => fetchSessions(prices, etf, span(etf, all), options.signal))),
  ]);
  let sectors: Map<string, Map<string, PricedSession>> | null = null;
  if (options.sectorBenchmarks) {
    sectors = new Map();
    etfs.forEach((etf, index) => {
      const sessions = sectorSessions[index]!;
      if (typeof sessions === 'string')
        warnings.push(`sector benchmark ${etf}: ${sessions}; its decisions are not in the sector regression`);
      else sectors!.set(etf, new Map(sessions.map((session) => [session.date, session])));
    });
  }
  return { benchmark, tickers, sectors };
}

/** A row, or the row unscored with the reason when something in this one run cannot be scored. */
function safeScoreRow(
  item: Prepared,
  sessions: readonly PricedSession[],
  benchmarks: Benchmarks,
  horizons: readonly number[],
): DecisionRow {
  try {
    return scoreRow(item, sessions, benchmarks, horizons);
  } catch (error) {
    return unscoredRow(item, `cannot be scored: ${errorMessage(error)}`);
  }
}

function rescaleWarning(row: DecisionRow): string | null {
  if (!row.rescaled) return null;
  if (row.problem !== null) return `${row.ticker} ${row.runId}: ${row.problem}`;
  return `${row.ticker} ${row.runId}: the ${row.rescaled.date} close is ${row.rescaled.refetchedClose} now but was ${row.rescaled.savedClose} at the run (a split or a revision); its levels were rescaled by ${row.rescaled.ratio.toFixed(4)}`;
}

/** Runs whose dates are not dates cannot be placed on the calendar: said, and left out. */
function scorable(results: readonly AnalysisResult[], warnings: string[]): AnalysisResult[] {
  return results.filter((result) => {
    if (result.decision === null) return false;
    const reason =
      unscorableReason(result) ??
      (findCalendarOf(result.ticker) === null ? `no exchange calendar for the ticker ${result.ticker}` : null);
    if (reason !== null) warnings.push(`run ${result.runId}: cannot be scored: ${reason}`);
    return reason === null;
  });
}

/** Score every run (each must have a decision) over every horizon. */
export async function evaluateRuns(
  results: readonly AnalysisResult[],
  options: EvaluateOptions,
  prices: PriceSource,
): Promise<Evaluation> {
  const warnings: string[] = [];
  const prepared = scorable(results, warnings).map(prepare);
  const evaluation: Evaluation = {
    evaluatedAt: options.now.toISOString(),
    horizons: options.horizons,
    benchmark: options.benchmark,
    decisions: [],
    warnings,
  };
  if (prepared.length === 0) return evaluation;

  const byTicker = new Map<string, Placed[]>();
  for (const item of prepared) byTicker.set(item.result.ticker, [...(byTicker.get(item.result.ticker) ?? []), item]);
  const tickers = [...byTicker];
  const fetched = await fetchAll(tickers, options, prices, warnings);
  let benchmark: Map<string, PricedSession> | null = null;
  if (typeof fetched.benchmark === 'string')
    warnings.push(`benchmark ${options.benchmark}: ${fetched.benchmark}; excess returns are not available`);
  else benchmark = new Map(fetched.benchmark.map((session) => [session.date, session]));
  const benchmarkSessions = typeof fetched.benchmark === 'string' ? null : fetched.benchmark;
  const benchmarks: Benchmarks = { market: benchmark, sectors: fetched.sectors };
  const benchmarkCalendar = calendarOf(options.benchmark);

  const rows = tickers.map(([ticker, bare], index) => {
    const sessions = fetched.tickers[index]!;
    const items = bare.map((item) => ({
      ...item,
      context: rowContext(item.result, benchmarkSessions, options.sectorBenchmarks === true, benchmarkCalendar),
    }));
    if (typeof sessions === 'string') {
      warnings.push(`${ticker}: ${sessions}; its ${items.length} decision(s) are not scored`);
      return items.map((item) => unscoredRow(item, sessions));
    }
    return items.map((item) => safeScoreRow(item, sessions, benchmarks, options.horizons));
  });
  evaluation.decisions = rows
    .flat()
    .sort((left, right) =>
      left.asOf === right.asOf ? left.ticker.localeCompare(right.ticker) : left.asOf < right.asOf ? -1 : 1,
    );
  for (const row of evaluation.decisions) {
    const warning = rescaleWarning(row);
    if (warning !== null) warnings.push(warning);
  }
  return evaluation;
}
