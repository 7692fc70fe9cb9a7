/**
 * Claims: the figures in the agents' prose, each matched against what the run saw.
 * See docs/claims.md for the rules.
 */

/**
 * - `verified`: equals a value the run had (a snapshot field, a tool result, a decision level);
 * - `derived`: equals a simple combination of such values (a difference, a percentage between
 *   two, a level ± k ATR, reward/risk);
 * - `contradicted`: names a quantity the run knows (RSI, ATR, the price, a level) with another number;
 * - `unsourced`: nothing the run had matches it.
 */
export type ClaimStatus = 'verified' | 'derived' | 'contradicted' | 'unsourced';

/** How a figure is written: `currency` ($141.85, 141.85 USD), `atr` (2 × ATR), `ratio` (1.75:1, 1.5x). */
export type ClaimUnit = 'currency' | 'percent' | 'number' | 'atr' | 'ratio' | 'date';

export interface Claim {
  /** The agent that wrote it: a desk id or `director`. */
  agent: string;
  /** Which text: `report` (a desk), `plan.thesis`, `plan.briefs.<desk>`, `decision.rationale`, `decision.keyRisks.<n>`, `decision.dissent`. */
  field: string;
  /** The figure as written ("53.6", "$141.85", "38.44 B USD", "2026-11-27"). */
  text: string;
  /** Where the figure is in its field's text (UTF-16 offsets, end exclusive). */
  start: number;
  end: number;
  /** The number (scaled: 38.44 B is 38440000000; percent in points), or an ISO date (`--11-27` without a year). */
  value: number | string;
  unit: ClaimUnit;
  /** The quantity the text names for it, as written ("RSI(14)", "stop"). */
  quantity?: string;
  status: ClaimStatus;
  /** What matched: a named value (`snapshot.indicators.rsi14`) or a formula of them; for `contradicted`, the value it should be. */
  source?: string;
  sourceValue?: number | string;
  /** The source value written like the figure ("53.6", "4.57 USD"): the true value of a contradicted figure. */
  sourceText?: string;
  /**
   * A contradicted figure that equals another quantity of the run: that quantity ("SMA50",
   * "revenue (Q ending 2026-06-28)") and its source. The text crossed two quantities.
   */
  crossed?: string;
  crossedSource?: string;
  /** An unsourced figure that an earlier text of the run states too (`report.risk`, `plan.briefs.quant`). */
  via?: string;
}

export interface ClaimCounts {
  total: number;
  verified: number;
  derived: number;
  unsourced: number;
  contradicted: number;
  /** (verified + derived) ÷ total: the share traced to the data; null with no figures. */
  verifiedShare: number | null;
}

export interface ClaimsSummary extends ClaimCounts {
  byAgent: Record<string, ClaimCounts>;
}
