import type { AnalysisResult } from '../result/types.js';

/**
 * The line a historical run's report opens with: as of which close, and whether its
 * models may remember what came next. Null for a live run (and runs saved before
 * --as-of existed, which were live).
 */
export function historicalBanner(result: Pick<AnalysisResult, 'asOf' | 'asOfMode' | 'contamination'>): string | null {
  if (result.asOfMode !== 'historical') return null;
  const day = result.asOf.slice(0, 10);
  const label = result.contamination?.label ?? 'unknown';
  const contamination =
    label === 'contaminated'
      ? 'CONTAMINATED: the model was trained after this day and may remember what happened next'
      : label === 'clean'
        ? 'clean: after the training cutoff of every model used'
        : 'contamination unknown: a model with no known training cutoff was used';
  return `HISTORICAL — as of the ${day} US market close; no market data from after it · ${contamination}`;
}
