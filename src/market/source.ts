/**
 * The source contract: one vendor of market data implements what it can, and returns
 * autohedge's own types, in major currency units, with the currency named. The snapshot
 * service (`createMarketData`) asks the sources in order and records which vendor answered
 * each part. Vendor facts (URLs, headers, quirks, its name) stay in `sources/<vendor>/`.
 *
 * Draft of this round: the market-sources work owns its final shape; the fundamentals
 * source implements `fundamentals`.
 */
import type { Fundamentals, SplitEvent } from './fundamentals-types.js';
import type { Bar } from './types.js';

export interface SourceRequest {
  ticker: string;
  signal?: AbortSignal;
}

export interface BarsRequest extends SourceRequest {
  /** First day wanted, YYYY-MM-DD, in the exchange's zone. */
  from: string;
  /** Last day wanted, YYYY-MM-DD (inclusive). */
  to: string;
}

export interface FundamentalsRequest extends SourceRequest {
  /** ISO UTC instant of the as-of session's close: nothing accepted after it is known. */
  asOfClose: string;
  /** True for a run of a past session (`--as-of`): answers may be cached for good. */
  historical: boolean;
  /** The close as traded on the as-of day, for the valuation (major units). */
  asTradedClose: number | null;
  /** Splits through today, so filed per-share figures and share counts are put on D's basis (edgar). */
  splits?: readonly SplitEvent[];
}

export interface DailyBars {
  bars: Bar[];
  /** ISO 4217 code in major units (GBP, not GBp). */
  currency: string | null;
}

export interface MarketSource {
  /** Stable id, e.g. 'yahoo', 'tiingo', 'sec-edgar', 'demo'. */
  readonly vendor: string;
  /** The name the agents and the reports read, e.g. "SEC EDGAR (as filed)". */
  readonly label: string;
  bars?(request: BarsRequest): Promise<DailyBars>;
  fundamentals?(request: FundamentalsRequest): Promise<Fundamentals | undefined>;
}
