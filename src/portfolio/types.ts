/**
 * The book constructor's inputs and output. Weights are fractions of the net asset
 * value (0.05 is 5 %); the output rounds them for printing, the maths does not.
 */

export interface Position {
  symbol: string;
  /** Shares held; never negative (short positions in a holdings file are refused). */
  quantity: number;
  costBasis: number | null;
  currency: string | null;
}

export interface Holdings {
  /** Cash in the book's base currency (`--base-currency`, USD by default); may be negative (a margin loan). */
  cash: number;
  /** One entry per symbol, in file order. */
  positions: Position[];
}

export type Action = 'BUY' | 'SELL' | 'HOLD';

/** A saved decision, as the constructor reads it. */
export interface DecisionInput {
  ticker: string;
  runId: string;
  /** ISO instant of the run's clock. */
  asOf: string;
  action: Action;
  conviction: number;
  /** Percent of the portfolio. */
  positionSizePct: number;
  orderType: 'market' | 'limit';
  entry: number | null;
  stopLoss: number | null;
  /** The run ended `flagged`: a guardrail error stands against the decision. */
  flagged: boolean;
}

/** What the market says about one symbol on the book's day. */
export interface MarketInput {
  ticker: string;
  /** The last close (else the quote), in `currency`. */
  price: number;
  currency: string | null;
  /** null: the vendor names none; counted as the sector "Unknown". */
  sector: string | null;
  /** The session the price is from, YYYY-MM-DD, when known. */
  priceDay: string | null;
  /** Daily closes (adjusted where available), oldest first. */
  closes: ReadonlyArray<{ date: string; close: number }>;
  /**
   * Set when the listing's currency is not the book's: price and closes above are
   * already in the book's currency at this rate (listing → book, the as-of day's close).
   */
  fx?: FxRate;
}

/** One currency of the book's listings valued in its base currency. */
export interface FxRate {
  /** The listing's currency, e.g. EUR. */
  from: string;
  /** The book's, e.g. USD. */
  to: string;
  /** 1 `from` = `rate` `to`. */
  rate: number;
  /** The session whose close gave the rate, YYYY-MM-DD. */
  day: string;
}

export interface PortfolioLimits {
  /** Smallest cash share after the trades, percent of NAV. */
  minCashPct: number;
  /** Largest absolute weight of one name, percent. */
  maxWeightPct: number;
  /** Largest gross weight (long plus short) of one sector, percent. */
  maxSectorPct: number;
  maxGrossPct: number;
  /** Largest absolute net exposure (long minus short), percent. */
  maxNetPct: number;
  /** Largest loss at the stop of one position, percent of NAV (--max-risk, as in the guardrails). */
  maxRiskPct: number;
  /** Annualised volatility the book may have, percent; null: not limited. */
  targetVolPct: number | null;
  /** Largest one-way turnover (sum of |trade| ÷ NAV) of this rebalance, percent; null: not limited. */
  maxTurnoverPct: number | null;
  /** Trades smaller than this many USD are dropped (unless a limit needs them). */
  minTradeUsd: number;
  fractional: boolean;
  allowShort: boolean;
  includeFlagged: boolean;
}

export interface PortfolioInput {
  holdings: Holdings;
  /** At most one per ticker: the newest finished decision. */
  decisions: readonly DecisionInput[];
  /** One per ticker held or decided. */
  market: readonly MarketInput[];
  limits: PortfolioLimits;
  /**
   * The book's clock (ISO instant). Each ticker's last session closed by then, on its own
   * exchange's calendar, is the one its price should be from: older prices are flagged.
   */
  clock: string;
  /** Tickers asked for that have no usable decision, with why (no saved run, a failed run…). */
  missing?: ReadonlyArray<{ ticker: string; reason: string }>;
  /** The currency the book is valued in (`--base-currency`); USD when absent. */
  baseCurrency?: string;
}

export type ConstraintName =
  | 'cash-floor'
  | 'max-weight'
  | 'max-sector'
  | 'max-gross'
  | 'max-net'
  | 'risk-per-trade'
  | 'target-vol'
  | 'turnover'
  | 'min-trade'
  | 'whole-shares'
  | 'no-short'
  | 'no-stop';

export interface Clamp {
  ticker?: string;
  constraint: ConstraintName;
  /** Weight in percent before and after the clamp (turnover: the turnover). */
  before: number;
  after: number;
  message: string;
}

export interface Target {
  ticker: string;
  /** The decision's action; HELD for a held name that was not analysed or was excluded. */
  action: Action | 'HELD';
  currentShares: number;
  /** Shares held after the proposed orders. */
  shares: number;
  currentWeight: number;
  targetWeight: number;
  /** Value of the position after the orders, at the last price (negative when short). */
  positionValue: number;
  /** Value of the shares to trade, at the last price (as the orders and the cash are priced). */
  tradeValue: number;
  price: number;
  decisionRunId: string | null;
  /** The constraint that cut this name's weight last, if any. */
  binding: ConstraintName | null;
  /** The decision's position size in percent, which sets the target when no constraint binds. */
  decisionSizePct?: number;
  /** The price is older than the last session. */
  stale: boolean;
}

export interface Order {
  ticker: string;
  side: 'BUY' | 'SELL';
  /** A SELL of part of a position whose decision is a BUY sized below the weight held. */
  trim?: boolean;
  quantity: number;
  /** The decision's limit entry, when the order goes the decision's way; else a market order. */
  limitPrice?: number;
  /** quantity × the last price: one amount per trade, priced as the targets and the cash are. */
  tradeValue: number;
  reason: string;
}

export interface PortfolioPlan {
  status: 'proposed';
  nav: number;
  cashBefore: number;
  /** Cash after the proposed orders. */
  cash: number;
  targets: Target[];
  orders: Order[];
  clamps: Clamp[];
  held: Array<{ ticker: string; quantity: number; price: number; weight: number; reason: string }>;
  excluded: Array<{ ticker: string; reason: string }>;
  risk: { grossPct: number; netPct: number; estVolPct: number | null; cashPct: number; turnoverPct: number };
  warnings: string[];
  limits: PortfolioLimits;
  /** The currency of every amount above; absent in plans saved before it was (USD). */
  baseCurrency?: string;
  /** The rates other listings were valued at, one per currency. */
  fx?: FxRate[];
}
