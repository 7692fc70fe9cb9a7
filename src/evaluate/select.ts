import type { AnalysisResult } from '../result/types.js';
import { loadRun, readSavedRuns } from '../store/index.js';
import { unscorableReason } from './validate.js';

/**
 * Which saved runs an evaluation scores: the named ones, or every saved run; only runs
 * with a decision, only those as of `since` or later, and demo runs (synthetic data)
 * only when asked for. A run that cannot be read, or whose dates are not dates, is
 * skipped with its id and reason and counted as unreadable: the caller says how many
 * and exits non-zero, so no decision is left out silently.
 */

export interface SelectOptions {
  runIds: readonly string[];
  /** YYYY-MM-DD: runs as of this day or later. */
  since?: string;
  includeDemo: boolean;
  /** `evaluate --demo`: demo runs only, for they alone may be scored against the synthetic prices. */
  demoOnly?: boolean;
}

export interface SkippedRun {
  runId: string;
  reason: string;
  /** Set when the run could not be read or understood (not merely left out by a filter). */
  unreadable?: true;
  /** Set when the run is a re-run of a call scored in its place (reruns.ts). */
  rerun?: true;
}

export interface Selection {
  results: AnalysisResult[];
  /** Named runs that were left out, and runs left out for a reason worth saying. */
  skipped: SkippedRun[];
}

function exclusion(result: AnalysisResult, options: SelectOptions): string | null {
  if (result.decision === null)
    return `no decision (run ${result.status}${result.mode === 'agents' ? ', desks only' : ''})`;
  if (options.demoOnly && !result.demo)
    return 'not a demo run: `evaluate --demo` scores demo runs only, against synthetic prices';
  if (result.demo && !options.includeDemo && !options.demoOnly)
    return 'a demo run (synthetic data): score it offline with `autohedge evaluate --demo`';
  if (options.since && result.asOf.slice(0, 10) < options.since)
    return `as of ${result.asOf.slice(0, 10)}, before --since ${options.since}`;
  return null;
}

function consider(result: AnalysisResult, options: SelectOptions, named: boolean, selection: Selection): void {
  const broken = unscorableReason(result);
  if (broken !== null) {
    selection.skipped.push({ runId: result.runId, reason: `cannot be scored: ${broken}`, unreadable: true });
    return;
  }
  const reason = exclusion(result, options);
  if (reason === null) selection.results.push(result);
  // Scanning every run, a run without a decision is not news; a named one, or a demo, is.
  else if (named || result.demo) selection.skipped.push({ runId: result.runId, reason });
}

export async function selectRuns(home: string, options: SelectOptions): Promise<Selection> {
  const selection: Selection = { results: [], skipped: [] };
  if (options.runIds.length === 0) {
    for (const entry of await readSavedRuns(home)) {
      if (entry.state === 'ok') consider(entry.result, options, false, selection);
      // A run still being saved is not a failure to read; a corrupt or unreadable one is.
      else if (entry.state === 'partial')
        selection.skipped.push({ runId: entry.runId, reason: `partial: ${entry.problem}` });
      else selection.skipped.push({ runId: entry.runId, reason: `${entry.state}: ${entry.problem}`, unreadable: true });
    }
    return selection;
  }
  const seen = new Set<string>();
  for (const id of options.runIds) {
    // A named id that matches nothing, or matches several, is the user's to fix: loadRun says which.
    const result = await loadRun(home, id);
    if (seen.has(result.runId)) continue;
    seen.add(result.runId);
    consider(result, options, true, selection);
  }
  return selection;
}

/** How many runs could not be read or understood. */
export function unreadableCount(selection: Pick<Selection, 'skipped'>): number {
  return selection.skipped.filter((item) => item.unreadable).length;
}
