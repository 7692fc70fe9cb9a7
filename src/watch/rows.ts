import type { CallSummary } from './calls.js';
import { plainProblem, type WatchReport } from './delta.js';
import type { Trigger } from './triggers.js';

/**
 * The cycle as one row per ticker, for the watch page (delta.html): the call that stands
 * after the cycle (its action, status, conviction and levels), the price the cycle read,
 * what the cycle did with the ticker, and the run whose report holds the call. Pure, so
 * the page's content is tested without HTML.
 */

export type RowKind = 'analysed' | 'queued' | 'failed' | 'skipped' | 'carried' | 'unavailable';

export interface WatchRow {
  ticker: string;
  kind: RowKind;
  /** BUY / SELL / HOLD, or null when the ticker has no call. */
  action: CallSummary['action'] | null;
  /** Shown only when it qualifies the call: a flagged or degraded run. */
  status: 'flagged' | 'degraded' | null;
  conviction: number | null;
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
  price: number | null;
  /** What this cycle did: "analysed (no-call): first call", "carried, 1 session old". */
  note: string;
  /** The run whose report.html holds the row's call (or the failed run's), else null. */
  runId: string | null;
}

/** A carried call's age: "from today's session", "1 session old", "3 sessions old". */
export function ageInWords(sessions: number): string {
  if (sessions <= 0) return "from today's session";
  return sessions === 1 ? '1 session old' : `${sessions} sessions old`;
}

type Call = Pick<CallSummary, 'action' | 'status' | 'conviction' | 'entry' | 'stopLoss' | 'takeProfit'>;

function callColumns(call: Partial<Call> | null | undefined) {
  const status = call?.status === 'flagged' || call?.status === 'degraded' ? call.status : null;
  return {
    action: call?.action ?? null,
    status,
    conviction: call?.conviction ?? null,
    entry: call?.entry ?? null,
    stopLoss: call?.stopLoss ?? null,
    takeProfit: call?.takeProfit ?? null,
  };
}

const names = (triggers: readonly Trigger[]) => triggers.map((trigger) => trigger.name).join(', ');

function analysedRow(item: WatchReport['analysed'][number]): WatchRow {
  const why = names(item.triggers);
  const price = item.price ?? null;
  if (item.jobId !== undefined)
    return {
      ticker: item.ticker,
      kind: 'queued',
      ...callColumns(item.previous),
      price,
      note: `queued as job ${item.jobId} (${why})`,
      runId: item.previous?.runId ?? null,
    };
  if (item.problem !== undefined)
    return {
      ticker: item.ticker,
      kind: 'failed',
      ...callColumns(item.previous),
      price,
      note: `analysis failed (${why}): ${plainProblem(item.problem)}`,
      runId: item.runId ?? item.previous?.runId ?? null,
    };
  return {
    ticker: item.ticker,
    kind: 'analysed',
    ...callColumns(item.current),
    price,
    note: `analysed (${why}): ${item.changes.length > 0 ? item.changes.join('; ') : 'same call'}`,
    runId: item.runId,
  };
}

/** Every ticker of the cycle once: analysed, queued or failed, skipped, carried, then without market data. */
export function watchRows(report: WatchReport): WatchRow[] {
  return [
    ...report.analysed.map(analysedRow),
    ...report.skipped.map((item): WatchRow => ({
      ticker: item.ticker,
      kind: 'skipped',
      ...callColumns(item.previous),
      price: item.price ?? null,
      note: `skipped (${names(item.triggers)}): ${item.reason}`,
      runId: item.previous?.runId ?? null,
    })),
    ...report.carried.map((item): WatchRow => ({
      ticker: item.ticker,
      kind: 'carried',
      ...callColumns(item),
      price: item.price ?? null,
      note: `carried, ${ageInWords(item.ageSessions)}`,
      runId: item.runId,
    })),
    ...report.unavailable.map((item): WatchRow => ({
      ticker: item.ticker,
      kind: 'unavailable',
      ...callColumns(null),
      price: null,
      note: `no market data: ${plainProblem(item.reason)}`,
      runId: null,
    })),
  ];
}
