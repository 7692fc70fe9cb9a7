import type { CallSummary } from './calls.js';
import type { Trigger } from './triggers.js';

/** One triggered ticker that was analysed (or queued): what it was, what it is now. */
export interface AnalysedTicker {
  ticker: string;
  triggers: Trigger[];
  /** The new run, or null when it was queued for a worker (`--queue`) or failed to start. */
  runId: string | null;
  previous: CallSummary | null;
  current: CallSummary | null;
  /** Plain lines: "action BUY → HOLD", "stop 94 → 96.5", "new flag: stop-too-tight". */
  changes: string[];
  /** Set when the ticker was enqueued instead of run here. */
  jobId?: string;
  /** Set when the analysis ended without a call (failed, degraded without a decision, interrupted). */
  problem?: string;
  /** The price this cycle read (the quote, or the last close as of a past session); absent in older reports. */
  price?: number | null;
}

export interface CarriedTicker {
  ticker: string;
  ageSessions: number;
  runId: string;
  action: CallSummary['action'];
  /** The carried call's run status and conviction (absent in reports saved before they were shown). */
  status?: CallSummary['status'];
  conviction?: number;
  /** The carried call's levels and the price this cycle read (absent in older reports). */
  entry?: number | null;
  stopLoss?: number | null;
  takeProfit?: number | null;
  price?: number | null;
}

export interface SkippedTicker {
  ticker: string;
  triggers: Trigger[];
  reason: string;
  /** The call that stands until the ticker is analysed, if any, and the price this cycle read. */
  previous?: CallSummary | null;
  price?: number | null;
}

export interface WatchReport {
  /** The cycle's id: its as-of instant and when it ran. */
  cycle: string;
  asOf: string;
  historical: boolean;
  analysed: AnalysedTicker[];
  carried: CarriedTicker[];
  skipped: SkippedTicker[];
  /** Tickers whose market data could not be had this cycle: nothing decided for them. */
  unavailable: Array<{ ticker: string; reason: string }>;
  spend: { monthUsd: number; budgetUsd: number | null; worstCasePerRunUsd: number };
  /** Set when the cycle ran on the shipped demo data: every surface says DEMO. */
  demo?: boolean;
}

/**
 * How a cycle ended, for its exit code: `failed` when an analysis failed (no call), `degraded`
 * when market data was missing or a new call is degraded, else `ok`.
 */
export function cycleOutcome(report: WatchReport): 'ok' | 'degraded' | 'failed' {
  if (report.analysed.some((item) => item.problem !== undefined)) return 'failed';
  if (report.unavailable.length > 0 || report.analysed.some((item) => item.current?.status === 'degraded'))
    return 'degraded';
  return 'ok';
}

/** A call as one phrase: "BUY (FLAGGED), conviction 64"; a clean run shows no status. */
export function callPhrase(call: {
  action: string;
  status?: string | undefined;
  conviction?: number | undefined;
}): string {
  const status = call.status === 'flagged' || call.status === 'degraded' ? ` (${call.status.toUpperCase()})` : '';
  return `${call.action}${status}${call.conviction !== undefined ? `, conviction ${call.conviction}` : ''}`;
}

/**
 * A failure as the report shows it: no error class names, and a URL only as its host (a
 * vendor's full URL with its query is noise, and may carry a token).
 */
export function plainProblem(text: string): string {
  return text
    .replace(/^(?:[A-Z][A-Za-z]*Error):\s*/, '')
    .replace(/\b[A-Z][A-Za-z]*Error:\s*/g, '')
    .replace(/https?:\/\/([^/\s'"]+)[^\s'"]*/g, '$1');
}

/** What changed between two calls on one ticker, as short lines; none when nothing did. */
export function changesBetween(previous: CallSummary | null, current: CallSummary | null): string[] {
  if (current === null) return [];
  if (previous === null) return [`first call: ${current.action} (conviction ${current.conviction})`];
  const lines: string[] = [];
  if (previous.action !== current.action) lines.push(`action ${previous.action} → ${current.action}`);
  const levels: Array<[string, number | null, number | null]> = [
    ['entry', previous.entry, current.entry],
    ['stop', previous.stopLoss, current.stopLoss],
    ['target', previous.takeProfit, current.takeProfit],
    ['size %', previous.positionSizePct, current.positionSizePct],
  ];
  for (const [name, before, after] of levels) {
    if (before !== after) lines.push(`${name} ${format(before)} → ${format(after)}`);
  }
  for (const flag of current.flags.filter((rule) => !previous.flags.includes(rule))) lines.push(`new flag: ${flag}`);
  return lines;
}

/** Whether a cycle has anything to tell: a changed call, or a triggered ticker left for later. */
export function hasChanges(report: WatchReport): boolean {
  return (
    report.analysed.some((item) => item.changes.length > 0 || item.problem !== undefined) || report.skipped.length > 0
  );
}

function format(value: number | null): string {
  return value === null ? 'none' : String(value);
}
