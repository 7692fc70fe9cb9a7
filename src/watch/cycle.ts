import { errorMessage } from '../errors.js';
import type { MarketSnapshot } from '../market/types.js';
import type { AnalysisResult } from '../result/types.js';
import type { SpendReservations } from '../run/spend-reservations.js';
import type { RunSummary } from '../store/run-store.js';
import { admitWithinBudget, monthSpend } from './budget.js';
import { knownCall, type KnownCall } from './calls.js';
import { changesBetween, type AnalysedTicker, type WatchReport } from './delta.js';
import { evaluateTriggers, sessionsSince, triggerPriority, type Trigger, type TriggerLimits } from './triggers.js';

/**
 * One watch cycle, as a function of what it is handed: fetch market data for every
 * ticker (cheap, cached), evaluate the triggers against each ticker's last call, admit
 * the triggered ones most urgent first within the month's budget, run (or enqueue) those,
 * carry the rest. The shell (src/cli/commands/watch.ts) supplies the clients.
 */

export interface CycleInput {
  tickers: readonly string[];
  /** The cycle's as-of instant, and whether it is a past session (`--as-of`). */
  asOf: Date;
  historical: boolean;
  limits: TriggerLimits;
  budgetUsd: number | undefined;
  worstCasePerRunUsd: number;
}

export interface CycleDeps {
  snapshot(ticker: string): Promise<MarketSnapshot>;
  lastCalls(tickers: readonly string[]): Promise<Map<string, KnownCall>>;
  /** `fresh`: listed again, past a listing kept for the cycle (the cycle's own runs are saved by then). */
  savedRuns(options?: { fresh?: boolean }): Promise<RunSummary[]>;
  /** The wall clock: which month the budget is of. */
  now(): Date;
  /** Runs the admitted tickers here (through the run service), each result as it finishes. */
  analyse?(tickers: readonly string[]): Promise<Map<string, AnalysisResult | Error>>;
  /** Or enqueues them for `worker`s (`--queue`): the job id per ticker. */
  enqueue?(tickers: readonly string[]): Promise<Map<string, string>>;
  /**
   * Where the admitted runs' worst cases are reserved while they run, so that other processes
   * on the same home see them (src/run/spend-reservations.ts). Without it, only saved runs count.
   */
  reservations?: SpendReservations;
}

interface Triggered {
  ticker: string;
  triggers: Trigger[];
  known: KnownCall | null;
  price: number | null;
}

export async function runCycle(input: CycleInput, deps: CycleDeps): Promise<WatchReport> {
  const report: WatchReport = {
    cycle: `${input.asOf.toISOString()}@${deps.now().toISOString()}`,
    asOf: input.asOf.toISOString(),
    historical: input.historical,
    analysed: [],
    carried: [],
    skipped: [],
    unavailable: [],
    spend: { monthUsd: 0, budgetUsd: input.budgetUsd ?? null, worstCasePerRunUsd: input.worstCasePerRunUsd },
  };
  const calls = await deps.lastCalls(input.tickers);
  const triggered: Triggered[] = [];
  for (const ticker of input.tickers) {
    const snapshot = await deps.snapshot(ticker).catch((error: unknown) => error as Error);
    if (snapshot instanceof Error) {
      report.unavailable.push({ ticker, reason: errorMessage(snapshot) });
      continue;
    }
    const known = calls.get(ticker) ?? null;
    const market = {
      bars: snapshot.bars,
      atr14: snapshot.indicators.atr14,
      earningsDate: input.historical ? null : (snapshot.quote.earningsDate ?? null),
    };
    const triggers = evaluateTriggers(known?.call ?? null, market, input.limits);
    const price = priceOf(snapshot);
    if (triggers.length > 0) triggered.push({ ticker, triggers, known, price });
    else if (known) {
      const { action, status, conviction, entry, stopLoss, takeProfit } = known.summary;
      report.carried.push({
        ticker,
        ageSessions: sessionsSince(known.call, snapshot.bars),
        runId: known.call.runId,
        ...{ action, status, conviction, entry, stopLoss, takeProfit, price },
      });
    }
  }
  triggered.sort(byUrgency);
  const { admitted, skipped, monthUsd, ids } = await admitTriggered(triggered, input, deps);
  report.spend.monthUsd = monthUsd;
  for (const item of skipped) {
    report.skipped.push({
      ticker: item.ticker,
      triggers: item.triggers,
      previous: item.known?.summary ?? null,
      price: item.price,
      reason: `the month's budget ($${input.budgetUsd?.toFixed(2)}) has no room for another run's worst case ($${input.worstCasePerRunUsd.toFixed(2)})`,
    });
  }
  try {
    report.analysed = await analyseAdmitted(admitted, deps);
  } finally {
    // Each admitted run is saved (or never ran) by now: its spend is in the store, not in flight.
    await deps.reservations?.release(ids);
  }
  // The month's spend as the cycle ends, this cycle's runs included (admission read it before them).
  if (admitted.length > 0 && !deps.enqueue)
    report.spend.monthUsd = roundUsd(monthSpend(await deps.savedRuns({ fresh: true }), deps.now()));
  return report;
}

