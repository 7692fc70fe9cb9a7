import { findCalendarOf } from '../market/calendar/index.js';
import type { AnalysisResult } from '../result/types.js';
import { configurationKey } from './configurations.js';
import type { Selection, SkippedRun } from './select.js';

/**
 * One decision per call: runs of one ticker entering at one session with one configuration
 * are re-runs of the same call, not independent evidence (eight identical demo runs would
 * otherwise narrow the Wilson interval as if they were eight trades). The newest is scored;
 * the others are set aside and counted, so n is the number of independent calls everywhere.
 */

/** The session a run's trade enters at, on the ticker's exchange (its calendar day when the exchange is unknown). */
function entrySessionOf(result: AnalysisResult): string {
  const calendar = findCalendarOf(result.ticker);
  const at = new Date(result.asOf);
  if (calendar === null || Number.isNaN(at.getTime())) return result.asOf.slice(0, 10);
  return calendar.nextSessionAfter(at);
}

/** What makes two runs the same call: ticker, entry session, configuration, and whether the model knew the stock. */
export function callKey(result: AnalysisResult): string {
  return JSON.stringify([
    result.ticker.toUpperCase(),
    entrySessionOf(result),
    configurationKey(result),
    result.blind !== undefined,
  ]);
}

/** Newest first: by when the run started, then by id (ids begin with their time). */
function newer(left: AnalysisResult, right: AnalysisResult): boolean {
  if (left.startedAt !== right.startedAt) return left.startedAt > right.startedAt;
  return left.runId > right.runId;
}

export interface Independent {
  results: AnalysisResult[];
  /** The re-runs set aside, each naming the run scored in its place. */
  reruns: SkippedRun[];
}

export function independentCalls(results: readonly AnalysisResult[]): Independent {
  const newest = new Map<string, AnalysisResult>();
  for (const result of results) {
    const key = callKey(result);
    const held = newest.get(key);
    if (!held || newer(result, held)) newest.set(key, result);
  }
  const kept = new Set(newest.values());
  const reruns = results
    .filter((result) => !kept.has(result))
    .map((result) => ({
      runId: result.runId,
      reason: `re-run of ${newest.get(callKey(result))!.runId} (same ticker, entry session and configuration): only the newest is scored`,
      rerun: true as const,
    }));
  return { results: results.filter((result) => kept.has(result)), reruns };
}

/** The selection with its re-runs set aside (listed as skipped, marked `rerun`). */
export function withoutReruns(selection: Selection): Selection & { reruns: number } {
  const { results, reruns } = independentCalls(selection.results);
  return { results, skipped: [...selection.skipped, ...reruns], reruns: reruns.length };
}
