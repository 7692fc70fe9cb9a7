import type { ConstraintName, DecisionInput, PortfolioLimits } from './types.js';

/**
 * The book as the maths sees it: one entry per name, sorted by ticker, weights as
 * fractions of NAV. `low`/`high` bound each name's weight (a held name nobody decided
 * on is pinned at its current weight); the book-wide limits are in `limits`.
 */
export interface NameModel {
  ticker: string;
  sector: string;
  price: number;
  currentShares: number;
  currentWeight: number;
  /** Pinned at its current weight: held and not analysed, or its decision was excluded. */
  fixed: boolean;
  decision: DecisionInput | null;
  /** Loss at the stop per unit of weight (|fill − stop| ÷ fill); null without a usable stop. */
  stopFraction: number | null;
  low: number;
  high: number;
}

export interface BookModel {
  nav: number;
  names: NameModel[];
  limits: PortfolioLimits;
  /** Daily covariance in the order of `names`; null when it could not be estimated. */
  covariance: number[][] | null;
}

export interface Violation {
  constraint: ConstraintName;
  ticker?: string;
  sector?: string;
  /** Percent (turnover and weights), or percent volatility. */
  value: number;
  limit: number;
  message: string;
}

/** Weights at a limit pass despite floating-point noise and share rounding at the micro level. */
export const weightTolerance = 1e-7;

export const pct = (fraction: number) => fraction * 100;
export const describePct = (value: number) => `${value.toFixed(2)} %`;