/**
 * The triggered tickers the month's budget admits: the saved spend plus, with reservations,
 * what other processes on this home have in flight, both read under the home's lock.
 */
async function admitTriggered(
  triggered: Triggered[],
  input: CycleInput,
  deps: CycleDeps,
): Promise<{ admitted: Triggered[]; skipped: Triggered[]; monthUsd: number; ids: string[] }> {
  const decide = async (reservedUsd: number) => {
    const monthUsd = roundUsd(monthSpend(await deps.savedRuns(), deps.now()) + reservedUsd);
    const admission = admitWithinBudget(triggered, monthUsd, input.budgetUsd, input.worstCasePerRunUsd);
    return { decision: { ...admission, monthUsd }, reserveUsd: admission.admitted.map(() => input.worstCasePerRunUsd) };
  };
  // Enqueued runs are spent by workers later; only runs made here are held in flight.
  if (!deps.reservations || input.budgetUsd === undefined || deps.enqueue) {
    return { ...(await decide(0)).decision, ids: [] };
  }
  const { decision, ids } = await deps.reservations.admit(decide);
  return { ...decision, ids };
}

async function analyseAdmitted(admitted: Triggered[], deps: CycleDeps): Promise<AnalysedTicker[]> {
  const tickers = admitted.map((item) => item.ticker);
  if (tickers.length === 0) return [];
  if (deps.enqueue) {
    const jobs = await deps.enqueue(tickers);
    return admitted.map((item) => ({
      ...base(item),
      jobId: jobs.get(item.ticker) ?? '',
    }));
  }
  const results = (await deps.analyse?.(tickers)) ?? new Map<string, AnalysisResult | Error>();
  return admitted.map((item) => {
    const outcome = results.get(item.ticker);
    if (outcome === undefined) return { ...base(item), problem: 'not analysed (interrupted before it started)' };
    if (outcome instanceof Error) return { ...base(item), problem: errorMessage(outcome) };
    const current = outcome.decision ? knownCall(outcome).summary : null;
    const problem = current ? undefined : `${outcome.status}: no decision${outcome.error ? ` (${outcome.error})` : ''}`;
    return {
      ...base(item),
      runId: outcome.runId,
      current,
      changes: changesBetween(item.known?.summary ?? null, current),
      ...(problem ? { problem } : {}),
    };
  });
}

function base(item: Triggered): AnalysedTicker {
  return {
    ticker: item.ticker,
    triggers: item.triggers,
    runId: null,
    previous: item.known?.summary ?? null,
    current: null,
    changes: [],
    price: item.price,
  };
}

/** The price the cycle read: the quote, or (as of a past session, or without one) the last close. */
function priceOf(snapshot: MarketSnapshot): number | null {
  return snapshot.quote.price ?? snapshot.indicators.lastClose ?? null;
}

/** Most urgent trigger first, then the ticker, so the order never depends on fetch timing. */
function byUrgency(a: Triggered, b: Triggered): number {
  const rank = (item: Triggered) => Math.min(...item.triggers.map((trigger) => triggerPriority[trigger.name]));
  return rank(a) - rank(b) || a.ticker.localeCompare(b.ticker);
}

function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
