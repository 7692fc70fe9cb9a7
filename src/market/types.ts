import type { Fundamentals, SplitEvent } from './fundamentals-types.js';
import type { SnapshotVendors, UnitConversion } from './source.js';

/**
 * The grounded market data every analysis starts from, in autohedge's own types and in
 * major currency units. Numbers the vendor does not have are null, never zero; the text
 * block says "not available — do not estimate".
 */

export interface Bar {
  /** ISO date (YYYY-MM-DD) of the session. */
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  /** Split- and dividend-adjusted close. */
  adjClose: number | null;
  volume: number | null;
}

export interface Identity {
  symbol: string;
  name: string | null;
  exchange: string | null;
  currency: string | null;
  quoteType: string | null;
  sector: string | null;
  industry: string | null;
}

export interface QuoteStats {
  price: number | null;
  /** ISO timestamp of the quote. */
  priceTime: string | null;
  change: number | null;
  /** Percent (-3.45 means −3.45 %). */
  changePercent: number | null;
  marketCap: number | null;
  trailingPE: number | null;
  forwardPE: number | null;
  beta: number | null;
  fiftyTwoWeekHigh: number | null;
  fiftyTwoWeekLow: number | null;
  averageVolume: number | null;
  /** Fraction, e.g. 0.0051 for 0.51 %. */
  dividendYield: number | null;
  targetMeanPrice: number | null;
  recommendation: string | null;
  /** Fraction. */
  profitMargin: number | null;
  /** Fraction, year over year. */
  revenueGrowth: number | null;
  /** Percent, as the vendor reports it (145 means debt is 1.45 × equity). */
  debtToEquity: number | null;
  /**
   * The day (YYYY-MM-DD) of the last or next earnings announcement the vendor reports; absent
   * in snapshots saved before it was read. Not in the agents' block: `watch` reads it.
   */
  earningsDate?: string | null;
}

export interface Indicators {
  /** Date of the last bar the indicators use. */
  asOfBar: string | null;
  lastClose: number | null;
  returns: {
    d1: number | null;
    w1: number | null;
    m1: number | null;
    m3: number | null;
    m6: number | null;
    y1: number | null;
  };
  sma20: number | null;
  sma50: number | null;
  sma200: number | null;
  /** Fractional distance of the last close from each average. */
  distanceFromSma20: number | null;
  distanceFromSma50: number | null;
  distanceFromSma200: number | null;
  rsi14: number | null;
  atr14: number | null;
  /** Annualised, fraction. */
  volatility20d: number | null;
  volatility1y: number | null;
  /** Fraction, negative (e.g. -0.23). */
  maxDrawdown1y: number | null;
  high52w: number | null;
  low52w: number | null;
  distanceFromHigh52w: number | null;
  distanceFromLow52w: number | null;
  averageVolume20d: number | null;
  averageVolume1y: number | null;
  /** 20-day ÷ 1-year average volume. */
  volumeRatio: number | null;
  support: number | null;
  resistance: number | null;
}

export interface MarketSnapshot {
  symbol: string;
  /** ISO timestamp of the run's clock when the snapshot was taken. */
  asOf: string;
  identity: Identity;
  quote: QuoteStats;
  bars: Bar[];
  indicators: Indicators;
  /**
   * Fundamentals as filed (src/market/fundamentals-types.ts), known at the as-of close;
   * absent where no source has them (non-US tickers, not configured, older snapshots).
   */
  fundamentals?: Fundamentals;
  /** The labelled block the agents see (MARKET DATA …). */
  text: string;
  warnings: string[];
  /** Where the data came from: the vendor of the bars ("yahoo", "tiingo"), "cache", or "demo". */
  source: string;
  /**
   * Which vendor answered each part, and whether it came from the cache; the text names
   * the vendor from it. Absent in snapshots saved before it was recorded.
   */
  vendors?: SnapshotVendors;
  /** Set when the vendor quoted prices in minor units (GBp) and they were converted to major ones. */
  units?: UnitConversion;
  /**
   * `as-traded`: the prices are on the split basis of the as-of session, as they traded then
   * (a bars-only source's past window); absent: on today's split basis (an adjusted series).
   * The fundamentals' share basis starts from the one it is.
   */
  splitBasis?: 'as-traded';
  /**
   * Set on a blind snapshot (`blindSnapshot()`, `--blind`): the identity is an alias,
   * prices are scaled so the last close is 100, days are session offsets (`D-0`).
   */
  blind?: boolean;
}

export interface SnapshotOptions {
  asOf: Date;
  signal?: AbortSignal;
  /** Bypass the disk cache. */
  refresh?: boolean;
  /**
   * A run as of a past session's close (`--as-of`): no statistic that exists only as of
   * today, the price from the bars. Default false: a live run.
   */
  historical?: boolean;
}

export interface BarsOptions {
  /** First day wanted, YYYY-MM-DD. */
  from: string;
  /** Last day wanted, YYYY-MM-DD (inclusive). */
  to: string;
  signal?: AbortSignal;
}

/** A currency pair's close: 1 `from` = `rate` `to` at the close of `day`. */
export interface FxClose {
  from: string;
  to: string;
  rate: number;
  day: string;
  /** The vendor's name, as its source labels itself. */
  vendor: string;
}

/** The one interface the pipeline uses for market data. */
export interface MarketData {
  snapshot(ticker: string, options: SnapshotOptions): Promise<MarketSnapshot>;
  /**
   * Daily bars between two days in one request, never cached (`autohedge evaluate`
   * needs the reference and the outcome on one adjustment basis). Optional so a test
   * double of snapshot() alone stays a MarketData.
   */
  bars?(ticker: string, options: BarsOptions): Promise<Bar[]>;
  /**
   * The close of one unit of `from` in `to` on `day` (or the last session before it),
   * from the first source that quotes the pair; null when none does.
   */
  fxRate?(from: string, to: string, options: { day: string; signal?: AbortSignal }): Promise<FxClose | null>;
  /** One line per configured source, in the order they are asked ("Tiingo (failover for daily bars)"), for `doctor`. */
  describeSources?(): string[];
  /**
   * Split events between two days (the share basis of the fundamentals: the close as traded
   * on a past day). Optional: without it, figures stay as filed and the close as adjusted.
   */
  splits?(ticker: string, options: BarsOptions): Promise<SplitEvent[]>;
}
