import { decision, input, limits, market } from './support.js';

// NAV 100,000: ACME 15 % trimmed to a BUY of 4 %, BETA 5 % sold to 0, GAMMA bought from 0 to
// 6 %, DELTA shorted from 0 to −3 %: a label on each side of the axis, and zero-width bars.
export const mixedBook = input({
  holdings: {
    cash: 80_000,
    positions: [
      { symbol: 'ACME', quantity: 150, costBasis: null, currency: null },
      { symbol: 'BETA', quantity: 50, costBasis: null, currency: null },
    ],
  },
  decisions: [
    decision('ACME', { action: 'BUY', conviction: 64, positionSizePct: 4, stopLoss: 90 }),
    decision('BETA', { action: 'SELL', conviction: 70, positionSizePct: 5 }),
    decision('GAMMA', { action: 'BUY', conviction: 60, positionSizePct: 6, stopLoss: 90 }),
    decision('DELTA', { action: 'SELL', conviction: 55, positionSizePct: 3, stopLoss: 110 }),
  ],
  market: [market('ACME', 100), market('BETA', 100), market('GAMMA', 100), market('DELTA', 100)],
  limits: limits({ maxWeightPct: 20, maxSectorPct: 100, allowShort: true }),
});
