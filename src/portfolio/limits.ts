import type { PortfolioLimits } from './types.js';

/** Every constraint's default, as documented in docs/portfolio.md and `autohedge portfolio --help`. */
export const defaultPortfolioLimits: PortfolioLimits = {
  minCashPct: 5,
  maxWeightPct: 10,
  maxSectorPct: 30,
  maxGrossPct: 100,
  maxNetPct: 100,
  maxRiskPct: 2,
  targetVolPct: null,
  maxTurnoverPct: null,
  minTradeUsd: 100,
  fractional: false,
  allowShort: false,
  includeFlagged: false,
};

/** The sector a name without one is counted in. */
export const unknownSector = 'Unknown';
