import type { AnalysisResult } from '../result/types.js';
import { listRuns, loadRun } from '../store/index.js';

/**
 * Which saved runs an evaluation scores: the named ones, or every saved run; only runs
 * with a decision, only those as of `since` or later, and demo runs (synthetic data)
 * only when asked for.
 */

export interface SelectOptions {
  runIds: readonly string[];
  /** YYYY-MM-DD: runs as of this day or later. */
  since?: string;
  includeDemo: boolean;
}

export interface Selection {
  results: AnalysisResult[];
  /** Named runs that were left out, and runs left out for a reason worth saying. */
  skipped: Array<{ runId: string; reason: string }>;
}

function exclusion(result: AnalysisResult, options: SelectOptions): string | null {
  if (result.decision === null)
    return `no decision (run ${result.status}${result.mode === 'agents' ? ', desks only' : ''})`;
  if (result.demo && !options.includeDemo) return 'a demo run (synthetic data); add --include-demo to score it';
  if (options.since && result.asOf.slice(0, 10) < options.since)
    return `as of ${result.asOf.slice(0, 10)}, before --since ${options.since}`;
  return null;
}

export async function selectRuns(home: string, options: SelectOptions): Promise<Selection> {
  const named = options.runIds.length > 0;
  const selection: Selection = { results: [], skipped: [] };
  let ids = [...options.runIds];
  if (!named) {
    const runs = await listRuns(home);
    ids = runs.filter((run) => run.state === 'ok').map((run) => run.runId);
    // A run that cannot be read is said, not silently left out of the record.
    for (const run of runs)
      if (run.state !== 'ok')
        selection.skipped.push({ runId: run.runId, reason: `${run.state}: ${run.problem ?? 'unreadable'}` });
  }
  const seen = new Set<string>();
  for (const id of ids) {
    // A named id that matches nothing, or matches several, is the user's to fix: loadRun says which.
    const result = await loadRun(home, id);
    if (seen.has(result.runId)) continue;
    seen.add(result.runId);
    const reason = exclusion(result, options);
    if (reason === null) selection.results.push(result);
    // Scanning every run, a run without a decision is not news; a named one, or a demo, is.
    else if (named || result.demo) selection.skipped.push({ runId: result.runId, reason });
  }
  return selection;
}
