import { defaultPortfolioLimits } from '../../src/portfolio/limits.js';
import type { DecisionInput, MarketInput, PortfolioInput, PortfolioLimits } from '../../src/portfolio/types.js';

export function decision(ticker: string, overrides: Partial<DecisionInput> = {}): DecisionInput {
  return {
    ticker,
    runId: `run-${ticker}`,
    asOf: '2026-11-27T21:00:00.000Z',
    action: 'BUY',
    conviction: 60,
    positionSizePct: 5,
    orderType: 'market',
    entry: null,
    stopLoss: null,
    flagged: false,
    ...overrides,
  };
}

export function market(ticker: string, price: number, overrides: Partial<MarketInput> = {}): MarketInput {
  return { ticker, price, currency: 'USD', sector: 'Technology', priceDay: '2026-11-27', closes: [], ...overrides };
}

export function limits(overrides: Partial<PortfolioLimits> = {}): PortfolioLimits {
  return { ...defaultPortfolioLimits, ...overrides };
}

export function input(overrides: Partial<PortfolioInput> = {}): PortfolioInput {
  return {
    holdings: { cash: 100_000, positions: [] },
    decisions: [],
    market: [],
    limits: limits(),
    clock: '2026-11-27T21:00:00.000Z',
    ...overrides,
  };
}

/** Deterministic closes: a seeded random walk over `days` weekdays ending 2026-11-27. */
export function walk(seed: number, days: number, start = 100): Array<{ date: string; close: number }> {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const dates: string[] = [];
  for (let day = new Date('2026-11-27T00:00:00Z'); dates.length < days; day = new Date(day.getTime() - 86_400_000)) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) dates.unshift(day.toISOString().slice(0, 10));
  }
  let close = start;
  return dates.map((date) => {
    close *= 1 + (random() - 0.5) * 0.04;
    return { date, close };
  });
}
