import { findCalendarOf } from '../market/calendar/index.js';
import type { AnalysisResult } from '../result/types.js';

/**
 * The line a historical run's report opens with: as of which close, and whether its
 * models may remember what came next. Null for a live run (and runs saved before
 * --as-of existed, which were live).
 */
export function historicalBanner(
  result: Pick<AnalysisResult, 'asOf' | 'asOfMode' | 'contamination'> & { ticker?: string },
): string | null {
  if (result.asOfMode !== 'historical') return null;
  const day = result.asOf.slice(0, 10);
  const label = result.contamination?.label ?? 'unknown';
  const contamination =
    label === 'contaminated'
      ? 'CONTAMINATED: the model was trained after this day and may remember what happened next'
      : label === 'clean'
        ? 'clean: after the training cutoff of every model used'
        : 'contamination unknown: a model with no known training cutoff was used';
  // The ticker's own exchange's close ("the 2024-03-01 Tokyo Stock Exchange close").
  const exchange = findCalendarOf(result.ticker ?? '')?.exchange;
  const market = exchange === undefined || exchange.mic === 'XNYS' ? 'US market' : exchange.name;
  return `HISTORICAL — as of the ${day} ${market} close; no market data from after it · ${contamination}`;
}
