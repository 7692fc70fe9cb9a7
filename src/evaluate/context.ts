import type { ExchangeCalendar } from '../market/calendar/index.js';
import type { AnalysisResult } from '../result/types.js';
import { configurationKey } from './configurations.js';
import type { PricedSession } from './outcome.js';
import { benchmarkTrend, regimeOfTrend, type Regime } from './regimes.js';
import { sectorEtfOf } from './sectors.js';

/**
 * What attribution needs of a decision beyond its outcome: the market regime it was made
 * in, its run's model bill, its configuration (for the trials count), and its sector ETF.
 */
export interface RowContext {
  /** The benchmark's 63-session trend into the as-of session, and its label; null when the bars do not reach back. */
  benchmarkTrend: number | null;
  regime: Regime | null;
  /** The run's recorded bill (model tokens and search fees); null when a price was unknown. */
  modelUsd: number | null;
  configuration: string;
  /** With --sector-benchmarks: the sector's SPDR ETF, or null when the sector is not known. */
  sectorBenchmark?: string | null;
}

export function rowContext(
  result: AnalysisResult,
  benchmark: readonly PricedSession[] | null,
  sectorBenchmarks: boolean,
  benchmarkCalendar?: ExchangeCalendar,
): RowContext {
  const trend = benchmark ? benchmarkTrend(benchmark, new Date(result.asOf), benchmarkCalendar) : null;
  const cost = result.usage?.costUsd;
  return {
    benchmarkTrend: trend,
    regime: trend === null ? null : regimeOfTrend(trend),
    modelUsd: typeof cost === 'number' && Number.isFinite(cost) ? cost : null,
    configuration: configurationKey(result),
    ...(sectorBenchmarks ? { sectorBenchmark: sectorEtfOf(result) } : {}),
  };
}
