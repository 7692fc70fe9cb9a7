import type { AnalysisResult } from '../result/types.js';

/**
 * The Select Sector SPDR ETF for a run's sector (from its snapshot's identity), the
 * second regressor of `evaluate --sector-benchmarks`. The market vendor names sectors its own way
 * ("Financial Services", "Consumer Cyclical"); the GICS names are accepted too.
 */
export const sectorEtfs: Readonly<Record<string, string>> = {
  technology: 'XLK',
  'information technology': 'XLK',
  'financial services': 'XLF',
  financials: 'XLF',
  healthcare: 'XLV',
  'health care': 'XLV',
  'consumer cyclical': 'XLY',
  'consumer discretionary': 'XLY',
  'consumer defensive': 'XLP',
  'consumer staples': 'XLP',
  energy: 'XLE',
  industrials: 'XLI',
  'basic materials': 'XLB',
  materials: 'XLB',
  'real estate': 'XLRE',
  utilities: 'XLU',
  'communication services': 'XLC',
};

/** The sector ETF of a run, or null when its sector is unknown or not in the table. */
export function sectorEtfOf(result: AnalysisResult): string | null {
  const sector = result.market?.identity?.sector;
  if (typeof sector !== 'string') return null;
  return sectorEtfs[sector.trim().toLowerCase()] ?? null;
}
